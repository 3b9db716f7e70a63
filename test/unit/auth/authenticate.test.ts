import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Authenticator } from '../../../src/auth/authenticate.js';
import { parseExpiresAt } from '../../../src/auth/dates.js';
import { formatRfc3339, nowNs } from '../../../src/types/dates.js';
import { KeyStore } from '../../../src/auth/key-store.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';
import type { Action } from '../../../src/types/key.js';

const MASTER_KEY = 'MASTER_KEY';
let dir: string;
let store: InstanceStore;
let keys: KeyStore;
let auth: Authenticator;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-auth-'));
  store = openInstanceStore(dir, '0.1.0');
  keys = new KeyStore(store, MASTER_KEY);
  auth = new Authenticator(MASTER_KEY, keys);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function key(actions: Action[], indexes: string[], expiresAt: string | null = null): string {
  const created = keys.create({
    name: null,
    description: null,
    actions,
    indexes,
    expiresAt: expiresAt === null ? null : parseExpiresAt(expiresAt, nowNs())!,
  });
  return keys.valueOf(created.uid);
}

function tenantToken(parentKey: string, searchRules: unknown): string {
  const uid = keys.list().find((k) => keys.valueOf(k.uid) === parentKey)!.uid;
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ searchRules, apiKeyUid: uid })}`;
  return `${signed}.${createHmac('sha256', parentKey).update(signed).digest('base64url')}`;
}

/** The outcome of a request: the caller's kind, or the error's code and message. */
async function outcome(token: string | undefined, actions: Action[], index?: string) {
  try {
    const caller = await auth.authenticate(token === undefined ? undefined : `Bearer ${token}`, actions, index);
    return caller.kind;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

const INVALID = 'invalid_api_key: The provided API key is invalid.';
const MISSING_HEADER = 'missing_authorization_header: The Authorization header is missing. It must use the bearer authorization method.';

describe('without a master key', () => {
  it('opens every route but the /keys ones, whatever the token', async () => {
    auth = new Authenticator(null, new KeyStore(store, null));
    expect(await outcome(undefined, ['version'])).toBe('open');
    expect(await outcome('anything', ['search'], 'movies')).toBe('open');
    expect(await outcome('anything', ['keys.get'])).toBe(
      'missing_master_key: Meilisearch is running without a master key. To access this API endpoint, you must have set a master key at launch.',
    );
    await expect(auth.authenticate('Basic x', ['version'])).rejects.toThrow('The Authorization header is missing');
  });

  it('reads a header holding bytes other than visible ASCII or tab as no Bearer scheme', async () => {
    auth = new Authenticator(null, new KeyStore(store, null));
    // Header values arrive latin1-decoded: \u00c3\u00a9 is the UTF-8 encoding of é, \u00ff a lone byte.
    for (const header of ['Bearer \u00ff', 'Bearer \u00c3\u00a9', 'Bearer x\u007f']) {
      await expect(auth.authenticate(header, ['version']), JSON.stringify(header)).rejects.toThrow('The Authorization header is missing');
    }
    expect((await auth.authenticate('Bearer x\ty', ['version'])).kind).toBe('open');
  });
});

describe('with a master key', () => {
  it('accepts the master key for every action and refuses unknown tokens', async () => {
    expect(await outcome(MASTER_KEY, ['keys.create'])).toBe('master');
    expect(await outcome('doggo', ['version'])).toBe(INVALID);
    expect(await outcome('', ['version'])).toBe(INVALID);
  });

  it('reports any refusal of a request without a header as the missing header', async () => {
    expect(await outcome(undefined, ['version'])).toBe(MISSING_HEADER);
    expect(await outcome(undefined, ['search'], 'movies')).toBe(MISSING_HEADER);
  });

  it('accepts an API key for its actions, wildcards expanded', async () => {
    const admin = key(['*'], ['*']);
    const reader = key(['*.get'], ['*']);
    expect(await outcome(admin, ['keys.delete'])).toBe('apiKey');
    expect(await outcome(admin, ['documents.*'], 'movies')).toBe('apiKey');
    expect(await outcome(reader, ['version'])).toBe('apiKey');
    expect(await outcome(reader, ['keys.get'])).toBe(INVALID);
    expect(await outcome(reader, ['documents.*'], 'movies')).toBe(INVALID);
  });

  it('needs every action of a route that requires several', async () => {
    expect(await outcome(key(['settings.get', 'documents.get'], ['*']), ['settings.get', 'documents.get'])).toBe('apiKey');
    expect(await outcome(key(['settings.get'], ['*']), ['settings.get', 'documents.get'])).toBe(INVALID);
  });

  it('names the authorized patterns when the path index is not one of them', async () => {
    const restricted = key(['search', 'documents.add'], ['dog', 'cat*', 'dog']);
    expect(await outcome(restricted, ['search'], 'catto')).toBe('apiKey');
    expect(await outcome(restricted, ['search'], 'doggo')).toBe(
      'invalid_api_key: The API key cannot acces the index `doggo`, authorized indexes are ["cat*", "dog"].',
    );
    expect(await outcome(restricted, ['documents.get'], 'dog')).toBe(INVALID);
  });

  it('lets index-restricted keys on index-less routes only for handler-checked actions', async () => {
    const restricted = key(['*'], ['products']);
    expect(await outcome(restricted, ['indexes.get'])).toBe('apiKey');
    expect(await outcome(restricted, ['tasks.cancel'])).toBe('apiKey');
    expect(await outcome(restricted, ['search'])).toBe('apiKey');
    expect(await outcome(restricted, ['version'])).toBe(INVALID);
    expect(await outcome(restricted, ['tasks.compact'])).toBe(INVALID);
    expect(await outcome(restricted, ['keys.get'])).toBe(INVALID);
  });

  it('grants nothing to a key with no index', async () => {
    const none = key(['*'], []);
    expect(await outcome(none, ['indexes.get'])).toBe(INVALID);
    expect(await outcome(none, ['version'])).toBe(INVALID);
    expect(await outcome(none, ['search'], 'movies')).toBe(
      'invalid_api_key: The API key cannot acces the index `movies`, authorized indexes are [].',
    );
  });

  it('refuses an expired key, after the index check', async () => {
    const expiring = key(['*'], ['movies'], formatRfc3339(nowNs() + 30_000_000n));
    expect(await outcome(expiring, ['search'], 'movies')).toBe('apiKey');
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await outcome(expiring, ['search'], 'movies')).toBe(INVALID);
    expect(await outcome(expiring, ['search'], 'books')).toBe(
      'invalid_api_key: The API key cannot acces the index `books`, authorized indexes are ["movies"].',
    );
  });

  it('refuses a deleted key at once', async () => {
    const value = key(['*'], ['*']);
    keys.delete(keys.list()[0]!.uid);
    expect(await outcome(value, ['version'])).toBe(INVALID);
  });
});

describe('tenant tokens', () => {
  it('stand in for their key on search routes, within their rules', async () => {
    const parent = key(['search'], ['dog*']);
    const token = tenantToken(parent, { doggo: { filter: 'good = true' }, catto: null });
    expect(await outcome(token, ['search'], 'doggo')).toBe('tenantToken');
    expect(await outcome(token, ['search'])).toBe('tenantToken');
    expect(await outcome(token, ['search'], 'dog')).toBe(
      'invalid_api_key: The provided tenant token cannot acces the index `dog`, allowed indexes are ["catto", "doggo"].',
    );
    expect(await outcome(token, ['search'], 'catto')).toBe(
      'invalid_api_key: The API key used to generate this tenant token cannot acces the index `catto`.',
    );
  });

  it('are plain invalid keys on other routes', async () => {
    const token = tenantToken(key(['*'], ['*']), ['*']);
    expect(await outcome(token, ['documents.get'], 'doggo')).toBe(INVALID);
    expect(await outcome(token, ['chatCompletions'])).toBe('tenantToken');
  });

  it('stop working with their parent key, and never exceed its actions', async () => {
    const parent = key(['documents.get'], ['*']);
    expect(await outcome(tenantToken(parent, ['*']), ['search'], 'movies')).toBe(INVALID);
    const searcher = key(['search'], ['*']);
    const token = tenantToken(searcher, ['*']);
    keys.delete(keys.list()[0]!.uid);
    expect(await outcome(token, ['search'], 'movies')).toBe(INVALID);
  });

  it('report their decoding errors on search routes', async () => {
    expect(await outcome('a.b.c', ['search'], 'movies')).toBe('invalid_api_key: Could not decode tenant token, Base64 error: Invalid input length: 1.');
    expect(await outcome('e30.e30.c2ln', ['search'], 'movies')).toBe(
      'invalid_api_key: Could not decode tenant token, JSON error: missing field `alg` at line 1 column 2.',
    );
  });
});

describe('the caller', () => {
  it('filters indexes by the key patterns narrowed by the token rules', async () => {
    const parent = key(['search', 'indexes.create'], ['dog*', 'cat']);
    const caller = await auth.authenticate(`Bearer ${tenantToken(parent, { 'doggo*': { filter: 'a = 1' }, doggo: null, cat: null })}`, ['search']);
    expect(caller.keyUid).toBe(keys.list()[0]!.uid);
    expect(['doggo', 'doggo_2', 'dog', 'cat', 'bird'].filter((uid) => caller.canSeeIndex(uid))).toEqual(['doggo', 'doggo_2', 'cat']);
    expect(caller.indexFilter()!('dog')).toBe(false);
    expect(caller.seesAllIndexes).toBe(false);
    expect(caller.searchFilter('doggo')).toBeNull();
    expect(caller.searchFilter('doggo_2')).toBe('a = 1');
    expect(caller.searchFilter('bird')).toBeNull();
    expect(caller.canPerform('indexes.create', 'cat')).toBe(true);
    expect(caller.canPerform('indexes.delete', 'cat')).toBe(false);
    expect(() => caller.assertIndexAction('indexes.create', 'dog')).toThrow('The provided API key is invalid.');
  });

  it('hides nothing from the master key and unrestricted keys', async () => {
    const master = await auth.authenticate(`Bearer ${MASTER_KEY}`, ['indexes.get']);
    expect(master.indexFilter()).toBeUndefined();
    expect(master.seesAllIndexes).toBe(true);
    expect(master.keyUid).toBeNull();
    const admin = await auth.authenticate(`Bearer ${key(['indexes.get'], ['*'])}`, ['indexes.get']);
    expect(admin.indexFilter()).toBeUndefined();
    expect(admin.canSeeIndex('anything')).toBe(true);
    expect(admin.canPerform('indexes.create', 'anything')).toBe(false);
  });
});
