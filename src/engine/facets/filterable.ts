/**
 * `filterableAttributes` rules (filter.md §3 "Granular filterable rules", settings.md) as the
 * engine reads them: matching by the features wanted, and the patterns error messages list.
 * How a rule matches an attribute, and which rule decides its features, is
 * types/attribute-patterns.ts. Callers: which fields are faceted (fields.ts), facet
 * distribution, the "attribute not filterable" check before a filter is evaluated
 * (../filter/gates.ts) and the search service's checks.
 */
import { featuresOf, matchRule, type FilterFeatures, type PatternMatch } from '../../types/attribute-patterns.js';
import type { FilterableEntry } from '../../types/settings.js';

export const isFilterable = (features: FilterFeatures): boolean => features.equality || features.comparison;

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
