import { describe, expect, it } from 'vitest';
import { expandActions, firstGlobalOnlyAction, HANDLER_CHECKED_ACTIONS } from '../../../src/auth/actions.js';
import { ACTIONS } from '../../../src/types/key.js';

const sorted = (set: ReadonlySet<string>) => [...set].sort();

describe('expandActions', () => {
  it('expands * to every action except *.get, the x.* permissions included', () => {
    const all = expandActions(['*']);
    expect(all.has('*.get')).toBe(false);
    expect(all.size).toBe(ACTIONS.length - 1);
    expect(all.has('documents.*')).toBe(true);
    expect(all.has('keys.delete')).toBe(true);
  });

  it('expands *.get to the read actions, without keys.get and chatCompletions', () => {
    expect(sorted(expandActions(['*.get']))).toEqual(
      [
        'search', 'documents.get', 'export', 'indexes.get', 'tasks.get', 'settings.get', 'stats.get', 'metrics.get',
        'version', 'experimental.get', 'network.get', 'chats.get', 'chatsSettings.get', 'webhooks.get', 'fields.post',
        'dynamicSearchRules.get',
      ].sort(),
    );
  });

  it('expands group wildcards to their members but not to the wildcard permission itself', () => {
    expect(sorted(expandActions(['documents.*']))).toEqual(['documents.add', 'documents.delete', 'documents.get']);
    expect(sorted(expandActions(['indexes.*']))).toEqual(
      ['indexes.compact', 'indexes.create', 'indexes.delete', 'indexes.get', 'indexes.swap', 'indexes.update'],
    );
    expect(sorted(expandActions(['tasks.*']))).toEqual(['tasks.cancel', 'tasks.compact', 'tasks.delete', 'tasks.get']);
    expect(sorted(expandActions(['settings.*']))).toEqual(['settings.get', 'settings.update']);
    expect(sorted(expandActions(['stats.*', 'metrics.*', 'dumps.*', 'snapshots.*']))).toEqual(
      ['dumps.create', 'metrics.get', 'snapshots.create', 'stats.get'],
    );
    expect(sorted(expandActions(['chats.*', 'chatsSettings.*']))).toEqual(
      ['chats.delete', 'chats.get', 'chatsSettings.get', 'chatsSettings.update'],
    );
    expect(sorted(expandActions(['webhooks.*']))).toEqual(['webhooks.create', 'webhooks.delete', 'webhooks.get', 'webhooks.update']);
    expect(sorted(expandActions(['dynamicSearchRules.*']))).toEqual(
      ['dynamicSearchRules.create', 'dynamicSearchRules.delete', 'dynamicSearchRules.get', 'dynamicSearchRules.update'],
    );
  });

  it('keeps plain actions as they are and merges duplicates', () => {
    expect(sorted(expandActions(['search', 'search', 'version']))).toEqual(['search', 'version']);
  });
});

describe('index scope of actions', () => {
  it('reports the first global-only action in request order', () => {
    expect(firstGlobalOnlyAction(['search', 'version', 'dumps.create'])).toBe('version');
    expect(firstGlobalOnlyAction(['tasks.*', 'keys.get'])).toBe('keys.get');
  });

  it('lets composite and index-scoped actions on index-restricted keys', () => {
    expect(firstGlobalOnlyAction(['*', '*.get', 'documents.*', 'indexes.*', 'tasks.*', 'settings.*', 'stats.*', 'search'])).toBeUndefined();
  });

  it('refuses every metrics, dumps, snapshots, keys, experimental, network, chats, webhooks and rules action', () => {
    for (const action of ACTIONS) {
      const global = /^(metrics|dumps|snapshots|keys|experimental|network|chats|chatsSettings|webhooks|dynamicSearchRules)\./.test(action) ||
        ['version', 'export', 'tasks.compact'].includes(action);
      expect(firstGlobalOnlyAction([action]) !== undefined, action).toBe(global);
    }
  });

  it('lets index-restricted keys call index-less routes only for handler-checked actions', () => {
    expect(HANDLER_CHECKED_ACTIONS.has('indexes.get')).toBe(true);
    expect(HANDLER_CHECKED_ACTIONS.has('tasks.cancel')).toBe(true);
    expect(HANDLER_CHECKED_ACTIONS.has('documents.add')).toBe(false);
    expect(HANDLER_CHECKED_ACTIONS.has('tasks.compact')).toBe(false);
  });
});
