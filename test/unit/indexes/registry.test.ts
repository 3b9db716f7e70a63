// The index registry's records as requests read them: decoded once per stored version, each read
// a copy, a rewritten or removed record read again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { IndexRegistry } from '../../../src/indexes/registry.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';

let dir: string;
let store: InstanceStore;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-registry-'));
  store = openInstanceStore(dir, '0.1.0');
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

it('answers a copy of the record, read again once a write changed it', () => {
  const registry = new IndexRegistry(store);
  const record = registry.newRecord('movies', null, 1_764_374_400_000_000_000n);
  registry.put(record);
  const first = registry.get('movies')!;
  expect(first).toEqual(record);
  first.primaryKey = 'changed by the caller';
  expect(registry.get('movies')!.primaryKey).toBeNull();
  registry.put({ ...record, primaryKey: 'id' });
  expect(registry.get('movies')!.primaryKey).toBe('id');
  registry.remove('movies');
  expect(registry.get('movies')).toBeUndefined();
  expect(registry.get('nowhere')).toBeUndefined();
});
