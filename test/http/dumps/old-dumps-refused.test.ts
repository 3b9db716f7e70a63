/**
 * Old dumps (V1–V5) that cannot be read are refused at startup with a message naming what is
 * wrong, and the half-made db path is removed: a missing file, a uuid that would name a path
 * out of the dump.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, writeArchive } from '../../helpers/dump-archive.js';
import { runCli, tempDir } from '../../helpers/server.js';

async function refused(files: Record<string, string>): Promise<string> {
  const dir = tempDir('quarry-old-dump-');
  const file = path.join(dir, 'old.dump');
  await writeArchive(file, files);
  const dbPath = path.join(dir, 'db');
  const { code, stderr } = await runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--import-dump', file]);
  expect(code).toBe(1);
  expect(existsSync(dbPath)).toBe(false);
  return stderr;
}

const V3_METADATA = JSON.stringify({ dumpVersion: 'V3', dbVersion: '0.24.0', indexDbSize: 1, updateDbSize: 1, dumpDate: '2022-03-09T18:12:39.778455Z' });

describe('an old dump that cannot be read', () => {
  it('is refused when a file its version needs is missing', async () => {
    expect(await refused({ 'metadata.json': V3_METADATA, 'updates/data.jsonl': '' })).toContain('This V3 dump is incomplete: it has no `index_uuids/data.jsonl`.');
  });

  it('is refused when an index uuid would name a path out of the dump', async () => {
    const stderr = await refused({
      'metadata.json': V3_METADATA,
      'index_uuids/data.jsonl': jsonl([{ uuid: '../../elsewhere', uid: 'movies' }]),
      'updates/data.jsonl': '',
    });
    expect(stderr).toContain('The dump names a file by `"../../elsewhere"`, which is not a uuid.');
  });
});
