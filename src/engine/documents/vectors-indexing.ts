/**
 * A document's `_vectors` at indexing (vectors.md §2, §2.1): the checks that fail the whole batch,
 * and the `_vectors` the stored document keeps. Pure.
 *
 * Checks, in Meilisearch's order: `_vectors` is an object (or null = absent); every entry has
 * one of the accepted forms; for a configured embedder the embeddings are numbers, at most 256,
 * each of the embedder's `dimensions` when the settings give them. Errors are ApiErrors without
 * the ``Index `uid`: `` prefix, which the document processor adds for a batch failure.
 *
 * What is kept: Quarry stores embeddings in the document itself (no vector store), so the
 * entries of configured embedders must survive what Meilisearch's vector store survives:
 * - an update (PUT) merges `_vectors` by embedder name;
 * - a replacement (POST) drops the old entries of names that are not configured embedders but
 *   keeps the configured ones the new version does not mention;
 * - `{"regenerate": false}` without embeddings keeps a configured embedder's stored entry.
 * An empty result is not stored, as in Meilisearch.
 */
import { ApiError } from '../../errors/api-error.js';
import type { EmbedderSettings } from '../../types/settings.js';
import { stringifyJson } from '../../types/json-text.js';
import type { JsonObject } from '../document-id.js';
import { embeddingsOf, isObject, readEntry } from './vectors.js';

/** Embeddings one document may give one embedder (Meilisearch's limit). */
const MAX_VECTORS = 256;

type Embedders = Readonly<Record<string, EmbedderSettings>>;

/** The sent `_vectors` entries after the checks, or null when the document has none. */
function checkedEntries(sent: JsonObject, id: string, embedders: Embedders): JsonObject | null {
  const vectors = sent._vectors;
  if (vectors === undefined || vectors === null) return null;
  if (!isObject(vectors)) {
    throw new ApiError(
      'invalid_vectors_type',
      `The \`_vectors\` field in the document with id: \`${id}\` is not an object. Was expecting an object with a key for each embedder with manually provided vectors, but instead got \`${stringifyJson(vectors)}\``,
    );
  }
  const badEntry = (problem: string) => new ApiError('invalid_vectors_type', `Bad embedder configuration in the document with id: \`${id}\`. ${problem}`);
  const entries = Object.entries(vectors).map(([name, value]) => {
    const entry = readEntry(name, value);
    if ('problem' in entry) throw badEntry(entry.problem);
    return [name, entry] as const;
  });
  for (const [name, entry] of entries) {
    const embedder = embedders[name];
    if (embedder === undefined) continue;
    const embeddings = embeddingsOf(name, entry.embeddings);
    if ('problem' in embeddings) throw badEntry(embeddings.problem);
    if (embeddings.length > MAX_VECTORS) {
      throw new ApiError('too_many_vectors', `Too many vectors for document with id ${id}: found ${embeddings.length}, but limited to ${MAX_VECTORS}.`);
    }
    const dimensions = embedder.dimensions;
    const wrong = typeof dimensions === 'number' ? embeddings.findIndex((vector) => vector.length !== dimensions) : -1;
    if (wrong >= 0) {
      throw new ApiError(
        'invalid_vector_dimensions',
        `Invalid vector dimensions in document with id \`${id}\` in \`._vectors.${name}\`.\n  - note: embedding #${wrong} has dimensions ${embeddings[wrong]!.length}\n  - note: embedder \`${name}\` requires ${dimensions}`,
      );
    }
  }
  return vectors;
}

/** `{"regenerate": false}` without embeddings: "change nothing" for a stored embedder entry. */
function keepsStored(value: unknown): boolean {
  return isObject(value) && value.regenerate === false && (value.embeddings === undefined || value.embeddings === null);
}

/**
 * The document to store for `sent` (document `id`), whose plain fields are already in `next`
 * (the replacement, or the update merged over `base`): `_vectors` checked and merged.
 */
export function withIndexedVectors(
  next: JsonObject,
  sent: JsonObject,
  base: JsonObject | undefined,
  method: 'replace' | 'update',
  id: string,
  embedders: Embedders,
): JsonObject {
  const entries = checkedEntries(sent, id, embedders);
  const stored = isObject(base?._vectors) ? base._vectors : {};
  const nothingStored = Object.keys(stored).length === 0;
  // the common cases, without copying the document: nothing to merge with
  if (nothingStored && entries === null && !Object.hasOwn(next, '_vectors')) return next;
  if (nothingStored && entries !== null && Object.keys(entries).length > 0) return next;
  const merged: JsonObject = {};
  for (const [name, value] of Object.entries(stored)) {
    if (method === 'update' || Object.hasOwn(embedders, name)) merged[name] = value;
  }
  for (const [name, value] of Object.entries(entries ?? {})) {
    if (!(Object.hasOwn(embedders, name) && Object.hasOwn(merged, name) && keepsStored(value))) merged[name] = value;
  }
  const { _vectors: _replaced, ...fields } = next;
  return Object.keys(merged).length === 0 ? fields : { ...fields, _vectors: merged };
}
