/**
 * The typed queries the search service takes, as the HTTP layer has validated them: one search
 * (POST body and GET parameters alike), a multi-search query with its index, and `federation`.
 */
import type { MatchingStrategy } from '../engine/search/ranking.js';
import { storedLocale } from '../settings/locales.js';

/** A search request after validation, POST and GET alike. */
export interface SearchQuery {
  q?: string | null;
  offset?: number;
  limit?: number;
  page?: number | null;
  hitsPerPage?: number | null;
  attributesToRetrieve?: string[] | null;
  attributesToCrop?: string[] | null;
  cropLength?: number;
  cropMarker?: string;
  attributesToHighlight?: string[] | null;
  highlightPreTag?: string;
  highlightPostTag?: string;
  showMatchesPosition?: boolean;
  filter?: unknown;
  sort?: string[] | null;
  distinct?: string | null;
  facets?: string[] | null;
  matchingStrategy?: MatchingStrategy;
  attributesToSearchOn?: string[] | null;
  rankingScoreThreshold?: number | null;
  locales?: string[] | null;
  hybrid?: { embedder: string; semanticRatio?: number } | null;
  vector?: number[] | null;
  retrieveVectors?: boolean;
  media?: unknown;
  personalize?: { userContext: string } | null;
  useNetwork?: boolean | null;
  showRankingScore?: boolean;
  showRankingScoreDetails?: boolean;
  showPerformanceDetails?: boolean;
}

export interface FederationOptions {
  weight?: number;
  remote?: string | null;
  queryPosition?: number | null;
}

/** One query of `POST /multi-search`. */
export interface QueryWithIndex extends SearchQuery {
  indexUid: string;
  federationOptions?: FederationOptions | null;
}

/** `federation` of `POST /multi-search`: the merged list's window and facets. */
export interface Federation {
  limit?: number;
  offset?: number;
  page?: number | null;
  hitsPerPage?: number | null;
  facetsByIndex?: Record<string, string[] | null>;
  mergeFacets?: { maxValuesPerFacet?: number } | null;
  distinct?: string | null;
  showPerformanceDetails?: boolean;
  personalize?: { userContext: string } | null;
}

/**
 * The search's `locales` as the engine takes them (ISO-639-3 codes); null when absent. An empty
 * list stays one: as v1.50's `Some([])`, it turns off the `localizedAttributes` locales the query
 * and the highlighted fields would otherwise take, leaving the language to detection.
 */
export function storedLocales(locales: readonly string[] | null | undefined): string[] | null {
  return locales === null || locales === undefined ? null : locales.map(storedLocale);
}
