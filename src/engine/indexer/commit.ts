/**
 * The writes a batch makes to one index environment, as data: a batch processor describes them
 * (documents' net changes, or new settings with the updaters to rebuild) and the index writer
 * thread applies them (workers/index-writer.ts), so a long commit never blocks the HTTP thread.
 * Each write is ONE transaction: documents and everything derived from them land together.
 *
 * `checkpoint` is called between steps and throws to interrupt; the transaction then rolls back.
 */
import type { JsonObject } from '../documents/document-id.js';
import { DocumentStore } from '../documents/store.js';
import type { IndexEnv } from '../index-env.js';
import { readSettings, writeSettings } from '../index-settings.js';
import type { IndexSettings } from '../../types/settings.js';
import { INDEX_UPDATERS } from './registry.js';

export interface DocumentsWrite {
  readonly kind: 'documents';
  /** net changes by external id; `null` deletes */
  readonly changes: ReadonlyMap<string, JsonObject | null>;
  /** every document is removed before the changes apply */
  readonly clearFirst: boolean;
}

export interface SettingsWrite {
  readonly kind: 'settings';
  readonly settings: IndexSettings;
  /** the index is emptied first (a document clear batched before the settings) */
  readonly clear: boolean;
  /** names of the updaters whose derived data the new settings change */
  readonly rebuild: readonly string[];
}

export type IndexWrite = DocumentsWrite | SettingsWrite;

export function applyIndexWrite(env: IndexEnv, write: IndexWrite, checkpoint: () => void = () => {}): void {
  env.root.transactionSync(() => {
    if (write.kind === 'documents') applyDocuments(env, write, checkpoint);
    else applySettings(env, write, checkpoint);
  });
}

function applyDocuments(env: IndexEnv, write: DocumentsWrite, checkpoint: () => void): void {
  const settings = readSettings(env);
  if (write.clearFirst) for (const updater of INDEX_UPDATERS) updater.rebuild(env, settings, [], checkpoint);
  const applied = new DocumentStore(env).apply(write.changes, write.clearFirst);
  for (const updater of INDEX_UPDATERS) {
    checkpoint();
    updater.apply(env, settings, applied, checkpoint);
  }
}

function applySettings(env: IndexEnv, write: SettingsWrite, checkpoint: () => void): void {
  const store = new DocumentStore(env);
  if (write.clear) store.apply(new Map(), true);
  writeSettings(env, write.settings);
  // An emptied index is rebuilt from nothing, which also clears what the old documents left.
  // Each updater walks the documents on its own, so hand out a fresh iterator every time.
  const documents = write.clear ? [] : { [Symbol.iterator]: () => store.entries() };
  for (const updater of INDEX_UPDATERS) {
    checkpoint();
    if (write.clear || write.rebuild.includes(updater.name)) updater.rebuild(env, write.settings, documents, checkpoint);
  }
}
