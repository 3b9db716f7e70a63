/**
 * Exporting an index as a read-only bundle (engine/bundle/): `quarry export-bundle` and the
 * library's export. `indexBundle` makes the bytes from stores already open, `saveIndexBundle`
 * writes them to a file (under a temporary name first, renamed into place, so a failed export
 * leaves no half file), `exportBundle` does it from a db path it opens and closes. The bundle
 * holds the index's state at one read snapshot.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeBundle } from '../engine/bundle/write.js';
import { IndexEnvs } from '../engine/index-env.js';
import { searchSettings } from '../engine/index-settings.js';
import { ExperimentalFeatures } from '../features/experimental-features.js';
import { openInstanceStore } from '../store/env.js';
import { formatRfc3339, nowNs } from '../types/dates.js';
import { loadBuildInfo } from '../version.js';
import { indexNotFound } from './reader.js';
import { IndexRegistry } from './registry.js';
import { validateIndexUid } from './uid.js';

/** The open stores an export reads. */
export interface BundleStores {
  readonly indexes: Pick<IndexRegistry, 'get'>;
  readonly indexEnvs: Pick<IndexEnvs, 'acquire'>;
  readonly features: Pick<ExperimentalFeatures, 'all'>;
}

/**
 * The bundle of index `uid`: every document, or only `fields` of each (dot paths, as the
 * documents route's `fields`; the primary key, the distinct attribute and `_geo` are always kept).
 * `index_not_found` when there is no such index.
 */
export function indexBundle(stores: BundleStores, rawUid: string, fields: readonly string[] | null = null): Uint8Array {
  const uid = validateIndexUid(rawUid);
  const record = stores.indexes.get(uid);
  if (record === undefined) throw indexNotFound(uid);
  const lease = stores.indexEnvs.acquire(record.uuid);
  try {
    const { env } = lease;
    return writeBundle(
      {
        env,
        index: { uid, primaryKey: record.primaryKey, createdAt: formatRfc3339(record.createdAt), updatedAt: formatRfc3339(record.updatedAt) },
        features: stores.features.all(),
        fields,
        distinctAttribute: searchSettings(env).distinctAttribute,
      },
      formatRfc3339(nowNs()),
    );
  } finally {
    lease.release();
  }
}

export interface ExportBundleOptions {
  readonly dbPath: string;
  readonly index: string;
  readonly out: string;
  readonly fields?: readonly string[] | null;
}

/** A db path that holds no Quarry database. */
export class NoDatabaseError extends Error {}

/**
 * Writes the bundle of index `options.index` to `options.out` from stores already open (the
 * library's); answers its size in bytes.
 */
export function saveIndexBundle(stores: BundleStores, options: Omit<ExportBundleOptions, 'dbPath'>): number {
  const bytes = indexBundle(stores, options.index, options.fields ?? null);
  const partial = `${options.out}.partial`;
  try {
    writeFileSync(partial, bytes);
    renameSync(partial, options.out);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
  return bytes.length;
}

/**
 * `quarry export-bundle`: opens the database at `options.dbPath`, writes the bundle of
 * `options.index` to `options.out` and closes it; answers the bundle's size in bytes. A process
 * that already has the database open calls `saveIndexBundle` with its stores instead.
 */
export async function exportBundle(options: ExportBundleOptions): Promise<number> {
  // opening a missing db path would create an empty database there
  if (!existsSync(path.join(options.dbPath, 'instance', 'data.mdb'))) throw new NoDatabaseError(`There is no Quarry database at ${options.dbPath}.`);
  const store = openInstanceStore(options.dbPath, loadBuildInfo().pkgVersion);
  const indexEnvs = new IndexEnvs(options.dbPath);
  try {
    return saveIndexBundle({ indexes: new IndexRegistry(store), indexEnvs, features: new ExperimentalFeatures(store, []) }, options);
  } finally {
    await indexEnvs.closeAll();
    await store.close();
  }
}
