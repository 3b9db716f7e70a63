/**
 * The index registry: index uid → where its environment lives (a uuid folder), its dates and
 * its primary key, in the instance environment. Renaming or swapping an index only rewrites
 * these records; the environments stay where they are.
 * Writes happen inside the scheduler's transaction (`root.transactionSync` joins it).
 */
import { randomUUID } from 'node:crypto';
import type { Database } from 'lmdb';
import { INSTANCE_DBS } from '../store/dbs.js';
import type { InstanceStore } from '../store/env.js';
import type { Timestamp } from '../types/task.js';

export interface IndexRecord {
  uid: string;
  /** folder of the index environment under `<db path>/indexes/` */
  uuid: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  primaryKey: string | null;
}

export class IndexRegistry {
  private readonly db: Database<IndexRecord, string>;

  constructor(store: InstanceStore) {
    this.db = store.root.openDB<IndexRecord, string>({ name: INSTANCE_DBS.indexes });
  }

  get(uid: string): IndexRecord | undefined {
    return this.db.get(uid);
  }

  exists(uid: string): boolean {
    return this.db.doesExist(uid);
  }

  /** Every index, sorted by uid (byte order, as Meilisearch lists them). */
  list(): IndexRecord[] {
    return [...this.db.getRange({})].map(({ value }) => value);
  }

  /** A record for a new index (not stored: pass it to `put` inside the batch's commit). */
  newRecord(uid: string, primaryKey: string | null, now: Timestamp): IndexRecord {
    return { uid, uuid: randomUUID(), createdAt: now, updatedAt: now, primaryKey };
  }

  put(record: IndexRecord): void {
    this.db.putSync(record.uid, record);
  }

  remove(uid: string): void {
    this.db.removeSync(uid);
  }
}
