/**
 * The chat workspaces (chats.md §1): one record per name in the instance environment, holding
 * its settings. They are not tasks: each write commits before the route answers, so they survive
 * a restart, travel in snapshots with the environment, and in dumps as
 * `chat-completions-settings/<name>.json`. Names are any path segment (only `GET /chats/{uid}`
 * checks them), listed in byte order as v1.50's LMDB database lists them.
 */
import type { Database } from 'lmdb';
import { INSTANCE_DBS } from '../store/dbs.js';
import type { InstanceStore } from '../store/env.js';
import type { ChatWorkspaceSettings } from './workspace-settings.js';

export class ChatWorkspaceStore {
  private readonly db: Database<ChatWorkspaceSettings, string>;

  constructor(store: InstanceStore) {
    this.db = store.root.openDB<ChatWorkspaceSettings, string>({ name: INSTANCE_DBS.chatWorkspaces });
  }

  get(name: string): ChatWorkspaceSettings | undefined {
    return this.db.get(name);
  }

  has(name: string): boolean {
    return this.db.doesExist(name);
  }

  /** Every workspace name, in byte order (lmdb keys strings by their UTF-8 bytes). */
  names(): string[] {
    return [...this.db.getKeys()];
  }

  /** Every workspace with its settings, secrets in clear (what a dump writes). */
  entries(): [string, ChatWorkspaceSettings][] {
    return [...this.db.getRange()].map(({ key, value }) => [key, value]);
  }

  /** Creates or replaces the workspace; committed on return. */
  put(name: string, settings: ChatWorkspaceSettings): void {
    this.db.putSync(name, settings);
  }

  /** Removes the workspace; false when there was none. */
  delete(name: string): boolean {
    return this.db.removeSync(name);
  }
}
