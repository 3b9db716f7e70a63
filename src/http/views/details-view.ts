/**
 * Renders a `DetailsView` as Meilisearch serializes it: keys in one global order whatever the task
 * type, settings flattened in place, absent keys skipped. Pure; used by task-view.ts and
 * batch-view.ts.
 */
import type { DetailsView, JsonObject } from '../../types/task.js';

/** Meilisearch's `DetailsView` field order; `settings` stands for the flattened settings keys. */
const ORDER: readonly (keyof DetailsView)[] = [
  'receivedDocuments',
  'indexedDocuments',
  'editedDocuments',
  'primaryKey',
  'providedIds',
  'deletedDocuments',
  'matchedTasks',
  'canceledTasks',
  'deletedTasks',
  'originalFilter',
  'dumpUid',
  'context',
  'function',
  'settings',
  'swaps',
  'upgradeFrom',
  'upgradeTo',
  'url',
  'apiKey',
  'payloadSize',
  'indexes',
  'oldIndexUid',
  'newIndexUid',
  'preCompactionSize',
  'postCompactionSize',
  'movedDocuments',
  'message',
  'rule',
  'updatedRules',
];

/**
 * @param dropNulls omit `null` values outside settings. Stored batches need it: Meilisearch reads
 *   their details back from JSON, where a `null` counter becomes "absent" (settings resets survive).
 */
export function detailsJson(details: DetailsView, dropNulls = false): JsonObject {
  const out: JsonObject = {};
  for (const key of ORDER) {
    const value = details[key];
    if (value === undefined || (dropNulls && value === null)) continue;
    if (key === 'settings') Object.assign(out, value);
    else out[key] = value;
  }
  return out;
}
