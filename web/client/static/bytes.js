// Byte strings as the record and the log lay them out: shared by the record's verifier and
// the log proofs' check, which must build them exactly as the server does.

/** @typedef {Uint8Array<ArrayBuffer>} Bytes */

/** @param {Bytes[]} parts */
export function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** An unsigned number in ``bytes`` bytes (1, 2, 4 or 8), big-endian.
 * @param {number} value @param {1 | 2 | 4 | 8} bytes */
export function number(value, bytes) {
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  if (bytes === 8) view.setBigUint64(0, BigInt(value));
  else if (bytes === 4) view.setUint32(0, value);
  else if (bytes === 2) view.setUint16(0, value);
  else view.setUint8(0, value);
  return out;
}
