/**
 * One keyword search on one index (search.md §1–§8): the query's checks in Meilisearch's order,
 * the engine's ranking on the index's current snapshot (engine/search/search.ts), and the
 * response in v1.50's key order. `/search` answers one; `/multi-search` one per query.
 *
 * Order of checks: the search kind (`media`, `vector`, `hybrid`), the index, then what needs the
 * index (embedder, filter syntax and experimental gates, sort syntax and sortability,
 * attributesToSearchOn, distinct, facets, filter attributes). Filter evaluation errors point into
 * the filter's canonical text (filter.md §4), which is what gets evaluated.
 * The index's `searchCutoffMs` budget counts from the start of each index search, but for the
 * time spent in the dictionary segmenters (engine/search/time-budget.ts).
 * `locales` (else the searched fields' `localizedAttributes` locales) restrict the language
 * detection of the query, and of each highlighted field's text (else its own rule's locales).
 * Parameters that are validated and accepted but not applied yet: semantic search
 * (`hybrid`, `vector`, `media`), `personalize`, `useNetwork`, `showPerformanceDetails`.
 */
import type { Caller } from '../auth/caller.js';
import type { DocSet } from '../engine/docset.js';
import { evaluateFilter } from '../engine/filter/evaluate.js';
import { canonicalFilter, parseFilter, type FilterAst } from '../engine/filter-parser/index.js';
import { checkFacets, computeFacets } from '../engine/facets/distribution.js';
import { searchSettings } from '../engine/index-settings.js';
import { searchClock } from '../engine/search/time-budget.js';
import { executeSearch } from '../engine/search/search.js';
import { ApiError, inIndex } from '../errors/api-error.js';
import { uuidV7 } from '../types/uuid-v7.js';
import { DEFAULT_SEARCH_CUTOFF_MS, type IndexSettings } from '../types/settings.js';
import { checkDistinct, checkSearchKind, checkSearchOn, checkSort } from './checks.js';
import type { SearchContext } from './context.js';
import { checkedFilter } from './filter.js';
import { withFormatting } from './formatting.js';
import { hitViewer, type IndexSearch } from './hits.js';
import { addPageFields, pageWindow } from './page.js';
import { storedLocales, type SearchQuery } from './query.js';

export interface SearchIndexOptions {
  /**
   * Federated search compares the queries' ranking rules here: Meilisearch does it once the index
   * is open and before the filter, sort and distinct are checked.
   */
  readonly checkRules?: (settings: IndexSettings) => void;
  /**
   * Evaluate the filter as sent (facet search) instead of its canonical text, which `/search` and
   * `/multi-search` re-parse inside the index, so that their evaluation errors point into it.
   */
  readonly filterAsSent?: boolean;
}

/** The ranked hits a search needs: `offset + limit` of them; `exhaustive` makes counts exact (page mode). */
export interface RankWindow {
  readonly offset: number;
  readonly limit: number;
  readonly exhaustive: boolean;
}

/**
 * Checks `query` against index `uid` (search kind, then everything that needs the index) and
 * ranks its hits: `window.offset + window.limit`, capped by `maxTotalHits`. A tenant token's
 * filter (`caller.searchFilter`) is ANDed with the query's.
 */
export function searchIndex(
  ctx: SearchContext,
  caller: Caller,
  uid: string,
  query: SearchQuery,
  window: RankWindow,
  { checkRules = () => {}, filterAsSent = false }: SearchIndexOptions = {},
): IndexSearch {
  // the `searchCutoffMs` budget counts from here, as Meilisearch's starts before the filter is evaluated
  const spent = searchClock();
  checkSearchKind(query);
  const env = ctx.indexReader.open(uid);
  const settings = searchSettings(env);
  if (query.hybrid !== undefined && query.hybrid !== null && !Object.hasOwn(settings.embedders, query.hybrid.embedder)) {
    throw new ApiError('invalid_search_embedder', `Cannot find embedder with name \`${query.hybrid.embedder}\`.`);
  }
  checkRules(settings);

  const asts: FilterAst[] = [];
  for (const filter of [query.filter, caller.searchFilter(uid)]) {
    const ast = checkedFilter(ctx.features, filter, 'invalid_search_filter');
    if (ast === null) continue;
    // the canonical text is parsed like a request's filter: what does not read back (a lone
    // surrogate, which Meilisearch's JSON parser refuses earlier) is a filter error, not a crash
    asts.push(filterAsSent ? ast : parseFilter(canonicalFilter(ast), { code: 'invalid_search_filter' })!);
  }
  const sort = checkSort(uid, settings, query.sort ?? []);
  checkSearchOn(uid, env, settings, query.attributesToSearchOn);
  const distinct = query.distinct === undefined || query.distinct === null ? settings.distinctAttribute : checkDistinct(uid, settings, query.distinct);
  checkFacets(settings, query.facets ?? []);
  let filters: DocSet[];
  try {
    filters = asts.map((ast) => evaluateFilter(env, settings, ast, { code: 'invalid_search_filter' }));
  } catch (err) {
    throw err instanceof ApiError ? inIndex(uid, err) : err;
  }

  const outcome = executeSearch(env, settings, {
    q: query.q ?? '',
    need: Math.min(window.offset + window.limit, settings.pagination.maxTotalHits),
    matchingStrategy: query.matchingStrategy ?? 'last',
    attributesToSearchOn: query.attributesToSearchOn ?? null,
    filters,
    sort,
    rankingScoreThreshold: query.rankingScoreThreshold ?? null,
    locales: storedLocales(query.locales),
    distinct,
    exhaustive: window.exhaustive,
    // `>=`: a budget of 0 ms lets no ranking step start
    timeUp: () => spent() >= (settings.searchCutoffMs ?? DEFAULT_SEARCH_CUTOFF_MS),
  });
  return { env, settings, outcome, view: hitViewer(env, settings, query) };
}

/** A search result's `metadata`: a fresh uid for this query, the index searched and its primary key. */
function searchMetadata(ctx: SearchContext, uid: string): Record<string, unknown> {
  return { queryUid: uuidV7(), indexUid: uid, primaryKey: ctx.indexReader.get(uid)?.primaryKey ?? null };
}

/**
 * A single search's response on index `uid` (search.md §5), with `metadata` when asked
 * (`Meili-Include-Metadata`); `degraded` when the time budget cut the ranking short.
 */
export function searchResponse(
  ctx: SearchContext,
  caller: Caller,
  uid: string,
  query: SearchQuery,
  requestUid: string,
  metadata: boolean,
): { body: Record<string, unknown>; degraded: boolean } {
  const started = performance.now();
  const window = pageWindow(query);
  const search = searchIndex(ctx, caller, uid, query, { offset: window.offset, limit: window.limit, exhaustive: window.pageMode });
  const { env, settings, outcome, view } = search;
  const pageHits = outcome.hits.slice(window.offset);
  const hits = withFormatting(search, query, pageHits, pageHits.map(view));

  // whole milliseconds, truncated as v1.50's `as_millis`: a sub-millisecond search says 0
  const body: Record<string, unknown> = { hits, query: query.q ?? '', processingTimeMs: Math.floor(performance.now() - started) };
  addPageFields(body, window, outcome.totalHits);
  if (query.facets !== undefined && query.facets !== null && query.facets.length > 0) {
    const { distribution, stats } = computeFacets(env, settings, outcome.candidates, query.facets);
    body.facetDistribution = distribution;
    body.facetStats = stats;
  }
  body.requestUid = requestUid;
  if (metadata) body.metadata = searchMetadata(ctx, uid);
  return { body, degraded: outcome.degraded };
}
