/**
 * Document ids and primary keys (documents.md §4.1, §4.2): extracting the external id of a
 * document, validating it, and inferring a primary key from a first document. Pure.
 * Errors are ApiErrors without the `Index <uid>:` prefix: they fail one task, not a batch.
 */
import { ApiError } from '../errors/api-error.js';
import { stringifyJson } from '../types/json-text.js';

export type JsonObject = Record<string, unknown>;

const ID_CHARS = /^[A-Za-z0-9_-]+$/;

/** The longest external id, in UTF-8 bytes (LMDB's key limit in Meilisearch). */
const MAX_ID_BYTES = 511;

export function invalidDocumentId(value: unknown): ApiError {
  return new ApiError(
    'invalid_document_id',
    `Document identifier \`${stringifyJson(value)}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
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

/** The external id of a valid id value (integers become their decimal text), or null. */
export function externalIdOf(value: unknown): string | null {
  if (typeof value === 'string') return mayBeStoredId(value) && ID_CHARS.test(value) ? value : null;
  if (typeof value === 'number' && Number.isInteger(value)) return String(value);
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

/** The document's external id under `primaryKey`; throws the task-level error when absent or invalid. */
export function documentId(doc: JsonObject, primaryKey: string): string {
  const values = primaryKey.includes('.') ? valuesAt(doc, primaryKey) : Object.hasOwn(doc, primaryKey) ? [doc[primaryKey]] : [];
  if (values.length === 0) {
    throw new ApiError('missing_document_id', `Document doesn't have a \`${primaryKey}\` attribute: \`${stringifyJson(doc)}\`.`);
  }
  if (values.length > 1) {
    throw new ApiError('invalid_document_id', `Document have too many matching \`${primaryKey}\` attribute: \`${stringifyJson(doc)}\`.`);
  }
  const id = externalIdOf(values[0]);
  if (id === null) throw invalidDocumentId(values[0]);
  return id;
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
