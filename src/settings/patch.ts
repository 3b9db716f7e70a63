/**
 * A settings update as a task carries it: only the keys that were sent, `null` meaning "reset",
 * in the canonical form Meilisearch shows as the task's details (settings.md §9): keys in struct
 * order, sets deduplicated and byte-sorted, maps with sorted keys, filterable rules with every
 * feature filled in, `["*"]` for a reset of displayed/searchable attributes.
 *
 * `canonicalPatch` turns a validated request body into that form (called by the HTTP routes after
 * the schemas accepted the body); the processor applies it with `merge.ts`. Pure.
 */
import type {
  ChatSettings,
  FacetOrder,
  FilterableEntry,
  ForeignKey,
  LocalizedAttributesRule,
  PrefixSearch,
  ProximityPrecision,
} from '../types/settings.js';
import { sortedKeys, sortedSet } from '../types/bytes.js';
import { SETTING_KEYS, type SettingKey } from './catalogue.js';
import { EMBEDDER_FIELDS } from './schemas.js';

/** `undefined`: not sent (unchanged); `null`: reset to the default. */
type Reset<T> = T | null;

export interface TypoTolerancePatch {
  enabled?: Reset<boolean>;
  minWordSizeForTypos?: Reset<{ oneTypo?: Reset<number>; twoTypos?: Reset<number> }>;
  disableOnWords?: Reset<string[]>;
  disableOnAttributes?: Reset<string[]>;
  disableOnNumbers?: Reset<boolean>;
}

export interface FacetingPatch {
  maxValuesPerFacet?: Reset<number>;
  sortFacetValuesBy?: Reset<Record<string, FacetOrder>>;
}

/** An embedder's fields as sent; `null` on a field resets it. */
export type EmbedderPatch = Record<string, unknown>;

export type ChatPatch = { [K in keyof ChatSettings]?: Reset<ChatSettings[K]> };

export interface SettingsPatch {
  /** `["*"]` also stands for a reset */
  displayedAttributes?: string[];
  searchableAttributes?: string[];
  filterableAttributes?: Reset<FilterableEntry[]>;
  sortableAttributes?: Reset<string[]>;
  foreignKeys?: Reset<ForeignKey[]>;
  rankingRules?: Reset<string[]>;
  stopWords?: Reset<string[]>;
  nonSeparatorTokens?: Reset<string[]>;
  separatorTokens?: Reset<string[]>;
  dictionary?: Reset<string[]>;
  synonyms?: Reset<Record<string, string[]>>;
  distinctAttribute?: Reset<string>;
  proximityPrecision?: Reset<ProximityPrecision>;
  typoTolerance?: Reset<TypoTolerancePatch>;
  faceting?: Reset<FacetingPatch>;
  pagination?: Reset<{ maxTotalHits?: Reset<number> }>;
  embedders?: Reset<Record<string, Reset<EmbedderPatch>>>;
  searchCutoffMs?: Reset<number>;
  localizedAttributes?: Reset<LocalizedAttributesRule[]>;
  facetSearch?: Reset<boolean>;
  prefixSearch?: Reset<PrefixSearch>;
  chat?: Reset<ChatPatch>;
}

type Json = Record<string, unknown>;

/** The fields of `value` that were sent, in the given order (absent ones skipped, `null` kept). */
function pick(value: Json, fields: readonly string[], map: (field: string, v: unknown) => unknown = (_f, v) => v): Json {
  const out: Json = {};
  for (const field of fields) if (value[field] !== undefined) out[field] = map(field, value[field]);
  return out;
}

const nullOr = <T, R>(value: T | null, f: (v: T) => R): R | null => (value === null ? null : f(value));

function filterableEntry(entry: unknown): FilterableEntry {
  if (typeof entry === 'string') return entry;
  const rule = entry as { attributePatterns: string[]; features?: { facetSearch?: boolean; filter?: { equality?: boolean; comparison?: boolean } } };
  return {
    attributePatterns: [...rule.attributePatterns],
    features: {
      facetSearch: rule.features?.facetSearch ?? false,
      filter: { equality: rule.features?.filter?.equality ?? true, comparison: rule.features?.filter?.comparison ?? false },
    },
  };
}

function typoTolerancePatch(value: Json): TypoTolerancePatch {
  return pick(value, ['enabled', 'minWordSizeForTypos', 'disableOnWords', 'disableOnAttributes', 'disableOnNumbers'], (field, v) => {
    if (v === null) return null;
    if (field === 'minWordSizeForTypos') return pick(v as Json, ['oneTypo', 'twoTypos']);
    if (field === 'disableOnWords' || field === 'disableOnAttributes') return sortedSet(v as string[]);
    return v;
  }) as TypoTolerancePatch;
}

/**
 * A sub-embedder's fields in v1.50's `SubEmbeddingSettings` order: those no sub-embedder may set
 * (`distribution`, `binaryQuantized`, a nested composite's) kept too, for its checks to name them.
 */
const SUB_EMBEDDER_FIELDS = [
  ...EMBEDDER_FIELDS.filter((f) => !['binaryQuantized', 'searchEmbedder', 'indexingEmbedder', 'distribution'].includes(f)),
  'distribution',
  'binaryQuantized',
  'searchEmbedder',
  'indexingEmbedder',
];

function embedderPatch(value: Json, fields: readonly string[]): EmbedderPatch {
  return pick(value, fields, (field, v) => {
    if (v === null) return null;
    if (field === 'searchEmbedder' || field === 'indexingEmbedder') return embedderPatch(v as Json, SUB_EMBEDDER_FIELDS);
    if (field === 'headers') return sortedKeys(v as Record<string, string>);
    if (field === 'indexingFragments' || field === 'searchFragments') return sortedKeys(v as Json);
    if (field === 'distribution') return pick(v as Json, ['mean', 'sigma']);
    return v;
  });
}

const CHAT_SEARCH_PARAMETERS = ['hybrid', 'limit', 'sort', 'distinct', 'matchingStrategy', 'attributesToSearchOn', 'rankingScoreThreshold'];

function chatPatch(value: Json): ChatPatch {
  return pick(value, ['description', 'documentTemplate', 'documentTemplateMaxBytes', 'searchParameters'], (field, v) => {
    if (v === null || field !== 'searchParameters') return v;
    return pick(v as Json, CHAT_SEARCH_PARAMETERS, (param, p) => {
      if (param !== 'hybrid' || p === null) return p;
      const hybrid = p as { semanticRatio?: number; embedder: string };
      return { semanticRatio: hybrid.semanticRatio ?? 0.5, embedder: hybrid.embedder };
    });
  }) as ChatPatch;
}

/** One setting's value in canonical form; `null` resets. */
function canonicalValue(key: SettingKey, value: unknown): unknown {
  switch (key) {
    case 'displayedAttributes':
    case 'searchableAttributes':
      return value === null ? ['*'] : [...(value as string[])];
    case 'filterableAttributes':
      return nullOr(value as unknown[] | null, (entries) => entries.map(filterableEntry));
    case 'sortableAttributes':
    case 'stopWords':
    case 'nonSeparatorTokens':
    case 'separatorTokens':
    case 'dictionary':
      return nullOr(value as string[] | null, sortedSet);
    case 'foreignKeys':
      return nullOr(value as ForeignKey[] | null, (keys) => keys.map(({ foreignIndexUid, fieldName }) => ({ foreignIndexUid, fieldName })));
    case 'rankingRules':
      return nullOr(value as string[] | null, (rules) => [...rules]);
    case 'synonyms':
      return nullOr(value as Record<string, string[]> | null, sortedKeys);
    case 'typoTolerance':
      return nullOr(value as Json | null, typoTolerancePatch);
    case 'faceting':
      return nullOr(value as Json | null, (faceting) =>
        pick(faceting, ['maxValuesPerFacet', 'sortFacetValuesBy'], (field, v) =>
          field === 'sortFacetValuesBy' && v !== null ? sortedKeys(v as Record<string, FacetOrder>) : v,
        ),
      );
    case 'pagination':
      return nullOr(value as Json | null, (pagination) => pick(pagination, ['maxTotalHits']));
    case 'embedders':
      return nullOr(value as Record<string, Json | null> | null, (embedders) =>
        Object.fromEntries(Object.entries(sortedKeys(embedders)).map(([name, embedder]) => [name, nullOr(embedder, (e) => embedderPatch(e, EMBEDDER_FIELDS))])),
      );
    case 'localizedAttributes':
      return nullOr(value as LocalizedAttributesRule[] | null, (rules) =>
        rules.map(({ attributePatterns, locales }) => ({ attributePatterns: [...attributePatterns], locales: [...locales] })),
      );
    case 'chat':
      return nullOr(value as Json | null, chatPatch);
    default:
      return value;
  }
}

/** The canonical patch of a validated `PATCH /settings` body. */
export function canonicalPatch(body: Readonly<Record<string, unknown>>): SettingsPatch {
  const patch: Json = {};
  for (const key of SETTING_KEYS) if (body[key] !== undefined) patch[key] = canonicalValue(key, body[key]);
  return patch as SettingsPatch;
}

/** The patch of a sub-route update: one setting, `null` resetting it. */
export function singleSettingPatch(key: SettingKey, value: unknown): SettingsPatch {
  return canonicalPatch({ [key]: value });
}

/** What `DELETE /settings` submits: every setting reset. */
export function resetAllPatch(): SettingsPatch {
  return canonicalPatch(Object.fromEntries(SETTING_KEYS.map((key) => [key, null])));
}
