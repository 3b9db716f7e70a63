/**
 * The vector store's read API: semantic search, a document's embeddings, what an embedder holds,
 * the index stats and the `_vectors` filters. Reads only; run on a read snapshot (or inside the
 * batch's transaction). Writes are the vector updater's (updater.ts).
 */
import { ApiError } from '../../errors/api-error.js';
import type { IndexSettings } from '../../types/settings.js';
import { fromSorted, type DocSet } from '../docset.js';
import { EntryCache } from '../entry-cache.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import type { StoredEmbeddingsOf } from '../documents/vectors.js';
import type { VectorTarget } from '../filter-parser/index.js';
import { distributionOf, scoreOf } from './score.js';
import { nearestDocuments } from './search.js';
import { eachDocVectors, readDocVectors, readEmbedderStates, readItem, type EmbedderState, type EmbedderStates } from './store.js';

export interface VectorHit {
  readonly docid: number;
  /** the distance of the document's best vector: `(1 − cos θ) / 2`, or the normalised Hamming distance when quantized */
  readonly distance: number;
  /** v1.50's semantic ranking score: `1 − distance`, then the embedder's distribution shift */
  readonly score: number;
}

const states = new EntryCache<EmbedderStates>((env) => env.main, INDEX_MAIN_KEYS.vectorEmbedders, readEmbedderStates);

function stateOf(env: IndexReadEnv, settings: IndexSettings, embedder: string): EmbedderState | undefined {
  return Object.hasOwn(settings.embedders, embedder) ? states.get(env)[embedder] : undefined;
}

/**
 * The `limit` documents nearest to `query` among `candidates` (null: all), best first.
 * @throws ApiError invalid_vector_dimensions when `query` has not the stored vectors' dimensions
 */
export function searchVectors(env: IndexReadEnv, settings: IndexSettings, embedder: string, query: Float32Array, limit: number, candidates: DocSet | null): VectorHit[] {
  const state = stateOf(env, settings, embedder);
  if (state === undefined || state.items === 0) return [];
  if (query.length !== state.dimensions) {
    throw new ApiError('invalid_vector_dimensions', `Invalid vector dimensions: expected: \`${state.dimensions}\`, found: \`${query.length}\`.`);
  }
  const distribution = distributionOf(settings.embedders[embedder]!);
  return nearestDocuments(env, state, query, limit, candidates).map(({ docid, distance }) => ({ docid, distance, score: scoreOf(distance, distribution) }));
}

/**
 * A document's embeddings for `embedder` as stored (f32; a binary-quantized embedder's as 1 and
 * 0), and whether they may be regenerated; undefined when the store has no entry for it.
 */
export function documentEmbeddings(env: IndexReadEnv, settings: IndexSettings, embedder: string, docid: number): { embeddings: Float32Array[]; regenerate: boolean } | undefined {
  const state = stateOf(env, settings, embedder);
  if (state === undefined) return undefined;
  const entry = readDocVectors(env, state.id, docid);
  if (entry === undefined) return undefined;
  const embeddings = entry.items.map((item) => readItem(env, state, item)!.vector);
  return { embeddings, regenerate: entry.regenerate };
}

/** The dimensions of the vectors stored for `embedder`, undefined before the first one. */
export function embedderDimensions(env: IndexReadEnv, settings: IndexSettings, embedder: string): number | undefined {
  const dimensions = stateOf(env, settings, embedder)?.dimensions;
  return dimensions === undefined || dimensions === 0 ? undefined : dimensions;
}

interface Counts {
  numberOfEmbeddings: number;
  numberOfEmbeddedDocuments: number;
}

const counts = new EntryCache<Counts>((env) => env.main, INDEX_MAIN_KEYS.vectorsVersion, (env) => {
  const all = Object.values(readEmbedderStates(env));
  const numberOfEmbeddings = all.reduce((sum, state) => sum + state.items, 0);
  // one embedder counts its documents; several need the union of theirs
  if (all.length <= 1) return { numberOfEmbeddings, numberOfEmbeddedDocuments: all[0]?.documents ?? 0 };
  const embedded = new Set<number>();
  for (const state of all) {
    for (const { docid, entry } of eachDocVectors(env, state.id)) if (entry.items.length > 0) embedded.add(docid);
  }
  return { numberOfEmbeddings, numberOfEmbeddedDocuments: embedded.size };
});

/** Vectors stored for all embedders, and documents having at least one (the index stats). */
export function embeddingCounts(env: IndexReadEnv): Counts {
  return { ...counts.get(env) };
}

/**
 * The documents `_vectors.<embedder>[.<part>] EXISTS` matches (filter/evaluate.ts's `vectors`
 * option): having vectors, user-provided ones, generated ones (`documentTemplate`), or ones that
 * may be regenerated. Fragments are not supported by the store, so they match nothing.
 */
export function vectorFilter(env: IndexReadEnv, settings: IndexSettings): (embedder: string, target: VectorTarget) => DocSet {
  return (embedder, target) => {
    const state = stateOf(env, settings, embedder);
    const docids: number[] = [];
    if (state === undefined || target.kind === 'fragment') return fromSorted(docids);
    for (const { docid, entry } of eachDocVectors(env, state.id)) {
      const matches =
        target.kind === 'all'
          ? entry.items.length > 0
          : target.kind === 'userProvided'
            ? entry.userProvided
            : target.kind === 'regenerate'
              ? entry.regenerate
              : !entry.userProvided && entry.items.length > 0;
      if (matches) docids.push(docid);
    }
    return fromSorted(docids);
  };
}

/** The store's entries of document `docid`, for `vectorsView` (documents/vectors.ts). */
export function storedEmbeddingsOf(env: IndexReadEnv, settings: IndexSettings, docid: number): StoredEmbeddingsOf {
  return (embedder) => documentEmbeddings(env, settings, embedder, docid);
}
