/**
 * Each index's statistics, measured after every batch that writes the index and stored with the
 * batch's commit, as Meilisearch's index mapper keeps its `index-stats` database: `GET /stats`
 * then reads a thousand indexes from one instance transaction instead of opening every index
 * environment. Keyed by environment uuid, so a rename or swap carries the stats with the index.
 */
import type { Database } from 'lmdb';
import { INSTANCE_DBS } from '../store/dbs.js';
import type { InstanceStore } from '../store/env.js';
import { PROTO_SAFE_VALUES } from '../store/proto-safe-packr.js';

/** What the stats routes show of an index, its indexing state aside. */
export interface MeasuredIndex {
  numberOfDocuments: number;
  rawDocumentDbSize: number;
  fieldDistribution: Record<string, number>;
  /** vectors of all embedders, and documents having at least one (absent from stats stored before the vector store) */
  numberOfEmbeddings?: number;
  numberOfEmbeddedDocuments?: number;
  /** used bytes per non-empty internal database, largest first */
  internalDatabaseSizes: Record<string, number>;
  /** the environment's data file on disk */
  databaseSize: number;
  /** its pages in use */
  usedDatabaseSize: number;
}

export class IndexStatsStore {
  private readonly db: Database<MeasuredIndex, string>;

  constructor(private readonly store: InstanceStore) {
    // field names are keys of a stored field distribution
    this.db = store.root.openDB<MeasuredIndex, string>({ name: INSTANCE_DBS.indexStats, ...PROTO_SAFE_VALUES });
  }

  /** The instance environment's page size (an index's creation metadata takes one: stats.ts `metadataPage`). */
  pageSize(): number {
    return (this.store.root.getStats() as { pageSize: number }).pageSize;
  }

  get(uuid: string): MeasuredIndex | undefined {
    return this.db.get(uuid);
  }

  /** Inside the scheduler's transaction or on its own. */
  put(uuid: string, stats: MeasuredIndex): void {
    this.db.putSync(uuid, stats);
  }

  remove(uuid: string): void {
    this.db.removeSync(uuid);
  }
}
