/**
 * Quarry in the browser: `openBundle(url)` fetches a read-only index bundle (`quarry
 * export-bundle`) and the kernels binary, then answers searches on it in the page as
 * `POST /indexes/{uid}/search` answers them on the server: the same body checks and error codes
 * (http/schemas/search-query.ts), the same search service (search/single.ts) over the same engine
 * and WebAssembly kernels, the bundle standing for the index's LMDB environment. Nothing is
 * requested after the two fetches. Built by browser/vite.config.ts into dist/browser/quarry.js.
 */
import { openBundle as readBundle, type IndexBundle } from '../src/engine/bundle/reader.js';
import type { IndexReadEnv } from '../src/engine/index-read-env.js';
import { ApiError, type ErrorBody } from '../src/errors/api-error.js';
import { parseSearchBody } from '../src/http/schemas/search-query.js';
import { IndexReader } from '../src/indexes/reader.js';
import type { IndexRecord } from '../src/indexes/registry.js';
import type { SearchContext } from '../src/search/context.js';
import type { SearchQuery } from '../src/search/query.js';
import { searchResponse, type SearchCaller } from '../src/search/single.js';
import { instantOfRfc3339 } from '../src/types/dates.js';
import { uuidV7 } from '../src/types/uuid-v7.js';
import { provideKernelBinary } from './host/kernel-binary.js';

/** The kernels binary beside quarry.js (the build copies it there). */
const KERNELS_FILE = 'kernels.release.wasm';

export interface OpenOptions {
  /** where the kernels binary is; by default beside this module */
  readonly kernelsUrl?: string | URL;
  /** the experimental features the searches may use (`containsFilter`, …); by default the instance's when the bundle was made */
  readonly features?: Readonly<Record<string, boolean>>;
}

/** The parameters of a search: `POST /indexes/{uid}/search`'s body but `q`. */
export type SearchParams = Omit<SearchQuery, 'q'> & Record<string, unknown>;

/** A search's answer, as the server's body. */
export type SearchAnswer = Record<string, unknown> & { hits: Record<string, unknown>[] };

/** A search refused or failed: Meilisearch's error body in `body`, its HTTP status in `status`. */
export class QuarryError extends Error {
  readonly body: ErrorBody;
  readonly status: number;

  constructor(error: ApiError) {
    super(error.message);
    this.name = 'QuarryError';
    this.body = error.toBody();
    this.status = error.status;
  }
}

/** One index, read from its bundle. */
export interface BrowserIndex {
  readonly uid: string;
  readonly primaryKey: string | null;
  /** the bundle's size in bytes, as fetched */
  readonly bundleBytes: number;
  search(q: string | null, params?: SearchParams): Promise<SearchAnswer>;
}

/** The page has no API keys: no tenant token's filter. */
const OPEN_CALLER: SearchCaller = { searchFilter: () => null };

async function fetchBytes(url: string | URL): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${String(url)}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Fetches the bundle at `url` and the kernels, and opens the index the bundle holds. */
export async function openBundle(url: string | URL, options: OpenOptions = {}): Promise<BrowserIndex> {
  const [bytes, kernels] = await Promise.all([fetchBytes(url), fetchBytes(options.kernelsUrl ?? new URL(KERNELS_FILE, import.meta.url))]);
  provideKernelBinary(kernels);
  return openIndex(readBundle(bytes), options.features);
}

function openIndex(bundle: IndexBundle, features: Readonly<Record<string, boolean>> = bundle.toc.features): BrowserIndex {
  const { index } = bundle.toc;
  const record: IndexRecord = {
    uid: index.uid,
    uuid: bundle.env.uuid,
    createdAt: instantOfRfc3339(index.createdAt),
    updatedAt: instantOfRfc3339(index.updatedAt),
    primaryKey: index.primaryKey,
  };
  const env = bundle.env;
  const reader = new IndexReader<IndexReadEnv>({ get: (uid) => (uid === record.uid ? record : undefined) }, { get: () => env, acquire: () => ({ env, release: () => {} }) });
  const ctx: SearchContext = {
    indexReader: reader,
    features: { enabled: (name) => features[name] === true },
    // no network: a `useNetwork` search is answered as an instance without one answers it
    network: { names: () => ({ self: null, remotes: [] }) },
    // one page, one search at a time: no queue to wait in
    searchQueue: { permit: async () => ({ release: () => {} }) },
  };
  return {
    uid: record.uid,
    primaryKey: record.primaryKey,
    bundleBytes: bundle.byteLength,
    async search(q, params = {}) {
      try {
        const query = parseSearchBody({ ...params, q });
        return (await searchResponse(ctx, OPEN_CALLER, record.uid, query, uuidV7(), false)).body as SearchAnswer;
      } catch (error) {
        throw error instanceof ApiError ? new QuarryError(error) : error;
      }
    },
  };
}
