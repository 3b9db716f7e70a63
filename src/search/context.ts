/**
 * What the request-level search reads besides its query: the indexes, the experimental
 * features its filters may need, the network its queries may name and the search queue its
 * requests wait in. The HTTP layer's `AppDeps` is one.
 */
import type { ExperimentalFeatures } from '../features/experimental-features.js';
import type { IndexReader } from '../indexes/reader.js';
import type { Network } from '../network/network.js';
import type { SearchQueue } from './search-queue.js';

export interface SearchContext {
  readonly indexReader: IndexReader;
  readonly features: Pick<ExperimentalFeatures, 'enabled'>;
  readonly network: Pick<Network, 'names'>;
  readonly searchQueue: Pick<SearchQueue, 'permit'>;
}
