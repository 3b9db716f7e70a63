// Dynamic search rules in dumps: v1.50 dumps them as its internal index `.meili_dsr` (documents
// keyed by `uid`, in its place by name among the indexes), and an import brings them back as
// rules, not as an index.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractArchive } from '../../../src/store/archive.js';
import { call, run } from '../../helpers/api.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let dumpFile: string;
let dumpBatch: number;

const RULE = {
  uid: 'black-friday',
  description: 'Black Friday',
  precedence: 3,
  active: true,
  conditions: { time: { start: '2025-11-28T00:00:00Z' }, query: { words: 'sale' } },
  actions: [{ selector: { indexUid: 'products', id: '123' }, action: { type: 'pin', position: 1 } }],
};

beforeAll(async () => {
  server = await startServer();
  await call(server, 'PATCH', '/experimental-features', { dynamicSearchRules: true });
  const { uid, ...body } = RULE;
  expect((await run(server, 'PATCH', `/dynamic-search-rules/${uid}`, body)).status).toBe('succeeded');
  // `-` sorts before `.meili_dsr`, letters after it
  for (const index of ['-first', 'books']) await run(server, 'POST', '/indexes', { uid: index });
  const dump = await run(server, 'POST', '/dumps');
  expect(dump.status).toBe('succeeded');
  dumpBatch = dump.batchUid;
  const dumpDir = path.join(server.dbPath, '..', 'dumps');
  dumpFile = path.join(dumpDir, readdirSync(dumpDir)[0]!);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('a dump', () => {
  it('holds the rules as the documents of the .meili_dsr index', async () => {
    const extracted = tempDir('quarry-dump-dsr-');
    await extractArchive(dumpFile, extracted);
    const folder = path.join(extracted, 'indexes', '.meili_dsr');
    expect(JSON.parse(readFileSync(path.join(folder, 'metadata.json'), 'utf8'))).toMatchObject({ uid: '.meili_dsr', primaryKey: 'uid' });
    expect(readFileSync(path.join(folder, 'documents.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))).toEqual([RULE]);
  });

  it('writes the rules in their place by name among the indexes, as v1.50 dumps its internal index', async () => {
    const trace = (await call(server, 'GET', `/batches/${dumpBatch}`)).body.stats.progressTrace as Record<string, string>;
    const indexes = Object.keys(trace).filter((step) => /^processing tasks > dump the indexes > [^>]+$/.test(step));
    expect(indexes.map((step) => step.split(' > ')[2])).toEqual(['-first', '.meili_dsr', 'books']);
    expect(trace['processing tasks > dump the indexes > .meili_dsr > document']).toBeDefined();
  });

  it('brings the rules back on import, and the indexes', async () => {
    const imported = await startServer({ dbPath: path.join(tempDir(), 'imported.ms'), args: ['--import-dump', dumpFile] });
    try {
      expect((await call(imported, 'GET', '/dynamic-search-rules/black-friday')).body).toEqual(RULE);
      expect((await call(imported, 'GET', '/indexes')).body.results.map((index: { uid: string }) => index.uid)).toEqual(['-first', 'books']);
    } finally {
      await imported.dispose();
    }
  }, 60_000);
});
