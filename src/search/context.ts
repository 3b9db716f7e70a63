/**
 * What the request-level search reads besides its query: the indexes, the experimental
 * features its filters may need and the network its queries may name. The HTTP layer's
 * `AppDeps` is one.
 */
import type { ExperimentalFeatures } from '../features/experimental-features.js';
import type { IndexReader } from '../indexes/reader.js';
import type { Network } from '../network/network.js';

export interface SearchContext {
  readonly indexReader: IndexReader;
  readonly features: Pick<ExperimentalFeatures, 'enabled'>;
  readonly network: Pick<Network, 'names'>;
}
