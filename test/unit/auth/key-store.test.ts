import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseExpiresAt } from '../../../src/auth/dates.js';
import { nowNs } from '../../../src/types/dates.js';
import { deriveKey } from '../../../src/auth/key-derivation.js';
import { KeyStore } from '../../../src/auth/key-store.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';
import { apiErrorOf } from '../validation/expect-api-error.js';

const MASTER_KEY = 'MASTER_KEY';
const UID = '4bc0887a-0e41-4f3b-935d-0c451dcee9c8';

let dir: string;
let store: InstanceStore;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-keys-'));
  store = openInstanceStore(dir, '0.1.0');
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function reopen(masterKey: string | null = MASTER_KEY): Promise<KeyStore> {
  await store.close();
  store = openInstanceStore(dir, '0.1.0');
  return new KeyStore(store, masterKey);
}

const newKey = (uid?: string) => ({
  ...(uid === undefined ? {} : { uid }),
  name: 'indexing-key',
  description: null,
  actions: ['search', 'documents.add'] as const,
  indexes: ['products'],
  expiresAt: parseExpiresAt('2050-11-13T00:00:00+02:00', nowNs())!,
});

describe('KeyStore', () => {
  it('creates the four default keys on first launch, listed newest first', () => {
    const keys = new KeyStore(store, MASTER_KEY);
    expect(keys.list().map((k) => [k.name, k.actions, k.indexes, k.expiresAt])).toEqual([
      ['Default Search API Key', ['search'], ['*'], null],
      ['Default Admin API Key', ['*'], ['*'], null],
      ['Default Read-Only Admin API Key', ['*.get', 'keys.get'], ['*'], null],
      ['Default Chat API Key', ['chatCompletions', 'search'], ['*'], null],
    ]);
    expect(keys.list().map((k) => k.description)).toEqual([
      'Use it to search from the frontend',
      'Use it for anything that is not a search operation. Caution! Do not expose it on a public frontend',
      'Use it to read information across the whole database. Caution! Do not expose this key on a public frontend',
      'Use it to chat and search from the frontend',
    ]);
  });

  it('creates the default keys without a master key too, and only once', async () => {
    const first = new KeyStore(store, null).list().map((k) => k.uid);
    expect(first).toHaveLength(4);
    expect((await reopen()).list().map((k) => k.uid)).toEqual(first);
  });

  it('recreates the default keys when every key was deleted', async () => {
    const keys = new KeyStore(store, MASTER_KEY);
    for (const key of keys.list()) keys.delete(key.uid);
    expect((await reopen()).list()).toHaveLength(4);
  });

  it('stores a key as given and derives its value from the uid and the master key', async () => {
    const keys = new KeyStore(store, MASTER_KEY);
    const key = keys.create(newKey(UID));
    expect(key).toMatchObject({
      uid: UID,
      name: 'indexing-key',
      description: null,
      actions: ['search', 'documents.add'],
      indexes: ['products'],
      expiresAt: '2050-11-13T00:00:00+02:00',
    });
    expect(key.createdAt).toBe(key.updatedAt);
    expect(keys.valueOf(UID)).toBe('d9e776b8412f1db6974c9a5556b961c3559440b6588216f4ea5d9ed49f7c8f3c');
    expect(keys.list()[0]).toEqual(key);
    expect((await reopen()).get(UID)).toEqual(key);
    expect((await reopen('ANOTHER_MASTER_KEY')).valueOf(UID)).toBe(deriveKey('ANOTHER_MASTER_KEY', UID));
  });

  it('gives no key value without a master key', () => {
    const keys = new KeyStore(store, null);
    const key = keys.create(newKey());
    expect(keys.valueOf(key.uid)).toBe('');
    expect(keys.findUidByValue(deriveKey(MASTER_KEY, key.uid))).toBeUndefined();
  });

  it('refuses a uid already in use', () => {
    const keys = new KeyStore(store, MASTER_KEY);
    keys.create(newKey(UID));
    expect(apiErrorOf(() => keys.create(newKey(UID)))).toEqual({
      code: 'api_key_already_exists',
      message: `\`uid\` field value \`${UID}\` is already an existing API key.`,
    });
  });

  it('recognises a key value in either hex case, and nothing else', () => {
    const keys = new KeyStore(store, MASTER_KEY);
    keys.create(newKey(UID));
    const value = keys.valueOf(UID);
    expect(keys.findUidByValue(value)).toBe(UID);
    expect(keys.findUidByValue(value.toUpperCase())).toBe(UID);
    expect(keys.findUidByValue(value.slice(0, 62))).toBeUndefined();
    expect(keys.findUidByValue(`${value}00`)).toBeUndefined();
    expect(keys.findUidByValue(MASTER_KEY)).toBeUndefined();
  });

  it('resolves a uid in any UUID form or a key value', () => {
    const keys = new KeyStore(store, MASTER_KEY);
    keys.create(newKey(UID));
    for (const ref of [UID, UID.toUpperCase(), UID.replace(/-/g, ''), `urn:uuid:${UID}`, keys.valueOf(UID)]) {
      expect(keys.resolve(ref).uid).toBe(UID);
    }
  });

  it('updates name and description only, moving updatedAt', () => {
    const keys = new KeyStore(store, MASTER_KEY);
    const created = keys.create(newKey(UID));
    const renamed = keys.update(UID, { name: null, description: 'Indexing API key' });
    expect(renamed).toMatchObject({ name: null, description: 'Indexing API key', createdAt: created.createdAt });
    expect(renamed.updatedAt > created.updatedAt).toBe(true);
    expect(keys.update(UID, {})).toMatchObject({ name: null, description: 'Indexing API key' });
  });

  it('forgets a deleted key at once, on disk too', async () => {
    const keys = new KeyStore(store, MASTER_KEY);
    keys.create(newKey(UID));
    const value = keys.valueOf(UID);
    keys.delete(UID);
    expect(keys.get(UID)).toBeUndefined();
    expect(keys.findUidByValue(value)).toBeUndefined();
    expect(apiErrorOf(() => keys.delete(UID))).toEqual({ code: 'api_key_not_found', message: `API key \`${UID}\` not found.` });
    expect((await reopen()).get(UID)).toBeUndefined();
  });
});

describe('KeyStore.resolve errors', () => {
  it('names a uid in its canonical form and anything else as sent', () => {
    const keys = new KeyStore(store, MASTER_KEY);
    const error = (ref: string) => apiErrorOf(() => keys.resolve(ref));
    expect(error(UID.toUpperCase())).toEqual({ code: 'api_key_not_found', message: `API key \`${UID}\` not found.` });
    expect(error('doggo')).toEqual({ code: 'api_key_not_found', message: 'API key `doggo` not found.' });
    expect(error('a'.repeat(64))).toEqual({ code: 'api_key_not_found', message: `API key \`${'a'.repeat(64)}\` not found.` });
    expect(() => keys.resolve('doggo')).toThrow(ApiError);
  });
});

describe('recognising a presented key among many', () => {
  it('costs the same with 20,000 keys: found by its hash, the deleted and unknown ones refused', () => {
    const keys = new KeyStore(store, MASTER_KEY);
    const template = keys.list()[0]!;
    const uids = Array.from({ length: 20_000 }, (_, k) => `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`);
    keys.replaceAll(uids.map((uid) => ({ ...template, uid })));
    const probes = uids.filter((_, k) => k % 100 === 0);
    const started = performance.now();
    for (const uid of probes) expect(keys.findUidByValue(deriveKey(MASTER_KEY, uid))).toBe(uid);
    // comparing with every key took ~4 ms a lookup here (~20 ms a request at 10,000 keys)
    expect(performance.now() - started).toBeLessThan(100);
    expect(keys.findUidByValue(deriveKey(MASTER_KEY, uids[7]!).toUpperCase())).toBe(uids[7]);
    expect(keys.findUidByValue(deriveKey('ANOTHER_MASTER_KEY', uids[7]!))).toBeUndefined();
    keys.delete(uids[7]!);
    expect(keys.findUidByValue(deriveKey(MASTER_KEY, uids[7]!))).toBeUndefined();
  });
});
