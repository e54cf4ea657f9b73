// A receipt's event checked against a log checkpoint with an inclusion proof, in the browser,
// written from docs/audit.md ("Proofs against log checkpoints") alone: the leaf made from the
// receipt (stream, version, position) and the finished match's record (the event's hash; the
// match's secret, whose hash blinds the leaf), then the RFC 9162 audit path from its hash to a
// head, which must be the log checkpoint's. So the move the receipt was given for is in the
// one log the service signs, as a witness keeping that checkpoint sees it.

import * as api from "./api.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";
import { concat, number } from "./bytes.js";

/** @typedef {import("./api.js").GameRecord} GameRecord */
/** @typedef {{ ok: boolean, problem: string | null, lines: string[] }} Verdict */
/** @typedef {Uint8Array<ArrayBuffer>} Bytes */
/** @typedef {{ tree_size: number, leaf_index: number, position: number, audit_path: string[] }} Proof */

const encoder = new TextEncoder();

/** @param {Bytes} bytes */
const sha256 = async (bytes) => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
/** @param {string} text */
const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
/** @param {string} hex */
const fromHex = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
/** @param {Bytes} a @param {Bytes} b */
const same = (a, b) => a.length === b.length && a.every((byte, i) => byte === b[i]);
/** @param {Bytes} left @param {Bytes} right */
const node = (left, right) => sha256(concat(new Uint8Array([1]), left, right));

/** A note's text, from the note or from its base64 (a `Gin-Receipt` header's value).
 * @param {string} given */
function noteText(given) {
  const trimmed = given.trim();
  const note = trimmed.includes("\n") ? trimmed : new TextDecoder().decode(fromBase64(trimmed));
  return note.split("\n\n")[0].split("\n");
}

/** @param {string} given @returns {{ stream: string, version: number, position: number }} */
export function parseReceipt(given) {
  const [header, ...lines] = noteText(given);
  const fields = Object.fromEntries(lines.map((line) => [line.split(" ")[0], line.slice(line.indexOf(" ") + 1)]));
  if (header !== "gin-rummy receipt v1" || !fields.stream || !/^\d+$/.test(fields.version ?? "") || !/^\d+$/.test(fields.position ?? "")) {
    throw new Error("this is not a receipt (a Gin-Receipt header's value)");
  }
  return { stream: fields.stream, version: Number(fields.version), position: Number(fields.position) };
}

/** @param {string} given @returns {{ size: number, head: Bytes }} */
export function parseLogCheckpoint(given) {
  const [origin, size, head] = noteText(given);
  if (origin !== "gin-rummy-log" || !/^\d+$/.test(size ?? "")) throw new Error("this is not a log checkpoint");
  return { size: Number(size), head: fromBase64(head) };
}

/** The leaf of docs/audit.md, "Log checkpoints". @param {string} stream @param {number} version
 * @param {number} position @param {Bytes} hash @param {Bytes} blind */
function leaf(stream, version, position, hash, blind) {
  const id = encoder.encode(stream);
  return concat(encoder.encode("gin-log-leaf-1"), number(id.length, 2), id, number(version, 8), number(position, 8), hash, number(blind.length, 1), blind);
}

/** RFC 9162 section 2.1.3.2: the head an audit path leads to, or null.
 * @param {number} index @param {number} size @param {Bytes} leafHash @param {Bytes[]} path */
export async function rootFromInclusion(index, size, leafHash, path) {
  if (!(index >= 0 && index < size)) return null;
  let fn = index;
  let sn = size - 1;
  let root = leafHash;
  for (const sibling of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      root = await node(sibling, root);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      root = await node(root, sibling);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? root : null;
}

/** @param {GameRecord} record @param {string} receiptText @param {string} checkpointText
 * @param {Proof} proof @returns {Promise<Verdict>} */
export async function checkReceiptInLog(record, receiptText, checkpointText, proof) {
  /** @param {string} problem @returns {Verdict} */
  const refused = (problem) => ({ ok: false, problem, lines: [] });
  const receipt = parseReceipt(receiptText);
  const checkpoint = parseLogCheckpoint(checkpointText);
  if (record.fairness.secret == null) return refused("not checkable yet: the match is not over (its secret, which blinds the leaf, is not revealed)");
  const stream = [record.match_stream, record.fairness_stream].find((s) => s.stream_id === receipt.stream);
  const event = stream?.events.find((e) => e.version === receipt.version);
  if (!event) return refused(`the record has no version ${receipt.version} of ${receipt.stream}`);
  if (proof.position !== receipt.position || proof.tree_size !== checkpoint.size) return refused("the proof is not of this receipt in this checkpoint");
  const blind = await sha256(concat(encoder.encode("gin-log-blind-1"), fromHex(record.fairness.secret)));
  const path = proof.audit_path.map(fromBase64);
  for (const used of [blind, new Uint8Array(0)]) {
    const leafHash = await sha256(concat(new Uint8Array([0]), leaf(receipt.stream, receipt.version, receipt.position, fromHex(event.hash), used)));
    const root = await rootFromInclusion(proof.leaf_index, proof.tree_size, leafHash, path);
    if (root && same(root, checkpoint.head)) {
      return { ok: true, problem: null, lines: [`${receipt.stream} version ${receipt.version} is event ${proof.leaf_index + 1} of the log of ${checkpoint.size} events the checkpoint signs`] };
    }
  }
  return refused(`${receipt.stream} version ${receipt.version} is not in the log the checkpoint of ${checkpoint.size} events signs`);
}

/** The form under a record's verdict: a receipt (and a log checkpoint kept by a witness, or
 * the server's latest) checked with the server's inclusion proof. @param {GameRecord} record */
export function receiptForm(record) {
  const receipt = el("textarea", { id: "receipt", rows: "3", cols: "60" });
  const checkpoint = el("textarea", { id: "log-checkpoint", rows: "4", cols: "60", placeholder: t("proof.placeholder") });
  const said = el("p", { class: "log-proof", role: "status", "aria-live": "polite" });
  const check = async () => {
    said.textContent = t("proof.checking");
    delete said.dataset.verdict;
    let verdict;
    try {
      const given = /** @type {HTMLTextAreaElement} */ (receipt).value;
      const kept = /** @type {HTMLTextAreaElement} */ (checkpoint).value.trim() || (await api.logCheckpoint());
      const proof = await api.inclusionProof(parseReceipt(given).position, parseLogCheckpoint(kept).size);
      verdict = await checkReceiptInLog(record, given, kept, proof);
    } catch (error) {
      verdict = { ok: false, problem: error instanceof Error ? error.message : String(error), lines: [] };
    }
    said.dataset.verdict = verdict.ok ? "verified" : "discrepancy";
    said.textContent = verdict.ok ? `${t("proof.inLog")} ${verdict.lines.join("; ")}.` : `${t("proof.notInLog")} ${verdict.problem}`;
  };
  return el("details", { class: "receipt-check" }, [
    el("summary", {}, [t("proof.title")]),
    el("p", {}, [el("label", { for: "receipt" }, [t("proof.receipt"), " "]), receipt]),
    el("p", {}, [el("label", { for: "log-checkpoint" }, [t("proof.checkpoint"), " "]), checkpoint]),
    el("button", { type: "button", id: "check-receipt", onclick: check }, [t("proof.check")]),
    said,
  ]);
}
