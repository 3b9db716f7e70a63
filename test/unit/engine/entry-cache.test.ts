// EntryCache: a value derived from one stored entry is derived once per stored version of the
// entry, per environment, even when deriving reads other entries through lmdb's shared buffer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { EntryCache } from '../../../src/engine/entry-cache.js';
import { IndexEnvs, type IndexEnv } from '../../../src/engine/index-env.js';

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-entry-cache-'));
let envs = new IndexEnvs(dir);

afterEach(async () => {
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
  envs = new IndexEnvs(dir);
});

const openEnv = (uuid: string): IndexEnv => envs.get(uuid);

/** A cache of the `payload` entry keyed on `version`, counting its derivations. */
function countingCache() {
  let derived = 0;
  const cache = new EntryCache(
    (env) => env.main,
    'version',
    (env) => {
      derived++;
      return env.main.get('payload') as string | undefined;
    },
  );
  return { cache, derived: () => derived };
}

describe('EntryCache', () => {
  it('derives once until a commit rewrites the entry it is keyed on', () => {
    const env = openEnv('a');
    env.root.transactionSync(() => {
      env.main.putSync('version', 1);
      env.main.putSync('payload', 'first '.repeat(2000));
    });
    const { cache, derived } = countingCache();
    expect(cache.get(env)).toBe('first '.repeat(2000));
    expect(cache.get(env)).toBe('first '.repeat(2000));
    expect(derived()).toBe(1);
    env.root.transactionSync(() => {
      env.main.putSync('version', 2);
      env.main.putSync('payload', 'second');
    });
    expect(cache.get(env)).toBe('second');
    expect(cache.get(env)).toBe('second');
    expect(derived()).toBe(2);
  });

  it('holds a primed value for the entry as stored, and derives again once a commit rewrites it', () => {
    const env = openEnv('a');
    env.root.transactionSync(() => {
      env.main.putSync('version', 1);
      env.main.putSync('payload', 'primed');
    });
    const { cache, derived } = countingCache();
    const primed = 'primed';
    cache.prime(env, primed);
    expect(cache.get(env)).toBe(primed);
    expect(derived()).toBe(0);
    env.root.transactionSync(() => env.main.putSync('version', 2));
    expect(cache.get(env)).toBe('primed');
    expect(derived()).toBe(1);
  });

  it('treats a missing entry as a version of its own', () => {
    const env = openEnv('a');
    const { cache, derived } = countingCache();
    expect(cache.get(env)).toBeUndefined();
    expect(cache.get(env)).toBeUndefined();
    env.root.transactionSync(() => {
      env.main.putSync('version', 1);
      env.main.putSync('payload', 'now');
    });
    expect(cache.get(env)).toBe('now');
    expect(derived()).toBe(2);
  });

  it('keeps one value per environment', () => {
    const a = openEnv('a');
    const b = openEnv('b');
    for (const [env, payload] of [[a, 'in a'], [b, 'in b']] as const) {
      env.root.transactionSync(() => {
        env.main.putSync('version', 1);
        env.main.putSync('payload', payload);
      });
    }
    const { cache, derived } = countingCache();
    expect([cache.get(a), cache.get(b), cache.get(a), cache.get(b)]).toEqual(['in a', 'in b', 'in a', 'in b']);
    expect(derived()).toBe(2);
  });
});
