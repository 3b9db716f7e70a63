/** What every engine under benchmark implements: build an index, answer a query, report its size. */
import type { Dataset, Query } from '../datasets.js';

/** How an engine is built: `features` adds what the feature mixes need (feature-queries.ts). */
export interface EngineOptions {
  features: boolean;
}

/** The feature mixes of feature-queries.ts, named in `how` notes. */
export type FeatureMix = 'faceted' | 'filtered' | 'highlighted' | 'multi-search' | 'federated';

/** Top hits plus, for one facet field, how many of all the query's matches hold each value. */
export interface FacetedHits {
  ids: number[];
  distribution: Record<string, number>;
}

/** Highlight every attribute of `attributes` with `<em>` marks; cut `crop` to about `cropWords` words. */
export interface HighlightRequest {
  attributes: string[];
  crop: string;
  cropWords: number;
}

export interface HighlightedHit {
  id: number;
  formatted: Record<string, string>;
}

export interface Engine {
  readonly name: string;
  /** How the engine answers each feature mix it takes part in, for the feature table. */
  readonly how?: Partial<Record<FeatureMix, string>>;
  /**
   * Gets ready to index, untimed: a server process started and the index configured (what a
   * library engine does when it is constructed). Absent: nothing to do.
   */
  prepare?(dataset: Dataset): Promise<void>;
  /** Indexes every document of the dataset (with its suggested settings), timed. */
  index(dataset: Dataset): Promise<void>;
  /**
   * The warm load: indexes the dataset again, into a new index in the same process (server or
   * library) after `index` and the searches, timed; returns the new index's bytes on disk.
   * Absent: the engine reports no warm load.
   */
  indexAgain?(dataset: Dataset): Promise<{ diskBytes: number | null }>;
  /** Runs one query (top 20 hits, its filter applied) and returns the hits' ids in rank order. */
  search(query: Query): Promise<number[]> | number[];
  /** Top 20 hits and the value counts of `field` over every match; absent: the mix is n/a. */
  facets?(query: Query, field: string): Promise<FacetedHits> | FacetedHits;
  /** Top 20 hits highlighted and cropped; absent: the engine has no highlighter. */
  highlight?(query: Query, request: HighlightRequest): Promise<HighlightedHit[]> | HighlightedHit[];
  /** All `queries` in one request: the top 20 ids of each, or one merged top 20 when federated. */
  multiSearch?(queries: Query[], federated: boolean): Promise<number[][]>;
  /** Bytes on disk, or null for in-memory engines. */
  diskBytes(): number | null;
  close(): Promise<void>;
}
