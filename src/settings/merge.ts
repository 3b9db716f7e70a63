/**
 * Applying settings patches to an index's effective settings (settings.md §3–§9), and the checks
 * that depend on the stored state. The settings processor applies every task of a batch in order,
 * as Meilisearch's settings builder accumulates them, then checks the result once: a failure
 * fails the whole batch.
 *
 * PATCH semantics at every level: an absent key leaves the value unchanged, `null` resets it to
 * its default. Pure: the typo-exempt words are normalised by the function the caller passes
 * (engine/exact-words.ts, which runs the tokenizer).
 */
import { ApiError } from '../errors/api-error.js';
import { sortedKeys } from '../types/bytes.js';
import { ownValue, setField } from '../types/own-record.js';
import {
  defaultChatSettings,
  defaultSettings,
  defaultTypoTolerance,
  type ChatSettings,
  type EmbedderSettings,
  type IndexSettings,
  type TypoTolerance,
} from '../types/settings.js';
import { embedderProblem, mergeEmbedder } from './embedders.js';
import { templateParseProblem } from '../engine/vectors/template.js';
import { storedLocale } from './locales.js';
import { typoSizesProblem } from './messages.js';
import { normalizeStopWords } from './normalize.js';
import type { ChatPatch, SettingsPatch, TypoTolerancePatch } from './patch.js';

/** The stored form of `typoTolerance.disableOnWords` (engine/exact-words.ts `normalizeExactWords`). */
export type ExactWordsForm = (words: readonly string[]) => string[];

/** A `["*"]`-style list: any `*` means "all", duplicates keep their first position. */
function wildcardList(values: readonly string[]): string[] {
  return values.includes('*') ? ['*'] : [...new Set(values)];
}

function applyTypoTolerance(current: TypoTolerance, patch: TypoTolerancePatch, exactWords: ExactWordsForm): TypoTolerance {
  const defaults = defaultTypoTolerance();
  const next: TypoTolerance = { ...current, minWordSizeForTypos: { ...current.minWordSizeForTypos } };
  if (patch.enabled !== undefined) next.enabled = patch.enabled ?? defaults.enabled;
  const sizes = patch.minWordSizeForTypos;
  if (sizes === null) next.minWordSizeForTypos = defaults.minWordSizeForTypos;
  else if (sizes !== undefined) {
    if (sizes.oneTypo !== undefined) next.minWordSizeForTypos.oneTypo = sizes.oneTypo ?? defaults.minWordSizeForTypos.oneTypo;
    if (sizes.twoTypos !== undefined) next.minWordSizeForTypos.twoTypos = sizes.twoTypos ?? defaults.minWordSizeForTypos.twoTypos;
  }
  if (patch.disableOnWords !== undefined) next.disableOnWords = exactWords(patch.disableOnWords ?? []);
  if (patch.disableOnAttributes !== undefined) next.disableOnAttributes = patch.disableOnAttributes ?? [];
  if (patch.disableOnNumbers !== undefined) next.disableOnNumbers = patch.disableOnNumbers ?? defaults.disableOnNumbers;
  return next;
}

function applyChat(current: ChatSettings, patch: ChatPatch): ChatSettings {
  const defaults = defaultChatSettings();
  const next: ChatSettings = { ...current };
  if (patch.description !== undefined) next.description = patch.description ?? defaults.description;
  if (patch.documentTemplate !== undefined) next.documentTemplate = patch.documentTemplate ?? defaults.documentTemplate;
  if (patch.documentTemplateMaxBytes !== undefined) {
    next.documentTemplateMaxBytes = patch.documentTemplateMaxBytes ?? defaults.documentTemplateMaxBytes;
  }
  if (patch.searchParameters === null) next.searchParameters = {};
  else if (patch.searchParameters !== undefined) {
    // Search parameters merge one by one, keeping their declared order.
    const merged: Record<string, unknown> = { ...current.searchParameters };
    for (const [param, value] of Object.entries(patch.searchParameters)) {
      if (value === null) delete merged[param];
      else merged[param] = value;
    }
    const order = ['hybrid', 'limit', 'sort', 'distinct', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold'];
    next.searchParameters = Object.fromEntries(order.filter((p) => merged[p] !== undefined).map((p) => [p, merged[p]]));
  }
  return next;
}

function applyEmbedders(
  current: Record<string, EmbedderSettings>,
  patch: Record<string, EmbedderSettings | null>,
): Record<string, EmbedderSettings> {
  const next = { ...current };
  // embedders are named by users: `__proto__` and `constructor` are names like any other
  for (const [name, embedder] of Object.entries(patch)) {
    if (embedder === null) delete next[name];
    else setField(next, name, mergeEmbedder(ownValue(current, name), embedder));
  }
  return sortedKeys(next);
}

/**
 * The settings a patch sets to the value it sends, or to their default when it sends null: the
 * settings a batch ends with hold a task's member of these as it is, so its JSON text (the task
 * record's) stands for it (engine/indexer/commit.ts `SettingsWrite.texts`).
 */
export const VERBATIM_SETTINGS = ['filterableAttributes', 'sortableAttributes', 'foreignKeys', 'rankingRules', 'nonSeparatorTokens', 'separatorTokens', 'dictionary', 'synonyms'] as const;
type VerbatimSetting = (typeof VERBATIM_SETTINGS)[number];

/**
 * The settings after one task's patch. The patch holds numbers as JSON.parse reads them (no
 * BigInt: `withoutBigInts` of a value `parseJson` read): settings hold numbers.
 */
export function applyPatch(current: IndexSettings, patch: SettingsPatch, exactWords: ExactWordsForm): IndexSettings {
  const defaults = defaultSettings();
  const next: IndexSettings = { ...current };
  const p = patch;
  if (p.displayedAttributes !== undefined) next.displayedAttributes = wildcardList(p.displayedAttributes);
  if (p.searchableAttributes !== undefined) next.searchableAttributes = wildcardList(p.searchableAttributes);
  for (const key of VERBATIM_SETTINGS) {
    const value = p[key];
    if (value !== undefined) (next as Record<VerbatimSetting, unknown>)[key] = value ?? defaults[key];
  }
  if (p.stopWords !== undefined) next.stopWords = normalizeStopWords(p.stopWords ?? []);
  if (p.distinctAttribute !== undefined) next.distinctAttribute = p.distinctAttribute;
  if (p.proximityPrecision !== undefined) next.proximityPrecision = p.proximityPrecision ?? defaults.proximityPrecision;
  if (p.typoTolerance !== undefined) {
    next.typoTolerance = p.typoTolerance === null ? defaults.typoTolerance : applyTypoTolerance(current.typoTolerance, p.typoTolerance, exactWords);
  }
  if (p.faceting === null) next.faceting = defaults.faceting;
  else if (p.faceting !== undefined) {
    const { maxValuesPerFacet, sortFacetValuesBy } = p.faceting;
    next.faceting = { ...current.faceting };
    if (maxValuesPerFacet !== undefined) next.faceting.maxValuesPerFacet = maxValuesPerFacet ?? defaults.faceting.maxValuesPerFacet;
    // A new order map replaces the old one; `*` falls back to alpha unless given.
    if (sortFacetValuesBy !== undefined) next.faceting.sortFacetValuesBy = sortedKeys({ '*': 'alpha', ...sortFacetValuesBy });
  }
  if (p.pagination === null) next.pagination = defaults.pagination;
  else if (p.pagination?.maxTotalHits !== undefined) {
    next.pagination = { maxTotalHits: p.pagination.maxTotalHits ?? defaults.pagination.maxTotalHits };
  }
  if (p.embedders !== undefined) next.embedders = p.embedders === null ? {} : applyEmbedders(current.embedders, p.embedders);
  if (p.searchCutoffMs !== undefined) next.searchCutoffMs = p.searchCutoffMs;
  if (p.localizedAttributes !== undefined) {
    next.localizedAttributes =
      p.localizedAttributes?.map((rule) => ({ attributePatterns: rule.attributePatterns, locales: rule.locales.map(storedLocale) })) ?? null;
  }
  if (p.facetSearch !== undefined) next.facetSearch = p.facetSearch ?? defaults.facetSearch;
  if (p.prefixSearch !== undefined) next.prefixSearch = p.prefixSearch ?? defaults.prefixSearch;
  if (p.chat !== undefined) next.chat = p.chat === null ? defaults.chat : applyChat(current.chat, p.chat);
  return next;
}

/** The embedders an index holds at most: milli's one-byte ids, 255 of them. */
const MAX_EMBEDDERS = 255;

/**
 * The error a batch fails with when its merged settings are inconsistent with themselves
 * (typo sizes against the stored other size) or its embedders are incomplete or too many;
 * undefined when fine.
 * Messages carry no index prefix: the processor adds it.
 */
export function mergedSettingsProblem(before: IndexSettings, after: IndexSettings): ApiError | undefined {
  const { oneTypo, twoTypos } = after.typoTolerance.minWordSizeForTypos;
  const sizes = typoSizesProblem(oneTypo, twoTypos);
  if (sizes !== undefined) return new ApiError('invalid_settings_typo_tolerance', sizes);
  for (const [name, embedder] of Object.entries(after.embedders)) {
    const previous = ownValue(before.embedders, name);
    if (previous === embedder) continue;
    const problem = embedderProblem(name, embedder, previous);
    if (problem !== undefined) return new ApiError(problem.code, problem.message);
  }
  // milli gives each new embedder a free one-byte id (255 of them; those the batch removes are free again)
  const names = Object.keys(after.embedders);
  if (names.length > MAX_EMBEDDERS && names.some((name) => !Object.hasOwn(before.embedders, name))) {
    return new ApiError('invalid_settings_embedders', `Too many embedders in the configuration. Found ${names.length}, but limited to 256.`);
  }
  // milli's `update_chat_config`, for a batch that sets `chat`: the byte limit, then the template's syntax
  if (after.chat !== before.chat) {
    if (after.chat.documentTemplateMaxBytes === 0) {
      return new ApiError('invalid_settings_embedders', '`.chat.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero');
    }
    const template = templateParseProblem(after.chat.documentTemplate);
    if (template !== undefined) return new ApiError('invalid_chat_setting_document_template', `\`.chat.documentTemplate\`: Invalid document template: ${template}.`);
  }
  return undefined;
}
