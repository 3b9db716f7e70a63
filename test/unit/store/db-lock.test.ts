// `<db path>/quarry.lock`: one owner per db path, a live owner refused by pid, a dead one taken over.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DbLockedError, lockDbPath } from '../../../src/store/db-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dbPath(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-lock-'));
  dirs.push(dir);
  return dir;
}

describe('lockDbPath', () => {
  it('writes the owner pid and removes the lock on release', () => {
    const at = dbPath();
    const lock = lockDbPath(at);
    expect(readFileSync(path.join(at, 'quarry.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
    expect(existsSync(path.join(at, 'quarry.lock'))).toBe(false);
    lockDbPath(at).release();
  });

  it('refuses a second owner in this process', () => {
    const at = dbPath();
    const lock = lockDbPath(at);
    expect(() => lockDbPath(at)).toThrow(DbLockedError);
    expect(() => lockDbPath(at)).toThrow(`The database at "${at}" is already open in this process.`);
    lock.release();
  });

  it('refuses a second owner in this process through a symlink, and keeps the first one\'s lock', () => {
    const at = dbPath();
    const alias = `${at}-alias`;
    symlinkSync(at, alias);
    dirs.push(alias);
    const lock = lockDbPath(at);
    expect(() => lockDbPath(alias)).toThrow(`The database at "${alias}" is already open in this process.`);
    expect(readFileSync(path.join(at, 'quarry.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
  });

  it('refuses a db path whose lock names a live process', () => {
    const at = dbPath();
    writeFileSync(path.join(at, 'quarry.lock'), String(process.ppid));
    expect(() => lockDbPath(at)).toThrow(`already open in another process (pid ${process.ppid})`);
  });

  it('takes over a lock whose process is gone', () => {
    const at = dbPath();
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(path.join(at, 'quarry.lock'), String(gone));
    const lock = lockDbPath(at);
    expect(readFileSync(path.join(at, 'quarry.lock'), 'utf8')).toBe(String(process.pid));
    lock.release();
  });
});
