/**
 * `POST /multi-search` (search.md §10): several searches in one request, each query being a
 * single search's body plus `indexUid`. Without `federation` the answer lists one search
 * response per query; with it, the hits of every query are merged into one ranked list.
 *
 * Errors tied to a query carry ``Inside `.queries[<i>]`: `` in front of the single-search
 * message, and the first failing query stops the request. Every queried index is checked
 * against the caller's key, and a tenant token's filter is added to the queries of its index.
 *
 * Federated merge: hits are compared by their weighted score sequences (consecutive relevancy
 * rules collapse into one score × weight, sort rules compare their values); when two sequences
 * do not line up, `_rankingScore × weight` decides; ties keep the earlier query first. A document
 * found by several queries of the same index appears once, from the query ranking it best.
 * `estimatedTotalHits` counts, per index, the union of its queries' candidates. `facetsByIndex`
 * computes each named index's facets over that union (nothing for an index no query uses);
 * `mergeFacets` sums them into one distribution.
 *
 * Queries run index by index (uids in order, then request order), as Meilisearch runs them, so
 * the first error is the one it reports. Before each search the query's ranking rules must line
 * up with the most constrained earlier query's (`federated-rules.ts`), else 400
 * `invalid_multi_search_query_ranking_rules`. `federation.distinct` is each query's `distinct`
 * (hence filterable in every queried index), then applied to each index's merged hits and once
 * more across indexes; every hit it removes leaves the hit count and the facets.
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { difference, EMPTY, fromUnsorted, unionAll, type DocSet } from '../../engine/docset.js';
import { checkFacets, computeFacets, facetOrder, type FacetsOutcome, type FacetStats } from '../../engine/facets/distribution.js';
import { readSettings } from '../../engine/index-settings.js';
import { scoreOf, type StepDetail } from '../../engine/search/ranking.js';
import { QueryRankingRules } from '../../engine/search/federated-rules.js';
import { distinctValues, type SearchHit } from '../../engine/search/search.js';
import { indexUidProblem } from '../../types/index-uid.js';
import { uuidV7 } from '../../types/uuid-v7.js';
import type { IndexSettings } from '../../types/settings.js';
import type { Caller } from '../../auth/caller.js';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../route.js';
import { compileBody, type FieldCodes, type FieldValidator } from '../validation/index.js';
import { indexNotFound } from './indexes.js';
import {
  runSearch,
  searchIndex,
  wantsMetadata,
  SEARCH_QUERY_CODES,
  SEARCH_QUERY_PROPERTIES,
  SEARCH_QUERY_VALIDATORS,
  withFormatting,
  type IndexSearch,
  type SearchQuery,
} from './search.js';

interface FederationOptions {
  weight?: number;
  remote?: string | null;
  queryPosition?: number | null;
}

interface QueryWithIndex extends SearchQuery {
  indexUid: string;
  federationOptions?: FederationOptions | null;
}

interface Federation {
  limit?: number;
  offset?: number;
  page?: number | null;
  hitsPerPage?: number | null;
  facetsByIndex?: Record<string, string[] | null>;
  mergeFacets?: { maxValuesPerFacet?: number } | null;
  distinct?: string | null;
  showPerformanceDetails?: boolean;
  personalize?: { userContext: string } | null;
}

interface MultiSearch {
  queries: QueryWithIndex[];
  federation?: Federation | null;
}

const WEIGHT_REASON = 'the value of `weight` is invalid, expected a positive float (>= 0.0).';
const count = { type: 'integer', minimum: 0 };
const optionalCount = { type: ['integer', 'null'], minimum: 0 };

/** The single-search tables, re-rooted under `.queries[]`. */
const queryCodes = Object.fromEntries(Object.entries(SEARCH_QUERY_CODES).map(([at, code]) => [`.queries[]${at}`, code]));
const queryValidators = Object.fromEntries(Object.entries(SEARCH_QUERY_VALIDATORS).map(([at, check]) => [`.queries[]${at}`, check]));

const parseBody = compileBody<MultiSearch>(
  {
    type: 'object',
    properties: {
      queries: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            indexUid: { type: 'string' },
            ...SEARCH_QUERY_PROPERTIES,
            federationOptions: {
              type: ['object', 'null'],
              properties: { weight: { type: 'number' }, remote: { type: ['string', 'null'] }, queryPosition: optionalCount },
              additionalProperties: false,
            },
          },
          required: ['indexUid'],
          additionalProperties: false,
        },
      },
      federation: {
        type: ['object', 'null'],
        properties: {
          limit: count,
          offset: count,
          page: optionalCount,
          hitsPerPage: optionalCount,
          facetsByIndex: { type: 'object', additionalProperties: { type: ['array', 'null'], items: { type: 'string' } } },
          mergeFacets: { type: ['object', 'null'], properties: { maxValuesPerFacet: count }, additionalProperties: false },
          distinct: { type: ['string', 'null'] },
          showPerformanceDetails: { type: 'boolean' },
          personalize: {
            type: ['object', 'null'],
            properties: { userContext: { type: 'string' } },
            required: ['userContext'],
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
    },
    required: ['queries'],
    additionalProperties: false,
  },
  {
    ...queryCodes,
    '.queries[].indexUid': 'invalid_index_uid',
    '.queries[].federationOptions': 'invalid_multi_search_federation_options',
    '.queries[].federationOptions.weight': 'invalid_multi_search_weight',
    '.queries[].federationOptions.remote': 'invalid_multi_search_remote',
    '.queries[].federationOptions.queryPosition': 'invalid_multi_search_query_position',
    '.federation.limit': 'invalid_search_limit',
    '.federation.offset': 'invalid_search_offset',
    '.federation.page': 'invalid_search_page',
    '.federation.hitsPerPage': 'invalid_search_hits_per_page',
    '.federation.facetsByIndex': 'invalid_multi_search_facets_by_index',
    '.federation.mergeFacets': 'invalid_multi_search_merge_facets',
    '.federation.mergeFacets.maxValuesPerFacet': 'invalid_multi_search_max_values_per_facet',
    '.federation.distinct': 'invalid_search_distinct',
    '.federation.showPerformanceDetails': 'invalid_search_show_performance_details',
    '.federation.personalize': 'invalid_search_personalize',
    '.federation.personalize.userContext': 'invalid_search_personalize_user_context',
  } satisfies FieldCodes,
  {
    missing: { '.queries[].indexUid': 'missing_index_uid' },
    validators: {
      ...queryValidators,
      '.queries[].indexUid': indexUidProblem,
      '.queries[].federationOptions.weight': ((value) => ((value as number) >= 0 ? undefined : WEIGHT_REASON)) satisfies FieldValidator,
    },
  },
);

/**
 * An error of one query or facet index, re-worded. A missing index answers 400 here, not the 404 of
 * single-index routes: Meilisearch's multi-search looks indexes up with BAD_REQUEST as their status.
 */
function reworded(err: ApiError, message: string): ApiError {
  return new ApiError(err.code as ErrorCode, message, err.code === 'index_not_found' ? 400 : err.status);
}

/** Runs `work` for query `position`, prefixing its error as Meilisearch does. */
function atQuery<T>(position: number, work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof ApiError) throw reworded(err, `Inside \`.queries[${position}]\`: ${err.message}`);
    throw err;
  }
}

function queryError(position: number, code: ErrorCode, message: string): ApiError {
  return new ApiError(code, `Inside \`.queries[${position}]\`: ${message}`);
}

/** Key check and search of each query in turn: the first failure answers for the whole request. */
function nonFederated(deps: AppDeps, caller: Caller, queries: QueryWithIndex[], metadata: boolean) {
  const requestUid = uuidV7();
  const results = queries.map(({ indexUid, federationOptions, ...query }, position) => {
    if (federationOptions !== undefined && federationOptions !== null) {
      throw new ApiError(
        'invalid_multi_search_federation_options',
        `Inside \`.queries[${position}]\`: Using \`federationOptions\` is not allowed in a non-federated search.\n - Hint: remove \`federationOptions\` from query #${position} or add \`federation\` to the request.`,
      );
    }
    return atQuery(position, () => {
      caller.assertIndexAction('search', indexUid);
      return { indexUid, ...runSearch(deps, caller, indexUid, query, requestUid, metadata) };
    });
  });
  return { results };
}

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

/** One element of a weighted score sequence. */
type Weighted = { readonly kind: 'score'; readonly value: number } | { readonly kind: 'sort'; readonly descending: boolean; readonly value: number | string | null };

/** Collapses consecutive relevancy rules into one weighted score; sort rules keep their values. */
function weightedSequence(details: readonly StepDetail[], weight: number): Weighted[] {
  const out: Weighted[] = [];
  let group: StepDetail[] = [];
  const flush = () => {
    if (group.length > 0) out.push({ kind: 'score', value: scoreOf(group) * weight });
    group = [];
  };
  for (const detail of details) {
    if (detail.kind === 'sort') {
      flush();
      out.push({ kind: 'sort', descending: detail.criterion.descending, value: detail.value });
    } else {
      group.push(detail);
    }
  }
  flush();
  return out;
}

/** Sort values ordered as Meilisearch sorts a field: numbers before strings, missing last. */
function compareSortValues(a: number | string | null, b: number | string | null, descending: boolean): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1;
  const order = a < b ? -1 : 1;
  return descending ? -order : order;
}

interface Candidate {
  readonly position: number;
  readonly query: SearchQuery;
  readonly search: IndexSearch;
  readonly hit: SearchHit;
  readonly weight: number;
  readonly sequence: Weighted[];
}

/** Negative when `a` ranks before `b`. */
function compareCandidates(a: Candidate, b: Candidate): number {
  const length = Math.min(a.sequence.length, b.sequence.length);
  for (let i = 0; i < length; i++) {
    const x = a.sequence[i]!;
    const y = b.sequence[i]!;
    let order: number;
    if (x.kind === 'score' && y.kind === 'score') order = y.value - x.value;
    else if (x.kind === 'sort' && y.kind === 'sort' && x.descending === y.descending) order = compareSortValues(x.value, y.value, x.descending);
    else {
      // Sequences that do not line up: the global weighted score decides.
      order = b.hit.score * b.weight - a.hit.score * a.weight;
      return order !== 0 ? order : a.position - b.position;
    }
    if (order !== 0) return order;
  }
  return a.position - b.position;
}

/** Query positions in the order Meilisearch runs them: by index uid, then in request order. */
function searchOrder(queries: readonly QueryWithIndex[]): number[] {
  return queries.map((_, position) => position).sort((a, b) => {
    const [x, y] = [queries[a]!.indexUid, queries[b]!.indexUid];
    return x < y ? -1 : x > y ? 1 : a - b;
  });
}

/**
 * `federation.distinct` over the merged hits, in two passes as Meilisearch makes them: first each
 * index keeps its first `need` hits whose values were not seen in that index, then the survivors
 * of every index go through one more pass across indexes. `dropped` lists, per index, the hits
 * either pass removed: they leave that index's hit count and facets.
 */
function distinctHits(
  ranked: readonly Candidate[],
  queries: readonly QueryWithIndex[],
  attribute: string,
  need: number,
): { merged: Candidate[]; dropped: Map<string, number[]> } {
  const dropped = new Map<string, number[]>();
  const drop = (uid: string, docid: number) => {
    const list = dropped.get(uid);
    if (list === undefined) dropped.set(uid, [docid]);
    else list.push(docid);
  };
  const valuesOf = ({ search, hit }: Candidate) => distinctValues(search.env.documents.get(hit.docid) ?? {}, attribute).map(([kind, value]) => `${kind}:${value}`);
  const firstSeen = (seen: Set<string>, values: readonly string[]) => {
    if (values.some((value) => seen.has(value))) return false;
    for (const value of values) seen.add(value);
    return true;
  };

  const seenByIndex = new Map<string, Set<string>>();
  const keptByIndex = new Map<string, number>();
  // the survivors with their values, read once for both passes
  const perIndex: { candidate: Candidate; values: string[] }[] = [];
  for (const candidate of ranked) {
    const uid = queries[candidate.position]!.indexUid;
    const kept = keptByIndex.get(uid) ?? 0;
    if (kept >= Math.min(need, candidate.search.settings.pagination.maxTotalHits)) continue;
    const seen = seenByIndex.get(uid) ?? new Set<string>();
    seenByIndex.set(uid, seen);
    const values = valuesOf(candidate);
    if (!firstSeen(seen, values)) {
      drop(uid, candidate.hit.docid);
      continue;
    }
    keptByIndex.set(uid, kept + 1);
    perIndex.push({ candidate, values });
  }

  const seen = new Set<string>();
  const merged: Candidate[] = [];
  for (const { candidate, values } of perIndex) {
    if (firstSeen(seen, values)) merged.push(candidate);
    else drop(queries[candidate.position]!.indexUid, candidate.hit.docid);
  }
  return { merged, dropped };
}

/** The federated answer (search.md §10.2): every query's hits merged into one ranked page. */
function federated(deps: AppDeps, caller: Caller, queries: QueryWithIndex[], federation: Federation) {
  const started = performance.now();
  queries.forEach((query, position) => atQuery(position, () => caller.assertIndexAction('search', query.indexUid)));
  queries.forEach((query, position) => checkFederatedQuery(position, query, federation));

  const pageMode = (federation.page !== undefined && federation.page !== null) || (federation.hitsPerPage !== undefined && federation.hitsPerPage !== null);
  const hitsPerPage = federation.hitsPerPage ?? 20;
  const page = federation.page ?? 1;
  const offset = pageMode ? Math.max(page - 1, 0) * hitsPerPage : (federation.offset ?? 0);
  const limit = pageMode ? (page === 0 ? 0 : hitsPerPage) : (federation.limit ?? 20);
  const distinct = federation.distinct ?? null;

  const candidates: Candidate[] = [];
  // Per index: its searches' candidate sets, and the first query using it (for error prefixes).
  const perIndex = new Map<string, { search: IndexSearch; sets: DocSet[]; first: number }>();
  // The most constrained ranking rules so far, which the next query's must line up with.
  let previous: { rules: QueryRankingRules; position: number; uid: string } | undefined;
  for (const position of searchOrder(queries)) {
    const { indexUid, federationOptions, ...query } = queries[position]!;
    const weight = federationOptions?.weight ?? 1;
    const checkRules = (settings: IndexSettings) => {
      const placeholder = (query.q ?? '') === '';
      const rules = new QueryRankingRules(settings.rankingRules, query.sort ?? null, query.matchingStrategy ?? 'last', placeholder);
      if (previous !== undefined) rules.assertCompatibleWith(previous, position, indexUid);
      if (previous === undefined || rules.constraintCount >= previous.rules.constraintCount) previous = { rules, position, uid: indexUid };
    };
    const searched = distinct === null ? query : { ...query, distinct };
    const search = atQuery(position, () => searchIndex(deps, caller, indexUid, searched, { offset, limit, exhaustive: pageMode }, { checkRules }));
    const seen = perIndex.get(indexUid) ?? { search, sets: [], first: position };
    perIndex.set(indexUid, seen);
    seen.sets.push(search.outcome.candidates);
    for (const hit of search.outcome.hits) {
      candidates.push({ position, query, search, hit, weight, sequence: weightedSequence(hit.details, weight) });
    }
  }
  candidates.sort(compareCandidates);

  const shown = new Set<string>();
  const unique = candidates.filter(({ hit, position }) => {
    const key = `${queries[position]!.indexUid}\u0000${hit.docid}`;
    if (shown.has(key)) return false;
    shown.add(key);
    return true;
  });
  const { merged, dropped } = distinct === null ? { merged: unique, dropped: new Map<string, number[]>() } : distinctHits(unique, queries, distinct, offset + limit);
  const unions = new Map([...perIndex].map(([uid, { sets }]) => [uid, difference(unionAll(sets), fromUnsorted(dropped.get(uid) ?? []))]));
  let total = 0;
  for (const union of unions.values()) total += union.length;

  const hits = formatPage(merged.slice(offset, offset + limit)).map(({ candidate: { position, hit, weight }, view }) =>
    withFederation(view, { indexUid: queries[position]!.indexUid, queriesPosition: position, weightedRankingScore: hit.score * weight }),
  );
  // processingTimeMs holds its place in the key order; it is measured once the facets are done.
  const body: Record<string, unknown> = { hits, processingTimeMs: 0 };
  if (pageMode) {
    body.hitsPerPage = hitsPerPage;
    body.page = page;
    body.totalPages = hitsPerPage === 0 ? 0 : Math.ceil(total / hitsPerPage);
    body.totalHits = total;
  } else {
    body.limit = limit;
    body.offset = offset;
    body.estimatedTotalHits = total;
  }
  const facetsByIndex = federation.facetsByIndex ?? {};
  if (Object.keys(facetsByIndex).length > 0) {
    const facets = indexFacets(deps, facetsByIndex, perIndex, unions);
    if (federation.mergeFacets !== undefined && federation.mergeFacets !== null) {
      Object.assign(body, mergeFacets(facets, federation.mergeFacets.maxValuesPerFacet));
    } else {
      // Ordered by index uid whatever the request's order, as Meilisearch's sorted map answers.
      const byUid = [...facets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      body.facetsByIndex = Object.fromEntries(byUid.map(([uid, { distribution, stats }]) => [uid, { distribution, stats }]));
    }
  }
  body.processingTimeMs = Math.round(performance.now() - started);
  body.requestUid = uuidV7();
  return body;
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

/** Prefixes an error about `federation.facetsByIndex.<uid>` as Meilisearch locates it. */
function facetsError(err: unknown, uid: string, firstQuery: number | undefined): unknown {
  if (!(err instanceof ApiError)) return err;
  const inside = `Inside \`.federation.facetsByIndex.${uid}\`: ${err.message}`;
  const message = firstQuery === undefined ? `${inside}\n - Note: index \`${uid}\` is not used in queries` : `Inside \`.queries[${firstQuery}]\`: ${inside}`;
  return reworded(err, message);
}

/** One index's facets, with the settings that say how its values are ordered. */
type IndexFacets = FacetsOutcome & { settings: IndexSettings };

/** `facetsByIndex`: each named index's facets over the union of its queries' candidates. */
function indexFacets(
  deps: AppDeps,
  requested: Record<string, string[] | null>,
  perIndex: ReadonlyMap<string, { search: IndexSearch; first: number }>,
  unions: ReadonlyMap<string, DocSet>,
): Map<string, IndexFacets> {
  const out = new Map<string, IndexFacets>();
  for (const [uid, patterns] of Object.entries(requested)) {
    const queried = perIndex.get(uid);
    try {
      let env = queried?.search.env;
      if (env === undefined) {
        const record = deps.indexes.get(uid);
        if (record === undefined) throw indexNotFound(uid);
        env = deps.indexEnvs.get(record.uuid);
      }
      const settings = queried?.search.settings ?? readSettings(env);
      checkFacets(settings, patterns ?? []);
      out.set(uid, { ...computeFacets(env, settings, unions.get(uid) ?? EMPTY, patterns ?? []), settings });
    } catch (err) {
      throw facetsError(err, uid, queried?.first);
    }
  }
  return out;
}

/** `mergeFacets`: counts summed per value, stats widened, then ordered as every index orders that facet. */
function mergeFacets(
  facets: ReadonlyMap<string, IndexFacets>,
  maxValuesPerFacet: number | undefined,
): { facetDistribution: Record<string, Record<string, number>>; facetStats: Record<string, FacetStats> } {
  const counts = new Map<string, Map<string, number>>();
  const orders = new Map<string, { uid: string; order: 'alpha' | 'count' }>();
  const facetStats: Record<string, FacetStats> = {};
  for (const [uid, { distribution, stats, settings }] of facets) {
    for (const [field, values] of Object.entries(distribution)) {
      const order = facetOrder(settings, field);
      const previous = orders.get(field);
      if (previous === undefined) orders.set(field, { uid, order });
      else if (previous.order !== order) {
        const word = (o: 'alpha' | 'count') => (o === 'alpha' ? 'alphabetically' : 'by count');
        throw new ApiError(
          'invalid_multi_search_facet_order',
          `Inconsistent order for values in facet \`${field}\`: index \`${previous.uid}\` orders ${word(previous.order)}, but index \`${uid}\` orders ${word(order)}.\n - Hint: Remove \`federation.mergeFacets\` or change \`faceting.sortFacetValuesBy\` to be consistent in settings.`,
        );
      }
      const summed = counts.get(field) ?? new Map<string, number>();
      counts.set(field, summed);
      for (const [value, n] of Object.entries(values)) summed.set(value, (summed.get(value) ?? 0) + n);
    }
    for (const [field, { min, max }] of Object.entries(stats)) {
      const known = facetStats[field];
      facetStats[field] = known === undefined ? { min, max } : { min: Math.min(known.min, min), max: Math.max(known.max, max) };
    }
  }
  const facetDistribution: Record<string, Record<string, number>> = {};
  for (const field of [...counts.keys()].sort()) {
    const entries = [...counts.get(field)!];
    const byKey = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    entries.sort(orders.get(field)!.order === 'count' ? (a, b) => b[1] - a[1] || byKey(a, b) : byKey);
    facetDistribution[field] = Object.fromEntries(maxValuesPerFacet === undefined ? entries : entries.slice(0, maxValuesPerFacet));
  }
  return { facetDistribution, facetStats };
}

export const multiSearchRoutes = [
  defineRoute({
    route: 'POST /multi-search',
    body: parseBody,
    handler: (ctx, deps) => {
      const { queries, federation } = ctx.body;
      return federation === undefined || federation === null
        ? nonFederated(deps, ctx.caller, queries, wantsMetadata(ctx.request))
        : federated(deps, ctx.caller, queries, federation);
    },
  }),
];
