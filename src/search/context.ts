/**
 * What the request-level search reads besides its query: the indexes, the experimental
 * features its filters may need, the network its queries may name (and the client that sends
 * them there), the search queue its requests wait in and the dynamic search rules. The HTTP
 * layer's `AppDeps` is one.
 */
import type { ExperimentalFeatures } from '../features/experimental-features.js';
import type { IndexReader } from '../indexes/reader.js';
import type { Network } from '../network/network.js';
import type { RemoteSearch } from './remote-search.js';
import type { SearchRuleStore } from '../search-rules/store.js';
import type { SearchQueue } from './search-queue.js';

export interface SearchContext {
  readonly indexReader: IndexReader;
  readonly features: Pick<ExperimentalFeatures, 'enabled'>;
  readonly network: Pick<Network, 'names' | 'remoteAddress' | 'sharding'>;
  readonly remoteSearch: Pick<RemoteSearch, 'send'>;
  readonly searchQueue: Pick<SearchQueue, 'permit'>;
  /** the dynamic search rules, which pin documents when the `dynamicSearchRules` feature is on */
  readonly searchRules: Pick<SearchRuleStore, 'all' | 'limits'>;
}
