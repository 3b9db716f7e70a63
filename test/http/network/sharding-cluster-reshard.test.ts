/**
 * A shard added to a running network of real Quarry processes (issue 26, network.md §4 and §6):
 * ms0 leads a two-shard network holding a slice of the movies, then `PATCH /network` brings ms2
 * in with a third shard. The topology change moves to ms2 exactly the documents its shard wins
 * (rendezvous hashing: nothing else moves), with the index's settings, and no document is lost or
 * duplicated; a network search then sees each document once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../../src/engine/shards/shard-of.js';
import { readMovies } from '../../helpers/movies.js';
import { NetworkCluster } from '../../helpers/network-cluster.js';

const SETTINGS = { searchableAttributes: ['title', 'overview'], filterableAttributes: ['genres', 'year'] };
const SLICE = readMovies().filter((_, i) => i % 100 === 7);
const OWNER: Record<string, string> = { s0: 'ms0', s1: 'ms1', s2: 'ms2' };

let cluster: NetworkCluster;
beforeAll(async () => {
  cluster = await NetworkCluster.start({ names: ['ms0', 'ms1', 'ms2'] });
}, 30_000);
afterAll(async () => {
  await cluster?.stop();
});

const sorted = (values: Iterable<number>) => [...values].sort((a, b) => a - b);

/** Each member's own document ids, asserting that no document is on two members. */
async function placement(members: readonly string[]): Promise<Map<string, number[]>> {
  const where = new Map<number, string>();
  const byMember = new Map<string, number[]>();
  for (const name of members) {
    const own = (await cluster.localDocuments(name, 'movies')).map((doc) => doc.id as number);
    for (const id of own) {
      expect(where.get(id), `document ${id} on ${where.get(id)} and ${name}`).toBeUndefined();
      where.set(id, name);
    }
    byMember.set(name, sorted(own));
  }
  expect(sorted(where.keys())).toEqual(sorted(SLICE.map((movie) => movie.id)));
  for (const [id, name] of where) expect(OWNER[shardOf(String(id), members.map((_, i) => `s${i}`))], `document ${id}`).toBe(name);
  return byMember;
}

describe('adding a third shard to a two-shard network', () => {
  it('moves only the documents the new shard wins, losing and duplicating none', async () => {
    await cluster.shard({ s0: ['ms0'], s1: ['ms1'] }, ['ms0', 'ms1']);
    expect((await cluster.run('ms0', 'PATCH', '/indexes/movies/settings', SETTINGS)).status).toBe('succeeded');
    expect((await cluster.run('ms0', 'POST', '/indexes/movies/documents?primaryKey=id', SLICE)).status).toBe('succeeded');
    await cluster.settle();
    const before = await placement(['ms0', 'ms1']);

    const { reply, tasks } = await cluster.patchNetwork({ remotes: cluster.remotes(['ms2']), shards: { s2: { remotes: ['ms2'] } } });
    expect(reply.status, reply.text).toBe(202);
    expect(reply.body).toMatchObject({ indexUid: null, status: 'enqueued', type: 'networkTopologyChange' });
    expect(Object.keys(tasks).sort()).toEqual(['ms0', 'ms1', 'ms2']);
    for (const [name, task] of Object.entries(tasks)) expect(task, `${name}: ${JSON.stringify(task)}`).toMatchObject({ status: 'succeeded', details: { message: 'Finished' } });
    await cluster.settle();

    const after = await placement(['ms0', 'ms1', 'ms2']);
    for (const name of ['ms0', 'ms1']) {
      // rendezvous hashing: a member only loses documents, to the new shard
      const kept = new Set(after.get(name));
      expect(before.get(name)!.filter((id) => kept.has(id)), name).toEqual(after.get(name));
      expect(tasks[name].details.movedDocuments, name).toBe(before.get(name)!.length - after.get(name)!.length);
    }
    expect(after.get('ms2')!.length).toBeGreaterThan(0);
    expect((await cluster.call('ms2', 'GET', '/indexes/movies/settings')).body).toEqual((await cluster.call('ms0', 'GET', '/indexes/movies/settings')).body);
    expect((await cluster.call('ms2', 'GET', '/network')).body).toMatchObject({ self: 'ms2', leader: 'ms0', shards: { s0: { remotes: ['ms0'] }, s1: { remotes: ['ms1'] }, s2: { remotes: ['ms2'] } } });

    const everything = await cluster.call('ms0', 'POST', '/indexes/movies/search', { q: '', limit: 1000 });
    expect(everything.body.remoteErrors).toEqual({});
    expect(sorted(everything.body.hits.map((hit: { id: number }) => hit.id))).toEqual(sorted(SLICE.map((movie) => movie.id)));
  }, 60_000);
});
