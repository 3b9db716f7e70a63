/**
 * Adding a third shard to a sharded network of real Quarry processes (network.md §5–§6):
 * rendezvous hashing moves only the documents the new shard wins, each from the instance that held
 * it, and the newcomer's change names the leader's; removing it again sends its documents back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../../src/engine/shards/shard-of.js';
import { api, finished, localIds, remote, run, startInstance, type Instance } from './topology-helpers.js';

let ms0: Instance;
let ms1: Instance;
let ms2: Instance;

const DOCS = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, title: `book ${i + 1}` }));
const ids = (shards: string[], shard: string) => DOCS.map(({ id }) => id).filter((id) => shardOf(String(id), shards) === shard);

beforeAll(async () => {
  ms0 = await startInstance('ms0');
  ms1 = await startInstance('ms1');
  ms2 = await startInstance('ms2');
  await run(ms0, 'POST', '/indexes/movies/documents', DOCS);
  const change = await api(ms0, 'PATCH', '/network', {
    self: 'ms0',
    leader: 'ms0',
    remotes: { ms0: remote(ms0), ms1: remote(ms1) },
    shards: { s0: { remotes: ['ms0'] }, s1: { remotes: ['ms1'] } },
  });
  const task = await finished(ms0, change.body.taskUid);
  await finished(ms1, task.network.remote_tasks.ms1.taskUid);
}, 40_000);

afterAll(async () => {
  await Promise.all([ms0, ms1, ms2].map((instance) => instance?.server.dispose()));
});

describe('a third shard', () => {
  it('takes only the documents it wins, from whichever instance held them', async () => {
    const two = ['s0', 's1'];
    const three = ['s0', 's1', 's2'];
    expect(await localIds(ms1)).toEqual(ids(two, 's1'));
    const reply = await api(ms0, 'PATCH', '/network', { remotes: { ms2: remote(ms2) }, shards: { s2: { remotes: ['ms2'] } } });
    expect(reply.status).toBe(202);
    const change = await finished(ms0, reply.body.taskUid);
    const followers = change.network.remote_tasks;
    expect(Object.keys(followers)).toEqual(['ms1', 'ms2']);
    const [on1, on2] = [await finished(ms1, followers.ms1.taskUid), await finished(ms2, followers.ms2.taskUid)];
    for (const task of [change, on1, on2]) expect(task.status).toBe('succeeded');
    expect(on2.network.origin).toMatchObject({ remoteName: 'ms0', taskUid: change.uid });

    const won = ids(three, 's2');
    expect(won.length).toBeGreaterThan(0);
    // only the documents s2 wins moved, each from the shard that held it
    expect(change.details.movedDocuments).toBe(won.filter((id) => shardOf(String(id), two) === 's0').length);
    expect(on1.details.movedDocuments).toBe(won.filter((id) => shardOf(String(id), two) === 's1').length);
    expect(on2.details.movedDocuments).toBe(0);
    expect(await localIds(ms2)).toEqual(won);
    expect(await localIds(ms0)).toEqual(ids(three, 's0'));
    expect(await localIds(ms1)).toEqual(ids(three, 's1'));
    expect(ids(three, 's0')).toEqual(ids(two, 's0').filter((id) => !won.includes(id)));
  }, 60_000);

  it('gives its documents back when it leaves the network, and keeps none', async () => {
    const two = ['s0', 's1'];
    const reply = await api(ms0, 'PATCH', '/network', { remotes: { ms2: null } });
    expect(reply.status).toBe(202);
    const change = await finished(ms0, reply.body.taskUid);
    const { ms1: to1, ms2: to2 } = change.network.remote_tasks;
    const [on1, on2] = [await finished(ms1, to1.taskUid), await finished(ms2, to2.taskUid)];
    for (const task of [change, on1, on2]) expect(task.status).toBe('succeeded');
    expect(on2.details.movedDocuments).toBe(ids(['s0', 's1', 's2'], 's2').length);
    expect((await api(ms2, 'GET', '/network')).body).toMatchObject({ self: null, leader: 'ms0' });
    expect(await localIds(ms2)).toEqual([]);
    expect(await localIds(ms0)).toEqual(ids(two, 's0'));
    expect(await localIds(ms1)).toEqual(ids(two, 's1'));
  }, 60_000);
});
