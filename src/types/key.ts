/**
 * API key vocabulary: the action names of Meilisearch v1.50 (keys-auth.md §4), in its order.
 */
export const ACTIONS = [
  '*', 'search', 'documents.*', 'documents.add', 'documents.get', 'documents.delete',
  'indexes.*', 'indexes.create', 'indexes.get', 'indexes.update', 'indexes.delete', 'indexes.swap',
  'tasks.*', 'tasks.cancel', 'tasks.delete', 'tasks.get', 'settings.*', 'settings.get', 'settings.update',
  'stats.*', 'stats.get', 'metrics.*', 'metrics.get', 'dumps.*', 'dumps.create', 'snapshots.*', 'snapshots.create',
  'version', 'keys.create', 'keys.get', 'keys.update', 'keys.delete', 'experimental.get', 'experimental.update',
  'export', 'network.get', 'network.update', 'chatCompletions', 'chats.*', 'chats.get', 'chats.delete',
  'chatsSettings.*', 'chatsSettings.get', 'chatsSettings.update', '*.get', 'webhooks.get', 'webhooks.update',
  'webhooks.delete', 'webhooks.create', 'webhooks.*', 'indexes.compact', 'fields.post', 'tasks.compact',
  'dynamicSearchRules.get', 'dynamicSearchRules.create', 'dynamicSearchRules.update', 'dynamicSearchRules.delete',
  'dynamicSearchRules.*',
] as const;

export type Action = (typeof ACTIONS)[number];

/** The actions that only exist on the `/keys` routes: without a master key they answer `missing_master_key`. */
export const KEY_ACTIONS: readonly Action[] = ['keys.create', 'keys.get', 'keys.update', 'keys.delete'];
