/**
 * What the request-level search reads besides its query: the indexes and the experimental
 * features its filters may need. The HTTP layer's `AppDeps` is one.
 */
import type { ExperimentalFeatures } from '../features/experimental-features.js';
import type { IndexReader } from '../indexes/reader.js';

export interface SearchContext {
  readonly indexReader: IndexReader;
  readonly features: Pick<ExperimentalFeatures, 'enabled'>;
}
