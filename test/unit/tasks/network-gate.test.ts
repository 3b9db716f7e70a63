import { describe, expect, it } from 'vitest';
import { nextBatch } from '../../../src/tasks/autobatcher.js';
import { gatedBatch } from '../../../src/tasks/network-gate.js';
import { newChange } from '../../../src/tasks/process/network-change-state.js';
import type { ChangeNetwork, ChangePhase } from '../../../src/types/network-change.js';
import type { Task, TaskNetwork } from '../../../src/types/task.js';
import { kind, task } from './fixtures.js';

const net = (self: string, version: string): ChangeNetwork => ({ self, remotes: { ms0: { url: 'http://a', searchApiKey: null, writeApiKey: null } }, shards: { s0: ['ms0'] }, leader: 'ms0', version });
const autobatch = { index: () => ({ exists: true, primaryKey: null }) };

function changeTask(uid: number, phase: ChangePhase, importsDone = true): Task {
  const change = { ...newChange(net('ms0', 'a'), net('ms0', 'b')), phase };
  if (!importsDone) change.inRemotes = { ms1: { state: 'waiting' } };
  return task(uid, { name: 'networkTopologyChange', change }, { network: { remote_tasks: {}, network_version: 'b' } });
}

const origin = (version: string): TaskNetwork => ({ origin: { remoteName: 'ms0', taskUid: 1, networkVersion: version } });
const imported = (version: string): TaskNetwork => ({ import_from: { remoteName: 'ms1', indexName: 'i', documentCount: 1 }, network_change: { remoteName: 'ms0', taskUid: 1, networkVersion: version } });

function gate(tasks: Task[], localVersion: string | null = null) {
  const base = nextBatch({ tasks, enqueuedCount: tasks.length, ...autobatch });
  const change = tasks.find((t) => t.kind.name === 'networkTopologyChange');
  const next = gatedBatch({ base, considered: tasks, change, enqueued: () => tasks, localVersion, autobatch });
  return next === null ? null : { operation: next.operation, uids: next.taskUids, strategy: next.batchStrategy, change: next.networkChange };
}

describe('the network gate', () => {
  it('runs the tasks of older network versions before the change, then the change', () => {
    const tasks = [task(0, kind.add('i'), { network: origin('a') }), task(1, kind.add('i')), changeTask(2, 'waitingForOlderTasks'), task(3, kind.add('i'), { network: origin('a') })];
    expect(gate(tasks)).toEqual({
      operation: 'documentOperation',
      uids: [0, 3],
      strategy: 'stopped after batching network task with id 2 and a batch of older tasks: batched all enqueued tasks for index `i`',
      change: 2,
    });
    expect(gate(tasks.slice(1, 3))).toMatchObject({ operation: 'networkTopologyChange', uids: [2], strategy: 'stopped after task with id 2 because it is a network topology change task' });
  });

  it('runs only the change’s import tasks while importing, and nothing while waiting for them', () => {
    const tasks = [task(0, kind.add('i')), changeTask(1, 'importingDocuments', false), task(2, kind.add('i'), { network: imported('b') }), task(3, kind.add('i'), { network: imported('a') })];
    expect(gate(tasks)).toMatchObject({ uids: [2], strategy: 'stopped after batching network task with id 1 and a batch of import tasks: batched all enqueued tasks for index `i`' });
    expect(gate(tasks.slice(0, 2))).toBeNull();
    expect(gate([changeTask(1, 'waitingForOthers')])).toMatchObject({ operation: 'networkTopologyChange' });
  });

  it('keeps tasks of a newer network version waiting until ours catches up', () => {
    const tasks = [task(0, kind.add('i'), { network: origin('c') }), task(1, kind.add('j'), { network: origin('b') })];
    expect(gate(tasks, 'b')).toMatchObject({ uids: [1] });
    expect(gate(tasks, 'c')).toMatchObject({ uids: [0] });
    expect(gate(tasks.slice(0, 1), 'b')).toBeNull();
  });
});
