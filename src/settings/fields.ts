/**
 * What the settings make of one field, as `POST /indexes/{uid}/fields` lists it (Meilisearch
 * `Field::new` over its `Metadata`): displayed, searchable, sortable, distinct, custom ranking
 * rule, filter features, facet value order and locales. Pure; the route supplies the field names.
 */
import { ascDescFields, isFacetedBy, localesOfField, matchLegacy, matchingRule, matchWildcard } from '../types/attribute-patterns.js';
import { facetOrder, type FacetOrder, type IndexSettings } from '../types/settings.js';

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

// `displayedAttributes` / `searchableAttributes` hold `["*"]` when every field is meant.
const matchesAttributeList = (list: readonly string[], field: string): boolean =>
  list.includes('*') || list.some((pattern) => matchLegacy(pattern, field) === 'match');

export function fieldView(name: string, settings: Readonly<IndexSettings>): FieldView {
  const features = matchingRule(name, settings.filterableAttributes)?.features ?? { facetSearch: false, equality: false, comparison: false };
  const rankingRule = settings.rankingRules.find((rule) => {
    const field = ascDescFields([rule])[0];
    return field !== undefined && matchLegacy(field, name) === 'match';
  });
  const locales = localesOfField(settings.localizedAttributes, name);
  return {
    name,
    displayed: { enabled: matchesAttributeList(settings.displayedAttributes, name) },
    searchable: { enabled: matchesAttributeList(settings.searchableAttributes, name) },
    sortable: { enabled: settings.sortableAttributes.some((pattern) => matchLegacy(pattern, name) === 'match') },
    distinct: { enabled: settings.distinctAttribute !== null && isFacetedBy(name, settings.distinctAttribute) },
    rankingRule: rankingRule === undefined ? { enabled: false } : { enabled: true, order: rankingRule.endsWith(':asc') ? 'asc' : 'desc' },
    filterable: {
      enabled: features.equality || features.comparison || features.facetSearch,
      sortBy: facetOrder(settings, name),
      facetSearch: features.facetSearch,
      equality: features.equality,
      comparison: features.comparison,
    },
    localized: { locales: [...(locales ?? [])] },
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
