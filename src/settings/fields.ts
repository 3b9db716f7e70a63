/**
 * What the settings make of one field, as `POST /indexes/{uid}/fields` lists it (Meilisearch
 * `Field::new` over its `Metadata`): displayed, searchable, sortable, distinct, custom ranking
 * rule, filter features, facet value order and locales. The distinct attribute and `field:asc|desc`
 * rules name one field exactly (not the fields below it). The reserved fields have metadata of
 * their own (`has_reserved_field_metadata`): `_vectors` and below is only displayed or not (its
 * facet values sort `alpha`); `_geo`, `_geo.…`, `_geojson` and `_geojson.…` are never searchable,
 * distinct, ranking rules nor localized, and `_geojson` never sortable. Pure; the route supplies the
 * field names.
 */
import { ascDescFields, isFacetedBy, localesOfField, matchLegacy, matchingRule, matchWildcard } from '../types/attribute-patterns.js';
import { facetOrder, type FacetOrder, type IndexSettings } from '../types/settings.js';
import { languageName } from './locales.js';

export interface FieldView {
  name: string;
  displayed: { enabled: boolean };
  searchable: { enabled: boolean };
  sortable: { enabled: boolean };
  distinct: { enabled: boolean };
  rankingRule: { enabled: boolean; order?: 'asc' | 'desc' };
  filterable: { enabled: boolean; sortBy: FacetOrder; facetSearch: boolean; equality: boolean; comparison: boolean };
  localized: { locales: string[] };
}

type Reserved = 'vectors' | 'geo' | 'geojson' | null;

function reservedKind(name: string): Reserved {
  if (isFacetedBy(name, '_vectors')) return 'vectors';
  if (isFacetedBy(name, '_geo')) return 'geo';
  return isFacetedBy(name, '_geojson') ? 'geojson' : null;
}

// `displayedAttributes` / `searchableAttributes` hold `["*"]` when every field is meant.
const matchesAttributeList = (list: readonly string[], field: string): boolean =>
  list.includes('*') || list.some((pattern) => matchLegacy(pattern, field) === 'match');

const noFeatures = { facetSearch: false, equality: false, comparison: false };

/** The order of the field's `field:asc|desc` rule: v1.50 keys them by field, so a later rule for it wins. */
function rankingOrder(rankingRules: readonly string[], name: string): 'asc' | 'desc' | undefined {
  const rule = rankingRules.findLast((candidate) => ascDescFields([candidate])[0] === name);
  return rule === undefined ? undefined : rule.endsWith(':asc') ? 'asc' : 'desc';
}

export function fieldView(name: string, settings: Readonly<IndexSettings>): FieldView {
  const reserved = reservedKind(name);
  const plain = reserved === null;
  const features = reserved === 'vectors' ? noFeatures : (matchingRule(name, settings.filterableAttributes)?.features ?? noFeatures);
  const order = plain ? rankingOrder(settings.rankingRules, name) : undefined;
  const locales = plain ? localesOfField(settings.localizedAttributes, name) : undefined;
  const sortable = (reserved === null || reserved === 'geo') && settings.sortableAttributes.some((pattern) => matchLegacy(pattern, name) === 'match');
  return {
    name,
    displayed: { enabled: matchesAttributeList(settings.displayedAttributes, name) },
    searchable: { enabled: plain && matchesAttributeList(settings.searchableAttributes, name) },
    sortable: { enabled: sortable },
    distinct: { enabled: plain && settings.distinctAttribute === name },
    rankingRule: order === undefined ? { enabled: false } : { enabled: true, order },
    filterable: {
      enabled: features.equality || features.comparison || features.facetSearch,
      sortBy: reserved === 'vectors' ? 'alpha' : facetOrder(settings, name),
      facetSearch: features.facetSearch,
      equality: features.equality,
      comparison: features.comparison,
    },
    // charabia's `Language` as serde writes it: the variant's name (`Fra`, `Cmn`)
    localized: { locales: (locales ?? []).map(languageName) },
  };
}

export interface FieldsFilter {
  attributePatterns?: string[] | null;
  displayed?: boolean | null;
  searchable?: boolean | null;
  sortable?: boolean | null;
  distinct?: boolean | null;
  rankingRule?: boolean | null;
  filterable?: boolean | null;
}

/** Every criterion present must hold (Meilisearch `ListFields::apply_filter`). */
export function fieldPasses(field: FieldView, filter: FieldsFilter | null | undefined): boolean {
  if (filter === null || filter === undefined) return true;
  const { attributePatterns } = filter;
  if (attributePatterns !== null && attributePatterns !== undefined && !attributePatterns.some((pattern) => matchWildcard(pattern, field.name) === 'match')) {
    return false;
  }
  const wanted: [boolean | null | undefined, boolean][] = [
    [filter.displayed, field.displayed.enabled],
    [filter.searchable, field.searchable.enabled],
    [filter.sortable, field.sortable.enabled],
    [filter.distinct, field.distinct.enabled],
    [filter.rankingRule, field.rankingRule.enabled],
    [filter.filterable, field.filterable.enabled],
  ];
  return wanted.every(([want, has]) => want === null || want === undefined || want === has);
}
