/** What every engine under benchmark implements: build an index, answer a query, report its size. */
import type { Dataset, Query } from '../datasets.js';

export interface Engine {
  readonly name: string;
  /** Indexes every document of the dataset (with its suggested settings). */
  index(dataset: Dataset): Promise<void>;
  /** Runs one query (top 20 hits) and returns the number of hits returned. */
  search(query: Query): Promise<number> | number;
  /** Bytes on disk, or null for in-memory engines. */
  diskBytes(): number | null;
  close(): Promise<void>;
}
