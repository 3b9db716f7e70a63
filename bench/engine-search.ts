/**
 * One search run straight through the engine's ranking (no validation, no formatted hits): 20 hits
 * for `q` with the query's filter already parsed, as the in-process benchmarks time it.
 */
import { evaluateFilter } from '../src/engine/filter/evaluate.js';
import type { FilterAst } from '../src/engine/filter-parser/index.js';
import type { IndexReadEnv } from '../src/engine/index-read-env.js';
import { executeSearch } from '../src/engine/search/search.js';
import { vectorFilter } from '../src/engine/vectors/index.js';
import type { IndexSettings } from '../src/types/settings.js';

export function engineSearch(env: IndexReadEnv, settings: IndexSettings, q: string, filter: FilterAst | null) {
  return executeSearch(env, settings, {
    q,
    need: 20,
    matchingStrategy: 'last',
    attributesToSearchOn: null,
    filters: filter === null ? [] : [evaluateFilter(env, settings, filter, { vectors: vectorFilter(env, settings) })],
    sort: [],
    rankingScoreThreshold: null,
    distinct: null,
    exhaustive: false,
  });
}
