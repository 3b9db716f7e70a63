/**
 * Index settings as the engine and search read them (settings.md §2, §3): every setting with its
 * effective value, defaults filled in. Stored per index in its environment (engine/index-settings.ts)
 * and produced by the settings domain (src/settings), which validates and merges user input.
 * No I/O here.
 *
 * Stored forms (what GET shows, so user-given values round-trip exactly):
 * - displayed/searchable: `['*']` or the user's list, first occurrence of duplicates kept;
 * - sortable, separator/non-separator tokens, dictionary, typo `disableOnAttributes`: sets, sorted
 *   by UTF-8 bytes;
 * - stopWords: NFKD without control characters, case kept, sorted by bytes;
 * - typo `disableOnWords`: tokenizer-normalised (lowercase…), sorted by bytes;
 * - synonyms: exactly as sent, keys sorted by bytes (the engine normalises them itself);
 * - filterableAttributes: as sent, rule objects with every feature filled in;
 * - localizedAttributes locales: ISO-639-3 codes (`ja` is stored as `jpn`), or `cmn`;
 * - embedders: the user-given fields only (GET fills the per-source defaults).
 */
import { ownValue } from './own-record.js';

export interface FilterFeatures {
  equality: boolean;
  comparison: boolean;
}

export interface FilterableRule {
  attributePatterns: string[];
  features: { facetSearch: boolean; filter: FilterFeatures };
}

/** A filterableAttributes entry: legacy string (every feature on) or granular rule. */
export type FilterableEntry = string | FilterableRule;

export interface TypoTolerance {
  enabled: boolean;
  minWordSizeForTypos: { oneTypo: number; twoTypos: number };
  disableOnWords: string[];
  disableOnAttributes: string[];
  disableOnNumbers: boolean;
}

export type FacetOrder = 'alpha' | 'count';

export interface Faceting {
  maxValuesPerFacet: number;
  /** always holds `*`, the fallback order */
  sortFacetValuesBy: Record<string, FacetOrder>;
}

export interface LocalizedAttributesRule {
  attributePatterns: string[];
  locales: string[];
}

export interface ForeignKey {
  foreignIndexUid: string;
  fieldName: string;
}

/** One embedder's user-given fields, in Meilisearch's key order (vectors.md §3.4). */
export type EmbedderSettings = Record<string, unknown>;

export interface ChatSettings {
  description: string;
  documentTemplate: string;
  documentTemplateMaxBytes: number;
  /** only the search parameters that were set */
  searchParameters: Record<string, unknown>;
}

export type ProximityPrecision = 'byWord' | 'byAttribute';
export type PrefixSearch = 'indexingTime' | 'disabled';

export interface IndexSettings {
  displayedAttributes: string[];
  searchableAttributes: string[];
  filterableAttributes: FilterableEntry[];
  sortableAttributes: string[];
  foreignKeys: ForeignKey[];
  rankingRules: string[];
  stopWords: string[];
  nonSeparatorTokens: string[];
  separatorTokens: string[];
  dictionary: string[];
  synonyms: Record<string, string[]>;
  distinctAttribute: string | null;
  proximityPrecision: ProximityPrecision;
  typoTolerance: TypoTolerance;
  faceting: Faceting;
  pagination: { maxTotalHits: number };
  embedders: Record<string, EmbedderSettings>;
  /** null: the default budget, DEFAULT_SEARCH_CUTOFF_MS */
  searchCutoffMs: number | null;
  localizedAttributes: LocalizedAttributesRule[] | null;
  facetSearch: boolean;
  prefixSearch: PrefixSearch;
  chat: ChatSettings;
}

export const DEFAULT_RANKING_RULES = ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'];

/** The search time budget when `searchCutoffMs` is null. */
export const DEFAULT_SEARCH_CUTOFF_MS = 1500;

/** The Liquid template embedders and chat use when none is given. */
export const DEFAULT_DOCUMENT_TEMPLATE =
  '{% for field in fields %}{% if field.is_searchable and field.value != nil %}{{ field.name }}: {{ field.value }}\n{% endif %}{% endfor %}';

export const DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES = 400;

export function defaultTypoTolerance(): TypoTolerance {
  return {
    enabled: true,
    minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 },
    disableOnWords: [],
    disableOnAttributes: [],
    disableOnNumbers: false,
  };
}

export function defaultChatSettings(): ChatSettings {
  return {
    description: '',
    documentTemplate: DEFAULT_DOCUMENT_TEMPLATE,
    documentTemplateMaxBytes: DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES,
    searchParameters: {},
  };
}

export function defaultSettings(): IndexSettings {
  return {
    displayedAttributes: ['*'],
    searchableAttributes: ['*'],
    filterableAttributes: [],
    sortableAttributes: [],
    foreignKeys: [],
    rankingRules: [...DEFAULT_RANKING_RULES],
    stopWords: [],
    nonSeparatorTokens: [],
    separatorTokens: [],
    dictionary: [],
    synonyms: {},
    distinctAttribute: null,
    proximityPrecision: 'byWord',
    typoTolerance: defaultTypoTolerance(),
    faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } },
    pagination: { maxTotalHits: 1000 },
    embedders: {},
    searchCutoffMs: null,
    localizedAttributes: null,
    facetSearch: true,
    prefixSearch: 'indexingTime',
    chat: defaultChatSettings(),
  };
}

/**
 * The attribute list an error message shows inside its backquotes (Meilisearch's
 * `remove_hidden_fields`): the names also listed in `displayedAttributes` (exact names, not
 * prefixes), sorted and deduplicated, then `, <..hidden-attributes>` when some were left out, so
 * that an error never names an attribute a search cannot show. With every name hidden the text
 * opens with that comma, as v1.50 writes it; `visible` tells the messages that say "This index
 * does not have configured …" instead.
 */
export function displayedList(names: Iterable<string>, displayed: readonly string[]): { readonly visible: number; readonly text: string } {
  const all = [...new Set(names)].sort();
  const visible = displayed.includes('*') ? all : all.filter((name) => displayed.includes(name));
  return { visible: visible.length, text: visible.join(', ') + (visible.length < all.length ? ', <..hidden-attributes>' : '') };
}

/** Meilisearch's `Settings` struct order: GET, task details and unknown-field messages use it. */
export const SETTING_KEYS = [
  'displayedAttributes',
  'searchableAttributes',
  'filterableAttributes',
  'sortableAttributes',
  'foreignKeys',
  'rankingRules',
  'stopWords',
  'nonSeparatorTokens',
  'separatorTokens',
  'dictionary',
  'synonyms',
  'distinctAttribute',
  'proximityPrecision',
  'typoTolerance',
  'faceting',
  'pagination',
  'embedders',
  'searchCutoffMs',
  'localizedAttributes',
  'facetSearch',
  'prefixSearch',
  'chat',
] as const;

export type SettingKey = (typeof SETTING_KEYS)[number];

/**
 * Meilisearch's secret masking (`hide_secret`): by the secret's length in UTF-8 bytes (under 10,
 * 20, 30, or more), its first 0, 2, 3 or 5 bytes and a mask. A character those bytes would cut
 * is kept whole, as the embedders' and webhooks' masking rounds the cut up to a character
 * boundary (the chat workspaces' and export's, which do not, panic there).
 */
export function maskSecret(secret: string): string {
  const bytes = new TextEncoder().encode(secret);
  const [keep, mask] = bytes.length < 10 ? [0, 'XXX...'] : bytes.length < 20 ? [2, 'XXXX...'] : bytes.length < 30 ? [3, 'XXXXX...'] : [5, 'XXXXXX...'];
  let end = keep;
  // up to the next character boundary: past continuation bytes (10xxxxxx)
  while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end++;
  return new TextDecoder().decode(bytes.subarray(0, end)) + mask;
}

/** `sortFacetValuesBy` for one attribute: its own entry, else `*`, else alpha (a field named `constructor` has no entry unless given one). */
export function facetOrder(settings: Pick<IndexSettings, 'faceting'>, field: string): FacetOrder {
  const by = settings.faceting.sortFacetValuesBy;
  return ownValue(by, field) ?? ownValue(by, '*') ?? 'alpha';
}

/**
 * The most dimensions an embedder may have (Quarry's bound; v1.50 has none). Real models have a
 * few thousand; an embedding server answering 16 million components per text made each search
 * parse 64 MB and the vector graph reserve 1 GB per node block.
 */
export const MAX_EMBEDDING_DIMENSIONS = 65_536;
