/**
 * The checks of a search query's parameters, in Meilisearch's words: the search kind before the
 * index is opened, then those that need the index's settings (sort, attributesToSearchOn,
 * distinct). The search names its index in the errors of those raised while it executes.
 */
import { ApiError } from '../errors/api-error.js';
import { filterablePatterns, isFilterable } from '../engine/facets/filterable.js';
import { matchingRule } from '../types/attribute-patterns.js';
import { assertSortable, parseSortCriterion, type SortCriterion } from '../engine/facets/sort.js';
import type { IndexReadEnv } from '../engine/index-read-env.js';
import { searchableFields, searchesOn } from '../engine/search/search.js';
import { displayedList, type IndexSettings } from '../types/settings.js';
import type { SearchQuery } from './query.js';

/** Search-kind errors (search.md §6), checked before the index is opened. */
export function checkSearchKind(query: SearchQuery): void {
  const media = query.media !== undefined && query.media !== null;
  const vector = query.vector !== undefined && query.vector !== null;
  const hybrid = query.hybrid !== undefined && query.hybrid !== null;
  if (media && vector) throw new ApiError('invalid_search_media_and_vector', 'Invalid request: both `media` and `vector` parameters are present.');
  if ((media || vector) && !hybrid) throw new ApiError('missing_search_hybrid', 'Invalid request: missing `hybrid` parameter when `vector` or `media` are present.');
}

/**
 * `attributesToSearchOn` must name searchable attributes when the setting is a list, as milli's
 * `attributes_to_search_on` checks them: a searchable field of the index, a pattern (`details.*`,
 * `*.title`) matching one, or a name the setting lists (no document may hold it yet). The error
 * lists the index's searchable fields, not the setting.
 */
export function checkSearchOn(env: IndexReadEnv, settings: IndexSettings, attributes: readonly string[] | null | undefined): void {
  const searchable = settings.searchableAttributes;
  if (attributes === null || attributes === undefined || searchable.includes('*')) return;
  let fields: string[] | undefined;
  for (const attribute of attributes) {
    if (attribute === '*' || searchable.includes(attribute)) continue;
    fields ??= searchableFields(env, settings);
    if (fields.includes(attribute) || (attribute.includes('*') && fields.some((field) => searchesOn(attribute, field)))) continue;
    throw new ApiError(
      'invalid_search_attributes_to_search_on',
      `Attribute \`${attribute}\` is not searchable. Available searchable attributes are: \`${displayedList(fields, settings.displayedAttributes).text}\`.`,
    );
  }
}

/** The `sort` criteria, their syntax checked (Meilisearch parses them before the search). */
export function parseSorts(sort: readonly string[]): SortCriterion[] {
  return sort.map((text) => parseSortCriterion(text, 'invalid_search_sort'));
}

/**
 * Whether the index may sort by `criteria`: checked after the filter is evaluated, as milli's
 * `check_sort_criteria` runs once the filtered universe is built; the `sort` ranking rule first,
 * then each criterion's attribute.
 */
export function checkSortable(settings: IndexSettings, criteria: readonly SortCriterion[]): void {
  if (criteria.length === 0) return;
  if (!settings.rankingRules.includes('sort')) {
    throw new ApiError('invalid_search_sort', 'You must specify where `sort` is listed in the rankingRules setting to use the sort parameter at search time.');
  }
  assertSortable(criteria, settings.sortableAttributes, 'invalid_search_sort', settings.displayedAttributes);
}

/** The `distinct` parameter must name a filterable attribute (search.md §2). */
export function checkDistinct(settings: IndexSettings, attribute: string): string {
  const rule = matchingRule(attribute, settings.filterableAttributes);
  if (rule !== null && isFilterable(rule.features)) return attribute;
  const patterns = displayedList(filterablePatterns(settings.filterableAttributes), settings.displayedAttributes);
  let message = `Attribute \`${attribute}\` is not filterable and thus, cannot be used as distinct attribute. `;
  if (rule !== null) {
    const n = rule.index;
    message +=
      `Note: this attribute matches rule #${n} in filterableAttributes, but this rule does not enable filtering.\n` +
      `Hint: enable filtering in rule #${n} by adding appropriate filter features.\n` +
      `Hint: prepend another rule matching ${attribute} with filter features before rule #${n}`;
  } else {
    message += patterns.visible === 0 ? 'This index does not have configured filterable attributes.' : `Available filterable attributes patterns are: \`${patterns.text}\`.`;
  }
  throw new ApiError('invalid_search_distinct', message);
}
