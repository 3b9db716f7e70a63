import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openInstanceStore, type InstanceStore } from '../../../../src/store/env.js';
import { pendingChangeUid } from '../../../../src/tasks/process/network-change-store.js';
import { TaskQueue } from '../../../../src/tasks/queue.js';
import { kind } from '../fixtures.js';

let dir: string;
let store: InstanceStore;
let queue: TaskQueue;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-change-store-'));
  store = openInstanceStore(dir, '0.1.0');
  queue = new TaskQueue(store);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pendingChangeUid', () => {
  it('names the newest unfinished topology change, as v1.50 refuses another one with it', () => {
    expect(pendingChangeUid(queue)).toBeNull();
    queue.register({ kind: kind.network() });
    queue.register({ kind: kind.clear('movies') });
    expect(pendingChangeUid(queue)).toBe(0);
    queue.register({ kind: kind.network() });
    queue.register({ kind: kind.clear('movies') });
    expect(pendingChangeUid(queue)).toBe(2);
  });
});
