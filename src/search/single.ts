/**
 * One search on one index (search.md §1–§8): the query's checks in Meilisearch's order, the
 * engine's ranking on the index's current snapshot (engine/search/search.ts, semantic.ts), and
 * the response in v1.50's key order. `/search` answers one (search-request.ts); `/multi-search`
 * one per query. With `showPerformanceDetails` its steps are timed (performance-details.ts).
 *
 * Order of checks: the search kind (`media`, `vector`, `hybrid`), the index, then what needs the
 * index (embedder, filter syntax and experimental gates, sort syntax and sortability,
 * attributesToSearchOn, distinct, facets, filter attributes). Filter evaluation errors point into
 * the filter's canonical text (filter.md §4), which is what gets evaluated. The engine's refusals
 * of the prepared search (filter attributes, attributesToSearchOn, distinct, sortability) are
 * SearchRefusal errors, which the chat's search tool answers apart, as v1.50 does.
 * The index's `searchCutoffMs` budget counts from the start of each index search, but for the
 * time spent in the dictionary segmenters (engine/search/time-budget.ts) and in building a large
 * synonym table, in slices, before (synonym-slices.ts); a federated search's queries of one index
 * share one budget (federation.ts).
 * `locales` (else the searched fields' `localizedAttributes` locales) restrict the language
 * detection of the query, and of each highlighted field's text (else its own rule's locales).
 *
 * Semantic and hybrid searches (vector-query.ts decides the kind once the index is open): a
 * semantic search ranks by the vector store (engine/search/semantic.ts); a hybrid one runs the
 * keyword search, answers with it alone when it is good enough, else merges it with the semantic
 * search (hybrid.ts). A query text to embed is embedded between two synchronous passes: the first
 * pass stops where the vector is needed, the query is embedded (awaited, within what is left of
 * the `searchCutoffMs` budget), and the search runs again from its checks with the vector, on the
 * index's then current snapshot, its keyword ranking with the budget it had in the first pass (v1.50
 * ranks it before embedding). A hybrid search whose embedding fails answers its keyword hits.
 * A search with `useNetwork: true` goes to the network before it gets here (network-search.ts).
 * With the `foreignKeys` feature, `_foreign(...)` filters are resolved across indexes (foreign.ts)
 * and the hits' foreign-key fields joined with their documents (hydration.ts).
 * `personalize` reranks the page once the search ran (personalization.ts), or fails it when no
 * personalization service runs, as in v1.50.
 * With the `legacySearch` feature a search answers as v1.50's legacy pipeline: counts and the echoed
 * offset clipped at `maxTotalHits`, the filter evaluated as sent, no `query` in `metadata`.
 */
import { hitDocument, NO_PERSONALIZATION } from './personalization.js';
import { shortestF32 } from '../types/ryu.js';
import { markupBudget, type MarkupBudget } from '../engine/search/format.js';
import type { Caller } from '../auth/caller.js';
import type { DocSet } from '../engine/docset.js';
import { evaluateFilter } from '../engine/filter/evaluate.js';
import { canonicalFilter, parseFilter, type FilterAst } from '../engine/filter-parser/index.js';
import { checkFacets, computeFacets } from '../engine/facets/distribution.js';
import { searchSettings } from '../engine/index-settings.js';
import { FacetReader } from '../engine/facets/store.js';
import { executeSemanticSearch } from '../engine/search/semantic.js';
import { searchClock } from '../engine/search/time-budget.js';
import { distinctFilter } from '../engine/search/distinct.js';
import { executeSearch, type SearchHit, type SearchOutcome } from '../engine/search/search.js';
import { searchVectors, vectorFilter } from '../engine/vectors/index.js';
import { ApiError, inIndex } from '../errors/api-error.js';
import { uuidV7 } from '../types/uuid-v7.js';
import { DEFAULT_SEARCH_CUTOFF_MS, type IndexSettings } from '../types/settings.js';
import { checkDistinct, checkSearchKind, checkSearchOn, checkSortable, parseSorts } from './checks.js';
import type { SearchContext } from './context.js';
import { searchFilterAsts } from './filter.js';
import { resolveForeignFilters } from './foreign.js';
import { hydrateHits } from './hydration.js';
import { NO_STEPS, type PerformanceSteps, type StepTimer } from './performance-details.js';
import { mapInSlices, withFormatting } from './formatting.js';
import { hitViewer, type IndexSearch } from './hits.js';
import { synonymsBuilt } from './synonym-slices.js';
import { goodEnough, mergeHybrid } from './hybrid.js';
import { addPageFields, pageWindow } from './page.js';
import type { SearchInput } from '../embedders/search-fragments.js';
import { pinExclusion, searchPins, withPins } from './pins.js';
import { embedSearchQuery, type QueryEmbedding } from './query-embedding.js';
import { storedLocales, type SearchQuery } from './query.js';
import { checkMedia, searchInput, searchKind, type SearchKind } from './vector-query.js';

export interface SearchIndexOptions {
  /**
   * Federated search compares the queries' ranking rules here: Meilisearch does it once the index
   * is open (and the search kind known) and before the filter, sort and distinct are checked.
   */
  readonly checkRules?: (settings: IndexSettings, kind: SearchKind) => void;
  /**
   * Facet search checks its `facetSearch` setting here, where v1.50's `perform_facet_search` does:
   * once the search is prepared (search kind, filter syntax, `_foreign` calls, a semantic query's
   * embedding) and before it executes (filter evaluation, `attributesToSearchOn`).
   */
  readonly checkPrepared?: (settings: IndexSettings) => void;
  /**
   * Evaluate the filter as sent (facet search, the legacy search pipeline) instead of its
   * canonical text, which `/search` and `/multi-search` re-parse inside the index, so that their
   * evaluation errors point into it.
   */
  readonly filterAsSent?: boolean;
  /**
   * Only the candidates matter (facet search): a semantic or hybrid search's are the documents
   * the filters match, unranked, and a hybrid search embeds nothing (milli's `execute_for_candidates`);
   * its errors do not name the index, as v1.50's facet search passes milli's errors on as they are.
   */
  readonly candidatesOnly?: boolean;
  /**
   * The filter's syntax and experimental-feature errors name the index too (the chat's search
   * tool: v1.50 parses its filter with the index uid, where `/search` parses it with none).
   */
  readonly filterErrorsNameIndex?: boolean;
  /** where the search's steps are timed, for `performanceDetails` */
  readonly steps?: StepTimer;
  /** the clock of the `searchCutoffMs` budget, when it started before this search (a federated search's queries of one index) */
  readonly clock?: () => number;
  /**
   * The query's filters (its own and the tenant token's) already checked and their `_foreign`
   * calls resolved (federation does it for every query first, as v1.50); absent: done here.
   */
  readonly filters?: readonly FilterAst[];
  /**
   * The hits before the window's offset are dropped unseen (a single search; a federated one
   * merges them by score): a keyword search without pins need not rank the buckets wholly before
   * it, as milli's bucket sort does not.
   */
  readonly dropsOffset?: boolean;
  /**
   * The pins come beside the window's organic hits instead of taking some of their places (a
   * federated search: it places every query's pins itself, and v1.50 reranks a personalized
   * page's organic hits up to its end before it does).
   */
  readonly pinsBeside?: boolean;
}

/**
 * A refusal of the prepared search by the engine (milli's `execute`: the filter's attributes,
 * `attributesToSearchOn`, `distinct`, the sort's attributes). Its message names the index as a
 * search's does; `refusal` is the engine's own, which v1.50's chat search tool gives the LLM.
 */
export class SearchRefusal extends ApiError {
  constructor(
    readonly refusal: ApiError,
    uid: string | null,
  ) {
    super(refusal.code, uid === null ? refusal.message : inIndex(uid, refusal).message);
  }
}

/** What a search asks of its caller: the tenant token's filter (the browser build has no caller but this). */
export type SearchCaller = Pick<Caller, 'searchFilter'>;

/** The ranked hits a search needs: `offset + limit` of them; `exhaustive` makes counts exact (page mode). */
export interface RankWindow {
  readonly offset: number;
  readonly limit: number;
  readonly exhaustive: boolean;
}

/** A first pass that stopped for want of the query's embedding. */
interface NeedsEmbedding {
  readonly embed: { readonly settings: IndexSettings; readonly embedder: string; readonly input: SearchInput; readonly semanticOnly: boolean };
}

/**
 * Checks `query` against index `uid` (search kind, then everything that needs the index) and
 * ranks its hits: `window.offset + window.limit`, capped by `maxTotalHits`. A tenant token's
 * filter (`caller.searchFilter`) is ANDed with the query's.
 */
export async function searchIndex(
  ctx: SearchContext,
  caller: SearchCaller,
  uid: string,
  query: SearchQuery,
  window: RankWindow,
  options: SearchIndexOptions = {},
): Promise<IndexSearch> {
  await synonymsBuilt(ctx, uid, query);
  // the `searchCutoffMs` budget counts from here, as Meilisearch's starts before the filter is evaluated
  const spent = options.clock ?? searchClock();
  let embedding: QueryEmbedding | null = query.vector === undefined || query.vector === null ? null : { vector: Float32Array.from(query.vector) };
  let keywordSpent = spent;
  for (;;) {
    const passStarted = spent();
    const pass = rankIndex(ctx, caller, uid, query, window, options, spent, keywordSpent, embedding);
    if (!('embed' in pass)) return pass;
    const { settings, embedder, input, semanticOnly } = pass.embed;
    const budget = (settings.searchCutoffMs ?? DEFAULT_SEARCH_CUTOFF_MS) - spent();
    embedding = await (options.steps ?? NO_STEPS).stepAsync('embed query', () => embedSearchQuery(settings.embedders, embedder, input, budget, semanticOnly));
    // v1.50 ranks a hybrid search's keyword hits once, before it embeds the query: ranked again
    // here, they get the budget they had then (not what the embedding left, nothing when it
    // failed at the cutoff: its keyword fallback came back unranked)
    const shift = spent() - passStarted;
    keywordSpent = () => spent() - shift;
  }
}

/** One synchronous pass of `searchIndex`, with the query vector when there is one. */
function rankIndex(
  ctx: SearchContext,
  caller: SearchCaller,
  uid: string,
  query: SearchQuery,
  window: RankWindow,
  { checkRules = () => {}, checkPrepared = () => {}, filterAsSent = false, filterErrorsNameIndex = false, candidatesOnly = false, steps = NO_STEPS, filters: resolved, dropsOffset = false, pinsBeside = false }: SearchIndexOptions,
  spent: () => number,
  keywordSpent: () => number,
  embedding: QueryEmbedding | null,
): IndexSearch | NeedsEmbedding {
  // v1.50 opens the index before it reads the search kind: a missing index answers first
  const env = ctx.indexReader.open(uid);
  checkSearchKind(query);
  const settings = searchSettings(env);
  const kind = searchKind(query, env, settings);
  checkRules(settings, kind);
  checkMedia(ctx, query);

  // the canonical text is parsed like a request's filter: what does not read back (a lone
  // surrogate, which Meilisearch's JSON parser refuses earlier) is a filter error, not a crash
  const sent = (): FilterAst[] => {
    try {
      return searchFilterAsts(ctx.features, caller, uid, query.filter);
    } catch (err) {
      throw err instanceof ApiError && filterErrorsNameIndex ? inIndex(uid, err) : err;
    }
  };
  const asts = (resolved ?? resolveForeignFilters(ctx, uid, settings, sent())).map((ast) =>
    filterAsSent ? ast : parseFilter(canonicalFilter(ast), { code: 'invalid_search_filter' })!,
  );
  if (kind.kind === 'semantic' && embedding === null) {
    // Meilisearch embeds a semantic query before it checks the sort and evaluates the filter
    return { embed: { settings, embedder: kind.embedder, input: searchInput(query), semanticOnly: true } };
  }
  checkPrepared(settings);
  const sort = parseSorts(query.sort ?? []);
  let distinct: string | null;
  let filters: DocSet[] = [];
  try {
    checkSearchOn(env, settings, query.attributesToSearchOn);
    distinct = query.distinct === undefined || query.distinct === null ? settings.distinctAttribute : checkDistinct(settings, query.distinct);
    if (asts.length > 0) {
      filters = steps.step('evaluate filter', () => asts.map((ast) => evaluateFilter(env, settings, ast, { code: 'invalid_search_filter', vectors: vectorFilter(env, settings), columns: true })));
    }
    // milli evaluates the filter, then checks the sort; facets are computed after the search
    checkSortable(settings, sort);
  } catch (err) {
    // v1.50 names the index in a search's execution errors (`from_milli`), not in a facet search's
    throw err instanceof ApiError ? new SearchRefusal(err, candidatesOnly ? null : uid) : err;
  }
  checkFacets(settings, query.facets ?? []);

  // dynamic search rules (pins.ts): facet search's candidates take none, as in v1.50
  const pins = candidatesOnly ? [] : searchPins(ctx, env, settings, uid, query, filters);
  if (pins.length > 0) filters = [...filters, pinExclusion(env, pins)];
  const need = Math.min(window.offset + window.limit, settings.pagination.maxTotalHits);
  const pinnedNeed = pinsBeside ? need + pins.length : need;
  const common = {
    need,
    filters,
    sort,
    rankingScoreThreshold: query.rankingScoreThreshold ?? null,
    distinct,
    exhaustive: window.exhaustive,
    // `>=`: a budget of 0 ms lets no ranking step start
    timeUp: () => spent() >= (settings.searchCutoffMs ?? DEFAULT_SEARCH_CUTOFF_MS),
  };
  const semantic = (embedder: string, vector: Float32Array): SearchOutcome =>
    steps.step('semantic ranking', () =>
      executeSemanticSearch(env, settings, { ...common, nearest: (candidates, limit) => searchVectors(env, settings, embedder, vector, limit, candidates) }),
    );
  const searched = (outcome: SearchOutcome, vector?: Float32Array): IndexSearch => ({
    env,
    settings,
    outcome,
    view: hitViewer(env, settings, query),
    semantic: kind.kind !== 'keyword',
    ...(vector !== undefined && query.retrieveVectors === true ? { queryVector: vector } : {}),
  });

  if (candidatesOnly && kind.kind !== 'keyword') {
    return searched(executeSemanticSearch(env, settings, { ...common, need: 0, distinct: null, nearest: () => [] }));
  }
  if (kind.kind === 'semantic') {
    // a semantic-only search throws when its embedding fails, so the vector is there
    const vector = embedding!.vector!;
    return searched(withPins(semantic(kind.embedder, vector), pins, pinnedNeed, false), vector);
  }
  // timed by the engine: `tokenize query`, `evaluate query`, then the ranking
  const organic = executeSearch(env, settings, {
    ...common,
    timeUp: () => keywordSpent() >= (settings.searchCutoffMs ?? DEFAULT_SEARCH_CUTOFF_MS),
    q: query.q ?? '',
    matchingStrategy: query.matchingStrategy ?? 'last',
    attributesToSearchOn: query.attributesToSearchOn ?? null,
    locales: storedLocales(query.locales),
    phases: steps,
    // a hybrid search merges the keyword hits by score, pins move hits across the offset
    rankFrom: dropsOffset && kind.kind === 'keyword' && pins.length === 0 ? window.offset : 0,
  });
  const keyword = withPins(organic, pins, pinnedNeed, false);
  if (kind.kind === 'keyword' || goodEnough(keyword.hits, need, kind.semanticRatio)) return searched(keyword);
  if (embedding === null) return { embed: { settings, embedder: kind.embedder, input: searchInput(query), semanticOnly: false } };
  // the embedding failed: the keyword hits answer
  if (embedding.vector === null) return searched(keyword);
  const vectorOutcome = semantic(kind.embedder, embedding.vector);
  const merged = mergeHybrid(vectorOutcome, organic, kind.semanticRatio, need, distinct === null ? null : distinctFilter(env, new FacetReader(env), distinct));
  const hybrid: SearchOutcome = {
    hits: merged.hits,
    totalHits: merged.candidates.length,
    candidates: merged.candidates,
    matchingWords: organic.matchingWords,
    degraded: organic.degraded || vectorOutcome.degraded,
  };
  return searched(withPins(hybrid, pins, pinnedNeed, true), embedding.vector);
}

/** How many of `hits` a semantic ranking placed (v1.50 counts the hits with a vector score). */
export function semanticHitCount(hits: readonly SearchHit[]): number {
  return hits.filter((hit) => hit.details.some((detail) => detail.kind === 'vector')).length;
}

/**
 * A search result's `metadata`: the query's `q` (absent without one, and in the legacy pipeline),
 * a fresh uid for this query, the index searched and its primary key (absent without one). v1.50
 * runs a search as a federated search of one query, whose metadata names its `q`.
 */
function searchMetadata(ctx: SearchContext, uid: string, q: string | null | undefined, legacy: boolean): Record<string, unknown> {
  const primaryKey = ctx.indexReader.get(uid)?.primaryKey ?? null;
  return { ...(typeof q === 'string' && !legacy ? { query: q } : {}), queryUid: uuidV7(), indexUid: uid, ...(primaryKey === null ? {} : { primaryKey }) };
}

/**
 * A single search's response on index `uid` (search.md §5), with `metadata` when asked
 * (`Meili-Include-Metadata`); `degraded` when the time budget cut the ranking short.
 * `performanceDetails` (showPerformanceDetails) reads `timer`, the request's (a multi-search's is
 * shared by its queries, as in v1.50); `markup`, the budget of its highlight tags and crop markers
 * (a multi-search's is shared by its queries).
 */
export async function searchResponse(
  ctx: SearchContext,
  caller: SearchCaller,
  uid: string,
  query: SearchQuery,
  requestUid: string,
  metadata: boolean,
  timer?: PerformanceSteps,
  markup: MarkupBudget = markupBudget(),
): Promise<{ body: Record<string, unknown>; degraded: boolean }> {
  const started = performance.now();
  const details = query.showPerformanceDetails === true ? timer : undefined;
  const steps: StepTimer = timer ?? NO_STEPS;
  const window = pageWindow(query);
  const legacy = ctx.features.enabled('legacySearch');
  let lease: { release(): void } | undefined;
  try {
    const { search, pageHits, hits } = await steps.stepAsync('execute local search', async () => {
      // the legacy pipeline evaluates the filter as sent: its errors point into the text sent
      const search = await searchIndex(ctx, caller, uid, query, { offset: window.offset, limit: window.limit, exhaustive: window.pageMode }, { steps, filterAsSent: legacy, dropsOffset: true });
      // the index stays open while a page of large documents is formatted in slices (formatting.ts)
      lease = ctx.indexReader.lease(uid);
      const pageHits = search.outcome.hits.slice(window.offset);
      const hits = await steps.stepAsync('format', async () => withFormatting(search, query, pageHits, await mapInSlices(pageHits, (hit) => search.view(hit, markup)), markup, ctx.formatElsewhere));
      await hydrateHits(ctx, search.settings, hits);
      return { search, pageHits, hits };
    });
    const { env, settings, outcome } = search;

    const body: Record<string, unknown> = { hits, query: query.q ?? '' };
    if (search.queryVector !== undefined) body.queryVector = Array.from(search.queryVector, shortestF32);
    // holds its place in the key order; measured once the facets are done, as v1.50 measures it
    body.processingTimeMs = 0;
    addPageFields(body, window, outcome.totalHits, legacy ? settings.pagination.maxTotalHits : undefined);
    const facets = query.facets;
    if (facets !== undefined && facets !== null && facets.length > 0) {
      const { distribution, stats } = steps.step('merge facets', () => computeFacets(env, settings, outcome.candidates, facets, markup));
      body.facetDistribution = distribution;
      body.facetStats = stats;
    }
    // whole milliseconds, truncated as v1.50's `as_millis`: a sub-millisecond search says 0
    body.processingTimeMs = Math.floor(performance.now() - started);
    // v1.50 reranks once the search (facets included) is done and timed, within its deadline
    if (query.personalize !== undefined && query.personalize !== null) {
      const personalize = query.personalize;
      const deadline = started + (settings.searchCutoffMs ?? DEFAULT_SEARCH_CUTOFF_MS);
      const reranker = ctx.personalization ?? NO_PERSONALIZATION;
      body.hits = await steps.stepAsync('personalization', () => reranker.rerank(hits, personalize, query.q ?? null, deadline, hitDocument));
    }
    body.requestUid = requestUid;
    if (metadata) body.metadata = searchMetadata(ctx, uid, query.q, legacy);
    if (details !== undefined) body.performanceDetails = details.details();
    if (search.semantic) body.semanticHitCount = semanticHitCount(pageHits);
    return { body, degraded: outcome.degraded };
  } finally {
    lease?.release();
  }
}
