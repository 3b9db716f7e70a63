/**
 * What a settings change costs (settings.md §3 "Reindex when changed"): which settings changed
 * and which derived structures (the engine's index updaters) must be rebuilt from the stored
 * documents. Each updater names the settings it derives from (its `shape`), so a
 * `filterableAttributes` change rebuilds the facet data and not the word index, a change of
 * `stopWords` the reverse, and settings only read at search time (synonyms, ranking rules
 * but their sort fields, typo tolerance, proximity precision, …) rebuild nothing. Pure.
 */
import type { IndexSettings } from '../types/settings.js';
import { SETTING_KEYS, type SettingKey } from './catalogue.js';

export interface SettingsDiff {
  /** settings whose effective value changed, in settings order */
  changed: SettingKey[];
  /** names of the updaters to rebuild, in the order given */
  rebuild: string[];
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  // arrays by their items: their keys would be a string per item (150,000 ranking rules)
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, i) => equal(item, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** What diffSettings needs of an index updater (engine/updater.ts). */
export interface ShapedUpdater {
  readonly name: string;
  shape(settings: IndexSettings): unknown;
}

/**
 * @param updaters the index updaters, in their running order: each is rebuilt when its shape of
 * the settings (the settings it derives from) differs before and after
 */
export function diffSettings(before: IndexSettings, after: IndexSettings, updaters: readonly ShapedUpdater[]): SettingsDiff {
  const changed = SETTING_KEYS.filter((key) => !equal(before[key], after[key]));
  return { changed, rebuild: updaters.filter((updater) => !equal(updater.shape(before), updater.shape(after))).map((updater) => updater.name) };
}
