/**
 * How long a document's field paths may be, found without parsing its JSON text: a field's path
 * is its keys from the document down, joined by dots (arrays add nothing), as Meilisearch flattens
 * a document. Quarry's bound, not v1.50's, which has none: V8 hashes a string longer than 16,383
 * characters by its length alone, so every map keyed by field names (JSON.parse's own keys, the
 * writer's field ids, the field distribution) turned quadratic in such names. 3,000 top-level
 * keys of 20,000 characters took a minute to index, held the thread answering requests 16–19 s at
 * enqueue, and made every later one-document write of that index take 33–51 s. The routes refuse
 * such a document at enqueue (http/body/documents), the engine again when it reads a payload
 * (engine/documents/field-paths.ts), and document editions once a document is computed. Shared by
 * both sides, as json-depth.ts.
 */
import { CLOSE_ARRAY, CLOSE_OBJECT, closingQuote, OPEN_ARRAY, OPEN_OBJECT, QUOTE } from './json-depth.js';

/** Bytes of a field path as its JSON text writes it (escapes as written): V8's longest fully hashed string. */
export const MAX_FIELD_PATH_BYTES = 16_383;

const COLON = 0x3a;

/** The offset of the first byte from `from` on that is not JSON whitespace. */
function nextToken(bytes: Buffer, from: number): number {
  let at = from;
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x0a || bytes[at] === 0x0d || bytes[at] === 0x09)) at++;
  return at;
}

/**
 * The byte offset of the first key (its opening quote) whose path is longer than
 * MAX_FIELD_PATH_BYTES, or -1. A path is never longer than the text holding it, so a text that
 * short is not read.
 */
export function longPathAt(bytes: Buffer): number {
  if (bytes.length <= MAX_FIELD_PATH_BYTES) return -1;
  // per open container: the path its members extend (-1: the document itself), and whether it is an object
  const bases: number[] = [];
  const objects: boolean[] = [];
  // the path of the last key read: the container its value opens extends it
  let keyPath = -1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      const close = closingQuote(bytes, i + 1);
      if (close === -1) return -1;
      if (objects.at(-1) === true && bytes[nextToken(bytes, close + 1)] === COLON) {
        const base = bases.at(-1)!;
        keyPath = (base === -1 ? 0 : base + 1) + (close - i - 1);
        if (keyPath > MAX_FIELD_PATH_BYTES) return i;
      }
      i = close;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      const inObject = objects.at(-1);
      bases.push(inObject === undefined ? -1 : inObject ? keyPath : bases.at(-1)!);
      objects.push(b === OPEN_OBJECT);
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      bases.pop();
      objects.pop();
    }
  }
  return -1;
}

/** What a payload reader says of such a key, at its serde_json-style position (`line L column C`). */
export function longPathDetail(at: string): string {
  return `a field's path is longer than ${MAX_FIELD_PATH_BYTES} bytes at ${at}`;
}

/**
 * Whether one of the newline-separated documents of `bytes[start, end)` writes a key past the
 * bound: only a line longer than the bound is read, after a search for the newlines.
 */
export function linesHoldLongPath(bytes: Buffer, start = 0, end = bytes.length): boolean {
  if (end - start <= MAX_FIELD_PATH_BYTES) return false;
  for (let from = start; from < end; ) {
    let newline = bytes.indexOf(0x0a, from);
    if (newline === -1 || newline > end) newline = end;
    if (newline - from > MAX_FIELD_PATH_BYTES && longPathAt(bytes.subarray(from, newline)) !== -1) return true;
    from = newline + 1;
  }
  return false;
}
