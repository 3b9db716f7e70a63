// Quarry.open's options act as the server's flags do: the payload limit bounds the library's
// document payloads with the HTTP error, an experimental flag turns its feature on, and the dump
// and snapshot folders take what createDump and createSnapshot make.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Quarry, QuarryApiError } from '../../dist/src/library/index.js';
import { tempDir } from '../helpers/server.js';

let dir: string | undefined;
let quarry: Quarry | undefined;

afterEach(async () => {
  await quarry?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  quarry = undefined;
  dir = undefined;
});

async function open(options: Omit<Parameters<typeof Quarry.open>[0], 'dbPath'>): Promise<Quarry> {
  dir = tempDir();
  quarry = await Quarry.open({ dbPath: path.join(dir, 'data.ms'), logLevel: 'WARN', ...options });
  return quarry;
}

describe('Quarry.open options', () => {
  it('bound document payloads by httpPayloadSizeLimit, as the server answers', async () => {
    const q = await open({ httpPayloadSizeLimit: 200 });
    const refusal = q.index('docs').addDocuments([{ id: 1, text: 'x'.repeat(300) }]);
    await expect(refusal).rejects.toThrow(QuarryApiError);
    await expect(refusal).rejects.toMatchObject({ code: 'payload_too_large', httpStatus: 413, cause: { code: 'payload_too_large', type: 'invalid_request' } });
    const task = await q.index('docs').addDocuments([{ id: 1, text: 'short' }]).waitTask({ timeout: 30_000 });
    expect(task.status).toBe('succeeded');
  }, 40_000);

  it('turn the CONTAINS filter on with experimentalContainsFilter', async () => {
    const q = await open({ experimentalContainsFilter: true });
    await q.index('docs').updateSettings({ filterableAttributes: ['text'] }).waitTask({ timeout: 30_000 });
    await q.index('docs').addDocuments([{ id: 1, text: 'needle in a haystack' }, { id: 2, text: 'hay' }]).waitTask({ timeout: 30_000 });
    const { hits } = await q.index('docs').search('', { filter: 'text CONTAINS needle' });
    expect(hits.map((hit) => hit.id)).toEqual([1]);
  }, 40_000);

  it('put dumps and snapshots in dumpDir and snapshotDir, inside the db path by default', async () => {
    const q = await open({});
    await q.index('docs').addDocuments([{ id: 1 }]).waitTask({ timeout: 30_000 });
    const dump = await q.createDump().waitTask({ timeout: 30_000 });
    expect(dump.status).toBe('succeeded');
    expect(readdirSync(path.join(dir!, 'data.ms', 'dumps'))).toEqual([`${dump.details!.dumpUid}.dump`]);
    await q.close();
    quarry = await Quarry.open({ dbPath: path.join(dir!, 'data.ms'), logLevel: 'WARN', dumpDir: path.join(dir!, 'elsewhere'), snapshotDir: path.join(dir!, 'shots') });
    expect((await quarry.createDump().waitTask({ timeout: 30_000 })).status).toBe('succeeded');
    expect(readdirSync(path.join(dir!, 'elsewhere'))).toHaveLength(1);
    expect((await quarry.createSnapshot().waitTask({ timeout: 30_000 })).status).toBe('succeeded');
    expect(readdirSync(path.join(dir!, 'shots'))).toEqual(['data.ms.snapshot']);
  }, 60_000);
});
