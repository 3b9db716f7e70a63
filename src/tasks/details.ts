/**
 * Task details: their value at enqueue time, the failed/canceled transform, the public form
 * (`DetailsView`) and how a batch merges the details of its tasks (tasks-batches.md §3, §7).
 * Pure. Callers: queue.ts (register), batch-record.ts (batch details), the scheduler (failure and
 * cancelation), tasks/views (rendering).
 */
import { setField } from '../types/own-record.js';
import { SETTING_KEYS, maskSecret } from '../types/settings.js';
import { isJsonObject } from '../types/json-text.js';
import type { DetailsView, JsonObject, TaskDetails, TaskKind } from '../types/task.js';

/** The details a task shows while enqueued; null for snapshotCreation, which has none. */
export function defaultDetails(kind: TaskKind): TaskDetails | null {
  switch (kind.name) {
    case 'documentAdditionOrUpdate':
      return { kind: 'documentAdditionOrUpdate', receivedDocuments: kind.documentsCount, indexedDocuments: null };
    case 'documentEdition':
      return {
        kind: 'documentEdition',
        editedDocuments: null,
        deletedDocuments: null,
        originalFilter: kind.filter === null || kind.filter === undefined ? null : JSON.stringify(kind.filter),
        context: kind.context,
        function: kind.function,
      };
    case 'documentDeletion':
      return { kind: 'documentDeletion', providedIds: kind.documentIds.length, deletedDocuments: null };
    case 'documentDeletionByFilter':
      // The filter is shown as JSON text: a string filter keeps its quotes.
      return { kind: 'documentDeletionByFilter', originalFilter: JSON.stringify(kind.filter), deletedDocuments: null };
    case 'documentClear':
    case 'indexDeletion':
    case 'dsrClear':
      return { kind: 'clearAll', deletedDocuments: null };
    case 'settingsUpdate':
      return { kind: 'settingsUpdate', settings: kind.settings };
    case 'indexCreation':
      return { kind: 'indexInfo', primaryKey: kind.primaryKey, oldIndexUid: null, newIndexUid: null };
    case 'indexUpdate':
      return {
        kind: 'indexInfo',
        primaryKey: kind.primaryKey,
        oldIndexUid: kind.newIndexUid === null ? null : kind.indexUid,
        newIndexUid: kind.newIndexUid,
      };
    case 'indexSwap':
      return { kind: 'indexSwap', swaps: kind.swaps };
    case 'taskCancelation':
      return { kind: 'taskCancelation', matchedTasks: kind.tasks.length, canceledTasks: null, originalFilter: kind.query };
    case 'taskDeletion':
      return { kind: 'taskDeletion', matchedTasks: kind.tasks.length, deletedTasks: null, originalFilter: kind.query };
    case 'dumpCreation':
      return { kind: 'dumpCreation', dumpUid: null };
    case 'snapshotCreation':
      return null;
    case 'export':
      return { kind: 'export', url: kind.url, apiKey: kind.apiKey, payloadSize: kind.payloadSize, indexes: kind.indexes };
    case 'upgradeDatabase':
      return { kind: 'upgradeDatabase', from: kind.from, to: kind.to };
    case 'indexCompaction':
      return { kind: 'indexCompaction', preCompactionSize: null, postCompactionSize: null };
    case 'networkTopologyChange':
      return { kind: 'networkTopologyChange', movedDocuments: 0, message: 'processing tasks for previous network versions' };
    case 'dsrUpdate':
      return { kind: 'dsrUpdate', rule: kind.rule, updatedRules: 1 };
  }
}

/** The details of a task that failed or was canceled: its counters read 0 (Meilisearch's `to_failed`). */
export function failedDetails(details: TaskDetails): TaskDetails {
  switch (details.kind) {
    case 'documentAdditionOrUpdate':
      return { ...details, indexedDocuments: 0 };
    case 'documentEdition':
      return { ...details, editedDocuments: 0 };
    case 'documentDeletion':
    case 'documentDeletionByFilter':
    case 'clearAll':
      return { ...details, deletedDocuments: 0 };
    case 'taskCancelation':
      return { ...details, canceledTasks: 0 };
    case 'taskDeletion':
      return { ...details, deletedTasks: 0 };
    case 'indexCompaction':
      return { ...details, preCompactionSize: null, postCompactionSize: null };
    case 'networkTopologyChange':
      return { ...details, message: `Failed. Previous status: ${details.message}` };
    default:
      return details;
  }
}

const SIZE_UNITS: [string, number][] = [
  ['B', 1],
  ['KB', 1e3],
  ['KiB', 2 ** 10],
  ['MB', 1e6],
  ['MiB', 2 ** 20],
  ['GB', 1e9],
  ['GiB', 2 ** 30],
  ['TB', 1e12],
  ['TiB', 2 ** 40],
  ['PB', 1e15],
  ['PiB', 2 ** 50],
  ['EB', 1e18],
  ['EiB', 2 ** 60],
];

/** `24 MiB`, `95.367431640625 MiB`: the largest decimal or binary unit not exceeding the value. */
export function humanSize(bytes: number): string {
  let unit = SIZE_UNITS[0]!;
  for (const candidate of SIZE_UNITS) if (bytes >= candidate[1]) unit = candidate;
  return `${bytes / unit[1]} ${unit[0]}`;
}

/** Embedder API keys never leave the server in clear. */
function maskSettingsSecrets(settings: JsonObject): JsonObject {
  const embedders = settings.embedders;
  if (!isJsonObject(embedders)) return settings;
  const masked: JsonObject = {};
  for (const [name, embedder] of Object.entries(embedders)) {
    setField(masked, name, isJsonObject(embedder) && typeof embedder.apiKey === 'string' ? { ...embedder, apiKey: maskSecret(embedder.apiKey) } : embedder);
  }
  return { ...settings, embedders: masked };
}

const version = (v: [number, number, number]): string => `v${v[0]}.${v[1]}.${v[2]}`;

/** The public form of a task's details (Meilisearch's `From<Details> for DetailsView`). */
export function toDetailsView(details: TaskDetails): DetailsView {
  switch (details.kind) {
    case 'documentAdditionOrUpdate':
      return { receivedDocuments: details.receivedDocuments, indexedDocuments: details.indexedDocuments };
    case 'documentEdition':
      return {
        editedDocuments: details.editedDocuments,
        deletedDocuments: details.deletedDocuments,
        originalFilter: details.originalFilter,
        context: details.context,
        function: details.function,
      };
    case 'documentDeletion':
      return { providedIds: details.providedIds, deletedDocuments: details.deletedDocuments, originalFilter: null };
    case 'documentDeletionByFilter':
      return { providedIds: 0, deletedDocuments: details.deletedDocuments, originalFilter: details.originalFilter };
    case 'clearAll':
      return { deletedDocuments: details.deletedDocuments };
    case 'settingsUpdate':
      return { settings: maskSettingsSecrets(details.settings) };
    case 'indexInfo': {
      const view: DetailsView = { primaryKey: details.primaryKey };
      if (details.oldIndexUid !== null) view.oldIndexUid = details.oldIndexUid;
      if (details.newIndexUid !== null) view.newIndexUid = details.newIndexUid;
      return view;
    }
    case 'indexSwap':
      return { swaps: details.swaps };
    case 'taskCancelation':
      return {
        matchedTasks: details.matchedTasks,
        canceledTasks: details.canceledTasks,
        originalFilter: details.originalFilter,
      };
    case 'taskDeletion':
      return { matchedTasks: details.matchedTasks, deletedTasks: details.deletedTasks, originalFilter: details.originalFilter };
    case 'dumpCreation':
      return { dumpUid: details.dumpUid };
    case 'export': {
      const view: DetailsView = { url: details.url };
      if (details.apiKey !== null) view.apiKey = maskSecret(details.apiKey);
      if (details.payloadSize !== null) view.payloadSize = humanSize(details.payloadSize);
      // Meilisearch keeps the patterns in a BTreeMap: sorted by key.
      view.indexes = {};
      for (const pattern of Object.keys(details.indexes).sort()) {
        const { filter, overrideSettings, matchedDocuments } = details.indexes[pattern]!;
        // an index named `__proto__` is a key like any other
        setField(view.indexes, pattern, matchedDocuments === undefined ? { filter, overrideSettings } : { filter, overrideSettings, matched_documents: matchedDocuments });
      }
      return view;
    }
    case 'upgradeDatabase':
      return { upgradeFrom: version(details.from), upgradeTo: version(details.to) };
    case 'indexCompaction': {
      const view: DetailsView = {};
      if (details.preCompactionSize !== null) view.preCompactionSize = humanSize(details.preCompactionSize);
      if (details.postCompactionSize !== null) view.postCompactionSize = humanSize(details.postCompactionSize);
      return view;
    }
    case 'networkTopologyChange':
      return { movedDocuments: details.movedDocuments, message: details.message };
    case 'dsrUpdate':
      return details.rule === null
        ? { updatedRules: details.updatedRules }
        : { rule: details.rule, updatedRules: details.updatedRules };
  }
}

/** Merged batch settings follow the settings struct order, whichever task brought a key first. */
function mergeSettings(left: JsonObject, right: JsonObject): JsonObject {
  const merged: JsonObject = { ...left, ...right };
  const rank = (key: string): number => {
    const i = (SETTING_KEYS as readonly string[]).indexOf(key);
    return i === -1 ? SETTING_KEYS.length : i;
  };
  return Object.fromEntries(Object.entries(merged).sort(([a], [b]) => rank(a) - rank(b)));
}

type Counter = number | null | undefined;

/** Absent + x = x; null + n = n; n + m = n + m (an Option<Option<u64>> sum). */
function addCounters(left: Counter, right: Counter): Counter {
  if (left === undefined) return right;
  if (right === undefined) return left;
  if (left === null) return right;
  if (right === null) return left;
  return left + right;
}

/** The first value that is set (non-null beats null, present beats absent). */
function first<T>(left: T | null | undefined, right: T | null | undefined): T | null | undefined {
  if (left === undefined) return right;
  if (left === null && right !== undefined) return right;
  return left;
}

/**
 * Merges the details of one more task into a batch's details (Meilisearch's
 * `DetailsView::accumulate`): counters add up, filters join with `&`, swaps concatenate, settings
 * merge, and most other fields keep the first value seen.
 */
export function accumulateDetails(acc: DetailsView, next: DetailsView): DetailsView {
  const out: DetailsView = {};
  const set = <K extends keyof DetailsView>(key: K, value: DetailsView[K] | undefined): void => {
    if (value !== undefined) out[key] = value;
  };
  set('receivedDocuments', addCounters(acc.receivedDocuments, next.receivedDocuments) ?? undefined);
  set('indexedDocuments', addCounters(acc.indexedDocuments, next.indexedDocuments));
  set('editedDocuments', addCounters(acc.editedDocuments, next.editedDocuments));
  set('primaryKey', first(acc.primaryKey, next.primaryKey));
  set('providedIds', addCounters(acc.providedIds, next.providedIds) ?? undefined);
  set('deletedDocuments', addCounters(acc.deletedDocuments, next.deletedDocuments));
  set('matchedTasks', addCounters(acc.matchedTasks, next.matchedTasks) ?? undefined);
  set('canceledTasks', addCounters(acc.canceledTasks, next.canceledTasks));
  set('deletedTasks', addCounters(acc.deletedTasks, next.deletedTasks));
  set(
    'originalFilter',
    typeof acc.originalFilter === 'string' && typeof next.originalFilter === 'string'
      ? `${acc.originalFilter}&${next.originalFilter}`
      : first(acc.originalFilter, next.originalFilter),
  );
  set('dumpUid', first(acc.dumpUid, next.dumpUid));
  set('context', first(acc.context, next.context));
  set('function', acc.function ?? next.function);
  set(
    'settings',
    acc.settings !== undefined && next.settings !== undefined
      ? mergeSettings(acc.settings, next.settings)
      : (acc.settings ?? next.settings),
  );
  set('swaps', acc.swaps !== undefined && next.swaps !== undefined ? [...acc.swaps, ...next.swaps] : (acc.swaps ?? next.swaps));
  // The oldest version upgraded from, the newest upgraded to.
  set('upgradeFrom', acc.upgradeFrom ?? next.upgradeFrom);
  set('upgradeTo', next.upgradeTo ?? acc.upgradeTo);
  set('url', acc.url ?? next.url);
  set('apiKey', acc.apiKey ?? next.apiKey);
  set('payloadSize', acc.payloadSize ?? next.payloadSize);
  set('indexes', acc.indexes ?? next.indexes);
  set('oldIndexUid', acc.oldIndexUid ?? next.oldIndexUid);
  set('newIndexUid', acc.newIndexUid ?? next.newIndexUid);
  set('preCompactionSize', acc.preCompactionSize ?? next.preCompactionSize);
  set('postCompactionSize', acc.postCompactionSize ?? next.postCompactionSize);
  set('movedDocuments', addCounters(acc.movedDocuments, next.movedDocuments) ?? undefined);
  set('message', acc.message ?? next.message);
  // A single rule is shown; once several rule updates are merged, none is.
  const severalRules = acc.updatedRules !== undefined && next.updatedRules !== undefined;
  set('rule', severalRules ? undefined : (acc.rule ?? next.rule));
  set('updatedRules', addCounters(acc.updatedRules, next.updatedRules) ?? undefined);
  return out;
}
