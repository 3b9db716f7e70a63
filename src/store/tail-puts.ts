/**
 * Puts into a database keyed by docid (uint32) that append past its last key where they can.
 *
 * Why: an addition gives new documents docids above every one the index holds, in ascending
 * order. Put one by one, each past the last key, they leave LMDB's split leaf pages part empty
 * (a movies load's documents and forward records took 1.2 times the pages they fill appended);
 * with MDB_APPEND a full page stays full and the next key starts a new one: fewer pages on disk
 * and in the map.
 * A key at or below the last one (a replaced document, a reused docid) is an ordinary put.
 */
import type { Database } from 'lmdb';

export class TailPuts<V> {
  /** the database, whose encoder also takes bytes as they are */
  private readonly db: Database<V | Uint8Array, number>;
  /** the largest key the database held or was given since; -1 when empty */
  private tail = -1;

  constructor(db: Database<V, number>) {
    this.db = db as Database<V | Uint8Array, number>;
    for (const key of db.getKeys({ reverse: true, limit: 1 })) this.tail = key;
  }

  /** Puts `value` (a value of the database, or bytes its encoder takes as they are) at `key`. */
  put(key: number, value: V | Uint8Array): void {
    const { db } = this;
    if (key > this.tail) {
      this.tail = key;
      // LMDB refuses an append that is not past the last key (MDB_KEYEXIST): lmdb-js's putSync then
      // answers false (typed void), and the value goes in by an ordinary put
      if ((db.putSync(key, value, { append: true }) as unknown as boolean)) return;
    }
    db.putSync(key, value);
  }
}
