import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ImportRefused, shouldImport, type ImportRequest } from '../../../src/store/import-decision.js';
import { markImportEnded, markImportStarted } from '../../../src/store/import-marker.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'quarry-decision-'));
const request = (file: string, flags: Partial<ImportRequest> = {}): ImportRequest => ({ kind: 'dump', file, ignoreMissing: false, ignoreIfDbExists: false, ...flags });

describe('the import decision table (dumps-snapshots-upgrade.md §3.9)', () => {
  const file = path.join(dir(), 'x.dump');
  writeFileSync(file, '');
  const emptyDb = path.join(dir(), 'db');
  const existingDb = dir();
  writeFileSync(path.join(existingDb, 'VERSION'), '');

  it('imports into a missing or empty db path', () => {
    expect(shouldImport(emptyDb, request(file))).toBe(true);
    const empty = path.join(dir(), 'empty');
    mkdirSync(empty);
    expect(shouldImport(empty, request(file))).toBe(true);
  });

  it('imports again into a db path whose import was interrupted, which is no database', () => {
    const interrupted = dir();
    writeFileSync(path.join(interrupted, 'half-written'), '');
    markImportStarted(interrupted, file);
    expect(shouldImport(interrupted, request(file))).toBe(true);
    markImportEnded(interrupted);
    expect(() => shouldImport(interrupted, request(file))).toThrow(ImportRefused);
  });

  it('refuses an existing database unless told to ignore the import', () => {
    expect(() => shouldImport(existingDb, request(file))).toThrow(ImportRefused);
    expect(shouldImport(existingDb, request(file, { ignoreIfDbExists: true }))).toBe(false);
  });

  it('refuses a missing file unless told to ignore it, after the database check', () => {
    expect(() => shouldImport(emptyDb, request('missing.dump'))).toThrow(`dump doesn't exist at "missing.dump"`);
    expect(() => shouldImport(emptyDb, request('missing.snapshot', { kind: 'snapshot' }))).toThrow(`snapshot doesn't exist at missing.snapshot`);
    expect(() => shouldImport(existingDb, request('missing.dump', { ignoreIfDbExists: true }))).toThrow(`dump doesn't exist`);
    expect(shouldImport(existingDb, request('missing.dump', { ignoreIfDbExists: true, ignoreMissing: true }))).toBe(false);
    expect(shouldImport(emptyDb, request('missing.dump', { ignoreMissing: true }))).toBe(false);
  });
});
