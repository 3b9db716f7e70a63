// `--import-snapshot` reports the unpacking as log lines when standard error is not a terminal:
// one when it starts, one per tenth of the archive read, one when it is done.
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { open } from 'lmdb';
import { expect, it } from 'vitest';
import { writeArchive } from '../../helpers/dump-archive.js';
import { startServer, tempDir } from '../../helpers/server.js';

it('--import-snapshot logs its progress by tenths of the archive', async () => {
  const file = path.join(tempDir(), 'data.ms.snapshot');
  // an instance store (a snapshot without one is refused), empty: the instance opens it as a new one
  const instance = tempDir();
  await open({ path: instance }).close();
  // incompressible content, so the archive is a few MiB
  await writeArchive(file, { 'instance/data.mdb': readFileSync(path.join(instance, 'data.mdb')), 'update_files/leftover': randomBytes(3 * 1024 * 1024).toString('base64') });
  const mib = (statSync(file).size / 1024 / 1024).toFixed(1);
  const server = await startServer({ dbPath: path.join(tempDir(), 'restored.ms'), args: ['--import-snapshot', file], env: { QUARRY_LOG_LEVEL: 'INFO' } });
  try {
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('quarry::import'))
      .map((line) => line.replace(/^\S+\s+INFO quarry::import: /, ''));
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe(`unpacking the snapshot: 0.0/${mib} MiB`);
    const read = lines.slice(1, 11).map((line) => Number(/^unpacking the snapshot: ([\d.]+)\/[\d.]+ MiB$/.exec(line)?.[1]));
    expect(read).toEqual([...read].sort((a, b) => a - b));
    expect(lines[10]).toBe(`unpacking the snapshot: ${mib}/${mib} MiB`);
    expect(lines[11]).toBe(`snapshot imported: ${mib} MiB read`);
  } finally {
    await server.dispose();
  }
});
