/**
 * How settings name fields by pattern (Meilisearch `attribute_patterns.rs`): the rules of
 * `filterableAttributes` (filter.md §3 "Granular filterable rules", settings.md), the legacy
 * patterns of `sortableAttributes`, `distinctAttribute` and `field:asc|desc` ranking rules, and
 * the patterns of `localizedAttributes`.
 *
 * Matching answers match / parent / none, "parent" meaning the attribute is an object above a
 * matching nested path (so indexing must look inside it):
 * - legacy string rule `doggos`: matches `doggos` and every `doggos.…`; parent of nothing else
 *   but the prefixes of a dotted rule (`doggos` for rule `doggos.name`);
 * - object rule patterns: `*`, `prefix*`, `*suffix`, `*infix*` or exact; `doggos.*` does not match
 *   `doggos` itself (it is its parent).
 * The FIRST rule (array order) that matches an attribute decides its features (and its locales).
 * Pure; shared by the engine (indexing, filters, search) and settings (the fields list).
 */
import type { FilterableEntry, LocalizedAttributesRule } from './settings.js';

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

/** The rule deciding `field`'s features: the first one that matches it, with its position. */
export function matchingRule(field: string, rules: readonly FilterableEntry[]): { index: number; features: FilterFeatures } | null {
  for (const [index, rule] of rules.entries()) {
    if (matchRule(rule, field) === 'match') return { index, features: featuresOf(rule) };
  }
  return null;
}

/** The fields of `field:asc` / `field:desc` ranking rules (split at the last `:`). */
export function ascDescFields(rankingRules: readonly string[]): string[] {
  const fields: string[] = [];
  for (const rule of rankingRules) {
    const match = /^(.+):(asc|desc)$/s.exec(rule);
    if (match !== null) fields.push(match[1]!);
  }
  return fields;
}

/** The locales of the first `localizedAttributes` rule with a pattern matching `field`, if any. */
export function localesOfField(rules: readonly LocalizedAttributesRule[] | null, field: string): readonly string[] | undefined {
  return rules?.find((rule) => rule.attributePatterns.some((pattern) => matchWildcard(pattern, field) === 'match'))?.locales;
}
