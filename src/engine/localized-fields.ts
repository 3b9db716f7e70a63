/**
 * Which locales `localizedAttributes` gives a field (milli LocalizedFieldIds): the locales of the
 * first rule with a pattern matching the field (types/attribute-patterns.ts `localesOfField`),
 * none when no rule matches. A search without
 * `locales` restricts its query to the union over the fields it searches (fields with no rule,
 * or a rule with no locales, add nothing; an empty union leaves detection free).
 */
import { langOfLocales } from '../kernels/languages.js';
import { localesOfField } from '../types/attribute-patterns.js';
import type { LocalizedAttributesRule } from '../types/settings.js';

/** The union of the fields' locales, sorted, or null when it is empty. */
export function localesOfFields(rules: readonly LocalizedAttributesRule[] | null, fields: Iterable<string>): string[] | null {
  if (rules === null || rules.length === 0) return null;
  const union = new Set<string>();
  for (const field of fields) for (const locale of localesOfField(rules, field) ?? []) union.add(locale);
  return union.size === 0 ? null : [...union].sort();
}

/** The tokenizer's language byte (languages.ts) of `field`'s text. */
export function langOfField(rules: readonly LocalizedAttributesRule[] | null, field: string): number {
  return langOfLocales(localesOfField(rules, field));
}
