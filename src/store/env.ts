/**
 * Opens the instance LMDB environment under the db path and checks its VERSION record.
 *
 * Layout of the db path (mirrors Meilisearch's data.ms):
 *   instance/       one LMDB env: tasks, batches, keys, index registry, experimental features
 *   indexes/<uuid>/ one LMDB env per index, so deleting or swapping an index is cheap
 *   update_files/   task payloads, written before the task is enqueued
 *
 * Writes go through `transactionSync`, which commits (and fsyncs) before returning: once a
 * caller has been answered, the data is on disk.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { INSTANCE_DBS, MAIN_KEYS } from './dbs.js';

/** Bumped whenever the on-disk layout changes incompatibly. */
export const STORE_FORMAT_VERSION = 2;

/**
 * Older formats this version reads as they are, and marks as its own once opened, since what it
 * writes from then on is not theirs: format 1 had no split postings (posting-blocks.ts), whose
 * continued heads a format-1 reader would misread.
 */
const UPGRADED_FORMATS: ReadonlySet<number> = new Set([1]);

export class StoreVersionError extends Error {}

export interface InstanceStore {
  readonly root: RootDatabase;
  readonly main: Database<unknown, string>;
  readonly dbPath: string;
  close(): Promise<void>;
}

interface VersionRecord {
  format: number;
  pkgVersion: string;
}

export function openInstanceStore(dbPath: string, pkgVersion: string): InstanceStore {
  const dir = path.join(dbPath, 'instance');
  mkdirSync(dir, { recursive: true });
  const root = open({ path: dir, maxDbs: 32, mapSize: 20 * 1024 ** 3, compression: false });
  const main = root.openDB<unknown, string>({ name: INSTANCE_DBS.main });
  const existing = main.get(MAIN_KEYS.version) as VersionRecord | undefined;
  if (existing === undefined || UPGRADED_FORMATS.has(existing.format)) {
    main.putSync(MAIN_KEYS.version, { format: STORE_FORMAT_VERSION, pkgVersion } satisfies VersionRecord);
  } else if (existing.format !== STORE_FORMAT_VERSION) {
    void root.close();
    throw new StoreVersionError(
      `The database at ${dbPath} was created by Quarry ${existing.pkgVersion} (storage format ${existing.format}), ` +
        `which this version (${pkgVersion}, storage format ${STORE_FORMAT_VERSION}) cannot open. ` +
        'Export a dump with the version that created it and import it here.',
    );
  }
  return {
    root,
    main,
    dbPath,
    close: () => root.close(),
  };
}
