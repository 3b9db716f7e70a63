/**
 * The checks of a search query's parameters, in Meilisearch's words: the search kind before the
 * index is opened, then those that need the index's settings (sort, attributesToSearchOn,
 * distinct). Errors raised inside the index carry the ``Index `uid`: `` prefix.
 */
import { ApiError, inIndex } from '../errors/api-error.js';
import { filterablePatterns, isFilterable } from '../engine/facets/filterable.js';
import { matchingRule } from '../types/attribute-patterns.js';
import { assertSortable, parseSortCriterion, type SortCriterion } from '../engine/facets/sort.js';
import type { IndexReadEnv } from '../engine/index-read-env.js';
import { searchablePaths, searchesOn } from '../engine/search/search.js';
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
 * `attributesToSearchOn` must name searchable attributes when the setting is a list; a pattern
 * (`details.*`, `*.title`) passes when it matches a searchable field, as in Meilisearch.
 */
export function checkSearchOn(uid: string, env: IndexReadEnv, settings: IndexSettings, attributes: readonly string[] | null | undefined): void {
  const searchable = settings.searchableAttributes;
  if (attributes === null || attributes === undefined || searchable.includes('*')) return;
  for (const attribute of attributes) {
    if (attribute === '*' || searchable.some((entry) => attribute === entry || attribute.startsWith(`${entry}.`))) continue;
    if (attribute.includes('*') && matchesSearchable(attribute, env, settings)) continue;
    throw new ApiError(
      'invalid_search_attributes_to_search_on',
      `Index \`${uid}\`: Attribute \`${attribute}\` is not searchable. Available searchable attributes are: \`${displayedList(searchable, settings.displayedAttributes)}\`.`,
    );
  }
}

/** A listed searchable attribute, or a field of the index under one, matches the pattern. */
function matchesSearchable(pattern: string, env: IndexReadEnv, settings: IndexSettings): boolean {
  return [...settings.searchableAttributes, ...searchablePaths(env, settings)].some((path) => searchesOn(pattern, path));
}

/** The `sort` criteria, their syntax checked (Meilisearch parses them before the search). */
export function parseSorts(sort: readonly string[]): SortCriterion[] {
  return sort.map((text) => parseSortCriterion(text, 'invalid_search_sort'));
}

/**
 * Whether the index may sort by `criteria`: checked after the filter is evaluated, as milli's
 * `check_sort_criteria` runs once the filtered universe is built.
 */
export function checkSortable(uid: string, settings: IndexSettings, criteria: readonly SortCriterion[]): void {
  if (criteria.length === 0) return;
  try {
    assertSortable(criteria, settings.sortableAttributes, 'invalid_search_sort', settings.displayedAttributes);
  } catch (err) {
    throw err instanceof ApiError ? inIndex(uid, err) : err;
  }
  if (!settings.rankingRules.includes('sort')) {
    throw new ApiError(
      'invalid_search_sort',
      `Index \`${uid}\`: You must specify where \`sort\` is listed in the rankingRules setting to use the sort parameter at search time.`,
    );
  }
}

/** The `distinct` parameter must name a filterable attribute (search.md §2). */
export function checkDistinct(uid: string, settings: IndexSettings, attribute: string): string {
  const rule = matchingRule(attribute, settings.filterableAttributes);
  if (rule !== null && isFilterable(rule.features)) return attribute;
  const patterns = filterablePatterns(settings.filterableAttributes);
  let message = `Index \`${uid}\`: Attribute \`${attribute}\` is not filterable and thus, cannot be used as distinct attribute. `;
  if (rule !== null) {
    const n = rule.index;
    message +=
      `Note: this attribute matches rule #${n} in filterableAttributes, but this rule does not enable filtering.\n` +
      `Hint: enable filtering in rule #${n} by adding appropriate filter features.\n` +
      `Hint: prepend another rule matching ${attribute} with filter features before rule #${n}`;
  } else {
    message += patterns.length === 0 ? 'This index does not have configured filterable attributes.' : `Available filterable attributes patterns are: \`${displayedList(patterns, settings.displayedAttributes)}\`.`;
  }
  throw new ApiError('invalid_search_distinct', message);
}
