// What a crash in the middle of a snapshot leaves is swept at the next start; the last complete
// snapshot, and other instances' files in a shared snapshot dir, stay. A snapshot compacts the
// databases it copies unless told not to (`--experimental-no-snapshot-compaction`).
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractArchive } from '../../../src/store/archive.js';
import { snapshotFileOf, sweepSnapshotLeftovers, writeSnapshot } from '../../../src/snapshots/writer.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-snapshot-sweep-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('sweepSnapshotLeftovers', () => {
  it("removes the db's half-made layout and archive and keeps its last snapshot and other files", () => {
    const snapshots = path.join(dir, 'snapshots');
    const dbPath = path.join(dir, 'data.ms');
    const target = snapshotFileOf(snapshots, dbPath);
    mkdirSync(path.join(`${target}-layout`, 'indexes'), { recursive: true });
    writeFileSync(path.join(`${target}-layout`, 'indexes', 'data.mdb'), 'x');
    writeFileSync(`${target}.tmp`, 'partial');
    writeFileSync(target, 'complete');
    const other = path.join(snapshots, 'other.ms.snapshot.tmp');
    writeFileSync(other, 'another instance at work');
    sweepSnapshotLeftovers(snapshots, dbPath);
    expect(existsSync(`${target}-layout`)).toBe(false);
    expect(existsSync(`${target}.tmp`)).toBe(false);
    expect(existsSync(target)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });

  it('does nothing, and creates nothing, when the snapshot dir does not exist', () => {
    const snapshots = path.join(dir, 'absent');
    sweepSnapshotLeftovers(snapshots, path.join(dir, 'data.ms'));
    expect(existsSync(snapshots)).toBe(false);
  });

  it('does nothing when the snapshot dir is a file (a snapshot there fails its own task)', () => {
    const snapshots = path.join(dir, 'a-file');
    writeFileSync(snapshots, 'not a folder');
    expect(() => sweepSnapshotLeftovers(snapshots, path.join(dir, 'data.ms'))).not.toThrow();
    expect(existsSync(snapshots)).toBe(true);
  });
});

describe('writeSnapshot', () => {
  it('copies the databases compacted, or as they are when compaction is off', async () => {
    const dbPath = path.join(dir, 'data.ms');
    mkdirSync(path.join(dbPath, 'update_files'), { recursive: true });
    const instance = open({ path: path.join(dbPath, 'instance') });
    // pages written then freed: a compacting copy leaves them out
    for (let i = 0; i < 2000; i++) instance.putSync(`k${i}`, 'x'.repeat(1000));
    for (let i = 0; i < 2000; i++) instance.removeSync(`k${i}`);
    instance.putSync('kept', 1);
    const copied = async (compact: boolean): Promise<number> => {
      const snapshots = path.join(dir, compact ? 'compacted' : 'whole');
      const file = await writeSnapshot(snapshots, { dbPath, compact, instance, indexes: [], indexCount: 0, updateFilesDir: path.join(dbPath, 'update_files'), adjust: async () => {} }, new AbortController().signal);
      const out = path.join(dir, `${compact}-out`);
      chmodSync(file, 0o644);
      await extractArchive(file, out);
      return statSync(path.join(out, 'instance', 'data.mdb')).size;
    };
    try {
      const compacted = await copied(true);
      const whole = await copied(false);
      expect(whole).toBeGreaterThan(compacted * 10);
    } finally {
      await instance.close();
    }
  });
});
