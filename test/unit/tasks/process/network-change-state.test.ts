import { describe, expect, it } from 'vitest';
import { shardOf } from '../../../../src/engine/shards/shard-of.js';
import {
  changeMessage,
  exportPlan,
  isImportFinished,
  newChange,
  nextPhase,
  processRemoteTask,
  receiveImportFinished,
  receiveRemoteTask,
  remotesToNotify,
  ownedShards,
} from '../../../../src/tasks/process/network-change-state.js';
import type { ChangeNetwork } from '../../../../src/types/network-change.js';

const remote = (name: string) => ({ url: `http://${name}`, searchApiKey: null, writeApiKey: `${name}-key` });
const network = (self: string | null, shards: Record<string, string[]>, leader: string | null = 'ms0'): ChangeNetwork => {
  const names = [...new Set(Object.values(shards).flat())];
  return { self, remotes: Object.fromEntries(names.map((name) => [name, remote(name)])), shards, leader, version: 'v' };
};

describe('a topology change’s state', () => {
  it('waits for imports from every other remote of both networks, and for the new network’s remotes to import', () => {
    const change = newChange(network('ms0', { s0: ['ms0'], s1: ['ms1'] }), network('ms0', { s0: ['ms0'], s2: ['ms2'] }));
    expect(Object.keys(change.inRemotes)).toEqual(['ms1', 'ms2']);
    expect(Object.keys(change.outRemotes)).toEqual(['ms2']);
    // a remote leaving the network imports nothing and notifies no one
    const leaving = newChange(network('ms1', { s0: ['ms0'], s1: ['ms1'] }), network(null, { s0: ['ms0'] }));
    expect(leaving.inRemotes).toEqual({});
    expect(Object.keys(leaving.outRemotes)).toEqual(['ms0']);
    expect([...ownedShards(leaving)]).toEqual([]);
  });

  it('keeps a remote named `__proto__` as a remote', () => {
    const change = newChange(network('ms0', { s0: ['ms0'] }), network('ms0', { s0: ['ms0'], s1: ['__proto__'] }));
    expect(Object.keys(change.inRemotes)).toEqual(['__proto__']);
    expect(Object.keys(change.outRemotes)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(change.inRemotes)).toBe(Object.prototype);
  });

  it('follows each remote’s imports until every index it announced is processed', () => {
    const change = newChange(network('ms0', { s0: ['ms0'] }), network('ms0', { s0: ['ms0'], s1: ['ms1'], s2: ['ms2'] }));
    receiveRemoteTask(change, 'ms1', null, null, 0, 0, 0);
    expect(change.inRemotes.ms1).toEqual({ state: 'finished', totalIndexes: 0, totalDocuments: 0 });
    receiveRemoteTask(change, 'ms2', 'movies', 10, 3, 1, 5);
    expect(() => receiveRemoteTask(change, 'ms2', 'movies', 10, 2, 1, 5)).toThrow('The import task with key `10` was already received');
    expect(() => receiveRemoteTask(change, 'ghost', 'movies', 11, 2, 1, 5)).toThrow('The import task emanates from an unknown remote `ghost`');
    receiveRemoteTask(change, 'ms2', 'movies', 11, 2, 1, 5);
    expect(changeMessage({ ...change, phase: 'importingDocuments' })).toBe(
      'Importing documents from 2 remotes, awaiting 0 and processed 0 out of 5 documents in 1 indexes from `ms2`, 1 remotes finished processing',
    );
    processRemoteTask(change, 'ms2', 'movies', 3);
    expect(isImportFinished(change)).toBe(false);
    processRemoteTask(change, 'ms2', 'movies', 2);
    expect(isImportFinished(change)).toBe(true);
    expect(nextPhase({ ...change, phase: 'exportingDocuments' })).toBe('waitingForOthers');
    expect(remotesToNotify(change).map(({ name }) => name)).toEqual(['ms1', 'ms2']);
  });

  it('waits for every remote to say it imported, then deletes', () => {
    const change = newChange(network('ms0', { s0: ['ms0'] }), network('ms0', { s0: ['ms0'], s1: ['ms1'] }));
    change.phase = 'waitingForOthers';
    expect(changeMessage(change)).toBe('Waiting for `ms1` to finish importing');
    expect(nextPhase(change)).toBe('waitingForOthers');
    expect(receiveImportFinished(change, 'ms1', true)).toBe(true);
    expect(receiveImportFinished(change, 'ms1', true)).toBe(false);
    expect(() => receiveImportFinished(change, 'ghost', true)).toThrow('The finished import notification emanates from an unknown remote `ghost`');
    expect(nextPhase(change)).toBe('deletingDocuments');
  });

  it('sends a whole shard to its new owner from the old owner the shard’s name picks, only moved documents otherwise', () => {
    const old = network('ms0', { s0: ['ms0', 'ms1'], s1: ['ms1'] });
    const next = network('ms0', { s0: ['ms0', 'ms1', 'ms2'], s1: ['ms1'] });
    const plan = exportPlan(newChange(old, next));
    expect(plan.map(({ name, shards }) => [name, [...shards]])).toEqual([
      ['ms1', [['s0', 'reshardedOnly'], ['s1', 'reshardedOnly']]],
      ['ms2', [['s0', shardOf('s0', ['ms0', 'ms1']) === 'ms0' ? 'fullShard' : 'reshardedOnly']]],
    ]);
  });
});
