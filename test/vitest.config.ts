import { readdirSync, readFileSync, statfsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * The test files that need a process of their own: those that mark it with a `// fresh process:`
 * line (they check what a process has not loaded or grown yet), and those that change what every
 * file of a process shares (mocks, spies, fake timers, globals, environment variables).
 */
const PROCESS_STATE = /^\/\/ fresh process:|\bvi\.(mock|doMock|spyOn|stubGlobal|stubEnv|useFakeTimers)\(|\bprocess\.env(\.\w+|\[[^\]]+\])\s*=[^=]/m;

function freshProcessFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')))
    .filter((file) => PROCESS_STATE.test(readFileSync(path.join(ROOT, file), 'utf8')));
}

const FRESH = freshProcessFiles('test');

/**
 * Where the tests' temporary folders go (the servers' db paths among them): a memory file system
 * when the machine has one with room to spare, since every task a test's server commits waits for
 * its fsync, which took ~18 % of the HTTP tests' time on a disk. Kill tests lose nothing there
 * either: a killed process's writes stay in the page cache. A TMPDIR set by the caller wins.
 */
function tempRoot(): string | undefined {
  if (process.env.TMPDIR !== undefined) return process.env.TMPDIR;
  try {
    const memory = statfsSync('/dev/shm');
    return memory.bavail * memory.bsize >= 8 * 1024 ** 3 ? '/dev/shm' : undefined;
  } catch {
    return undefined;
  }
}
const TMPDIR = tempRoot();

export default defineConfig({
  root: ROOT,
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // each file's temporary folders in one of its own, removed after the file (helpers/file-temp-dir.ts)
    setupFiles: ['test/helpers/file-temp-dir.ts'],
    // Two cores: HTTP tests each start a real server process, so keep the fan-out modest.
    maxWorkers: 2,
    ...(TMPDIR === undefined ? {} : { env: { TMPDIR } }),
    projects: [
      // Most files share their worker's process with the files before them: a new process per file
      // (vitest's default) cost ~0.35 s of CPU each, a sixth of the suite.
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: FRESH, isolate: false, benchmark: { include: ['bench/**/*.bench.ts'] } } },
      { extends: true, test: { name: 'fresh', include: FRESH, isolate: true, benchmark: { include: [] } } },
    ],
  },
});
