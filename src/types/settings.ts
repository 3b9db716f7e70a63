/**
 * Index settings as the engine reads them (settings.md §2, §3): every setting with its effective
 * value, defaults filled in. Stored per index in its environment; the settings service
 * (src/settings) validates user input and produces these. No I/O here.
 */

export interface FilterableRule {
  attributePatterns: string[];
  features: { facetSearch: boolean; filter: { equality: boolean; comparison: boolean } };
}

/** A filterableAttributes entry: legacy string or granular rule. */
export type FilterableEntry = string | FilterableRule;

export interface TypoTolerance {
  enabled: boolean;
  minWordSizeForTypos: { oneTypo: number; twoTypos: number };
  disableOnWords: string[];
  disableOnAttributes: string[];
  disableOnNumbers: boolean;
}

export interface Faceting {
  maxValuesPerFacet: number;
  sortFacetValuesBy: Record<string, 'alpha' | 'count'>;
}

export interface LocalizedAttributesRule {
  attributePatterns: string[];
  locales: string[];
}

export interface IndexSettings {
  displayedAttributes: string[];
  searchableAttributes: string[];
  filterableAttributes: FilterableEntry[];
  sortableAttributes: string[];
  rankingRules: string[];
  stopWords: string[];
  nonSeparatorTokens: string[];
  separatorTokens: string[];
  dictionary: string[];
  synonyms: Record<string, string[]>;
  distinctAttribute: string | null;
  proximityPrecision: 'byWord' | 'byAttribute';
  typoTolerance: TypoTolerance;
  faceting: Faceting;
  pagination: { maxTotalHits: number };
  embedders: Record<string, Record<string, unknown>>;
  searchCutoffMs: number | null;
  localizedAttributes: LocalizedAttributesRule[] | null;
  facetSearch: boolean;
  prefixSearch: 'indexingTime' | 'disabled';
}

export const DEFAULT_RANKING_RULES = ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'];

export function defaultSettings(): IndexSettings {
  return {
    displayedAttributes: ['*'],
    searchableAttributes: ['*'],
    filterableAttributes: [],
    sortableAttributes: [],
    rankingRules: [...DEFAULT_RANKING_RULES],
    stopWords: [],
    nonSeparatorTokens: [],
    separatorTokens: [],
    dictionary: [],
    synonyms: {},
    distinctAttribute: null,
    proximityPrecision: 'byWord',
    typoTolerance: {
      enabled: true,
      minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 },
      disableOnWords: [],
      disableOnAttributes: [],
      disableOnNumbers: false,
    },
    faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } },
    pagination: { maxTotalHits: 1000 },
    embedders: {},
    searchCutoffMs: null,
    localizedAttributes: null,
    facetSearch: true,
    prefixSearch: 'indexingTime',
  };
}
