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

describe('openInstanceStore', () => {
  it('records the current format in a new store', async () => {
    const store = openInstanceStore(dbPath, '1.2.3');
    expect(store.main.get('version')).toEqual({ format: STORE_FORMAT_VERSION, pkgVersion: '1.2.3' });
    await store.close();
  });

  it('opens a format 1 store (no split postings) and marks it as the current format', async () => {
    await writeVersion(1);
    const store = openInstanceStore(dbPath, '1.2.3');
    expect(STORE_FORMAT_VERSION).toBe(2);
    expect(store.main.get('version')).toEqual({ format: 2, pkgVersion: '1.2.3' });
    await store.close();
  });

  it('refuses a store of a format it does not know', async () => {
    await writeVersion(999);
    expect(() => openInstanceStore(dbPath, '1.2.3')).toThrow(StoreVersionError);
  });
});
