// An index's environment is closed and its folder removed only once the reads using it are done:
// closing it under a read (a document list racing an index deletion) made that read answer 500.
// A closed environment leaves nothing of itself in lmdb-js's record of the databases it opened.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import * as lmdb from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexEnvs } from '../../../src/engine/index-env.js';
import { pinReads } from '../../../src/engine/pinned-reads.js';

const UUID = '0b7d5f2e-8a51-4c0e-9a43-3f1d2c4b5a69';
let dir: string;
let envs: IndexEnvs;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-index-env-'));
  envs = new IndexEnvs(dir);
  const env = envs.get(UUID);
  env.root.transactionSync(() => env.main.putSync('probe', 'kept'));
});

afterEach(async () => {
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('IndexEnvs', () => {
  it('deletes an environment only once the lease reading it is released', async () => {
    const lease = envs.acquire(UUID);
    const pinned = pinReads(lease.env);
    let deleted = false;
    const deleting = envs.delete(UUID).then(() => (deleted = true));
    await nextTurn();
    await nextTurn();
    // the read started before the deletion goes on, on its snapshot
    expect(deleted).toBe(false);
    expect(pinned.env.main.get('probe')).toBe('kept');
    expect(existsSync(envs.folderOf(UUID))).toBe(true);
    pinned.release();
    lease.release();
    await deleting;
    expect(existsSync(envs.folderOf(UUID))).toBe(false);
  });

  it('deletes an environment borrowed in this turn once the turn ends', async () => {
    const env = envs.get(UUID);
    const deleting = envs.delete(UUID);
    expect(env.main.get('probe')).toBe('kept');
    await deleting;
    expect(existsSync(envs.folderOf(UUID))).toBe(false);
  });
});

describe('a closed index environment', () => {
  /** The databases lmdb-js still holds of the environment of `uuid`'s folder. */
  const heldOf = (uuid: string): string[] => {
    const opened = (lmdb as unknown as { allDbs: Map<string, { path?: string }> }).allDbs;
    return [...opened].filter(([, store]) => store.path === envs.folderOf(uuid)).map(([key]) => key);
  };

  it('is let go once deleted, closed for others or all closed, instead of staying in lmdb-js with its stores and buffers', async () => {
    const others = ['1c8e6f3f-9b62-4d1f-8b54-4a2e3d5c6b7a', '2d9f7a4a-ac73-4e2a-9c65-5b3f4e6d7c8b'];
    for (const uuid of others) envs.get(uuid);
    expect(heldOf(UUID).length).toBeGreaterThan(10);
    await envs.delete(UUID);
    expect(heldOf(UUID)).toEqual([]);
    await envs.closeAll();
    for (const uuid of others) expect(heldOf(uuid)).toEqual([]);
  });
});
