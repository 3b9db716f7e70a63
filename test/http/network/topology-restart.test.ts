/**
 * A topology change survives kill -9 (network.md §6): the leader is killed right after answering
 * the change and started again on the same database and address; it resumes its change where its
 * task says it was, payloads it sends again are recognised by their task keys, and in the end
 * every document lives on exactly one instance, none lost, none twice.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../../src/engine/shards/shard-of.js';
import { api, finished, localIds, remote, restartInstance, run, startInstance, type Instance } from './topology-helpers.js';

let leader: Instance;
let follower: Instance;
const DOCS = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, text: `document number ${i + 1} `.repeat(20) }));

beforeAll(async () => {
  leader = await startInstance('ms0');
  follower = await startInstance('ms1');
  await run(leader, 'POST', '/indexes/movies/documents', DOCS);
}, 30_000);

afterAll(async () => {
  await Promise.all([leader?.server.kill(), follower?.server.dispose()]);
  if (leader !== undefined) rmSync(path.dirname(leader.server.dbPath), { recursive: true, force: true });
});

describe('a topology change killed midway', () => {
  it('resumes after a restart and neither loses nor duplicates a document', async () => {
    const reply = await api(leader, 'PATCH', '/network', {
      self: 'ms0',
      leader: 'ms0',
      remotes: { ms0: remote(leader), ms1: remote(follower) },
      shards: { s0: { remotes: ['ms0'] }, s1: { remotes: ['ms1'] } },
    });
    expect(reply.status).toBe(202);
    leader = await restartInstance(leader);
    const change = await finished(leader, reply.body.taskUid, 30_000);
    expect(change.status).toBe('succeeded');
    expect((await finished(follower, change.network.remote_tasks.ms1.taskUid, 30_000)).status).toBe('succeeded');
    const all = DOCS.map(({ id }) => id);
    const s1 = all.filter((id) => shardOf(String(id), ['s0', 's1']) === 's1');
    expect(await localIds(follower)).toEqual(s1);
    expect(await localIds(leader)).toEqual(all.filter((id) => !s1.includes(id)));
  }, 40_000);
});
