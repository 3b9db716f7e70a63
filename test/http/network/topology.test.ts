/**
 * A topology change across two real Quarry processes (network.md §4, §6): a leader holding an
 * index makes a two-shard network with a second instance; the change is sent on to the follower,
 * both changes succeed, the documents of the follower's shard move there (index and settings
 * created first) and are deleted from the leader, every document living on exactly one instance;
 * the leader's dynamic search rules replace the follower's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../../src/engine/shards/shard-of.js';
import { api, finished, localIds, remote, run, startInstance, type Instance } from './topology-helpers.js';

let leader: Instance;
let follower: Instance;

const RULES = {
  dune: { description: 'pin movie 3', precedence: 2, conditions: { query: { words: 'dune' } }, actions: [{ selector: { indexUid: 'movies', id: '3' }, action: { type: 'pin', position: 0 } }] },
  empty: { active: false, conditions: { query: { isEmpty: true } }, actions: [{ selector: { id: '1' }, action: { type: 'pin', position: 1 } }] },
};
const rules = (instance: Instance) => api(instance, 'POST', '/dynamic-search-rules', {}).then(({ body }) => body);

const DOCS = Array.from({ length: 40 }, (_, i) => ({ id: i + 1, title: `movie ${i + 1}`, genre: i % 2 === 0 ? 'drama' : 'comedy' }));

beforeAll(async () => {
  leader = await startInstance('ms0');
  follower = await startInstance('ms1');
  await run(leader, 'PATCH', '/indexes/movies/settings', { filterableAttributes: ['genre'] });
  await run(leader, 'POST', '/indexes/movies/documents?primaryKey=id', DOCS);
  for (const instance of [leader, follower]) await api(instance, 'PATCH', '/experimental-features', { dynamicSearchRules: true });
  for (const [uid, rule] of Object.entries(RULES)) await run(leader, 'PATCH', `/dynamic-search-rules/${uid}`, rule);
  await run(follower, 'PATCH', '/dynamic-search-rules/stale', { actions: [{ selector: { id: '2' }, action: { type: 'pin', position: 0 } }] });
}, 30_000);

afterAll(async () => {
  await Promise.all([leader?.server.dispose(), follower?.server.dispose()]);
});

describe('a two-shard topology change', () => {
  it('moves the follower’s shard to it and leaves every document on exactly one instance', async () => {
    const network = {
      self: 'ms0',
      leader: 'ms0',
      remotes: { ms0: remote(leader), ms1: remote(follower) },
      shards: { s0: { remotes: ['ms0'] }, s1: { remotes: ['ms1'] } },
    };
    const reply = await api(leader, 'PATCH', '/network', network);
    expect(reply).toMatchObject({ status: 202, body: { indexUid: null, status: 'enqueued', type: 'networkTopologyChange' } });
    const change = await finished(leader, reply.body.taskUid);
    const s1 = DOCS.filter(({ id }) => shardOf(String(id), ['s0', 's1']) === 's1').map(({ id }) => id);
    expect(s1.length).toBeGreaterThan(0);
    expect(change).toMatchObject({ status: 'succeeded', details: { movedDocuments: s1.length, message: 'Finished' } });
    const version = (await api(leader, 'GET', '/network')).body.version;
    expect(change.network).toEqual({ remote_tasks: { ms1: { taskUid: expect.any(Number), error: null } }, network_version: version });

    const followed = await finished(follower, change.network.remote_tasks.ms1.taskUid);
    expect(followed).toMatchObject({ status: 'succeeded', type: 'networkTopologyChange', details: { movedDocuments: 0, message: 'Finished' } });
    expect(followed.network).toEqual({ origin: { remoteName: 'ms0', taskUid: change.uid, networkVersion: version } });
    expect((await api(follower, 'GET', '/network')).body).toMatchObject({ self: 'ms1', leader: 'ms0', version, shards: { s0: { remotes: ['ms0'] }, s1: { remotes: ['ms1'] } } });

    const [onLeader, onFollower] = [await localIds(leader), await localIds(follower)];
    expect(onFollower).toEqual(s1);
    expect(onLeader).toEqual(DOCS.map(({ id }) => id).filter((id) => !s1.includes(id)));
    // the index came with its primary key and settings
    expect((await api(follower, 'GET', '/indexes/movies')).body).toMatchObject({ primaryKey: 'id' });
    expect((await api(follower, 'GET', '/indexes/movies/settings/filterable-attributes')).body).toEqual(['genre']);
    // the imports are ordinary additions naming where they come from
    const imports = (await api(follower, 'GET', '/tasks?types=documentAdditionOrUpdate')).body.results;
    expect(imports.length).toBeGreaterThan(0);
    // the leader's rules replaced the follower's, imported as the change's tasks too
    // the same rules, in the same order
    expect((await rules(follower)).results).toEqual((await rules(leader)).results);
    expect((await rules(follower)).results.map((rule: { uid: string }) => rule.uid).sort()).toEqual(['dune', 'empty']);
    const ruleImports = (await api(follower, 'GET', '/tasks?types=dsrClear,dsrUpdate&limit=2')).body.results;
    expect(ruleImports[0].network).toMatchObject({ import_from: { remoteName: 'ms0', indexName: '.meili_dsr', documentCount: 1 } });
    expect(imports[0].network).toEqual({ import_from: { remoteName: 'ms0', indexName: 'movies', documentCount: expect.any(Number) }, network_change: { remoteName: 'ms0', taskUid: change.uid, networkVersion: version } });
  }, 30_000);
});
