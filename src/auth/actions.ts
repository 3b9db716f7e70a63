/**
 * What each API key action grants (keys-auth.md §4): wildcard expansion and index scope.
 *
 * Pure. Callers: caller.ts (expansion, when a key is checked), authenticate.ts (which actions an
 * index-restricted key may use on index-less routes), the `POST /keys` route (global actions
 * refused on index-restricted keys).
 * Invariants: expansion never yields `*.get`'s own permission from `*`, and never yields the
 * `x.*` permissions from `x.*` (only `*` grants those), exactly as Meilisearch stores them.
 */
import { ACTIONS, type Action } from '../types/key.js';

/** The read actions `*.get` grants (not `keys.get`, not `chatCompletions`). */
const READ_ACTIONS: readonly Action[] = [
  'search', 'documents.get', 'export', 'indexes.get', 'tasks.get', 'settings.get', 'stats.get', 'metrics.get',
  'version', 'experimental.get', 'network.get', 'chats.get', 'chatsSettings.get', 'webhooks.get', 'fields.post',
  'dynamicSearchRules.get',
];

const WILDCARDS: Partial<Record<Action, readonly Action[]>> = {
  '*': ACTIONS.filter((action) => action !== '*.get'),
  '*.get': READ_ACTIONS,
  'documents.*': ['documents.add', 'documents.get', 'documents.delete'],
  'indexes.*': ['indexes.create', 'indexes.get', 'indexes.update', 'indexes.delete', 'indexes.swap', 'indexes.compact'],
  'tasks.*': ['tasks.get', 'tasks.delete', 'tasks.cancel', 'tasks.compact'],
  'settings.*': ['settings.get', 'settings.update'],
  'stats.*': ['stats.get'],
  'metrics.*': ['metrics.get'],
  'dumps.*': ['dumps.create'],
  'snapshots.*': ['snapshots.create'],
  'chats.*': ['chats.get', 'chats.delete'],
  'chatsSettings.*': ['chatsSettings.get', 'chatsSettings.update'],
  'webhooks.*': ['webhooks.get', 'webhooks.update', 'webhooks.delete', 'webhooks.create'],
  'dynamicSearchRules.*': [
    'dynamicSearchRules.get', 'dynamicSearchRules.create', 'dynamicSearchRules.update', 'dynamicSearchRules.delete',
  ],
};

/** Every permission a list of actions grants once its wildcards are expanded. */
export function expandActions(actions: readonly Action[]): ReadonlySet<Action> {
  const granted = new Set<Action>();
  for (const action of actions) {
    for (const permission of WILDCARDS[action] ?? [action]) granted.add(permission);
  }
  return granted;
}

/** Actions that make no sense on a subset of indexes: an index-restricted key cannot list them. */
const GLOBAL_ONLY_ACTIONS: ReadonlySet<Action> = new Set<Action>([
  'tasks.compact', 'metrics.*', 'metrics.get', 'dumps.*', 'dumps.create', 'snapshots.*', 'snapshots.create',
  'version', 'keys.create', 'keys.get', 'keys.update', 'keys.delete', 'experimental.get', 'experimental.update',
  'export', 'network.get', 'network.update', 'chats.*', 'chats.get', 'chats.delete', 'chatsSettings.*',
  'chatsSettings.get', 'chatsSettings.update', 'webhooks.get', 'webhooks.update', 'webhooks.delete',
  'webhooks.create', 'webhooks.*', 'dynamicSearchRules.get', 'dynamicSearchRules.create',
  'dynamicSearchRules.update', 'dynamicSearchRules.delete', 'dynamicSearchRules.*',
]);

/**
 * Actions whose index-less routes (lists, `/tasks`, `/stats`, `/multi-search`, `/swap-indexes`,
 * `POST /indexes`…) an index-restricted key may call: the handler narrows the work to the
 * authorized indexes itself. Other actions need an unrestricted key on index-less routes.
 */
export const HANDLER_CHECKED_ACTIONS: ReadonlySet<Action> = new Set<Action>([
  'search', 'documents.get', 'indexes.create', 'indexes.get', 'indexes.swap', 'tasks.get', 'tasks.cancel',
  'tasks.delete', 'settings.get', 'stats.*', 'stats.get', 'chatCompletions',
]);

/** The first action of `actions` an index-restricted key may not hold, if any (in request order). */
export function firstGlobalOnlyAction(actions: readonly Action[]): Action | undefined {
  return actions.find((action) => GLOBAL_ONLY_ACTIONS.has(action));
}
