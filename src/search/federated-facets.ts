/**
 * `federation.facetsByIndex` (search.md §10.2): each named index's facets over the union of its
 * queries' candidates (nothing for an index no query uses), plus what remotes counted for it
 * (network.md §7.3: summed, then ordered and truncated as the local index orders its values),
 * and `mergeFacets`, which sums them into one distribution.
 */
import { EMPTY, type DocSet } from '../engine/docset.js';
import { checkFacets, computeFacets, type FacetsOutcome, type FacetStats, type FacetWalkBudget } from '../engine/facets/distribution.js';
import { readSettings } from '../engine/index-settings.js';
import { ApiError } from '../errors/api-error.js';
import { indexNotFound } from '../indexes/reader.js';
import { facetOrder, type IndexSettings } from '../types/settings.js';
import type { SearchContext } from './context.js';
import type { IndexSearch } from './hits.js';
import { reworded } from './query-errors.js';
import { isJsonObject } from '../types/json-text.js';
import { ownRecord } from '../types/own-record.js';
import { orderedCounts } from '../types/ordered-counts.js';

/** Prefixes an error about `federation.facetsByIndex.<uid>` as Meilisearch locates it. */
function facetsError(err: unknown, uid: string, firstQuery: number | undefined): unknown {
  if (!(err instanceof ApiError)) return err;
  const inside = `Inside \`.federation.facetsByIndex.${uid}\`: ${err.message}`;
  const message = firstQuery === undefined ? `${inside}\n - Note: index \`${uid}\` is not used in queries` : `Inside \`.queries[${firstQuery}]\`: ${inside}`;
  return reworded(err, message);
}

/** One index's facets, with the settings that say how its values are ordered. */
export type IndexFacets = FacetsOutcome & { settings: IndexSettings };

/**
 * `facetsByIndex`: each named index's facets over the union of its queries' candidates. The
 * distribution leaves out the documents `federation.distinct` dropped (`unions`); the stats do
 * not, as v1.50 computes them per index before the merge and only takes the dropped hits' values
 * out of the counts. `walk` is the request's budget of facet walks.
 */
export function indexFacets(
  ctx: SearchContext,
  requested: Record<string, string[] | null>,
  perIndex: ReadonlyMap<string, { search: IndexSearch; first: number; candidates: DocSet }>,
  unions: ReadonlyMap<string, DocSet>,
  walk: FacetWalkBudget,
): Map<string, IndexFacets> {
  const out = new Map<string, IndexFacets>();
  for (const [uid, patterns] of Object.entries(requested)) {
    const queried = perIndex.get(uid);
    try {
      let env = queried?.search.env;
      if (env === undefined) {
        // an index no query names (the route refused malformed uids): checked, its facets dropped later
        const record = ctx.indexReader.get(uid);
        if (record === undefined) throw indexNotFound(uid);
        env = ctx.indexReader.envOf(record);
      }
      const settings = queried?.search.settings ?? readSettings(env);
      checkFacets(settings, patterns ?? []);
      const kept = unions.get(uid) ?? EMPTY;
      const facets = computeFacets(env, settings, kept, patterns ?? [], walk);
      const all = queried?.candidates ?? EMPTY;
      if (all.length !== kept.length) facets.stats = computeFacets(env, settings, all, patterns ?? [], walk).stats;
      out.set(uid, { ...facets, settings });
    } catch (err) {
      throw facetsError(err, uid, queried?.first);
    }
  }
  return out;
}

/** Facet values with their counts in `order`: by value, or by count then value. */
function ordered(entries: [string, number][], order: 'alpha' | 'count'): [string, number][] {
  const byKey = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  return entries.sort(order === 'count' ? (a, b) => b[1] - a[1] || byKey(a, b) : byKey);
}

/** Adds a remote's `facetsByIndex` into `facets`, for the indexes facets were asked of here. */
export function addRemoteFacets(facets: Map<string, IndexFacets>, remote: unknown): void {
  if (!isJsonObject(remote)) return;
  for (const [uid, local] of facets) {
    const theirs = remote[uid];
    if (!isJsonObject(theirs)) continue;
    const distribution = isJsonObject(theirs.distribution) ? theirs.distribution : {};
    for (const [field, values] of Object.entries(distribution)) {
      if (!isJsonObject(values)) continue;
      const summed = new Map(Object.entries(local.distribution[field] ?? {}));
      for (const [value, n] of Object.entries(values)) if (typeof n === 'number') summed.set(value, (summed.get(value) ?? 0) + n);
      local.distribution[field] = orderedCounts(ordered([...summed], facetOrder(local.settings, field)).slice(0, local.settings.faceting.maxValuesPerFacet));
    }
    const stats = isJsonObject(theirs.stats) ? theirs.stats : {};
    for (const [field, value] of Object.entries(stats)) {
      if (!isJsonObject(value) || typeof value.min !== 'number' || typeof value.max !== 'number') continue;
      const known = local.stats[field];
      local.stats[field] = known === undefined ? { min: value.min, max: value.max } : { min: Math.min(known.min, value.min), max: Math.max(known.max, value.max) };
    }
  }
}

/**
 * `mergeFacets`: counts summed per value, stats widened, then ordered as every index orders that
 * facet; the indexes `merged` refuses are only checked for their order. An index ordering a facet
 * unlike an earlier one is located as its other facet errors are (`firstQuery`: the first query
 * naming it, undefined for none).
 */
export function mergeFacets(
  facets: ReadonlyMap<string, IndexFacets>,
  maxValuesPerFacet: number | undefined,
  merged: (uid: string) => boolean = () => true,
  firstQuery: (uid: string) => number | undefined = () => undefined,
): { facetDistribution: Record<string, Record<string, number>>; facetStats: Record<string, FacetStats> } {
  const counts = new Map<string, Map<string, number>>();
  const orders = new Map<string, { uid: string; order: 'alpha' | 'count' }>();
  const facetStats = ownRecord<FacetStats>();
  for (const [uid, { distribution, stats, settings }] of facets) {
    for (const [field, values] of Object.entries(distribution)) {
      const order = facetOrder(settings, field);
      const previous = orders.get(field);
      if (previous === undefined) orders.set(field, { uid, order });
      else if (previous.order !== order) {
        const word = (o: 'alpha' | 'count') => (o === 'alpha' ? 'alphabetically' : 'by count');
        const err = new ApiError(
          'invalid_multi_search_facet_order',
          `Inconsistent order for values in facet \`${field}\`: index \`${previous.uid}\` orders ${word(previous.order)}, but index \`${uid}\` orders ${word(order)}.\n - Hint: Remove \`federation.mergeFacets\` or change \`faceting.sortFacetValuesBy\` to be consistent in settings.`,
        );
        throw facetsError(err, uid, firstQuery(uid));
      }
      // an index only checked (no query names it): its order counts, its values do not
      if (!merged(uid)) continue;
      const summed = counts.get(field) ?? new Map<string, number>();
      counts.set(field, summed);
      for (const [value, n] of Object.entries(values)) summed.set(value, (summed.get(value) ?? 0) + n);
    }
    if (!merged(uid)) continue;
    for (const [field, { min, max }] of Object.entries(stats)) {
      const known = facetStats[field];
      facetStats[field] = known === undefined ? { min, max } : { min: Math.min(known.min, min), max: Math.max(known.max, max) };
    }
  }
  const facetDistribution = ownRecord<Record<string, number>>();
  for (const field of [...counts.keys()].sort()) {
    const entries = ordered([...counts.get(field)!], orders.get(field)!.order);
    facetDistribution[field] = orderedCounts(maxValuesPerFacet === undefined ? entries : entries.slice(0, maxValuesPerFacet));
  }
  return { facetDistribution, facetStats };
}
