/**
 * What a document listed for another instance carries (v1.50's `/documents/fetch` with
 * `Meili-Proxy-Search: true`, network.md §7.3): `_federation.weightedScoreValues`, one value per
 * `sort` criterion, so that the instance merging several instances' lists can order them
 * (unsorted lists carry none). A field criterion gives the document's best value for it (numbers
 * before strings, strings normalised, as the sort itself ranks them; null without one); a
 * `_geoPoint` criterion gives the distance in metres to its point (null without `_geo`, or with
 * one whose `lat` or `lng` is not a JSON number, as v1.50 reads them).
 */
import type { JsonObject } from '../engine/document-id.js';
import { extractFacets, FacetKind } from '../engine/facets/extract.js';
import { geoPointOf, haversine } from '../engine/facets/geo.js';
import type { SortCriterion } from '../engine/facets/sort.js';
import { matchLegacy } from '../types/attribute-patterns.js';
import { compareSortValues, type ScoreValue } from './score-values.js';

/** The weighted score values of `doc` (the whole stored document) for `sort`. */
export function documentScoreValues(doc: JsonObject, sort: readonly SortCriterion[] | null): ScoreValue[] {
  return (sort ?? []).map((criterion): ScoreValue => {
    const asc = !criterion.descending;
    if (criterion.kind === 'geo') {
      // v1.50 reads `_geo.lat` and `_geo.lng` as JSON numbers here: a point written as strings
      // (which the sort itself parses) has no distance in the merge
      const geo = doc._geo as { lat?: unknown; lng?: unknown } | null | undefined;
      const numeric = geo !== null && typeof geo === 'object' && typeof geo.lat === 'number' && typeof geo.lng === 'number';
      const point = numeric ? geoPointOf(geo) : null;
      return { geoSort: { asc, distance: point === null ? null : haversine(criterion.point, point) } };
    }
    let best: number | string | null = null;
    extractFacets(
      doc,
      (field) => matchLegacy(criterion.field, field),
      false,
      (field, kind, value) => {
        if (field !== criterion.field || (kind !== FacetKind.number && kind !== FacetKind.string)) return;
        if (best === null || compareSortValues(value, best, criterion.descending) < 0) best = value;
      },
    );
    return { sort: { asc, value: best } };
  });
}
