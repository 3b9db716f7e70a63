/**
 * `filterableAttributes` rules (filter.md §3 "Granular filterable rules", settings.md): how an
 * attribute matches a rule, which rule decides an attribute's features, and the "attribute not
 * filterable" check run before a filter is evaluated.
 *
 * Matching (Meilisearch `attribute_patterns.rs`) answers match / parent / none, "parent" meaning
 * the attribute is an object above a matching nested path (so indexing must look inside it):
 * - legacy string rule `doggos`: matches `doggos` and every `doggos.…`; parent of nothing else
 *   but the prefixes of a dotted rule (`doggos` for rule `doggos.name`);
 * - object rule patterns: `*`, `prefix*`, `*suffix`, `*infix*` or exact; `doggos.*` does not match
 *   `doggos` itself (it is its parent).
 * The FIRST rule (array order) that matches an attribute decides its features.
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import type { FilterableEntry } from '../../types/settings.js';
import { filterFields, formatFilterError, type FilterAst } from '../filter-parser/index.js';

export type PatternMatch = 'match' | 'parent' | 'none';

export interface FilterFeatures {
  facetSearch: boolean;
  equality: boolean;
  comparison: boolean;
}

/** `field` is `facet` or nested below it (Meilisearch `is_faceted_by`). */
export function isFacetedBy(field: string, facet: string): boolean {
  return field === facet || (field.length > facet.length && field.startsWith(facet) && field[facet.length] === '.');
}

/** A legacy (string) rule or a sortable attribute: the attribute itself and everything below it. */
export function matchLegacy(pattern: string, field: string): PatternMatch {
  if (isFacetedBy(field, pattern)) return 'match';
  return isFacetedBy(pattern, field) ? 'parent' : 'none';
}

/** One pattern of an object rule. */
export function matchWildcard(pattern: string, field: string): PatternMatch {
  if (pattern === '*') return 'match';
  const starts = pattern.startsWith('*');
  const ends = pattern.endsWith('*');
  const matched =
    starts && ends && pattern.length > 1
      ? field.includes(pattern.slice(1, -1))
      : starts
        ? field.endsWith(pattern.slice(1))
        : ends
          ? field.startsWith(pattern.slice(0, -1))
          : pattern === field;
  if (matched) return 'match';
  return isFacetedBy(pattern, field) ? 'parent' : 'none';
}

export function matchRule(rule: FilterableEntry, field: string): PatternMatch {
  if (typeof rule === 'string') return matchLegacy(rule, field);
  let result: PatternMatch = 'none';
  for (const pattern of rule.attributePatterns) {
    const match = matchWildcard(pattern, field);
    if (match === 'match') return 'match';
    if (match === 'parent') result = 'parent';
  }
  return result;
}

/** String rules enable everything (legacy behaviour). */
export function featuresOf(rule: FilterableEntry): FilterFeatures {
  if (typeof rule === 'string') return { facetSearch: true, equality: true, comparison: true };
  return { facetSearch: rule.features.facetSearch, ...rule.features.filter };
}

export const isFilterable = (features: FilterFeatures): boolean => features.equality || features.comparison;

/** The rule deciding `field`'s features: the first one that matches it, with its position. */
export function matchingRule(field: string, rules: readonly FilterableEntry[]): { index: number; features: FilterFeatures } | null {
  for (const [index, rule] of rules.entries()) {
    if (matchRule(rule, field) === 'match') return { index, features: featuresOf(rule) };
  }
  return null;
}

/**
 * Match against the rules whose features satisfy `wanted`, Meilisearch's `match_pattern_by_features`:
 * a matching rule that does not satisfy `wanted` shadows every later rule (the first match decides),
 * but the attribute can still be the parent of a nested path a later rule wants.
 */
export function matchRulesWanting(field: string, rules: readonly FilterableEntry[], wanted: (features: FilterFeatures) => boolean): PatternMatch {
  let result: PatternMatch = 'none';
  let canMatch = true;
  for (const rule of rules) {
    const match = matchRule(rule, field);
    if (match === 'match') {
      if (canMatch && wanted(featuresOf(rule))) return 'match';
      canMatch = false;
    } else if (match === 'parent' && wanted(featuresOf(rule))) {
      result = 'parent';
    }
  }
  return result;
}

/** The patterns of the filterable rules, sorted and deduplicated, as error messages list them. */
export function filterablePatterns(rules: readonly FilterableEntry[]): string[] {
  const patterns = new Set<string>();
  for (const rule of rules) {
    if (!isFilterable(featuresOf(rule))) continue;
    if (typeof rule === 'string') patterns.add(rule);
    else for (const pattern of rule.attributePatterns) patterns.add(pattern);
  }
  return [...patterns].sort();
}

/** ``Attribute `x` is not filterable. …`` — the description line, without a locator. */
export function notFilterableMessage(attribute: string, rules: readonly FilterableEntry[]): string {
  const patterns = filterablePatterns(rules);
  const available =
    patterns.length === 0
      ? 'This index does not have configured filterable attributes.'
      : `Available filterable attribute patterns are: ${patterns.map((p) => `\`${p}\``).join(', ')}.`;
  return `Attribute \`${attribute}\` is not filterable. ${available}`;
}

// Experimental filters that Meilisearch lets through without a filterable rule.
const ALWAYS_FILTERABLE = new Set(['_vectors', '_shard']);

/**
 * Throws `ApiError(code)` naming the attribute Meilisearch reports (see `filterFields` for the
 * order) when the filter uses an attribute no rule makes filterable.
 */
export function assertFilterable(ast: FilterAst, rules: readonly FilterableEntry[], code: ErrorCode): void {
  for (const field of filterFields(ast)) {
    if (ALWAYS_FILTERABLE.has(field.value)) continue;
    const rule = matchingRule(field.value, rules);
    if (rule !== null && isFilterable(rule.features)) continue;
    throw new ApiError(code, formatFilterError(notFilterableMessage(field.value, rules), field.span));
  }
}
