/**
 * Opens the instance LMDB environment under the db path and checks its VERSION record (the
 * storage format below, not an engine version).
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
import { closeEnv } from './close-env.js';
import { settleCompactedEnv } from './compacted-env.js';
import { PROTO_SAFE_VALUES } from './proto-safe-packr.js';
import { INSTANCE_DBS, MAIN_KEYS } from './dbs.js';

/**
 * The storage format: bumped whenever the on-disk layout changes in a way an older reader would
 * misread. Every environment records it: the instance store under MAIN_KEYS.version, each index
 * environment under its `format` key, written with each of its writes (one not yet written, or
 * written before these records existed, is of its instance's format).
 *   1: no split postings (engine/words/posting-blocks.ts): a posting of any size is one value.
 *   2: a posting of more than BLOCK_ENTRIES documents is kept in blocks, whose continued heads a
 *      format-1 reader would misread. Additions a format-1 reader ignores (an index's last applied
 *      batch, engine/applied-batch.ts) need no new format.
 *   3: postings are packed as varints (engine/words/postings.ts), which a format-2 reader would
 *      read as columns of u32.
 *   4: documents are stored as their JSON text (store/json-documents.ts), which a format-3 reader
 *      would decode as msgpack (a `{` reads as the number 123).
 * A database of an older format opens only with `--upgrade-db`, whose `upgradeDatabase` task
 * (tasks/process/upgrade.ts, engine/storage-upgrade.ts) converts it.
 */
export const STORE_FORMAT_VERSION = 4;

/** Older formats `--upgrade-db` converts. */
export const UPGRADABLE_FORMATS: ReadonlySet<number> = new Set([1, 2, 3]);

export class StoreVersionError extends Error {}

export interface InstanceStore {
  readonly root: RootDatabase;
  readonly main: Database<unknown, string>;
  readonly dbPath: string;
  close(): Promise<void>;
}

export interface VersionRecord {
  format: number;
  pkgVersion: string;
}

/**
 * How Quarry shows a storage format where Meilisearch shows its engine version (messages, the
 * `upgradeDatabase` task's `upgradeFrom`/`upgradeTo`): format N is `N.0.0`.
 */
export function formatVersion(format: number): [number, number, number] {
  return [format, 0, 0];
}

/** `formatVersion` as text: `2.0.0`. */
export function formatLabel(format: number): string {
  return formatVersion(format).join('.');
}

/** The storage format the instance store is in (the current one while none is recorded yet). */
export function storeFormat(store: Pick<InstanceStore, 'main'>): number {
  return (store.main.get(MAIN_KEYS.version) as VersionRecord | undefined)?.format ?? STORE_FORMAT_VERSION;
}

/** Records the instance store's format (in the caller's transaction when one is open). */
export function recordStoreFormat(store: Pick<InstanceStore, 'main'>, format: number, pkgVersion: string): void {
  store.main.putSync(MAIN_KEYS.version, { format, pkgVersion } satisfies VersionRecord);
}

/** Why a database of `format` is not opened, with Meilisearch's wording (dumps-snapshots-upgrade.md §2). */
function refusal(format: number, upgrade: boolean): string | null {
  if (format === STORE_FORMAT_VERSION) return null;
  const [from, to] = [formatLabel(format), formatLabel(STORE_FORMAT_VERSION)];
  if (!upgrade) {
    return (
      `Your database version (${from}) is incompatible with your current engine version (${to}).\n` +
      'To migrate data between Meilisearch versions, please follow our guide on https://www.meilisearch.com/docs/learn/update_and_migration/updating.\n' +
      'Alternatively, you can set the `--upgrade-db` flag (or the `MEILI_UPGRADE_DB` environment variable) to upgrade the database on startup.'
    );
  }
  if (format > STORE_FORMAT_VERSION) return `Database version ${from} is higher than the Meilisearch version ${to}. Downgrade is not supported`;
  if (!UPGRADABLE_FORMATS.has(format)) {
    return `Database version ${from} is too old to be upgraded via \`--upgrade-db\`. Please generate a dump using the v${from} and import it in the v${to}`;
  }
  return null;
}

/**
 * Opens the instance store. A new one records the current format; one of an older format this
 * version converts opens only when `upgrade` (`--upgrade-db`) is set, and stays in its format until
 * its `upgradeDatabase` task succeeds; any other format is refused (StoreVersionError).
 */
export function openInstanceStore(dbPath: string, pkgVersion: string, upgrade = false): InstanceStore {
  const dir = path.join(dbPath, 'instance');
  mkdirSync(dir, { recursive: true });
  const root = open({ path: dir, maxDbs: 32, mapSize: 20 * 1024 ** 3, compression: false });
  // a compacted task queue (queue compaction, a snapshot) crashes lmdb-js's first large write
  settleCompactedEnv(root);
  // the network's remotes and shards are keyed by names users choose, `__proto__` included
  const main = root.openDB<unknown, string>({ name: INSTANCE_DBS.main, ...PROTO_SAFE_VALUES });
  const existing = main.get(MAIN_KEYS.version) as VersionRecord | undefined;
  if (existing === undefined) {
    main.putSync(MAIN_KEYS.version, { format: STORE_FORMAT_VERSION, pkgVersion } satisfies VersionRecord);
  } else {
    const refused = refusal(existing.format, upgrade);
    if (refused !== null) {
      void closeEnv(root);
      throw new StoreVersionError(refused);
    }
  }
  return {
    root,
    main,
    dbPath,
    close: () => closeEnv(root),
  };
}
