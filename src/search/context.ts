/**
 * What the request-level search reads besides its query: the indexes, the experimental
 * features its filters may need, the network its queries may name (and the client that sends
 * them there), the search queue its requests wait in and the dynamic search rules. The hits' reranker
 * for `personalize`. The HTTP layer's `AppDeps` is one; a bundle's is another (bundle.ts).
 */
import type { IndexReadEnv } from '../engine/index-read-env.js';
import type { ExperimentalFeatures } from '../features/experimental-features.js';
import type { IndexRecord } from '../indexes/registry.js';
import type { RemoteAvailability } from '../network/availability.js';
import type { Network } from '../network/network.js';
import type { Reranker } from './personalization.js';
import type { RemoteSearch } from './remote-search.js';
import type { SearchRuleStore } from '../search-rules/store.js';
import type { SearchQueue } from './search-queue.js';
import type { FormatElsewhere } from './formatting.js';

/** What searches need of an index's record. */
export type SearchedIndex = Pick<IndexRecord, 'uid' | 'uuid' | 'primaryKey'>;

/**
 * The indexes searches read (as indexes/reader.ts reads them from LMDB): by uid, their current
 * storage (an environment borrowed for the synchronous run, or leased across awaits).
 */
export interface SearchIndexes {
  /** The record of index `uid`, without checking the uid. */
  get(uid: string): SearchedIndex | undefined;
  /** The record of the index `rawUid` names: its uid validated, `index_not_found` when there is none. */
  record(rawUid: string): SearchedIndex;
  envOf(record: SearchedIndex): IndexReadEnv;
  open(rawUid: string): IndexReadEnv;
  lease(rawUid: string): { readonly env: IndexReadEnv; release(): void };
}

export interface SearchContext {
  readonly indexReader: SearchIndexes;
  readonly features: Pick<ExperimentalFeatures, 'enabled'>;
  readonly network: Pick<Network, 'names' | 'remoteAddress' | 'sharding' | 'current'> & {
    /** which remotes a sharded network may pick, and where a search's 5xx failures are recorded (network.md §7.6) */
    readonly availability: Pick<RemoteAvailability, 'status' | 'markFailed'>;
  };
  readonly remoteSearch: Pick<RemoteSearch, 'send'>;
  readonly searchQueue: Pick<SearchQueue, 'permit'>;
  /** the dynamic search rules, which pin documents when the `dynamicSearchRules` feature is on */
  readonly searchRules: Pick<SearchRuleStore, 'all' | 'limits'>;
  /** reranks the hits of a search with `personalize` (personalization.ts); absent: such a search fails */
  readonly personalization?: Reranker;
  /** formats a large document on another thread (formatting.ts); absent: on this one, in slices */
  readonly formatElsewhere?: FormatElsewhere;
}
