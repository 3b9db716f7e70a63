/**
 * Renders a `DetailsView` as Meilisearch serializes it: keys in one global order whatever the task
 * type, settings flattened in place, absent keys skipped, and reads it back. Pure; used by the task
 * and batch views (tasks/views/) and by dumps (batches/queue.jsonl holds the same view).
 */
import type { DetailsView, JsonObject } from '../types/task.js';

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
  // settings alone are their own flattening: kept as they are, settings read from a record
  // (types/json-text-object.ts) are written as their texts, unparsed
  const { settings } = details;
  if (settings !== undefined && Object.keys(details).every((key) => key === 'settings' || details[key as keyof DetailsView] === undefined)) return settings;
  const out: JsonObject = {};
  for (const key of ORDER) {
    const value = details[key];
    if (value === undefined || (dropNulls && value === null)) continue;
    if (key === 'settings') Object.assign(out, value);
    else out[key] = value;
  }
  return out;
}

const DETAIL_KEYS: ReadonlySet<string> = new Set(ORDER.filter((key) => key !== 'settings'));

/** The `DetailsView` behind a rendered one: keys that are no detail are the flattened settings. */
export function detailsFromJson(json: JsonObject): DetailsView {
  const details: Record<string, unknown> = {};
  const settings: JsonObject = {};
  for (const [key, value] of Object.entries(json)) {
    if (DETAIL_KEYS.has(key)) details[key] = value;
    else settings[key] = value;
  }
  if (Object.keys(settings).length > 0) details.settings = settings;
  return details as DetailsView;
}
