// What a crash in the middle of a snapshot leaves is swept at the next start; the last complete
// snapshot, and other instances' files in a shared snapshot dir, stay.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotFileOf, sweepSnapshotLeftovers } from '../../../src/snapshots/writer.js';

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
