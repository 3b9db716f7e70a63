/**
 * Quarry in the browser: `openBundle(url)` fetches a read-only index bundle (`quarry
 * export-bundle`) and the kernels binary, then answers searches on it in the page as
 * `POST /indexes/{uid}/search` answers them on the server: the same body checks and error codes
 * (http/schemas/search-query.ts), the same search service (search/single.ts, in the bundle's
 * context: search/bundle.ts) over the same engine and WebAssembly kernels. Nothing is requested
 * after the two fetches. Built by browser/vite.config.ts into dist/browser/quarry.js.
 */
import { openBundle as readBundle, type IndexBundle } from '../src/engine/bundle/reader.js';
import { ApiError, type ErrorBody } from '../src/errors/api-error.js';
import { parseSearchBody } from '../src/http/schemas/search-query.js';
import { bundleSearchContext, searchBundle } from '../src/search/bundle.js';
import type { SearchQuery } from '../src/search/query.js';
import type { FeatureName } from '../src/types/features.js';
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

/**
 * Scripts the browser build cannot cut into the index's words (their dictionaries are left out:
 * browser/host/dictionary-segmenters.ts, word-lists.ts).
 */
const UNSEGMENTED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Khmer}]/u;

/** One index, read from its bundle. */
export interface BrowserIndex {
  readonly uid: string;
  readonly primaryKey: string | null;
  /** the bundle's size in bytes, as fetched */
  readonly bundleBytes: number;
  search(q: string | null, params?: SearchParams): Promise<SearchAnswer>;
}

async function fetchBytes(url: string | URL): Promise<Uint8Array> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${String(url)}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Fetches the bundle at `url` and the kernels, and opens the index the bundle holds. */
export async function openBundle(url: string | URL, options: OpenOptions = {}): Promise<BrowserIndex> {
  const [bytes, kernels] = await Promise.all([fetchBytes(url), fetchBytes(options.kernelsUrl ?? new URL(KERNELS_FILE, import.meta.url))]);
  provideKernelBinary(kernels);
  return openIndex(readBundle(bytes), bytes.byteLength, options.features);
}

function openIndex(bundle: IndexBundle, bundleBytes: number, features?: Readonly<Record<string, boolean>>): BrowserIndex {
  const bundled = bundleSearchContext(bundle);
  const ctx = features === undefined ? bundled : { ...bundled, features: { enabled: (name: FeatureName) => features[name] === true } };
  const record = bundle.toc.index;
  return {
    uid: record.uid,
    primaryKey: record.primaryKey,
    bundleBytes,
    async search(q, params = {}) {
      const text = params.q === undefined ? q : params.q;
      if (typeof text === 'string' && UNSEGMENTED.test(text)) {
        throw new Error('The browser build of Quarry cannot search Chinese, Japanese, Korean, Thai or Khmer text: their dictionaries are served by the server only.');
      }
      try {
        // as the meilisearch client builds the body: a `q` among the parameters wins
        const query = parseSearchBody({ q, ...params });
        return (await searchBundle(ctx, record.uid, query)) as SearchAnswer;
      } catch (error) {
        throw error instanceof ApiError ? new QuarryError(error) : error;
      }
    },
  };
}
