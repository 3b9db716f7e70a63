/**
 * A dump or snapshot cut short (a partial download, a full disk): gunzip fails while a file of
 * the archive is being written. The start is refused with the import's error, and neither the
 * half-made db path nor the dump's scratch folder is left behind, as v1.50 removes its db path.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, writeArchive } from '../../helpers/dump-archive.js';
import { runCli, tempDir } from '../../helpers/server.js';

/** An archive of `files` cut to its first half. */
async function halfArchive(file: string, files: Record<string, string>): Promise<void> {
  await writeArchive(file, files);
  const whole = readFileSync(file);
  writeFileSync(file, whole.subarray(0, whole.length >> 1));
}

/** Text gzip does not shrink much: the cut falls inside the file, in an archive small enough to be read in one go. */
const noise = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, text: `${Math.random().toString(36)} ${(i * 7919).toString(16)}` }));

describe('a truncated archive', () => {
  it.each([
    ['dump', '--import-dump', { 'metadata.json': JSON.stringify({ dumpVersion: 'V6', dbVersion: '1.50.0', dumpDate: '2025-02-04T10:22:31Z' }), 'indexes/a/documents.jsonl': jsonl(noise(200)) }],
    ['snapshot', '--import-snapshot', { 'instance-uid': '972b0d34-a73b-4b37-9a06-eac9af32c9b3', 'indexes/u/data.mdb': jsonl(noise(200)) }],
  ] as const)('%s: refused with the archive error, no db path nor scratch folder left', async (kind, flag, files) => {
    const dir = tempDir();
    const file = path.join(dir, `cut.${kind}`);
    await halfArchive(file, files);
    const tmp = path.join(dir, 'tmp');
    mkdirSync(tmp);
    const dbPath = path.join(dir, 'db');
    const { code, stderr } = await runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0', flag, file], { TMPDIR: tmp });
    expect(stderr).toContain(`importing the ${kind} failed: unexpected end of file`);
    expect(code).toBe(1);
    expect(existsSync(dbPath)).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });
});
