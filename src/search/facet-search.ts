/**
 * Facet search (search.md §11): the values of one facet held by the documents a search (`q`,
 * `filter`, `matchingStrategy`, …) matches, optionally narrowed by a `facetQuery` (prefix with
 * typos), with their counts.
 *
 * Order of checks, as Meilisearch: the index, the search's preparation (single.ts `searchIndex`:
 * search kind, filter syntax, a semantic query's embedding), the `facetSearch` setting, the
 * search's execution (which finds the candidates: for a semantic or hybrid search, the documents
 * its filters match), then the facet name. The request's `locales` narrow the field's
 * `localizedAttributes` locales the query is normalised with. Facet search over the network
 * (`useNetwork`) is network-facet-search.ts, which runs this one for the local part.
 */
import type { Caller } from '../auth/caller.js';
import { checkFacetSearchable, searchFacetValues } from '../engine/facets/facet-search.js';
import { searchSettings } from '../engine/index-settings.js';
import { distinctCounter } from '../engine/search/distinct.js';
import { FacetReader } from '../engine/facets/store.js';
import { ApiError } from '../errors/api-error.js';
import type { SearchContext } from './context.js';
import type { StepTimer } from './performance-details.js';
import type { SearchQuery } from './query.js';
import { facetOrder, type IndexSettings } from '../types/settings.js';
import type { FacetHit } from '../engine/facets/facet-hits.js';
import { searchIndex } from './single.js';
import { storedLocale } from '../settings/locales.js';

export interface FacetSearchQuery extends SearchQuery {
  facetName: string;
  facetQuery?: string | null;
  exhaustiveFacetCount?: boolean | null;
}

/** This instance's answer, with the order of its facet values (which a networked facet search merges in). */
export interface LocalFacetSearch {
  readonly body: { facetHits: FacetHit[]; facetQuery: string | null; processingTimeMs: number };
  readonly order: 'alpha' | 'count';
}

export async function facetSearch(ctx: SearchContext, caller: Caller, rawUid: string, request: FacetSearchQuery): Promise<LocalFacetSearch> {
  const started = performance.now();
  const { facetName, facetQuery = null, exhaustiveFacetCount, useNetwork: _useNetwork, ...query } = request;
  const record = ctx.indexReader.record(rawUid);
  const settings = searchSettings(ctx.indexReader.envOf(record));
  // With a distinct attribute the candidates are those of a default search (limit 20): the hits it
  // ranks take their whole distinct groups out, the others stay (Meilisearch counts the same way);
  // an exhaustive count then counts each value's distinct groups instead of its documents.
  const distinct = settings.distinctAttribute;
  const clock = new ExecutionClock();
  const { env, outcome } = await searchIndex(ctx, caller, record.uid, query, { offset: 0, limit: distinct === null ? 0 : 20, exhaustive: false }, { filterAsSent: true, candidatesOnly: true, steps: clock, checkPrepared: checkFacetSearchEnabled });
  checkFacetSearchable(settings, facetName);
  const count = distinct !== null && exhaustiveFacetCount === true ? distinctCounter(env, new FacetReader(env), distinct) : undefined;
  const facetHits = searchFacetValues(env, settings, outcome.candidates, facetName, facetQuery, { count, locales: query.locales?.map(storedLocale) ?? null });
  return { body: { facetHits, facetQuery, processingTimeMs: Math.floor(performance.now() - (clock.started ?? started)) }, order: facetOrder(settings, facetName) };
}

function checkFacetSearchEnabled(settings: IndexSettings): void {
  if (!settings.facetSearch) throw new ApiError('facet_search_disabled', 'The facet search is disabled for this index');
}

/**
 * Where v1.50's facet search starts its clock (`perform_facet_search`'s `before_search`): once the
 * search is prepared (index, `search_kind`, `prepare_search`: the filter parsed, the query's
 * parameters checked) and about to execute (`execute_for_candidates`: filter evaluation, query
 * resolution, ranking). The search here prepares and executes in one call, so the clock starts at
 * its first step (filter evaluation, ranking, a query embedding); when none runs, at the request's start.
 */
class ExecutionClock implements StepTimer {
  started: number | undefined;

  step<T>(_name: string, work: () => T): T {
    this.started ??= performance.now();
    return work();
  }

  stepAsync<T>(_name: string, work: () => Promise<T>): Promise<T> {
    this.started ??= performance.now();
    return work();
  }
}
