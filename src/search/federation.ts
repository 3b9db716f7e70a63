/**
 * `/multi-search` with `federation` (search.md §10.2): the hits of every query merged into one
 * ranked list (federated-ranking.ts), paginated by `federation`, with `_federation` on each hit.
 *
 * Queries run index by index (uids in order, then request order), as Meilisearch runs them, so
 * the first error is the one it reports. Before each search the query's ranking rules must line
 * up with the most constrained earlier query's (engine/search/federated-rules.ts), else 400
 * `invalid_multi_search_query_ranking_rules`. A document found by several queries of the same
 * index appears once, from the query ranking it best. `federation.distinct` is each query's
 * `distinct` (hence filterable in every queried index), then applied to each index's merged hits
 * and once more across indexes; every hit it removes leaves the hit count and the facets.
 * `estimatedTotalHits` counts, per index, the union of its queries' candidates.
 * Semantic and hybrid queries take part like keyword ones (their similarity is a weighted score);
 * when one of them is semantic, `semanticHitCount` counts the page's hits ranked by a vector, and
 * `queryVectors` maps each query position asking for `retrieveVectors` to its query vector.
 * Documents pinned by dynamic search rules (pins.ts) are placed at their positions of the merged
 * list, by ascending position, around the ranked hits, as v1.50 places them.
 * `federation.showPerformanceDetails` times each query's search, the merge, the hydration of the
 * page and the facets (performance-details.ts), as the response's last key.
 */
import type { Caller } from '../auth/caller.js';
import { difference, fromUnsorted, union, type DocSet } from '../engine/docset.js';
import { QueryRankingRules } from '../engine/search/federated-rules.js';
import { uuidV7 } from '../types/uuid-v7.js';
import type { IndexSettings } from '../types/settings.js';
import type { SearchContext } from './context.js';
import { indexFacets, mergeFacets } from './federated-facets.js';
import { compareCandidates, distinctHits, searchOrder, weightedSequence, type Candidate } from './federated-ranking.js';
import { withFormatting } from './formatting.js';
import type { IndexSearch } from './hits.js';
import { checkRemote } from './network-use.js';
import { isPinned, placePins } from './pins.js';
import { hydrateHits } from './hydration.js';
import { searchFilterAsts } from './filter.js';
import { resolveForeignFilters } from './foreign.js';
import { searchSettings } from '../engine/index-settings.js';
import type { FilterAst } from '../engine/filter-parser/index.js';
import { NO_STEPS, PerformanceSteps, type StepTimer } from './performance-details.js';
import { queued } from './queued.js';
import { addPageFields, pageWindow } from './page.js';
import { atQuery, atQueryAsync, checkGatheredHits, queryError } from './query-errors.js';
import type { Federation, QueryWithIndex } from './query.js';
import { searchIndex, semanticHitCount } from './single.js';
import { TimeSlices } from './time-slices.js';
import type { SearchKind } from './vector-query.js';

/** Parameters a federated query may not carry (search.md §10.2), checked in Meilisearch's order. */
function checkFederatedQuery(position: number, query: QueryWithIndex, federation: Federation): void {
  const pagination = (['offset', 'limit', 'page', 'hitsPerPage'] as const).find((field) => query[field] !== undefined && query[field] !== null);
  if (pagination !== undefined) {
    throw queryError(
      position,
      'invalid_multi_search_query_pagination',
      `Using pagination options is not allowed in federated queries.\n - Hint: remove \`${pagination}\` from query #${position} or remove \`federation\` from the request\n - Hint: pass \`federation.limit\` and \`federation.offset\` for pagination in federated search`,
    );
  }
  if (query.facets !== undefined && query.facets !== null && query.facets.length > 0) {
    // Rust's Debug rendering of the list: `["a", "b"]`.
    const facets = `[${query.facets.map((facet) => JSON.stringify(facet)).join(', ')}]`;
    throw queryError(
      position,
      'invalid_multi_search_query_facets',
      `Using facet options is not allowed in federated queries.\n - Hint: remove \`facets\` from query #${position} or remove \`federation\` from the request\n - Hint: pass \`federation.facetsByIndex.${query.indexUid}: ${facets}\` for facets in federated search`,
    );
  }
  if (query.personalize !== undefined && query.personalize !== null) {
    throw queryError(
      position,
      'invalid_multi_search_query_personalization',
      `Using \`.personalize\` is not allowed in federated queries.\n - Hint: remove \`personalize\` from query #${position} or remove \`federation\` from the request`,
    );
  }
  if (query.showPerformanceDetails !== undefined) {
    throw queryError(
      position,
      'invalid_multi_search_query_show_performance_details',
      `Using \`.showPerformanceDetails\` is not allowed in federated queries.\n - Hint: remove \`showPerformanceDetails\` from query #${position} or remove \`federation\` from the request`,
    );
  }
  if (query.distinct !== undefined && query.distinct !== null && federation.distinct !== undefined && federation.distinct !== null) {
    throw queryError(
      position,
      'invalid_multi_search_distinct',
      `Using \`distinct\` is not allowed in federated queries when \`federation.distinct\` is set.\n - Hint: remove \`distinct\` from query #${position} or remove \`distinct\` from \`federation\``,
    );
  }
}

/** The federated answer (search.md §10.2): every query's hits merged into one ranked page. */
export async function federatedSearch(
  ctx: SearchContext,
  caller: Caller,
  queries: readonly QueryWithIndex[],
  federation: Federation,
): Promise<Record<string, unknown>> {
  const timer = federation.showPerformanceDetails === true ? new PerformanceSteps() : undefined;
  return queued(ctx, timer, async () => {
    // The searched indexes stay open across the pauses between queries, until the page is built.
    const leases = new Map<string, { release(): void }>();
    try {
      return await federate(ctx, caller, queries, federation, leases, timer);
    } finally {
      for (const lease of leases.values()) lease.release();
    }
  });
}

async function federate(
  ctx: SearchContext,
  caller: Caller,
  queries: readonly QueryWithIndex[],
  federation: Federation,
  leases: Map<string, { release(): void }>,
  timer: PerformanceSteps | undefined,
): Promise<Record<string, unknown>> {
  const started = performance.now();
  const slices = new TimeSlices();
  const steps: StepTimer = timer ?? NO_STEPS;
  queries.forEach((query, position) => atQuery(position, () => caller.assertIndexAction('search', query.indexUid)));
  queries.forEach((query, position) => checkFederatedQuery(position, query, federation));
  queries.forEach((query, position) => checkRemote(ctx, position, query.federationOptions?.remote, query.useNetwork));
  const filters = ctx.features.enabled('foreignKeys') ? foreignResolvedFilters(ctx, caller, queries) : null;

  const window = pageWindow(federation);
  const { offset, limit } = window;
  const distinct = federation.distinct ?? null;

  const candidates: Candidate[] = [];
  // Per index: the union of its searches' candidates so far (folded query by query, so thousands
  // of queries never hold thousands of sets), and the first query using it (for error prefixes).
  const perIndex = new Map<string, { search: IndexSearch; candidates: DocSet; first: number }>();
  // The most constrained ranking rules so far, which the next query's must line up with.
  let previous: { rules: QueryRankingRules; position: number; uid: string } | undefined;
  // whether some query searched semantically (the response then counts `semanticHitCount`), and
  // the query vectors of those that asked for `retrieveVectors`
  let semantic = false;
  const queryVectors: Record<number, number[]> = {};
  for (const position of searchOrder(queries)) {
    await slices.pause();
    const { indexUid, federationOptions, ...query } = queries[position]!;
    const weight = federationOptions?.weight ?? 1;
    const checkRules = (settings: IndexSettings, kind: SearchKind) => {
      const ranking = kind.kind === 'semantic' ? 'vector' : (query.q ?? '') === '' ? 'placeholder' : 'keyword';
      const rules = new QueryRankingRules(settings.rankingRules, query.sort ?? null, query.matchingStrategy ?? 'last', ranking);
      if (previous !== undefined) rules.assertCompatibleWith(previous, position, indexUid);
      if (previous === undefined || rules.constraintCount >= previous.rules.constraintCount) previous = { rules, position, uid: indexUid };
    };
    const searched = distinct === null ? query : { ...query, distinct };
    const search = await atQueryAsync(position, () =>
      steps.stepAsync('execute local search', () =>
        searchIndex(ctx, caller, indexUid, searched, { offset, limit, exhaustive: window.pageMode }, { checkRules, steps, ...(filters === null ? {} : { filters: filters[position]! }) }),
      ),
    );
    // within the turn whose last pass borrowed it, so the lease holds the environment the search read
    if (!leases.has(indexUid)) leases.set(indexUid, ctx.indexReader.lease(indexUid));
    const seen = perIndex.get(indexUid);
    if (seen === undefined) perIndex.set(indexUid, { search, candidates: search.outcome.candidates, first: position });
    else seen.candidates = union(seen.candidates, search.outcome.candidates);
    semantic ||= search.semantic;
    if (search.queryVector !== undefined) queryVectors[position] = Array.from(search.queryVector);
    for (const hit of search.outcome.hits) {
      candidates.push({ position, query, search, hit, weight, sequence: weightedSequence(hit.details, weight) });
    }
    checkGatheredHits(position, candidates.length);
  }
  const { merged, dropped } = steps.step('merge results', () => {
    // pinned hits (pins.ts) stay out of the ranking and distinct, and come back at their positions
    const pinned = candidates.filter(({ hit }) => isPinned(hit)).sort((a, b) => pinPosition(a) - pinPosition(b));
    const organic = candidates.filter(({ hit }) => !isPinned(hit)).sort(compareCandidates);
    const shown = new Set<string>();
    const firstShown = ({ hit, position }: Candidate) => {
      const key = `${queries[position]!.indexUid}\u0000${hit.docid}`;
      if (shown.has(key)) return false;
      shown.add(key);
      return true;
    };
    const pins = pinned.filter(firstShown);
    const unique = organic.filter(firstShown);
    const ranked = distinct === null ? { merged: unique, dropped: new Map<string, number[]>() } : distinctHits(unique, queries, distinct, offset + limit);
    return { ...ranked, merged: placePins(pins, ranked.merged, offset + limit, pinPosition, (pin) => pin) };
  });
  const unions = new Map([...perIndex].map(([uid, { candidates }]) => [uid, difference(candidates, fromUnsorted(dropped.get(uid) ?? []))]));
  let total = 0;
  for (const union of unions.values()) total += union.length;

  const page = merged.slice(offset, offset + limit);
  // once a query names a remote, every hit says which instance it comes from (all local here: self)
  const remote = queries.some((query) => typeof query.federationOptions?.remote === 'string') ? { remote: ctx.network.names().self } : {};
  const hits = steps.step('hydrate documents', () => {
    const formatted = formatPage(page);
    // foreign keys (hydration.ts): each index's hits joined with its own `foreignKeys`
    for (const [uid, { search }] of perIndex) {
      hydrateHits(ctx, search.settings, formatted.filter(({ candidate }) => queries[candidate.position]!.indexUid === uid).map(({ view }) => view));
    }
    return formatted;
  }).map(({ candidate: { position, hit, weight }, view }) =>
    withFederation(view, { indexUid: queries[position]!.indexUid, queriesPosition: position, weightedRankingScore: hit.score * weight, ...remote }),
  );
  // processingTimeMs holds its place in the key order; it is measured once the facets are done.
  const body: Record<string, unknown> = { hits };
  if (queries.some((query) => query.retrieveVectors === true)) body.queryVectors = queryVectors;
  body.processingTimeMs = 0;
  addPageFields(body, window, total);
  const facetsByIndex = federation.facetsByIndex ?? {};
  if (Object.keys(facetsByIndex).length > 0) {
    const facets = steps.step('merge facets', () => indexFacets(ctx, facetsByIndex, perIndex, unions));
    if (federation.mergeFacets !== undefined && federation.mergeFacets !== null) {
      Object.assign(body, mergeFacets(facets, federation.mergeFacets.maxValuesPerFacet));
    } else {
      // Ordered by index uid whatever the request's order, as Meilisearch's sorted map answers.
      const byUid = [...facets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      body.facetsByIndex = Object.fromEntries(byUid.map(([uid, { distribution, stats }]) => [uid, { distribution, stats }]));
    }
  }
  body.processingTimeMs = Math.floor(performance.now() - started);
  body.requestUid = uuidV7();
  if (semantic) body.semanticHitCount = semanticHitCount(page.map(({ hit }) => hit));
  if (timer !== undefined) body.performanceDetails = timer.details();
  return body;
}

/**
 * With `foreignKeys` on, v1.50 resolves every query's filters before searching any (`_foreign`
 * calls included, foreign.ts): a missing index and a foreign filter's errors then carry no query
 * prefix, a filter's syntax and gates keep theirs.
 */
function foreignResolvedFilters(ctx: SearchContext, caller: Caller, queries: readonly QueryWithIndex[]): FilterAst[][] {
  const settings = queries.map(({ indexUid }) => searchSettings(ctx.indexReader.open(indexUid)));
  const sent = queries.map((query, position) => atQuery(position, () => searchFilterAsts(ctx.features, caller, query.indexUid, query.filter)));
  return sent.map((asts, position) => resolveForeignFilters(ctx, queries[position]!.indexUid, settings[position]!, asts));
}

/** The position a pinned hit is pinned at. */
function pinPosition({ hit }: Candidate): number {
  const pin = hit.details[0]!;
  return pin.kind === 'pin' ? pin.position : 0;
}

/** Keys Meilisearch serialises after the document fields, hence after `_federation` too. */
const AFTER_DOCUMENT = new Set(['_formatted', '_matchesPosition', '_rankingScore', '_rankingScoreDetails']);

/** `view` with `_federation` appended to the document fields (search.md §10.2), ahead of formatting and scores. */
function withFederation(view: Record<string, unknown>, federation: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const after: [string, unknown][] = [];
  for (const [key, value] of Object.entries(view)) {
    if (AFTER_DOCUMENT.has(key)) after.push([key, value]);
    else out[key] = value;
  }
  out._federation = federation;
  for (const [key, value] of after) out[key] = value;
  return out;
}

/** The page's hits as shown, each query's hits highlighted and cropped with that query's options. */
function formatPage(page: readonly Candidate[]): { candidate: Candidate; view: Record<string, unknown> }[] {
  const views: Record<string, unknown>[] = new Array(page.length);
  const byQuery = new Map<number, number[]>();
  page.forEach(({ position }, i) => byQuery.set(position, [...(byQuery.get(position) ?? []), i]));
  for (const slots of byQuery.values()) {
    const { query, search } = page[slots[0]!]!;
    const hits = slots.map((i) => page[i]!.hit);
    withFormatting(search, query, hits, hits.map(search.view)).forEach((view, j) => (views[slots[j]!] = view));
  }
  return page.map((candidate, i) => ({ candidate, view: views[i]! }));
}

