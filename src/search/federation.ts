/**
 * `/multi-search` with `federation` (search.md §10.2): the hits of every query merged into one
 * ranked list (federated-ranking.ts), as v1.50 merges them (each index's queries, then the indexes
 * and the remotes, with itertools' k-way merge: kmerge.ts), paginated by `federation`, with
 * `_federation` on each hit.
 *
 * Queries run index by index (uids in order, then request order), as Meilisearch runs them, so
 * the first error is the one it reports; the queries of one index share one `searchCutoffMs`
 * budget, as they share one deadline in v1.50. Before each search the query's ranking rules must line
 * up with the most constrained earlier query's (engine/search/federated-rules.ts), else 400
 * `invalid_multi_search_query_ranking_rules`. A document found by several queries of the same
 * index appears once, from the query ranking it best. `federation.distinct` is each query's
 * `distinct` (hence filterable in every queried index), then applied to each index's merged hits
 * and once more across indexes; every hit it removes leaves the hit count and the facets.
 * `estimatedTotalHits` counts, per index, the union of its queries' candidates.
 * Semantic and hybrid queries take part like keyword ones (their similarity is a weighted score);
 * when one of this instance's is semantic (a remote's do not count, as in v1.50),
 * `semanticHitCount` counts the page's hits ranked by a vector, and
 * `queryVectors` maps each query position asking for `retrieveVectors` to its query vector.
 * Documents pinned by dynamic search rules (pins.ts) are placed at their positions of the merged
 * list, by ascending position, around the ranked hits, as v1.50 places them (each query's search
 * gives its pins beside its organic hits); `federation.personalize` reranks the page, or, with
 * pins, the organic hits up to the page's end before the pins are placed, as v1.50 does.
 * `federation.showPerformanceDetails` times each query's search, the merge, the hydration of the
 * page and the facets (performance-details.ts), as the response's last key; `Meili-Include-Metadata`
 * adds `metadata`, an entry per query (federated-metadata.ts). Queries naming other
 * instances are routed by network-use.ts; their failures may mark remotes unavailable
 * (network-failures.ts).
 */
import { hitDocument, NO_PERSONALIZATION } from './personalization.js';
import { shortestF32 } from '../types/ryu.js';
import { markupBudget, type MarkupBudget } from '../engine/search/format.js';
import type { Caller } from '../auth/caller.js';
import { difference, fromUnsorted, union, type DocSet } from '../engine/docset.js';
import { QueryRankingRules } from '../engine/search/federated-rules.js';
import { uuidV7 } from '../types/uuid-v7.js';
import { DEFAULT_SEARCH_CUTOFF_MS, type IndexSettings } from '../types/settings.js';
import type { SearchContext } from './context.js';
import type { ErrorBody } from '../errors/api-error.js';
import { isJsonObject } from '../types/json-text.js';
import { ownRecord } from '../types/own-record.js';
import { addRemoteFacets, indexFacets, mergeFacets } from './federated-facets.js';
import { federatedMetadata } from './federated-metadata.js';
import { compareCandidates, distinctHits, searchOrder, type Candidate, type LocalCandidate, type RemoteCandidate } from './federated-ranking.js';
import { mapInSlices, withFormatting, type FormatElsewhere } from './formatting.js';
import type { IndexSearch } from './hits.js';
import { markFailedRemotes } from './network-failures.js';
import { errorBody, missingInHit, unexpectedInHit } from '../network/remote-answer.js';
import { sortedErrors } from './network-requests.js';
import { featureNeeded, routeQueries, type LocalQuery } from './network-use.js';
import { isPinned, placePins } from './pins.js';
import { kmergeBy } from './kmerge.js';
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
import { remoteSearchDeadline } from './remote-search.js';
import { SharedSearchClock } from '../engine/search/time-budget.js';
import { isSemantic, parseScoreValues, weightedScoreValues } from './score-values.js';
import { setField } from '../types/own-record.js';
import { searchIndex } from './single.js';
import { TimeSlices } from '../types/time-slices.js';
import { streamedWhenLong } from './streamed-answer.js';
import type { StreamedJson } from '../types/streamed-json.js';
import type { SearchKind } from './vector-query.js';
import { withAnswerFloats } from './answer-floats.js';
import { withFloatsOf } from '../types/wire-floats.js';

/** Parameters a federated query may not carry (search.md §10.2), checked in Meilisearch's order. */
function checkFederatedQuery(position: number, query: QueryWithIndex, federation: Federation): void {
  const pagination = (['offset', 'limit', 'page', 'hitsPerPage'] as const).find((field) => query[field] !== undefined && query[field] !== null);
  if (pagination !== undefined) {
    throw queryError(
      position,
      'invalid_multi_search_query_pagination',
      `Using pagination options is not allowed in federated queries.\n - Hint: remove \`${pagination}\` from the query or remove \`federation\` from the request\n - Hint: pass \`federation.limit\` and \`federation.offset\` for pagination in federated search`,
    );
  }
  if (query.facets !== undefined && query.facets !== null && query.facets.length > 0) {
    // Rust's Debug rendering of the list: `["a", "b"]`.
    const facets = `[${query.facets.map((facet) => JSON.stringify(facet)).join(', ')}]`;
    throw queryError(
      position,
      'invalid_multi_search_query_facets',
      `Using facet options is not allowed in federated queries.\n - Hint: remove \`facets\` from the query or remove \`federation\` from the request\n - Hint: pass \`federation.facetsByIndex.${query.indexUid}: ${facets}\` for facets in federated search`,
    );
  }
  if (query.personalize !== undefined && query.personalize !== null) {
    throw queryError(
      position,
      'invalid_multi_search_query_personalization',
      `Using \`.personalize\` is not allowed in federated queries.\n - Hint: remove \`personalize\` from the query or remove \`federation\` from the request\n - Hint: pass \`federation.personalize\` for personalization in federated search`,
    );
  }
  if ((query.federationOptions?.remote ?? null) !== null && query.useNetwork === true) {
    throw queryError(
      position,
      'invalid_multi_search_federation_options',
      'Using `.useNetwork` is not allowed as the same time as `.federationOptions.remote`.\n  - Hint: to perform an explicit query against a remote, remove `.useNetwork`.\n  - Hint: to automatically perform queries against the entire network, remove `.federationOptions.remote`.',
    );
  }
  if (query.showPerformanceDetails !== undefined) {
    throw queryError(
      position,
      'invalid_multi_search_query_show_performance_details',
      `Using \`.showPerformanceDetails\` is not allowed in federated queries.\n - Hint: remove \`showPerformanceDetails\` from the query or remove \`federation\` from the request`,
    );
  }
  if (query.distinct !== undefined && query.distinct !== null && federation.distinct !== undefined && federation.distinct !== null) {
    throw queryError(
      position,
      'invalid_multi_search_distinct',
      `Using \`distinct\` options is not allowed in federated queries when it also appears in \`.federation.distinct\`.\n - Hint: remove \`distinct\` from the query or remove \`federation\` from the request\n  - Note: \`distinct\` at the query level is discouraged in federated search.`,
    );
  }
}

export interface FederatedOptions {
  /** the request came from another instance (`Meili-Proxy-Search: true`): hits carry their weighted score values */
  readonly proxy: boolean;
  /** `Meili-Include-Metadata`: the answer's `metadata` (federated-metadata.ts), also asked of the remotes */
  readonly includeMetadata: boolean;
  /**
   * `metadata` has an entry per copy a query sent over the network rather than per query, as
   * v1.50 builds it for a search with `useNetwork`, whose copies are its queries
   */
  readonly metadataPerCopy?: boolean;
}

/** The federated answer (search.md §10.2): every query's hits merged into one ranked page, written in pieces when long (streamed-answer.ts). */
export async function federatedSearch(
  ctx: SearchContext,
  caller: Caller,
  queries: readonly QueryWithIndex[],
  federation: Federation,
  options: FederatedOptions,
): Promise<Record<string, unknown> | StreamedJson> {
  if (options.proxy && !ctx.features.enabled('network')) throw featureNeeded('Performing a remote federated search');
  const timer = federation.showPerformanceDetails === true ? new PerformanceSteps() : undefined;
  const answer = await queued(ctx, timer, () => federatedResponse(ctx, caller, queries, federation, options, timer));
  return streamedWhenLong(withAnswerFloats(answer), (answer.hits as unknown[]).length);
}

/** `federatedSearch` within a search permit the caller holds (a search or query sent to the network runs as one). */
export async function federatedResponse(
  ctx: SearchContext,
  caller: Caller,
  queries: readonly QueryWithIndex[],
  federation: Federation,
  options: FederatedOptions,
  timer: PerformanceSteps | undefined,
  markup: MarkupBudget = markupBudget(),
): Promise<Record<string, unknown>> {
  // The searched indexes stay open across the pauses between queries, until the page is built.
  const leases = new Map<string, { release(): void }>();
  const abandoned = new AbortController();
  try {
    return await federate(ctx, caller, queries, federation, options, leases, timer, abandoned.signal, markup);
  } finally {
    // a failed local query leaves no remote request running
    abandoned.abort();
    for (const lease of leases.values()) lease.release();
  }
}

/** The `federation` a remote receives: the whole window from the first hit, without `mergeFacets` (network.md §7.3). */
function forwardedFederation(federation: Federation): Federation {
  const { mergeFacets: _mergeFacets, ...rest } = federation;
  const window = pageWindow(federation);
  if (!window.pageMode) return { ...rest, offset: 0, limit: window.offset + window.limit };
  return window.page === 0 ? rest : { ...rest, page: 1, hitsPerPage: window.page * window.hitsPerPage };
}

async function federate(
  ctx: SearchContext,
  caller: Caller,
  queries: readonly QueryWithIndex[],
  federation: Federation,
  options: FederatedOptions,
  leases: Map<string, { release(): void }>,
  timer: PerformanceSteps | undefined,
  signal: AbortSignal,
  markup: MarkupBudget,
): Promise<Record<string, unknown>> {
  const started = performance.now();
  const slices = new TimeSlices();
  const steps: StepTimer = timer ?? NO_STEPS;
  queries.forEach((query, position) => atQuery(position, () => caller.assertIndexAction('search', query.indexUid)));
  // v1.50 parses every query's filter (syntax, feature gates) before it partitions the queries
  queries.forEach((query, position) => atQuery(position, () => searchFilterAsts(ctx.features, caller, query.indexUid, query.filter)));
  const routes = steps.step('partition queries', () => routeQueries(ctx, caller, queries, (position, query) => checkFederatedQuery(position, query, federation)));
  // the remotes search while this instance does
  const deadline = remoteSearchDeadline();
  const remoteAnswers = steps.step('start remote search', () =>
    routes.remotes.map(({ name, address, queries: sent }) =>
      ctx.remoteSearch.send(address, { queries: sent, federation: forwardedFederation(federation) }, { deadline, includeMetadata: options.includeMetadata, signal }).then((answer) => ({ name, answer })),
    ),
  );
  const filters = ctx.features.enabled('foreignKeys') ? foreignResolvedFilters(ctx, caller, routes.local) : null;

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
  // as v1.50's deadline, one `searchCutoffMs` budget per index for all its queries
  const clocks = new Map<string, SharedSearchClock>();
  for (const localQuery of searchOrder(routes.local)) {
    const { index, position, query: routed } = localQuery;
    await slices.pause();
    const { indexUid, federationOptions, ...query } = routed;
    const weight = federationOptions?.weight ?? 1;
    const checkRules = (settings: IndexSettings, kind: SearchKind) => {
      const ranking = kind.kind === 'semantic' ? 'vector' : (query.q ?? '') === '' ? 'placeholder' : 'keyword';
      const rules = new QueryRankingRules(settings.rankingRules, query.sort ?? null, query.matchingStrategy ?? 'last', ranking);
      if (previous !== undefined) rules.assertCompatibleWith(previous, position, indexUid);
      if (previous === undefined || rules.constraintCount >= previous.rules.constraintCount) previous = { rules, position, uid: indexUid };
    };
    const searched = distinct === null ? query : { ...query, distinct };
    let clock = clocks.get(indexUid);
    if (clock === undefined) clocks.set(indexUid, (clock = new SharedSearchClock()));
    const search = await atQueryAsync(position, () =>
      steps.stepAsync('execute local search', () =>
        clock.run((spent) =>
          searchIndex(ctx, caller, indexUid, searched, { offset, limit, exhaustive: window.pageMode }, { checkRules, steps, clock: spent, pinsBeside: true, ...(filters === null ? {} : { filters: filters.get(localQuery)! }) }),
        ),
      ),
    );
    // within the turn whose last pass borrowed it, so the lease holds the environment the search read
    if (!leases.has(indexUid)) leases.set(indexUid, ctx.indexReader.lease(indexUid));
    const seen = perIndex.get(indexUid);
    if (seen === undefined) perIndex.set(indexUid, { search, candidates: search.outcome.candidates, first: position });
    else seen.candidates = union(seen.candidates, search.outcome.candidates);
    semantic ||= search.semantic;
    if (search.queryVector !== undefined) queryVectors[position] = Array.from(search.queryVector, shortestF32);
    for (const hit of search.outcome.hits) {
      candidates.push({ kind: 'local', position, query: index, searched: query, search, hit, weightedScore: hit.score * weight, sequence: weightedScoreValues(hit.details, weight) });
    }
    checkGatheredHits(position, candidates.length);
  }

  // keyed by remote name: `__proto__` is a name like any other
  const remoteErrors = ownRecord<ErrorBody>();
  const answered: { name: string; body: Record<string, unknown> }[] = [];
  for (const { name, answer } of await steps.stepAsync('wait for remote results', () => Promise.all(remoteAnswers))) {
    if (!answer.ok) {
      remoteErrors[name] = answer.error;
      continue;
    }
    const problem = unmergeableHit(answer.body.hits as unknown[]);
    if (problem !== null) {
      remoteErrors[name] = errorBody('remote_bad_response', problem);
      continue;
    }
    answered.push({ name, body: answer.body });
    // a remote was asked for the window's hits: more would only cost merging work here
    for (const hit of (answer.body.hits as unknown[]).slice(0, offset + limit)) {
      const candidate = remoteCandidate(name, hit);
      if (candidate !== null) candidates.push(candidate);
    }
    if (isJsonObject(answer.body.queryVectors)) Object.assign(queryVectors, answer.body.queryVectors);
  }
  const remoteBodies = answered.map(({ body }) => body);

  const { merged, dropped, organic, pins } = steps.step('merge results', () => {
    // pinned hits (pins.ts), this instance's and the remotes', stay out of the ranking and
    // distinct, and come back at their positions (local ones first at equal positions, as v1.50)
    const pinned = candidates.filter((candidate) => pinPosition(candidate) !== null).sort((a, b) => pinPosition(a)! - pinPosition(b)!);
    const shown = new Set<string>();
    const firstShown = (candidate: Candidate) => {
      if (candidate.kind === 'remote') return true;
      const key = `${queries[candidate.query]!.indexUid}\u0000${candidate.hit.docid}`;
      if (shown.has(key)) return false;
      shown.add(key);
      return true;
    };
    const pins = pinned.filter(firstShown);
    const unique = mergeRanked(candidates.filter((candidate) => pinPosition(candidate) === null), queries, firstShown);
    const ranked = distinct === null ? { merged: unique, dropped: new Map<string, number[]>() } : distinctHits(unique, queries, distinct, offset + limit);
    return { ...ranked, organic: ranked.merged, pins, merged: placePins<Candidate, Candidate>(pins, ranked.merged, offset + limit, (pin) => pinPosition(pin)!, (pin) => pin) };
  });
  const unions = new Map([...perIndex].map(([uid, { candidates }]) => [uid, difference(candidates, fromUnsorted(dropped.get(uid) ?? []))]));
  let total = 0;
  for (const union of unions.values()) total += union.length;
  for (const body of remoteBodies) total += Number(window.pageMode ? body.totalHits : body.estimatedTotalHits) || 0;

  const page = merged.slice(offset, offset + limit);
  // once a query names a remote, every hit says which instance it comes from
  const remote = routes.hasRemote && !options.proxy ? { remote: ctx.network.names().self } : {};
  const format = (list: readonly Candidate[]) => steps.stepAsync('hydrate documents', () => formatPage(list, markup, ctx.formatElsewhere));
  // the leader reranks the merged hits (a remote, answering a proxy search, does not), then hydrates them
  const personalize = options.proxy ? null : (federation.personalize ?? null);
  let formatted: Awaited<ReturnType<typeof format>>;
  if (personalize === null) formatted = await format(page);
  else {
    const reranker = ctx.personalization ?? NO_PERSONALIZATION;
    // as v1.50: the earliest of the searched indexes' deadlines, the queries' texts joined
    const cutoffs = [...perIndex.values()].map(({ search }) => search.settings.searchCutoffMs ?? DEFAULT_SEARCH_CUTOFF_MS);
    const deadline = started + Math.min(Infinity, ...cutoffs);
    const texts = queries.flatMap(({ q }) => (q === undefined || q === null ? [] : [q])).join(', ');
    const rerank = (hits: Awaited<ReturnType<typeof format>>) => steps.stepAsync('personalization', () => reranker.rerank(hits, personalize, texts, deadline, ({ view }) => hitDocument(view)));
    if (pins.length === 0) formatted = await rerank(await format(page));
    else {
      // v1.50 reranks the organic hits up to the page's end, then places the pins and cuts the page
      const reranked = await rerank(await format(organic.slice(0, offset + limit)));
      const pinned = await format(pins);
      formatted = placePins(pinned, reranked, offset + limit, ({ candidate }) => pinPosition(candidate)!, (pin) => pin).slice(offset, offset + limit);
    }
  }
  const formattedPage = await steps.stepAsync('hydrate documents', async () => {
    // foreign keys (hydration.ts): each index's hits joined with its own `foreignKeys`
    for (const [uid, { search }] of perIndex) {
      const views = formatted.filter(({ candidate }) => candidate.kind === 'local' && queries[candidate.query]!.indexUid === uid).map(({ view }) => view);
      await hydrateHits(ctx, search.settings, views);
    }
    return formatted;
  });
  const hits = formattedPage.map(({ candidate, view }) => {
    if (candidate.kind === 'remote') return view;
    const { query, position, hit, search, weightedScore, sequence } = candidate;
    const federationInfo: Record<string, unknown> = { indexUid: queries[query]!.indexUid, queriesPosition: position, weightedRankingScore: weightedScore, ...remote };
    if (options.proxy) {
      federationInfo.weightedScoreValues = sequence;
      federationInfo.extra_document = extraDocument(search, hit.docid, view, distinct);
      if (isPinned(hit)) federationInfo.pinnedPosition = pinPosition(candidate);
    }
    return withFederation(view, federationInfo);
  });
  // processingTimeMs holds its place in the key order; it is measured once the facets are done.
  const body: Record<string, unknown> = { hits };
  if (queries.some((query) => query.retrieveVectors === true)) body.queryVectors = queryVectors;
  body.processingTimeMs = 0;
  addPageFields(body, window, total);
  const facetsByIndex = federation.facetsByIndex ?? {};
  if (Object.keys(facetsByIndex).length > 0) {
    const facets = steps.step('merge facets', () => indexFacets(ctx, facetsByIndex, perIndex, unions, markup));
    // an index no query names, or whose patterns are null, is only checked (v1.50 `check_unused_facets`)
    const queried = new Set(queries.map((query) => query.indexUid));
    const answered = (uid: string) => queried.has(uid) && facetsByIndex[uid] !== null;
    for (const remoteBody of remoteBodies) addRemoteFacets(facets, remoteBody.facetsByIndex);
    if (federation.mergeFacets !== undefined && federation.mergeFacets !== null) {
      const merged = mergeFacets(facets, federation.mergeFacets.maxValuesPerFacet, answered, (uid) => perIndex.get(uid)?.first);
      // no index answered facets: v1.50 merges nothing and leaves both keys out
      if ([...facets.keys()].some(answered)) Object.assign(body, merged);
    } else {
      // Ordered by index uid whatever the request's order, as Meilisearch's sorted map answers.
      const byUid = [...facets].filter(([uid]) => answered(uid)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (byUid.length > 0) body.facetsByIndex = Object.fromEntries(byUid.map(([uid, { distribution, stats }]) => [uid, { distribution, stats }]));
    }
  }
  // the slowest of this instance and the remotes
  body.processingTimeMs = Math.max(Math.floor(performance.now() - started), ...remoteBodies.map((remoteBody) => Number(remoteBody.processingTimeMs) || 0));
  body.requestUid = uuidV7();
  if (options.includeMetadata) {
    const asked =
      options.metadataPerCopy === true
        ? queries.flatMap(({ q, indexUid }, i) => routes.copies[i]!.map((remote) => ({ q, indexUid, remote })))
        : queries.map(({ q, indexUid, federationOptions }) => ({ q, indexUid, remote: federationOptions?.remote ?? null }));
    const primaryKeys = new Map([...perIndex.keys()].map((uid) => [uid, ctx.indexReader.get(uid)?.primaryKey ?? null]));
    body.metadata = federatedMetadata(asked, primaryKeys, answered, routes.hasRemote ? ctx.network.names().self : null);
  }
  if (routes.hasRemote) {
    body.remoteErrors = sortedErrors(remoteErrors);
    markFailedRemotes(ctx.network, remoteErrors);
  }
  if (semantic) body.semanticHitCount = page.filter((candidate) => isSemantic(candidate.sequence)).length;
  if (timer !== undefined) body.performanceDetails = timer.details();
  return body;
}

/**
 * With `foreignKeys` on, v1.50 resolves every query's filters before searching any (`_foreign`
 * calls included, foreign.ts): a missing index and a foreign filter's errors then carry no query
 * prefix, a filter's syntax and gates keep theirs. Keyed by local query (a query sent to the
 * network may run here once per shard this instance owns).
 */
function foreignResolvedFilters(ctx: SearchContext, caller: Caller, local: readonly LocalQuery[]): Map<LocalQuery, FilterAst[]> {
  const settings = local.map(({ query }) => searchSettings(ctx.indexReader.open(query.indexUid)));
  const sent = local.map(({ index, query }) => atQuery(index, () => searchFilterAsts(ctx.features, caller, query.indexUid, query.filter)));
  return new Map(local.map((localQuery, i) => [localQuery, resolveForeignFilters(ctx, localQuery.query.indexUid, settings[i]!, sent[i]!)]));
}

/**
 * The ranked hits in v1.50's order: each index's queries' lists merged (queries in request
 * order), a document kept from the first list giving it (`keep`), then the indexes' lists (by
 * uid) and the remotes' (by name) merged; both merges are itertools' `kmerge_by` (kmerge.ts),
 * the better weighted score values first, ties to the lower query position.
 */
function mergeRanked(organic: readonly Candidate[], queries: readonly QueryWithIndex[], keep: (candidate: Candidate) => boolean): Candidate[] {
  const before = (a: Candidate, b: Candidate) => compareCandidates(a, b) < 0;
  const append = <K>(map: Map<K, Candidate[]>, key: K, candidate: Candidate) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [candidate]);
    else list.push(candidate);
  };
  // a search's hits were appended in its rank order (a query run once per owned shard is one search per run)
  const bySearch = new Map<IndexSearch, Candidate[]>();
  const byRemote = new Map<string, Candidate[]>();
  for (const candidate of organic) {
    if (candidate.kind === 'local') append(bySearch, candidate.search, candidate);
    else append(byRemote, candidate.remote, candidate);
  }
  const byIndex = new Map<string, Candidate[][]>();
  for (const list of bySearch.values()) {
    const uid = queries[(list[0] as LocalCandidate).query]!.indexUid;
    const lists = byIndex.get(uid);
    if (lists === undefined) byIndex.set(uid, [list]);
    else lists.push(list);
  }
  const byKey = <V>(map: Map<string, V>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
  const lists = [...byKey(byIndex).map((perQuery) => kmergeBy(perQuery, before).filter(keep)), ...byKey(byRemote)];
  return kmergeBy(lists, before);
}

/** The position a pinned hit is pinned at, or null for a ranked hit. */
function pinPosition(candidate: Candidate): number | null {
  if (candidate.kind === 'remote') return candidate.pinnedPosition;
  const pin = candidate.hit.details[0];
  return pin?.kind === 'pin' ? pin.position : null;
}

/**
 * Why a remote's hits cannot be merged, or null: v1.50 drops a remote's whole answer (and reports
 * it in `remoteErrors`) at the first hit without a `_federation` map holding its weighted score
 * values and its weighted ranking score.
 */
function unmergeableHit(hits: readonly unknown[]): string | null {
  for (const hit of hits) {
    const federation = (hit as Record<string, unknown>)._federation;
    if (federation === undefined) return missingInHit('._federation');
    if (!isJsonObject(federation)) return unexpectedInHit('._federation', 'map', federation);
    for (const key of ['weightedScoreValues', 'weightedRankingScore']) if (!Object.hasOwn(federation, key)) return missingInHit(`._federation.${key}`);
  }
  return null;
}

/**
 * A hit a remote sent, or null when the merge cannot read it (v1.50 skips such a hit): its
 * `_federation` loses the weighted score values, `extra_document` and `pinnedPosition` (kept
 * aside, so the merge places the pin) and gains the remote's name.
 */
function remoteCandidate(remote: string, hit: unknown): RemoteCandidate | null {
  if (!isJsonObject(hit) || !isJsonObject(hit._federation)) return null;
  const { weightedScoreValues, extra_document: extra, pinnedPosition, ...info } = hit._federation;
  const sequence = parseScoreValues(weightedScoreValues);
  const { weightedRankingScore, queriesPosition, indexUid } = info;
  if (sequence === null || typeof weightedRankingScore !== 'number' || typeof indexUid !== 'string') return null;
  if (typeof queriesPosition !== 'number' || !Number.isInteger(queriesPosition) || queriesPosition < 0) return null;
  const view = withFloatsOf(hit, { ...hit, _federation: { ...info, remote } });
  // v1.50 reads a pin's position as an unsigned 32-bit integer; anything else leaves the hit ranked
  const pinned = typeof pinnedPosition === 'number' && Number.isInteger(pinnedPosition) && pinnedPosition >= 0 && pinnedPosition <= 0xffffffff ? pinnedPosition : null;
  return { kind: 'remote', remote, indexUid, position: queriesPosition, sequence, weightedScore: weightedRankingScore, view, extra: isJsonObject(extra) ? extra : {}, pinnedPosition: pinned };
}

/** What `federation.distinct` needs of a document that its shown fields lack, for the instance merging the hits. */
function extraDocument(search: IndexSearch, docid: number, view: Record<string, unknown>, distinct: string | null): Record<string, unknown> {
  if (distinct === null || Object.hasOwn(view, distinct.split('.')[0]!)) return {};
  const document = search.env.documents.get(docid) ?? {};
  const top = distinct.split('.')[0]!;
  return Object.hasOwn(document, top) ? { [top]: document[top] } : {};
}

/** Keys Meilisearch serialises after the document fields, hence after `_federation` too. */
const AFTER_DOCUMENT = new Set(['_formatted', '_matchesPosition', '_rankingScore', '_rankingScoreDetails']);

/** `view` with `_federation` appended to the document fields (search.md §10.2), ahead of formatting and scores. */
function withFederation(view: Record<string, unknown>, federation: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const after: [string, unknown][] = [];
  for (const [key, value] of Object.entries(view)) {
    if (AFTER_DOCUMENT.has(key)) after.push([key, value]);
    else setField(out, key, value);
  }
  out._federation = federation;
  for (const [key, value] of after) out[key] = value;
  return withFloatsOf(view, out);
}

/** The page's hits as shown, each query's hits highlighted and cropped with that query's options; a remote's as it sent them. */
async function formatPage(page: readonly Candidate[], markup: MarkupBudget, elsewhere?: FormatElsewhere): Promise<{ candidate: Candidate; view: Record<string, unknown> }[]> {
  const views: Record<string, unknown>[] = new Array(page.length);
  const byQuery = new Map<number, number[]>();
  page.forEach((candidate, i) => {
    if (candidate.kind === 'remote') views[i] = candidate.view;
    else {
      // appended in place: a copy per hit made 30,000 hits of one query take 30 s
      const slots = byQuery.get(candidate.query);
      if (slots === undefined) byQuery.set(candidate.query, [i]);
      else slots.push(i);
    }
  });
  for (const slots of byQuery.values()) {
    const first = page[slots[0]!] as LocalCandidate;
    const hits = slots.map((i) => (page[i] as LocalCandidate).hit);
    (await withFormatting(first.search, first.searched, hits, await mapInSlices(hits, (hit) => first.search.view(hit, markup)), markup, elsewhere)).forEach((view, j) => (views[slots[j]!] = view));
  }
  return page.map((candidate, i) => ({ candidate, view: views[i]! }));
}
