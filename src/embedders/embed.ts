/**
 * The embedding service: a search query embedded by its index's embedder (`embedQuery`), the
 * rendered texts of a document batch embedded in chunks with bounded parallelism
 * (`embedDocuments`), the query embedding cache (`--experimental-embedding-cache-entries`), and
 * the settings-time preparation v1.50 does when it builds an embedder (`prepareChangedEmbedders`,
 * for the embedders a settings write adds or changes, through `prepareEmbedder`: unsupported
 * configurations, dimensions inferred from a test embedding, the composite embedders' agreement). Failures are `ApiError`s with v1.50's codes and words.
 */
import { ApiError } from '../errors/api-error.js';
import { hasFragments } from '../types/fragments.js';
import { ownValue } from '../types/own-record.js';
import { MAX_EMBEDDING_DIMENSIONS, type EmbedderSettings } from '../types/settings.js';
import { EmbedError, embeddingApiError, indexingEmbedError } from './embed-error.js';
import { EmbedderRequestStats } from './request-stats.js';
import { HuggingFaceEmbedder } from './hf-embedder.js';
import { embedderRuntime } from './runtime.js';
import { isTextQuery, queryInput, type SearchInput } from './search-fragments.js';
import { buildEmbedder, CompositeEmbedder, queryEmbedder, type Embedder } from './sources.js';

const built = new Map<string, Embedder>();
const BUILT_CACHE_ENTRIES = 64;

/** The embedder for `settings`, built once per distinct configuration. Throws `EmbedError`. */
function embedderFor(settings: EmbedderSettings): Embedder {
  const key = JSON.stringify(settings);
  let embedder = built.get(key);
  if (embedder === undefined) {
    embedder = buildEmbedder(settings, embedderRuntime());
    if (built.size >= BUILT_CACHE_ENTRIES) built.delete(built.keys().next().value!);
    built.set(key, embedder);
  }
  return embedder;
}

function asApiError(error: unknown, wrap: (error: EmbedError) => ApiError): unknown {
  return error instanceof EmbedError ? wrap(error) : error;
}

/**
 * The embedding of a search query with embedder `name` (a composite uses its search embedder):
 * a text (a string, or a `q` without `media`), or a multimodal query whose search fragment is
 * embedded (search-fragments.ts). Only texts are cached. Throws `invalid_search_embedder` for an
 * unknown name, `vector_embedding_error` when embedding fails, and the signal's reason when it
 * aborts first.
 */
export async function embedQuery(
  embedders: Readonly<Record<string, EmbedderSettings>>,
  name: string,
  query: string | SearchInput,
  signal?: AbortSignal,
): Promise<Float32Array> {
  const settings = ownValue(embedders, name);
  if (settings === undefined) throw new ApiError('invalid_search_embedder', `Cannot find embedder with name \`${name}\`.`);
  const input: SearchInput = typeof query === 'string' ? { q: query } : query;
  const runtime = embedderRuntime();
  const text = isTextQuery(input) ? input.q : undefined;
  const cache = text === undefined ? undefined : queryCacheOf(settings, runtime.queryCacheEntries);
  const cached = cache?.get(text!);
  if (cached !== undefined) {
    // the most recently used entry goes last
    cache!.delete(text!);
    cache!.set(text!, cached);
    return cached.slice();
  }
  try {
    const embedder = queryEmbedder(embedderFor(settings));
    const [embedding] = await embedder.embed([queryInput(settings, input)], { runtime, dimensions: embedder.dimensions, signal });
    if (cache !== undefined) {
      if (cache.size >= runtime.queryCacheEntries) cache.delete(cache.keys().next().value!);
      cache.set(text!, embedding!.slice());
    }
    return embedding!;
  } catch (error) {
    throw asApiError(error, embeddingApiError);
  }
}

/**
 * Query embeddings already computed, per embedder configuration, least recently used first
 * (v1.50's `--experimental-embedding-cache-entries`); undefined when the cache is off. A changed
 * configuration is another embedder, with a cache of its own.
 */
const queryCaches = new Map<string, Map<string, Float32Array>>();

function queryCacheOf(settings: EmbedderSettings, entries: number): Map<string, Float32Array> | undefined {
  if (entries === 0) return undefined;
  const key = JSON.stringify(settings);
  let cache = queryCaches.get(key);
  if (cache === undefined) {
    if (queryCaches.size >= BUILT_CACHE_ENTRIES) queryCaches.delete(queryCaches.keys().next().value!);
    cache = new Map();
    queryCaches.set(key, cache);
  }
  return cache;
}

/** How `embedDocuments` hands its embeddings over, and what it counts and obeys. */
export interface DocumentEmbedding {
  /** every attempt counted */
  readonly stats?: EmbedderRequestStats;
  /** the task's cancelation: stops the requests in flight */
  readonly signal?: AbortSignal;
  /**
   * v1.50's `ignore_embedder_failures` (failure-modes.ts): a chunk that fails is handed to it
   * instead, its texts get null and the other chunks go on; a cancelation or a fault of ours still throws
   */
  readonly ignored?: (error: ApiError) => void;
  /** takes the embeddings of the texts from `from` on, in text order, as soon as their requests (and those before) are answered */
  take(from: number, embeddings: (Float32Array | null)[]): void;
  /**
   * Resolves once the consumer has taken the first `count` texts' embeddings (without it, it has
   * as soon as they are handed over): what lets answers wait for a consumer only so far ahead.
   */
  taken?(count: number): Promise<void>;
}

/**
 * Embeds `texts` with the document (indexing) side of embedder `name`, in chunks of the source's
 * size, `parallelism` requests at once (a remote embedder: v1.50's 40), each chunk's embeddings
 * handed to `run.take` in text order as they are answered, so that the consumer stores them
 * while the next requests are in flight. A request starts only once the consumer has taken every
 * chunk but the `2 × parallelism` before it: the answers waiting for it stay bounded. Throws
 * ``While embedding documents for embedder `name`: …`` (`vector_embedding_error`), the first
 * failure's, the other requests then stopped; the batch prefixes the index.
 */
export async function embedDocuments(name: string, settings: EmbedderSettings, texts: readonly unknown[], run: DocumentEmbedding): Promise<void> {
  let embedder: Embedder;
  try {
    embedder = embedderFor(settings);
  } catch (error) {
    // The embedder could not even be built: v1.50 fails the same way when building it for the batch.
    throw asApiError(error, embeddingApiError);
  }
  const { stats = new EmbedderRequestStats(), signal, ignored } = run;
  const size = embedder.chunkSize;
  const chunks = Math.ceil(texts.length / size);
  const window = 2 * embedder.parallelism;
  const failure = new AbortController();
  const stop = AbortSignal.any(signal === undefined ? [failure.signal] : [failure.signal, signal]);
  const stopped = new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
  // answered chunks not yet handed over (one before them is still in flight)
  const answered = new Map<number, (Float32Array | null)[]>();
  let handed = 0;
  let next = 0;
  let firstError: unknown;
  const handOver = (index: number, embeddings: (Float32Array | null)[]) => {
    answered.set(index, embeddings);
    for (let ready = answered.get(handed); ready !== undefined; ready = answered.get(handed)) {
      answered.delete(handed);
      run.take(handed * size, ready);
      handed++;
    }
  };
  const worker = async () => {
    while (next < chunks && !stop.aborted) {
      const index = next++;
      if (index >= window && run.taken !== undefined) await Promise.race([run.taken((index - window + 1) * size), stopped]);
      if (stop.aborted) return;
      const chunk = texts.slice(index * size, (index + 1) * size);
      try {
        handOver(index, await embedder.embed(chunk, { runtime: embedderRuntime(), stats, dimensions: embedder.dimensions, signal: stop }));
      } catch (error) {
        const refusal = asApiError(error, (e) => indexingEmbedError(name, e));
        if (ignored !== undefined && signal?.aborted !== true && refusal instanceof ApiError) {
          ignored(refusal);
          handOver(index, chunk.map(() => null));
          continue;
        }
        firstError ??= error;
        failure.abort(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(embedder.parallelism, chunks) }, worker));
  if (firstError !== undefined) throw asApiError(firstError, (e) => indexingEmbedError(name, e));
  signal?.throwIfAborted();
}

const COMPOSITE_TEST_TEXTS = ['test', 'a brave dog', 'This is a sample text. It is meant to compare similarity.'];
const MAX_COMPOSITE_DISTANCE = 0.01;

/** milli's `could not determine model dimensions` wrapper. */
function dimensionProblem(error: unknown): unknown {
  if (!(error instanceof EmbedError)) return error;
  return new EmbedError('runtime', `could not determine model dimensions:\n  - test embedding failed with ${error.message}`);
}

/**
 * The configured dimensions, else those of a test embedding of `"test"` (milli's `infer_dimensions`),
 * once the embedder is prepared (a local model loaded: its failures are not dimension problems);
 * at most MAX_EMBEDDING_DIMENSIONS.
 */
async function dimensionsOf(embedder: Embedder, signal?: AbortSignal): Promise<number> {
  await embedder.prepare?.();
  let dimensions = embedder.dimensions;
  if (dimensions === undefined) {
    try {
      const [embedding] = await embedder.embed(['test'], { runtime: embedderRuntime(), signal });
      dimensions = embedding!.length;
    } catch (error) {
      throw dimensionProblem(error);
    }
  }
  // Quarry's bound: settings/embedders.ts refuses declared dimensions past it, but not a composite's sides
  if (dimensions > MAX_EMBEDDING_DIMENSIONS) {
    throw dimensionProblem(new EmbedError('user', `an embedding of ${dimensions} dimensions: Quarry stores vectors of at most ${MAX_EMBEDDING_DIMENSIONS} dimensions`));
  }
  return dimensions;
}

/** The cosine distance of hannoy, `(1 - cos) / 2`. */
function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  const norms = Math.sqrt(na) * Math.sqrt(nb);
  return norms === 0 ? 1 : (1 - dot / norms) / 2;
}

const TEST_FAILED = 'error while generating test embeddings.';

/** milli's `CompositeEmbedderContainsHuggingFace` hint. */
function huggingFaceHint(composite: CompositeEmbedder): string {
  const search = composite.search instanceof HuggingFaceEmbedder;
  const indexing = composite.indexing instanceof HuggingFaceEmbedder;
  if (search && indexing) return '\n  - Make sure the `model`, `revision` and `pooling` of both embedders match.';
  if (search) return '\n  - Consider trying a different `pooling` method for the search embedder.';
  if (indexing) return '\n  - Consider trying a different `pooling` method for the indexing embedder.';
  return '';
}

/**
 * milli's composite construction: equal dimensions, then three test sentences embedded alike —
 * unless a side has fragments (`withFragments`), which v1.50 does not compare.
 */
async function checkComposite(composite: CompositeEmbedder, withFragments: boolean, signal?: AbortSignal): Promise<number> {
  const [search, indexing] = [await dimensionsOf(composite.search, signal), await dimensionsOf(composite.indexing, signal)];
  if (search !== indexing) {
    throw new EmbedError(
      'user',
      `${TEST_FAILED}\n  - the dimensions of embeddings produced at search time and at indexing time don't match.\n  - Search time dimensions: ${search}\n  - Indexing time dimensions: ${indexing}\n  - Note: Dimensions of embeddings produced by both embedders are required to match.`,
    );
  }
  if (withFragments) return search;
  const run = async (side: Embedder, time: 'search' | 'indexing') => {
    try {
      return await side.embed(COMPOSITE_TEST_TEXTS, { runtime: embedderRuntime(), dimensions: search, signal });
    } catch (error) {
      if (!(error instanceof EmbedError)) throw error;
      throw new EmbedError('user', `${TEST_FAILED}\n  - could not generate test embedding with embedder at ${time} time.\n  - Embedding failed with ${error.message}`);
    }
  };
  const searchEmbeddings = await run(composite.search, 'search');
  const indexingEmbeddings = await run(composite.indexing, 'indexing');
  for (let i = 0; i < searchEmbeddings.length; i++) {
    const distance = cosineDistance(searchEmbeddings[i]!, indexingEmbeddings[i]!);
    if (distance > MAX_COMPOSITE_DISTANCE) {
      throw new EmbedError(
        'user',
        `${TEST_FAILED}\n  - the embeddings produced at search time and indexing time are not similar enough.\n  - angular distance ${distance.toFixed(2)}\n  - Meilisearch requires a maximum distance of ${MAX_COMPOSITE_DISTANCE}.\n  - Note: check that both embedders produce similar embeddings.${huggingFaceHint(composite)}`,
      );
    }
  }
  return search;
}

/**
 * What a settings change does when it builds an embedder: refuses an unusable configuration
 * (unsupported Ollama URL, a model that cannot be loaded), infers missing dimensions with a test
 * embedding of `"test"`, checks that a composite's two embedders agree. Resolves the embedder's
 * dimensions; throws `vector_embedding_error` (``Error while generating embeddings: …``).
 */
export async function prepareEmbedder(settings: EmbedderSettings, signal?: AbortSignal): Promise<number> {
  try {
    const embedder = embedderFor(settings);
    return embedder instanceof CompositeEmbedder ? await checkComposite(embedder, hasFragments(settings), signal) : await dimensionsOf(embedder, signal);
  } catch (error) {
    throw asApiError(error, embeddingApiError);
  }
}

/** Whether building the embedder does I/O or fails in v1.50: dimension probes, composite checks, loading a local model. */
function needsPreparation(settings: EmbedderSettings): boolean {
  switch ((settings.source as string | undefined) ?? 'openAi') {
    case 'composite':
    case 'huggingFace':
      return true;
    case 'rest':
    case 'ollama':
      return settings.dimensions === undefined;
    default:
      return false;
  }
}

/**
 * `prepareEmbedder` for each embedder a settings change adds or changes whose construction v1.50
 * cannot do without the embedder (no `dimensions` given, composite, Hugging Face), in name order;
 * the first failure is thrown.
 */
export async function prepareChangedEmbedders(
  before: Readonly<Record<string, EmbedderSettings>>,
  after: Readonly<Record<string, EmbedderSettings>>,
  signal?: AbortSignal,
): Promise<void> {
  for (const name of Object.keys(after).sort()) {
    const settings = after[name]!;
    if (JSON.stringify(before[name]) === JSON.stringify(settings) || !needsPreparation(settings)) continue;
    await prepareEmbedder(settings, signal);
  }
}
