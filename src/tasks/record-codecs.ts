/**
 * The value codecs of the tasks and batches databases. Settings (a settings update's, and a
 * batch's details') are stored as the JSON text of each of their members, and read back as a
 * `jsonTextObject` (types/json-text-object.ts): a task record is read at every `GET /tasks` that
 * lists it and written again at each change of its status, and 200,000 synonyms cost ~0.3 s to
 * pack and ~0.13 s to unpack each time, then ~0.18 s to serialise into the answer, on the thread
 * answering requests. As texts they are serialised once, when the task is registered (a record
 * read back keeps its texts), then copied, and an answer writes those texts without parsing them.
 * A settings update's details (details.ts: `details.settings` is `kind.settings`) are stored once,
 * as a marker that reading resolves to the same object; details that hold other settings (a
 * dump's tasks, whose two copies are distinct objects) are stored as they are. Records written
 * before (settings as a map, or no marker) read as they were written.
 */
import type { Options } from 'msgpackr';
import { ProtoSafePackr } from '../store/proto-safe-packr.js';
import { jsonTextObject, textMembers, type TextMember } from '../types/json-text-object.js';
import type { Batch, JsonObject, Task } from '../types/task.js';

/** Stands for `settings` in stored details: the kind's own settings. */
const SETTINGS_OF_KIND = 'settingsOfKind';

type SettingsKind = Extract<Task['kind'], { name: 'settingsUpdate' }>;
/** Settings as stored: their members' JSON texts (older records: a map). */
type StoredSettings = { settings?: JsonObject; settingsMembers?: TextMember[] };
type StoredKind = Exclude<Task['kind'], SettingsKind> | (Omit<SettingsKind, 'settings'> & StoredSettings);
type StoredDetails = Task['details'] | { kind: 'settingsUpdate'; [SETTINGS_OF_KIND]: true };
type StoredTask = Omit<Task, 'kind' | 'details'> & { kind: StoredKind; details: StoredDetails };
type StoredBatch = Omit<Batch, 'details'> & { details: Omit<Batch['details'], 'settings'> & StoredSettings };

/** `holder` with its `settings` as their members' texts (those a record was read with are not serialised again). */
function settingsAsText<T extends { settings?: JsonObject | undefined }>(holder: T): Omit<T, 'settings'> & StoredSettings {
  const { settings, ...rest } = holder;
  return settings === undefined ? rest : { ...rest, settingsMembers: textMembers(settings) };
}

/** `holder` with its stored settings texts read as a `jsonTextObject`. */
function settingsFromText<T extends StoredSettings>(holder: T): Omit<T, 'settingsMembers'> & { settings?: JsonObject } {
  if (holder.settingsMembers === undefined) return holder;
  const { settingsMembers, ...rest } = holder;
  return { ...rest, settings: jsonTextObject(settingsMembers) };
}

function taskToStored(task: Task): StoredTask {
  const { kind, details } = task;
  if (kind.name !== 'settingsUpdate') return task;
  const stored: StoredTask = { ...task, kind: settingsAsText(kind) };
  if (details?.kind === 'settingsUpdate' && details.settings === kind.settings) stored.details = { kind: 'settingsUpdate', [SETTINGS_OF_KIND]: true };
  return stored;
}

function taskFromStored(stored: StoredTask): Task {
  const { kind, details } = stored;
  if (kind.name !== 'settingsUpdate') return stored as Task;
  const task = { ...stored, kind: settingsFromText(kind) } as Task;
  if (details === null || !(SETTINGS_OF_KIND in details)) return task;
  return { ...task, details: { kind: 'settingsUpdate', settings: (task.kind as SettingsKind).settings } };
}

const batchToStored = (batch: Batch): StoredBatch => (batch.details.settings === undefined ? batch : { ...batch, details: settingsAsText(batch.details) });
const batchFromStored = (stored: StoredBatch): Batch => (stored.details.settingsMembers === undefined ? (stored as Batch) : { ...stored, details: settingsFromText(stored.details) });

/** A msgpack codec of records, `toStored` before each write and `fromStored` after each read. */
function recordPackr<T, S>(toStored: (record: T) => S, fromStored: (stored: S) => T): typeof ProtoSafePackr {
  return class extends ProtoSafePackr {
    constructor(options?: Options) {
      super(options);
      const encode = this.encode;
      this.pack = this.encode = ((value: T, mode?: number) => encode(toStored(value), mode)) as ProtoSafePackr['encode'];
    }

    // msgpackr's decode reads through unpack
    override unpack(source: Buffer | Uint8Array, options?: Parameters<ProtoSafePackr['unpack']>[1]): unknown {
      return fromStored(super.unpack(source, options) as S);
    }
  };
}

export const TaskRecordPackr = recordPackr(taskToStored, taskFromStored);
export const BatchRecordPackr = recordPackr(batchToStored, batchFromStored);

/** The `openDB` options of the tasks and batches databases. */
export const TASK_RECORD_VALUES = { encoder: { Encoder: TaskRecordPackr } };
export const BATCH_RECORD_VALUES = { encoder: { Encoder: BatchRecordPackr } };
