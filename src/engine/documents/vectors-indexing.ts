/**
 * A document's `_vectors` at indexing (vectors.md §2, §2.1): the checks that fail the whole batch,
 * the `_vectors` the stored document keeps, and what the batch sent to each configured embedder.
 *
 * Checks, in Meilisearch's order: `_vectors` is an object (or null = absent); every entry has
 * one of the accepted forms; for a configured embedder the embeddings are numbers, at most 256,
 * each of the embedder's `dimensions` when the settings give them. Errors are ApiErrors without
 * the ``Index `uid`: `` prefix, which the document processor adds for a batch failure.
 *
 * What is kept: the entries of configured embedders live in the vector store (engine/vectors),
 * so the stored document keeps only the other names, as Meilisearch does:
 * - an update (PUT) merges them by name with the stored ones;
 * - a replacement (POST) keeps only those it sends.
 * An empty result is not stored. The configured embedders' entries the batch sent, with the
 * document's id, stay attached to the document to store (`sentVectors`) for the vector updater,
 * which reads them from the change's `source`.
 */
import { ApiError } from '../../errors/api-error.js';
import type { EmbedderSettings } from '../../types/settings.js';
import { stringifyJson } from '../../types/json-text.js';
import { setField } from '../../types/own-record.js';
import { withFloatsOf } from '../../types/wire-floats.js';
import type { JsonObject } from '../document-id.js';
import { embeddingsOf, isObject, readEntry, type VectorsEntry } from './vectors.js';

/** Embeddings one document may give one embedder (Meilisearch's limit). */
const MAX_VECTORS = 256;

type Embedders = Readonly<Record<string, EmbedderSettings>>;

/** A document's embedding `index` for embedder `name` has `found` dimensions instead of `required`. */
export function wrongDimensions(id: string, name: string, index: number, found: number, required: number): ApiError {
  return new ApiError(
    'invalid_vector_dimensions',
    `Invalid vector dimensions in document with id \`${id}\` in \`._vectors.${name}\`.\n  - note: embedding #${index} has dimensions ${found}\n  - note: embedder \`${name}\` requires ${required}`,
  );
}

/** A configured embedder's entry as sent: its form, and the embeddings (null when none were given). */
export type SentEntry = VectorsEntry & { readonly vectors: number[][] | null };

/** What a document sent to the configured embedders. */
export interface SentVectors {
  readonly id: string;
  /** configured embedder name → its entry; a name absent here was not sent */
  readonly entries: ReadonlyMap<string, SentEntry>;
}

const sentByDocument = new WeakMap<JsonObject, SentVectors>();

/** What `doc` (a document `withIndexedVectors` returned) sent to the configured embedders. */
export function sentVectors(doc: JsonObject | undefined): SentVectors | undefined {
  return doc === undefined ? undefined : sentByDocument.get(doc);
}

/**
 * The embeddings of a configured embedder's entry, checked: numbers, at most 256, each of the
 * embedder's `dimensions` when the settings give them.
 */
function checkedEmbeddings(entry: VectorsEntry, name: string, embedder: EmbedderSettings, id: string): SentEntry {
  const embeddings = embeddingsOf(name, entry.embeddings);
  if ('problem' in embeddings) throw badEntry(id, embeddings.problem);
  if (embeddings.length > MAX_VECTORS) {
    throw new ApiError('too_many_vectors', `Too many vectors for document with id ${id}: found ${embeddings.length}, but limited to ${MAX_VECTORS}.`);
  }
  const dimensions = embedder.dimensions;
  const wrong = typeof dimensions === 'number' ? embeddings.findIndex((vector) => vector.length !== dimensions) : -1;
  if (wrong >= 0) throw wrongDimensions(id, name, wrong, embeddings[wrong]!.length, dimensions as number);
  const given = entry.form === 'shorthand' || (entry.embeddings !== null && entry.embeddings !== undefined);
  return { ...entry, vectors: given ? embeddings : null };
}

const badEntry = (id: string, problem: string) => new ApiError('invalid_vectors_type', `Bad embedder configuration in the document with id: \`${id}\`. ${problem}`);

/**
 * A stored `_vectors.<name>` value (kept while `name` was no configured embedder) read as what a
 * document sends to embedder `name`, checked as indexing checks it.
 */
export function storedEntry(value: unknown, name: string, embedder: EmbedderSettings, id: string): SentEntry {
  const entry = readEntry(name, value);
  if ('problem' in entry) throw badEntry(id, entry.problem);
  return checkedEmbeddings(entry, name, embedder, id);
}

/** The sent `_vectors` entries after the checks, or null when the document has none. */
function checkedEntries(sent: JsonObject, id: string, embedders: Embedders, configured: Map<string, SentEntry>): JsonObject | null {
  const vectors = sent._vectors;
  if (vectors === undefined || vectors === null) return null;
  if (!isObject(vectors)) {
    throw new ApiError(
      'invalid_vectors_type',
      `The \`_vectors\` field in the document with id: \`${id}\` is not an object. Was expecting an object with a key for each embedder with manually provided vectors, but instead got \`${stringifyJson(vectors)}\``,
    );
  }
  const entries = Object.entries(vectors).map(([name, value]) => {
    const entry = readEntry(name, value);
    if ('problem' in entry) throw badEntry(id, entry.problem);
    return [name, entry] as const;
  });
  for (const [name, entry] of entries) {
    const embedder = embedders[name];
    if (embedder !== undefined) configured.set(name, checkedEmbeddings(entry, name, embedder, id));
  }
  return vectors;
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

/**
 * The document to store for `sent` (document `id`), whose plain fields are already in `next`
 * (the replacement, or the update merged over `base`): `_vectors` checked, the configured
 * embedders' entries taken out (see `sentVectors`), the others merged.
 */
export function withIndexedVectors(
  next: JsonObject,
  sent: JsonObject,
  base: JsonObject | undefined,
  method: 'replace' | 'update',
  id: string,
  embedders: Embedders,
): JsonObject {
  // the common document: no `_vectors` sent or kept, no embedder to note it for
  if ((sent._vectors === undefined || sent._vectors === null) && !Object.hasOwn(next, '_vectors') && isEmpty(embedders)) return next;
  const configured = new Map<string, SentEntry>();
  const entries = checkedEntries(sent, id, embedders, configured);
  let out = next;
  // a sent `_vectors` without configured names is stored as it is: the document stays the same object
  const storedAsSent = method === 'replace' && configured.size === 0 && entries !== null && Object.keys(entries).length > 0;
  if (Object.hasOwn(next, '_vectors') && !storedAsSent) {
    const merged: JsonObject = {};
    const stored = method === 'update' && isObject(base?._vectors) ? base._vectors : {};
    for (const [name, value] of Object.entries(stored)) if (!Object.hasOwn(embedders, name)) setField(merged, name, value);
    for (const [name, value] of Object.entries(entries ?? {})) if (!Object.hasOwn(embedders, name)) setField(merged, name, value);
    const { _vectors: _replaced, ...fields } = next;
    out = withFloatsOf(next, Object.keys(merged).length === 0 ? fields : { ...fields, _vectors: merged });
  }
  if (!isEmpty(embedders)) {
    // an earlier version of the document in the same batch: what it sent holds unless sent again
    const earlier = base === undefined ? undefined : sentByDocument.get(base);
    const entries = earlier === undefined ? configured : new Map([...earlier.entries, ...configured]);
    sentByDocument.set(out, { id, entries });
  }
  return out;
}
