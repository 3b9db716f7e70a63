/**
 * How deep a document may nest. Meilisearch reads each top-level field of a document with
 * serde_json, which stops at 128 open arrays and objects (`recursion limit exceeded`), so a
 * document nests at most its own braces and 127 more. The routes refuse a deeper document at
 * enqueue; this is the engine's own check, for payloads that did not come through them (a dump's
 * enqueued tasks, update files written before the routes checked). Payload lines are checked
 * before they are parsed (ndjson-payload.ts) and edited documents once computed
 * (tasks/process/document-edition.ts), so the recursive walks over documents (flattening, facets,
 * words, vectors, geo, the store's encoding, projection) never go deeper than this.
 */
import { ApiError } from '../../errors/api-error.js';
import { firstOpenBeyond, SERDE_MAX_DEPTH } from '../../types/json-depth.js';

/** The document's own braces, and the 127 levels serde_json reads inside a field. */
export const MAX_DOCUMENT_DEPTH = SERDE_MAX_DEPTH + 1;

/**
 * Where the JSON text `line` first nests deeper than MAX_DOCUMENT_DEPTH: the byte offset of the
 * bracket that does, or -1.
 */
export function tooDeepAt(line: Buffer): number {
  return firstOpenBeyond(line, MAX_DOCUMENT_DEPTH);
}

/** Whether a parsed value nests deeper than MAX_DOCUMENT_DEPTH (walked without recursion). */
export function nestsTooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > MAX_DOCUMENT_DEPTH) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The route's error for a document nested too deep, at a position of the payload (1-based, in bytes). */
export function documentTooDeep(line: number, column: number): ApiError {
  return new ApiError(
    'malformed_payload',
    `The \`ndjson\` payload provided is malformed. \`Couldn't serialize document value: recursion limit exceeded at line ${line} column ${column}\`.`,
  );
}
