/**
 * A payload line's JSON text with its top-level members laid in the index's field-id order, as
 * the document store keeps documents (store.ts). Cutting the line's members out and laying them
 * again costs a scan of its bytes, half of what encoding the reordered object again did
 * (JSON.stringify, then the Buffer lmdb makes of the string) on a set whose first document's
 * fields come in another order than most (debdocs). The member texts stay as sent (`1.0` stays
 * `1.0`), as they do for a line stored whole.
 *
 * A member is matched to its key by place: JSON.parse lists an object's keys in text order,
 * except integer-like keys (listed first, ascending) and a repeated key (listed once); a line
 * holding either answers null, and the caller encodes the object instead.
 */

/** The most members a line may have to be laid here (member indexes are 16-bit in `sortMembers`). */
const MAX_MEMBERS = 0x1_0000;

/** Spans [start, end) of the members of the last text read, two entries per member; grown as needed. */
let spans = new Int32Array(64);
/** The reordered text of the last call, reused: the caller puts it before the next call. */
let out = new Uint8Array(4096);
/** The members' places in field-id order, reused. */
let order = new Int32Array(64);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

function skipSpace(text: Uint8Array, at: number): number {
  while (at < text.length && isSpace(text[at]!)) at++;
  return at;
}

/**
 * Where the string opening at `at` ends (past its closing quote); -1 when it does not. Quotes are
 * found by indexOf (most of a line's bytes are in its strings); one is escaped when an odd run of
 * backslashes precedes it.
 */
function stringEnd(text: Uint8Array, at: number): number {
  for (let from = at + 1; ; ) {
    const quote = text.indexOf(QUOTE, from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if ((backslashes & 1) === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Where the value starting at `at` ends; -1 when the text ends first. */
function valueEnd(text: Uint8Array, at: number): number {
  const first = text[at];
  if (first === QUOTE) return stringEnd(text, at);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = at; i < text.length; i++) {
      const byte = text[i]!;
      if (byte === QUOTE) {
        i = stringEnd(text, i) - 1;
        if (i < 0) return -1;
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && --depth === 0) return i + 1;
    }
    return -1;
  }
  let i = at;
  while (i < text.length) {
    const byte = text[i]!;
    if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isSpace(byte)) break;
    i++;
  }
  return i > at ? i : -1;
}

/**
 * Reads the members of the JSON object `text` (valid JSON, as a parsed payload line is) into
 * `spans`; answers their count, or -1 when `text` is not an object.
 */
function readMembers(text: Uint8Array): number {
  let at = skipSpace(text, 0);
  if (text[at] !== OPEN_BRACE) return -1;
  at = skipSpace(text, at + 1);
  if (text[at] === CLOSE_BRACE) return 0;
  for (let n = 0; ; n++) {
    if (text[at] !== QUOTE) return -1;
    const start = at;
    at = skipSpace(text, stringEnd(text, at));
    if (at < 0 || text[at] !== COLON) return -1;
    const end = valueEnd(text, skipSpace(text, at + 1));
    if (end < 0) return -1;
    if (spans.length < 2 * n + 2) {
      const grown = new Int32Array(2 * spans.length);
      grown.set(spans);
      spans = grown;
    }
    spans[2 * n] = start;
    spans[2 * n + 1] = end;
    at = skipSpace(text, end);
    if (text[at] === CLOSE_BRACE) return n + 1;
    if (text[at] !== COMMA) return -1;
    at = skipSpace(text, at + 1);
  }
}

/** Up to this many members are sorted by insertion; more by a typed-array sort, whose time stays n log n. */
const INSERTION_MEMBERS = 32;

/**
 * Lays member indexes 0 … n - 1 in `order` by ascending `fields[i]`: by insertion for a
 * document's usual few fields, else as (field << 16 | index) values sorted natively (field ids
 * and a document's member indexes are below 2^16: MAX_FIELDS), so that a document of tens of
 * thousands of fields out of order costs milliseconds, not the seconds of a quadratic sort.
 */
function sortMembers(fields: readonly number[], n: number): void {
  if (n <= INSERTION_MEMBERS) {
    for (let i = 0; i < n; i++) {
      let j = i;
      while (j > 0 && fields[order[j - 1]!]! > fields[i]!) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = i;
    }
    return;
  }
  const keyed = new Uint32Array(n);
  for (let i = 0; i < n; i++) keyed[i] = ((fields[i]! << 16) | i) >>> 0;
  keyed.sort();
  for (let i = 0; i < n; i++) order[i] = keyed[i]! & 0xffff;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/**
 * `text`, the JSON text of an object whose keys, as JSON.parse listed them, are `keys` and whose
 * key `keys[i]` has field id `fields[i]`, with its members in ascending field-id order; null
 * when its members cannot be matched to `keys` by place (a repeated or integer-like key).
 * The bytes answered are valid until the next call.
 */
export function inFieldOrder(text: Uint8Array, keys: readonly string[], fields: readonly number[]): Uint8Array | null {
  if (keys.length > MAX_MEMBERS) return null;
  for (const key of keys) if (key.length > 0 && isDigit(key.charCodeAt(0))) return null;
  const n = readMembers(text);
  if (n !== keys.length) return null;
  if (order.length < n) order = new Int32Array(2 * n);
  sortMembers(fields, n);
  let size = n === 0 ? 2 : 1 + n;
  for (let i = 0; i < n; i++) size += spans[2 * i + 1]! - spans[2 * i]!;
  if (out.length < size) out = new Uint8Array(Math.max(size, 2 * out.length));
  out[0] = OPEN_BRACE;
  let at = 1;
  for (let k = 0; k < n; k++) {
    if (k > 0) out[at++] = COMMA;
    const member = order[k]!;
    const start = spans[2 * member]!;
    const end = spans[2 * member + 1]!;
    // a short member is copied byte by byte: a subarray and a call cost more
    if (end - start > 64) {
      out.set(text.subarray(start, end), at);
      at += end - start;
    } else for (let i = start; i < end; i++) out[at++] = text[i]!;
  }
  out[at++] = CLOSE_BRACE;
  return out.subarray(0, at);
}
