/**
 * The settings catalogue (settings.md §1, §3): every setting's JSON key in Meilisearch's struct
 * order, its sub-route, its update verb and its error code. Pure data; the HTTP routes, the
 * schemas and the views are driven by it.
 */
import type { ErrorCode } from '../errors/codes.js';

export { SETTING_KEYS, type SettingKey } from '../types/settings.js';
import { SETTING_KEYS, type SettingKey } from '../types/settings.js';

export interface SettingSpec {
  key: SettingKey;
  /** the sub-route segment after `/settings/` */
  route: string;
  /** object-valued settings are patched, the others replaced */
  verb: 'PUT' | 'PATCH';
  code: ErrorCode;
}

const spec = (key: SettingKey, route: string, verb: 'PUT' | 'PATCH', code: ErrorCode): SettingSpec => ({ key, route, verb, code });

export const SETTINGS: Readonly<Record<SettingKey, SettingSpec>> = {
  displayedAttributes: spec('displayedAttributes', 'displayed-attributes', 'PUT', 'invalid_settings_displayed_attributes'),
  searchableAttributes: spec('searchableAttributes', 'searchable-attributes', 'PUT', 'invalid_settings_searchable_attributes'),
  filterableAttributes: spec('filterableAttributes', 'filterable-attributes', 'PUT', 'invalid_settings_filterable_attributes'),
  sortableAttributes: spec('sortableAttributes', 'sortable-attributes', 'PUT', 'invalid_settings_sortable_attributes'),
  foreignKeys: spec('foreignKeys', 'foreign-keys', 'PUT', 'invalid_settings_foreign_keys'),
  rankingRules: spec('rankingRules', 'ranking-rules', 'PUT', 'invalid_settings_ranking_rules'),
  stopWords: spec('stopWords', 'stop-words', 'PUT', 'invalid_settings_stop_words'),
  nonSeparatorTokens: spec('nonSeparatorTokens', 'non-separator-tokens', 'PUT', 'invalid_settings_non_separator_tokens'),
  separatorTokens: spec('separatorTokens', 'separator-tokens', 'PUT', 'invalid_settings_separator_tokens'),
  dictionary: spec('dictionary', 'dictionary', 'PUT', 'invalid_settings_dictionary'),
  synonyms: spec('synonyms', 'synonyms', 'PUT', 'invalid_settings_synonyms'),
  distinctAttribute: spec('distinctAttribute', 'distinct-attribute', 'PUT', 'invalid_settings_distinct_attribute'),
  proximityPrecision: spec('proximityPrecision', 'proximity-precision', 'PUT', 'invalid_settings_proximity_precision'),
  typoTolerance: spec('typoTolerance', 'typo-tolerance', 'PATCH', 'invalid_settings_typo_tolerance'),
  faceting: spec('faceting', 'faceting', 'PATCH', 'invalid_settings_faceting'),
  pagination: spec('pagination', 'pagination', 'PATCH', 'invalid_settings_pagination'),
  embedders: spec('embedders', 'embedders', 'PATCH', 'invalid_settings_embedders'),
  searchCutoffMs: spec('searchCutoffMs', 'search-cutoff-ms', 'PUT', 'invalid_settings_search_cutoff_ms'),
  localizedAttributes: spec('localizedAttributes', 'localized-attributes', 'PUT', 'invalid_settings_localized_attributes'),
  facetSearch: spec('facetSearch', 'facet-search', 'PUT', 'invalid_settings_facet_search'),
  prefixSearch: spec('prefixSearch', 'prefix-search', 'PUT', 'invalid_settings_prefix_search'),
  chat: spec('chat', 'chat', 'PATCH', 'invalid_settings_index_chat'),
};

const BY_ROUTE = new Map(SETTING_KEYS.map((key) => [SETTINGS[key].route, SETTINGS[key]]));

/** The segments of `/settings/<route>`, one per setting. */
export const SETTING_ROUTES: readonly string[] = [...BY_ROUTE.keys()];

/** The setting served at `/settings/<route>`, or undefined for an unknown segment. */
export function settingByRoute(route: string): SettingSpec | undefined {
  return BY_ROUTE.get(route);
}
