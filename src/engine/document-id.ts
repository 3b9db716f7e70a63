/**
 * Document ids and primary keys (documents.md §4.1, §4.2): extracting the external id of a
 * document, validating it, and inferring a primary key from a first document. Pure.
 * Errors are ApiErrors without the `Index <uid>:` prefix: they fail one task, not a batch.
 */
import { ApiError } from '../errors/api-error.js';
import { parseWritten, stringifyJson, WrittenNumber } from '../types/json-text.js';
import { ryu } from '../types/ryu.js';

export type JsonObject = Record<string, unknown>;

const ID_CHARS = /^[A-Za-z0-9_-]+$/;

/** The longest external id, in UTF-8 bytes (LMDB's key limit in Meilisearch). */
const MAX_ID_BYTES = 511;

export function invalidDocumentId(value: unknown): ApiError {
  // a number refused as an id is one serde_json holds as an f64, which it writes as ryu does
  const text = typeof value === 'number' ? ryu(value) : value instanceof WrittenNumber ? ryu(Number(value.text)) : stringifyJson(value);
  return new ApiError(
    'invalid_document_id',
    `Document identifier \`${text}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
  );
}

/**
 * Whether `id` has a length an external id may have: no document is stored under any other, and
 * a longer one does not fit in an LMDB key, so a lookup must not reach the store with it.
 */
export function mayBeStoredId(id: string): boolean {
  // a UTF-16 unit takes at most 3 UTF-8 bytes: a short id needs no count
  return id.length > 0 && (id.length * 3 <= MAX_ID_BYTES || Buffer.byteLength(id) <= MAX_ID_BYTES);
}

/**
 * The external id of a valid id value (integers become their decimal text), or null. A number
 * past 2^53 or a -0 is one serde_json reads as a float (an integer within 64 bits is a BigInt by
 * then, types/json-text.ts), which v1.50 refuses as an id: taken as the double JavaScript read,
 * `18446744073709551616` became an id no request could name again.
 */
export function externalIdOf(value: unknown): string | null {
  if (typeof value === 'string') return mayBeStoredId(value) && ID_CHARS.test(value) ? value : null;
  if (typeof value === 'number' && Number.isSafeInteger(value) && !Object.is(value, -0)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return null;
}

/** Every value found under a dotted path, through nested objects and flat dotted keys. */
function valuesAt(doc: JsonObject, path: string): unknown[] {
  const found: unknown[] = Object.hasOwn(doc, path) ? [doc[path]] : [];
  for (let cut = path.indexOf('.'); cut !== -1; cut = path.indexOf('.', cut + 1)) {
    const head = path.slice(0, cut);
    const inner = doc[head];
    if (Object.hasOwn(doc, head) && inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
      found.push(...valuesAt(inner as JsonObject, path.slice(cut + 1)));
    }
  }
  return found;
}

/** The one value under `primaryKey`; throws the task-level error when there is none or more. */
function idValue(doc: JsonObject, primaryKey: string): unknown {
  const values = primaryKey.includes('.') ? valuesAt(doc, primaryKey) : Object.hasOwn(doc, primaryKey) ? [doc[primaryKey]] : [];
  if (values.length === 0) {
    throw new ApiError('missing_document_id', `Document doesn't have a \`${primaryKey}\` attribute: \`${stringifyJson(doc)}\`.`);
  }
  if (values.length > 1) {
    throw new ApiError('invalid_document_id', `Document have too many matching \`${primaryKey}\` attribute: \`${stringifyJson(doc)}\`.`);
  }
  return values[0];
}

/** The document's external id under `primaryKey`; throws the task-level error when absent or invalid. */
export function documentId(doc: JsonObject, primaryKey: string): string {
  const value = idValue(doc, primaryKey);
  const id = externalIdOf(value);
  if (id === null) throw invalidDocumentId(value);
  return id;
}

/**
 * `documentId` of a payload's document, parsed from its JSON `text`, which also refuses an
 * integer id written as a float (`1.0`, `1e3`): serde_json reads it as an f64, which v1.50 refuses
 * (its id visitor takes strings and 64-bit integers only), where JavaScript reads the integer.
 */
export function payloadDocumentId(doc: JsonObject, text: Uint8Array, primaryKey: string): string {
  const value = idValue(doc, primaryKey);
  const id = externalIdOf(value);
  if (id === null || (typeof value === 'number' && idWrittenAsFloat(text, primaryKey, id))) throw invalidDocumentId(value);
  return id;
}

/** `"<key>"` as bytes, for the last key looked for (a payload names one primary key). */
let needleKey = '';
let needle = Buffer.alloc(0);

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
/** bytes of a JSON number: digits, `-`, `+`, `.`, `e`, `E` */
const isNumberByte = (byte: number | undefined) => byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x2b || byte === 0x2e || byte === 0x65 || byte === 0x45);

/**
 * Where the number after a key ending at `at` starts and ends (`:` and whitespace allowed before
 * it; an empty span when no number follows), or null when no `:` follows the key.
 */
function numberAfterKey(bytes: Uint8Array, at: number): [number, number] | null {
  while (isSpace(bytes[at])) at++;
  if (bytes[at] !== 0x3a) return null;
  at++;
  while (isSpace(bytes[at])) at++;
  let end = at;
  while (isNumberByte(bytes[end])) end++;
  return [at, end];
}

/** Whether `bytes` hold the ASCII text `digits` from `at`. */
function sameDigits(bytes: Uint8Array, at: number, digits: string): boolean {
  for (let i = 0; i < digits.length; i++) if (bytes[at + i] !== digits.charCodeAt(i)) return false;
  return true;
}

/** Whether the number spanning [at, end) is written as `digits`. */
const writtenAs = (bytes: Uint8Array, [at, end]: [number, number], digits: string) => end - at === digits.length && sameDigits(bytes, at, digits);

/**
 * Whether the id `id` (an integer as JavaScript read it) is written as a float in `text`. Cheap
 * when the document opens with its key followed by the id's digits, or when some occurrence of
 * its (last) key is and none is followed by a float of its value, as for every integer id outside
 * contrived documents; anything else reads the text again with its numbers as written.
 */
function idWrittenAsFloat(text: Uint8Array, primaryKey: string, id: string): boolean {
  const key = primaryKey.slice(primaryKey.lastIndexOf('.') + 1);
  if (key !== needleKey) {
    needleKey = key;
    needle = Buffer.from(JSON.stringify(key));
  }
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  // the key opening the document is a top-level one: its digits settle it without reading further
  let first = 1;
  while (isSpace(bytes[first])) first++;
  if (primaryKey === key && needle.every((byte, i) => bytes[first + i] === byte)) {
    const span = numberAfterKey(bytes, first + needle.length);
    if (span !== null && writtenAs(bytes, span, id)) return false;
  }
  let asDigits = false;
  let asFloat = false;
  for (let found = bytes.indexOf(needle); found >= 0; found = bytes.indexOf(needle, found + 1)) {
    const span = numberAfterKey(bytes, found + needle.length);
    if (span === null) continue;
    if (writtenAs(bytes, span, id)) asDigits = true;
    else {
      const token = bytes.toString('latin1', span[0], span[1]);
      if (/[.eE]/.test(token) && Number(token) === Number(id)) asFloat = true;
    }
  }
  if (asDigits && !asFloat) return false;
  const written = idValue(parseWritten(bytes.toString('utf8')) as JsonObject, primaryKey);
  return written instanceof WrittenNumber && /[.eE]/.test(written.text);
}

/** Meilisearch's primary-key inference from the first document of a payload. */
export function inferPrimaryKey(doc: JsonObject): string {
  const candidates = Object.keys(doc)
    .filter((key) => key.toLowerCase().endsWith('id'))
    .sort();
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) {
    throw new ApiError(
      'index_primary_key_no_candidate_found',
      'The primary key inference failed as the engine did not find any field ending with `id` in its name. Please specify the primary key manually using the `primaryKey` query parameter.',
    );
  }
  throw new ApiError(
    'index_primary_key_multiple_candidates_found',
    `The primary key inference failed as the engine found ${candidates.length} fields ending with \`id\` in their names: '${candidates[0]}' and '${candidates[1]}'. Please specify the primary key manually using the \`primaryKey\` query parameter.`,
  );
}
