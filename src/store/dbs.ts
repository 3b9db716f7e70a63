/**
 * Every LMDB database name of the instance environment, declared once.
 * Per-index environments declare theirs in engine/index-env.ts.
 */
export const INSTANCE_DBS = {
  /** "main" keys: VERSION record and small instance-wide values (see MAIN_KEYS). */
  main: 'main',
  /** task uid (u32) → task record */
  tasks: 'tasks',
  /** batch uid (u32) → batch record */
  batches: 'batches',
  /** secondary indexes of the task queue: composite key → (nothing); see tasks/index-keys.ts */
  taskIndex: 'task-index',
  /** [family, value] → how many tasks are filed under it, for the counted families of index-keys.ts */
  taskCounts: 'task-counts',
  batchIndex: 'batch-index',
  /** index uid → index registry entry (env folder uuid, createdAt, updatedAt, primaryKey) */
  indexes: 'indexes',
  /** index environment uuid → the index's statistics as of the last batch that wrote it (indexes/stats-store.ts) */
  indexStats: 'index-stats',
  /** api key uid → key record */
  keys: 'keys',
  /** dynamic search rule uid → { id, rule }: the rules of `/dynamic-search-rules` (search-rules/store.ts) */
  searchRules: 'search-rules',
  /** chat workspace name → its settings (chats/workspace-store.ts) */
  chatWorkspaces: 'chat-workspaces',
  /** update-file uuid → a small task payload kept in the environment instead of a file (store/update-files.ts) */
  payloads: 'payloads',
} as const;

export const MAIN_KEYS = {
  version: 'version',
  experimentalFeatures: 'experimental-features',
  /** uuid → webhook defined through `/webhooks` (the CLI one is never stored) */
  webhooks: 'webhooks',
  /** the `/network` topology object */
  network: 'network',
  /** deletion task uid → tasks deleted so far, while a deletion batch's slices commit (tasks/queue.ts `deletionProgress`) */
  taskDeletionProgress: 'task-deletion-progress',
} as const;
