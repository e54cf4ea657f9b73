// The shape of a record, checked before anything reads it: a mangled record is named here
// instead of failing deep in the hashing with a field of the wrong type.

import { fail } from "./discrepancy.js";

/** @typedef {import("./api.js").GameRecord} GameRecord */

// The chain hashes a schema version as 4 signed bytes, a version as 8.
const SCHEMA_VERSIONS = [-(2 ** 31), 2 ** 31 - 1];

/**
 * The fields every later check reads, of the types docs/audit.md gives them: a mangled record
 * is named here, before anything reads a field of the wrong type.
 * @param {GameRecord} record
 */
export function checkShape(record) {
  if (typeof record.match_id !== "string") fail("the record's match_id is not text");
  if (typeof record.options !== "object" || record.options === null || Array.isArray(record.options)) {
    fail("the record's options are not an object");
  }
  for (const which of /** @type {const} */ (["match_stream", "fairness_stream"])) {
    const name = which === "match_stream" ? "match stream" : "fairness stream";
    const stream = /** @type {unknown} */ (record[which]);
    if (typeof stream !== "object" || stream === null) fail(`the record has no ${name}`);
    const { stream_id: id, events } = /** @type {{ stream_id?: unknown, events?: unknown }} */ (stream);
    if (typeof id !== "string" || !Array.isArray(events)) fail(`the ${name} is not a stream id and a list of events`);
    events.forEach((/** @type {unknown} */ entry, /** @type {number} */ index) => {
      const where = `${name} event ${index + 1}`;
      if (typeof entry !== "object" || entry === null || Array.isArray(entry)) fail(`${where} is not an event`);
      const fields = /** @type {Record<string, unknown>} */ (entry);
      for (const field of ["version", "schema_version"]) {
        if (!Number.isSafeInteger(fields[field])) fail(`${where}: its ${field} is not a whole number`);
      }
      for (const field of ["type", "data", "hash", "previous_hash"]) {
        if (typeof fields[field] !== "string") fail(`${where}: its ${field} is not text`);
      }
      const schema = /** @type {number} */ (fields.schema_version);
      if (schema < SCHEMA_VERSIONS[0] || schema > SCHEMA_VERSIONS[1]) fail(`${where}: schema version ${schema} cannot be hashed`);
    });
  }
}
