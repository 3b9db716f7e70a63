/**
 * Setup file (test/vitest.config.ts): each test file's temporary folders and files go into a
 * folder of its own, removed with everything in it once the file's tests are done, whoever made
 * them (tempDir(), a test's own mkdtemp, a server's db path). A run used to leave ~140 folders
 * (~50 MB) in the shared TMPDIR, from tests that kept theirs. $QUARRY_RUN_TMPDIR keeps the run's
 * own TMPDIR, for what is kept across files on purpose (the unpacked Chromium, helpers/browser.ts).
 * The folder is made before the file's modules are imported, so folders made at their top level
 * go there too; removed by the last afterAll hook, once the file's own have stopped its servers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const runTmpdir = (process.env.QUARRY_RUN_TMPDIR ??= tmpdir());
const fileTmpdir = mkdtempSync(path.join(runTmpdir, 'quarry-file-'));
process.env.TMPDIR = fileTmpdir;

afterAll(() => {
  process.env.TMPDIR = runTmpdir;
  // retried: a process a test has just stopped may still have been writing there
  rmSync(fileTmpdir, { recursive: true, force: true, maxRetries: 3 });
});
