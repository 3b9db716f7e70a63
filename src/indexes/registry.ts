/**
 * The index registry: index uid → where its environment lives (a uuid folder), its dates and
 * its primary key, in the instance environment. Renaming or swapping an index only rewrites
 * these records; the environments stay where they are.
 * Writes happen inside the scheduler's transaction (`root.transactionSync` joins it), but for
 * `register`, a batch's new index committed before the batch writes it.
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
  // every request decodes its index's record: keep each decoded with the bytes it came from, and
  // decode again only when the bytes the current snapshot holds differ (a commit rewrote it)
  private readonly decoded = new Map<string, { readonly bytes: Uint8Array; readonly record: IndexRecord }>();

  constructor(store: InstanceStore) {
    this.db = store.root.openDB<IndexRecord, string>({ name: INSTANCE_DBS.indexes });
  }

  /** The record as the current snapshot holds it (a copy: callers may change it before `put`). */
  get(uid: string): IndexRecord | undefined {
    const fast = this.db.getBinaryFast(uid);
    if (fast === undefined) {
      this.decoded.delete(uid);
      return undefined;
    }
    // lmdb's fast buffer reports the value's length but may span its whole shared region
    const bytes = new Uint8Array(fast.buffer, fast.byteOffset, fast.length);
    let entry = this.decoded.get(uid);
    if (entry === undefined || Buffer.compare(entry.bytes, bytes) !== 0) {
      // copied first: lmdb reuses that region for its next read
      entry = { bytes: bytes.slice(), record: this.db.get(uid)! };
      this.decoded.set(uid, entry);
    }
    return { ...entry.record };
  }

  exists(uid: string): boolean {
    return this.db.doesExist(uid);
  }

  /** Every index, sorted by uid (byte order, as Meilisearch lists them). */
  list(): IndexRecord[] {
    return [...this.db.getRange({})].map(({ value }) => value);
  }

  /** A record for a new index (not stored: pass it to `register` or to `put` inside the batch's commit). */
  newRecord(uid: string, primaryKey: string | null, now: Timestamp): IndexRecord {
    return { uid, uuid: randomUUID(), createdAt: now, updatedAt: now, primaryKey };
  }

  /**
   * Stores a batch's new index in a commit of its own, before the batch writes it: readers see the
   * index (empty, indexing) while its first batch runs, and it stays if the batch fails or is
   * canceled, as v1.50's `create_index` commits it before the batch's index transaction.
   */
  async register(record: IndexRecord): Promise<void> {
    await this.db.put(record.uid, record);
  }

  put(record: IndexRecord): void {
    this.db.putSync(record.uid, record);
  }

  remove(uid: string): void {
    this.db.removeSync(uid);
    this.decoded.delete(uid);
  }
}
