/**
 * Which attributes of an index are faceted, i.e. get facet data (Meilisearch
 * `match_faceted_field`): attributes matched by a `filterableAttributes` rule that enables
 * filtering or facet search, the `distinctAttribute`, `sortableAttributes` and the fields of
 * `field:asc|desc` ranking rules (the last two with legacy matching: nested paths included).
 * Also when `_geo` coordinates are indexed. Any change to these settings must rebuild the facet
 * data (`facetShape`).
 * Pure; callers: the facet updater (indexing), sort and filter evaluation (querying).
 */
import { ascDescFields, isFacetedBy, matchLegacy, type PatternMatch } from '../../types/attribute-patterns.js';
import type { IndexSettings } from '../../types/settings.js';
import { isFilterable, matchRulesWanting } from './filterable.js';

export type FacetSettings = Pick<IndexSettings, 'filterableAttributes' | 'sortableAttributes' | 'distinctAttribute' | 'rankingRules'>;

/**
 * `field` → match (faceted), parent (an object above a faceted path: look inside it) or none.
 * Results are memoised per matcher, so build one per batch or query, not per document.
 */
export function facetedFieldMatcher(settings: FacetSettings): (field: string) => PatternMatch {
  const legacy = [...settings.sortableAttributes, ...ascDescFields(settings.rankingRules)];
  const distinct = settings.distinctAttribute;
  const memo = new Map<string, PatternMatch>();
  return (field) => {
    let result = memo.get(field);
    if (result !== undefined) return result;
    result = matchRulesWanting(field, settings.filterableAttributes, (f) => f.facetSearch || isFilterable(f));
    if (result !== 'match' && distinct !== null) {
      if (field === distinct) result = 'match';
      else if (isFacetedBy(distinct, field)) result = 'parent';
    }
    for (const pattern of legacy) {
      if (result === 'match') break;
      const match = matchLegacy(pattern, field);
      if (match !== 'none') result = match;
    }
    memo.set(field, result);
    return result;
  };
}

/**
 * The settings facetedFieldMatcher and geoEnabled read, the facet updater's shape (../updater.ts):
 * a settings change rebuilds the facet data when this differs. Only the fields of sort ranking
 * rules count, in any order.
 */
export function facetShape(settings: FacetSettings): unknown {
  const { filterableAttributes, sortableAttributes, distinctAttribute, rankingRules } = settings;
  return [filterableAttributes, sortableAttributes, distinctAttribute, [...new Set(ascDescFields(rankingRules))].sort()];
}

/** `_geoRadius` / `_geoBoundingBox` work: `_geo` is a string entry of `filterableAttributes`. */
export const geoFilterable = (settings: Pick<IndexSettings, 'filterableAttributes'>): boolean =>
  settings.filterableAttributes.includes('_geo');

/** `_geojson` is a string entry of `filterableAttributes`. */
export const geojsonFilterable = (settings: Pick<IndexSettings, 'filterableAttributes'>): boolean =>
  settings.filterableAttributes.includes('_geojson');

/** `_geoPoint(…)` sorting works: `_geo` is sortable. */
export const geoSortable = (settings: Pick<IndexSettings, 'sortableAttributes'>): boolean =>
  settings.sortableAttributes.includes('_geo');

/** Coordinates of `_geo` are indexed (facets `_geo.lat`/`_geo.lng` and the point itself). */
export const geoEnabled = (settings: FacetSettings): boolean => geoFilterable(settings) || geoSortable(settings);
