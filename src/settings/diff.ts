/**
 * What a settings change costs (settings.md §3 "Reindex when changed"): which settings changed
 * and which derived structures (the engine's index updaters) must be rebuilt from the stored
 * documents. Every updater is rebuilt as soon as a setting that shapes derived data changed;
 * metadata-only settings (displayed attributes, synonyms, pagination, …) rebuild nothing. Pure.
 */
import type { IndexSettings } from '../types/settings.js';
import { SETTING_KEYS, type SettingKey } from './catalogue.js';
import { customRankingField } from './messages.js';

export interface SettingsDiff {
  /** settings whose effective value changed, in settings order */
  changed: SettingKey[];
  /** names of the updaters to rebuild, in the order given */
  rebuild: string[];
}

/** Settings whose any change alters what is extracted from documents. */
const SHAPING: ReadonlySet<SettingKey> = new Set<SettingKey>([
  'searchableAttributes',
  'filterableAttributes',
  'sortableAttributes',
  'distinctAttribute',
  'stopWords',
  'nonSeparatorTokens',
  'separatorTokens',
  'dictionary',
  'proximityPrecision',
  'localizedAttributes',
  'prefixSearch',
  'facetSearch',
]);

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The fields `attr:asc` / `attr:desc` rules sort on: they are faceted. */
function sortedOnFields(rules: readonly string[]): string[] {
  return [...new Set(rules.map(customRankingField).filter((f): f is string => f !== undefined))].sort();
}

function shapesDerivedData(key: SettingKey, before: IndexSettings, after: IndexSettings): boolean {
  if (SHAPING.has(key)) return true;
  if (key === 'rankingRules') return !equal(sortedOnFields(before.rankingRules), sortedOnFields(after.rankingRules));
  if (key === 'typoTolerance') {
    const [b, a] = [before.typoTolerance, after.typoTolerance];
    return !equal(b.disableOnAttributes, a.disableOnAttributes) || b.disableOnNumbers !== a.disableOnNumbers;
  }
  return false;
}

/**
 * @param updaters the names of the index updaters, in their running order
 */
export function diffSettings(before: IndexSettings, after: IndexSettings, updaters: readonly string[]): SettingsDiff {
  const changed = SETTING_KEYS.filter((key) => !equal(before[key], after[key]));
  const reindex = changed.some((key) => shapesDerivedData(key, before, after));
  return { changed, rebuild: reindex ? [...updaters] : [] };
}
