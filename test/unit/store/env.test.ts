// The instance store's VERSION record: new stores get the current format, stores of a format this
// version reads are marked as its own once opened, any other format is refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openInstanceStore, STORE_FORMAT_VERSION, StoreVersionError } from '../../../src/store/env.js';

let dbPath: string;
beforeEach(() => {
  dbPath = path.join(mkdtempSync(path.join(tmpdir(), 'quarry-env-')), 'db');
});
afterEach(() => {
  rmSync(path.dirname(dbPath), { recursive: true, force: true });
});

async function writeVersion(format: number): Promise<void> {
  const root = open({ path: path.join(dbPath, 'instance'), maxDbs: 32 });
  await root.openDB({ name: 'main' }).put('version', { format, pkgVersion: '0.0.9' });
  await root.close();
}

const INCOMPATIBLE =
  'Your database version (1.0.0) is incompatible with your current engine version (4.0.0).\n' +
  'To migrate data between Meilisearch versions, please follow our guide on https://www.meilisearch.com/docs/learn/update_and_migration/updating.\n' +
  'Alternatively, you can set the `--upgrade-db` flag (or the `MEILI_UPGRADE_DB` environment variable) to upgrade the database on startup.';

function refusal(upgrade: boolean): string {
  try {
    openInstanceStore(dbPath, '1.2.3', upgrade);
  } catch (err) {
    expect(err).toBeInstanceOf(StoreVersionError);
    return (err as Error).message;
  }
  throw new Error('the store opened');
}

describe('openInstanceStore', () => {
  it('records the current format in a new store', async () => {
    const store = openInstanceStore(dbPath, '1.2.3');
    expect(store.main.get('version')).toEqual({ format: STORE_FORMAT_VERSION, pkgVersion: '1.2.3' });
    await store.close();
  });

  it('refuses a format 1 store (no split postings) without --upgrade-db, with v1.50 wording, and leaves its record', async () => {
    await writeVersion(1);
    expect(STORE_FORMAT_VERSION).toBe(4);
    expect(refusal(false)).toBe(INCOMPATIBLE);
    const store = openInstanceStore(dbPath, '1.2.3', true);
    expect(store.main.get('version')).toEqual({ format: 1, pkgVersion: '0.0.9' });
    await store.close();
  });

  it.each([
    [2, 'postings in columns'],
    [3, 'documents as msgpack'],
  ])('refuses a format %i store (%s) without --upgrade-db and opens it with the flag, its record kept', async (format) => {
    await writeVersion(format);
    expect(refusal(false)).toBe(INCOMPATIBLE.replace('(1.0.0)', `(${format}.0.0)`));
    const store = openInstanceStore(dbPath, '1.2.3', true);
    expect(store.main.get('version')).toEqual({ format, pkgVersion: '0.0.9' });
    await store.close();
  });

  it('refuses a newer format, as a downgrade with --upgrade-db', async () => {
    await writeVersion(5);
    expect(refusal(false)).toContain('Your database version (5.0.0) is incompatible with your current engine version (4.0.0).');
    expect(refusal(true)).toBe('Database version 5.0.0 is higher than the Meilisearch version 4.0.0. Downgrade is not supported');
  });

  it('refuses a format too old to upgrade even with --upgrade-db', async () => {
    await writeVersion(0);
    expect(refusal(true)).toBe('Database version 0.0.0 is too old to be upgraded via `--upgrade-db`. Please generate a dump using the v0.0.0 and import it in the v4.0.0');
  });
});
