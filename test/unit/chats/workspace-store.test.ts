// The chat workspaces in the instance environment: one record per name, listed in byte order,
// committed at once (a reopened store has them).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultWorkspaceSettings } from '../../../src/chats/workspace-settings.js';
import { ChatWorkspaceStore } from '../../../src/chats/workspace-store.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';

let dir: string;
let store: InstanceStore;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-chats-'));
  store = openInstanceStore(dir, '0.1.0');
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('ChatWorkspaceStore', () => {
  it('lists the names in byte order, whatever their creation order', () => {
    const workspaces = new ChatWorkspaceStore(store);
    for (const name of ['b', 'é', 'B', '10', '9', 'a', '__proto__']) workspaces.put(name, defaultWorkspaceSettings());
    expect(workspaces.names()).toEqual(['10', '9', 'B', '__proto__', 'a', 'b', 'é']);
    expect(workspaces.entries().map(([name]) => name)).toEqual(workspaces.names());
  });

  it('gets, replaces and deletes a workspace; an unknown one is undefined and deletes nothing', () => {
    const workspaces = new ChatWorkspaceStore(store);
    expect(workspaces.get('ws')).toBeUndefined();
    expect(workspaces.has('ws')).toBe(false);
    workspaces.put('ws', defaultWorkspaceSettings());
    workspaces.put('ws', { ...defaultWorkspaceSettings(), apiKey: 'key' });
    expect(workspaces.get('ws')).toEqual({ ...defaultWorkspaceSettings(), apiKey: 'key' });
    expect(workspaces.delete('ws')).toBe(true);
    expect(workspaces.delete('ws')).toBe(false);
    expect(workspaces.names()).toEqual([]);
  });

  it('keeps the workspaces when the environment is reopened, with their key order', async () => {
    new ChatWorkspaceStore(store).put('ws', { ...defaultWorkspaceSettings(), baseUrl: 'http://llm' });
    await store.close();
    store = openInstanceStore(dir, '0.1.0');
    const settings = new ChatWorkspaceStore(store).get('ws')!;
    expect(settings).toEqual({ ...defaultWorkspaceSettings(), baseUrl: 'http://llm' });
    expect(Object.keys(settings)).toEqual(Object.keys(defaultWorkspaceSettings()));
  });
});
