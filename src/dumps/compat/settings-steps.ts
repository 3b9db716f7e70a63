/**
 * Index settings of old dumps, step by step to v6 (Meilisearch's dump reader, compat/v1_to_v2 …
 * v5_to_v6): v1's `attributesForFaceting` became both `filterableAttributes` and
 * `sortableAttributes` (sets: sorted, deduplicated, as v1's displayed attributes and stop words), v1's `wordsPosition` rule was dropped, v2's `asc(field)` / `desc(field)`
 * became `field:asc` / `field:desc`, and v6 drops the rules it cannot read and a `maxTotalHits`
 * of 0. A setting is a value (set), null (reset) or absent (not set). Pure.
 */
import { rankingRuleProblem } from '../../settings/messages.js';
import { sortedSet } from '../../types/bytes.js';
import type { JsonObject } from '../../types/task.js';

const V1_RULES: Record<string, string> = { typo: 'typo', words: 'words', proximity: 'proximity', attribute: 'attribute', exactness: 'exactness' };
const ASC_DESC = /(asc|desc)\(([\w_-]+)\)/;

/** A v1 rule as v2 writes it (`asc(field)` kept, `wordsPosition` and unreadable rules dropped). */
function v1Rule(rule: string): string | undefined {
  if (rule in V1_RULES) return V1_RULES[rule];
  const match = ASC_DESC.exec(rule);
  return match === null ? undefined : `${match[1]}(${match[2]})`;
}

/** A v1 settings-update rule (`"Typo"`, `{"Desc": "fame"}`) as v2 writes it. */
function v1UpdateRule(rule: unknown): string | undefined {
  if (typeof rule === 'string') return rule === 'WordsPosition' ? undefined : rule.toLowerCase();
  const [[order, field] = []] = Object.entries((rule ?? {}) as Record<string, unknown>);
  return order === 'Asc' || order === 'Desc' ? `${order.toLowerCase()}(${String(field)})` : undefined;
}

/**
 * A list Meilisearch reads as a BTreeSet (v1's displayed attributes and stop words, v2's
 * filterable and sortable attributes): deduplicated and byte-sorted. Anything else (null, or a
 * value of the wrong type, which the import's validation refuses) as it is.
 */
function asSet(value: unknown): unknown {
  return Array.isArray(value) ? sortedSet(value as string[]) : value;
}

/** v1 `settings.json` (each key absent, null or a value) → v2 settings. */
export function v1SettingsToV2(v1: JsonObject): JsonObject {
  const out: JsonObject = {};
  const copy = (from: string, to = from, read: (value: unknown) => unknown = (value) => value) => {
    if (from in v1) out[to] = read(v1[from]) as JsonObject[string];
  };
  copy('displayedAttributes', 'displayedAttributes', asSet);
  copy('searchableAttributes');
  copy('attributesForFaceting', 'filterableAttributes', asSet);
  copy('attributesForFaceting', 'sortableAttributes', asSet);
  if ('rankingRules' in v1) {
    const rules = v1.rankingRules as string[] | null;
    out.rankingRules = rules === null ? null : rules.map(v1Rule).filter((rule) => rule !== undefined);
  }
  copy('stopWords', 'stopWords', asSet);
  copy('synonyms');
  copy('distinctAttribute');
  return out;
}

/** A v1 update's `{"Update": value}` / `"Clear"` / `"Nothing"` → a value, null, or undefined. */
function updateState(state: unknown): unknown {
  if (state === 'Clear') return null;
  if (state !== null && typeof state === 'object' && 'Update' in state) return (state as { Update: unknown }).Update;
  return undefined;
}

/** The settings of a v1 `Settings` update (snake_case, update states) → v2 settings. */
export function v1SettingsUpdateToV2(update: JsonObject): JsonObject {
  const out: JsonObject = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined) out[key] = value;
  };
  set('displayedAttributes', asSet(updateState(update.displayed_attributes)));
  set('searchableAttributes', updateState(update.searchable_attributes));
  set('filterableAttributes', asSet(updateState(update.attributes_for_faceting)));
  set('sortableAttributes', asSet(updateState(update.attributes_for_faceting)));
  const rules = updateState(update.ranking_rules) as unknown[] | null | undefined;
  set('rankingRules', rules === null || rules === undefined ? rules : rules.map(v1UpdateRule).filter((rule) => rule !== undefined));
  set('stopWords', asSet(updateState(update.stop_words)));
  set('synonyms', updateState(update.synonyms));
  set('distinctAttribute', updateState(update.distinct_attribute));
  return out;
}

/** v2 → v3: `asc(field)` / `desc(field)` become `field:asc` / `field:desc`; other rules pass. */
export function v2SettingsToV3(v2: JsonObject): JsonObject {
  if (!Array.isArray(v2.rankingRules)) return v2;
  const rules = (v2.rankingRules as string[]).map((rule) => {
    const match = /^(asc|desc)\((.*)\)$/.exec(rule);
    return match === null ? rule : `${match[2]}:${match[1]}`;
  });
  return { ...v2, rankingRules: rules };
}

/** An index's settings as v5 checks them when it reads them: `["*"]` as displayed or searchable attributes is a reset. */
export function v5CheckedSettings(settings: JsonObject): JsonObject {
  const out = { ...settings };
  for (const key of ['displayedAttributes', 'searchableAttributes']) {
    const value = out[key];
    if (Array.isArray(value) && value.includes('*')) out[key] = null;
  }
  return out;
}

/** v5 settings (v3 and v4 have the same keys, fewer of them) → v6: unreadable rules dropped, `maxTotalHits` at least 1. */
export function v5SettingsToV6(v5: JsonObject): JsonObject {
  const out = { ...v5 };
  if (Array.isArray(out.rankingRules)) out.rankingRules = (out.rankingRules as string[]).filter((rule) => rankingRuleProblem(rule) === undefined);
  const pagination = out.pagination as JsonObject | null | undefined;
  if (pagination?.maxTotalHits === 0) out.pagination = { ...pagination, maxTotalHits: 1 };
  return out;
}

/** A settings object as `settings.json` of a v6 index holds it: what is reset is left out (the default). */
export function settingsFile(settings: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== null && value !== undefined));
}
