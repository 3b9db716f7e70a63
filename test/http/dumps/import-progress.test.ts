// `--import-dump` reports its progress: log lines when standard error is a pipe (as here), a
// redrawn bar under a terminal (the server run inside `script`, which gives it a pseudo-terminal).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, writeArchive } from '../../helpers/dump-archive.js';
import { freePort, MAIN, startServer, tempDir } from '../../helpers/server.js';

const MASTER_KEY = 'MASTER_KEY_OF_AT_LEAST_16_BYTES';
const METADATA = JSON.stringify({ dumpVersion: 'V6', dbVersion: '1.50.0', dumpDate: '2025-02-04T10:22:31.331764736Z' });

/** A dump with two indexes (3 and 2 documents) and no task. */
async function dumpFile(): Promise<string> {
  const file = path.join(tempDir(), 'two.dump');
  await writeArchive(file, {
    'metadata.json': METADATA,
    'keys.jsonl': '',
    'tasks/queue.jsonl': '',
    'batches/queue.jsonl': '',
    'indexes/a/metadata.json': JSON.stringify({ uid: 'books', primaryKey: 'id', createdAt: '2025-02-04T10:15:21.3Z', updatedAt: '2025-02-04T10:15:21.42Z' }),
    'indexes/a/settings.json': '{}',
    'indexes/a/documents.jsonl': jsonl([{ id: 1, title: 'a' }, { id: 2, title: 'b' }, { id: 3, title: 'c' }]),
    'indexes/b/metadata.json': JSON.stringify({ uid: 'movies', primaryKey: 'id', createdAt: '2025-02-04T10:15:21.3Z', updatedAt: '2025-02-04T10:15:21.42Z' }),
    'indexes/b/settings.json': '{}',
    'indexes/b/documents.jsonl': jsonl([{ id: 1, title: 'd' }, { id: 2, title: 'e' }]),
  });
  return file;
}

describe('--import-dump progress', () => {
  it('is written as log lines when standard error is not a terminal', async () => {
    const file = await dumpFile();
    const server = await startServer({ masterKey: MASTER_KEY, args: ['--import-dump', file], env: { QUARRY_LOG_LEVEL: 'INFO' } });
    try {
      const lines = server
        .output()
        .split('\n')
        .filter((line) => line.includes('quarry::import'))
        .map((line) => line.replace(/^\S+\s+INFO quarry::import: /, ''));
      expect(lines).toEqual([
        expect.stringMatching(/^unpacking the dump: 0\.0\/\d\.\d KiB$/),
        expect.stringMatching(/^unpacking the dump: (\d\.\d)\/\1 KiB$/),
        'importing indexes: 0/2 indexes',
        'importing indexes: 1/2 indexes (books: 3 documents)',
        'importing indexes: 2/2 indexes (movies: 2 documents)',
        'dump imported: 2 indexes, 5 documents, 0 tasks',
      ]);
      expect(server.output()).not.toMatch(/\x1b\[/);
    } finally {
      await server.dispose();
    }
  });

  it('is a bar redrawn in place under a terminal', async () => {
    const file = await dumpFile();
    const dir = tempDir();
    const port = await freePort();
    // `exec` makes the shell the server, so its pid (printed first) is the server's
    const command = `echo PID=$$; exec "${process.execPath}" "${MAIN}" --http-addr 127.0.0.1:${port} --db-path "${path.join(dir, 'db')}" --dump-dir "${path.join(dir, 'dumps')}" --master-key ${MASTER_KEY} --import-dump "${file}"`;
    const child = spawn('script', ['-q', '-c', command, '/dev/null'], { env: { PATH: process.env.PATH ?? '', TERM: 'xterm', QUARRY_LOG_LEVEL: 'INFO' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      const deadline = Date.now() + 15_000;
      while (!out.includes('Server listening') && !out.includes('dump imported') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 200));
      expect(out).toContain('dump imported: 2 indexes, 5 documents, 0 tasks');
      expect(out).toMatch(/importing indexes \[█+\] 100% 2\/2 indexes movies: 2 documents/);
      expect(out).toMatch(/\x1b\[/);
      // no log line for the import: the bar is the report
      expect(out).not.toContain('quarry::import');
    } finally {
      const pid = Number(/PID=(\d+)/.exec(out)?.[1]);
      if (pid > 0) process.kill(pid, 'SIGKILL');
      child.kill('SIGKILL');
    }
  });
});
