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
 * dump's tasks, whose two copies are distinct objects) are stored as they are. An edition's
 * `context` (its kind's, its details' and its batch's) is stored as its whole JSON text and read
 * back as a `jsonTextValue` (types/json-text-object.ts), its keys being the caller's: as a map, one
 * of 900,000 keys took 3.8–4.4 s to enqueue and 3.4–4.9 s at every `GET /tasks` listing it. Its
 * details' context and function, when they are its kind's, are stored once, as a marker. Records
 * written before (settings or a context as a map, or no marker) read as they were written.
 */
import type { Options } from 'msgpackr';
import { ProtoSafePackr } from '../store/proto-safe-packr.js';
import { jsonTextObject, jsonTextOf, jsonTextValue, textMembers, type TextMember } from '../types/json-text-object.js';
import { stringifyReply } from '../types/reply-text.js';

import type { Batch, JsonObject, Task } from '../types/task.js';

/** Stands for `settings` in stored details: the kind's own settings. */
const SETTINGS_OF_KIND = 'settingsOfKind';
/** Stands for `context` and `function` in stored details: the kind's own. */
const EDITION_OF_KIND = 'editionOfKind';

type SettingsKind = Extract<Task['kind'], { name: 'settingsUpdate' }>;
type EditionKind = Extract<Task['kind'], { name: 'documentEdition' }>;
type EditionDetails = Extract<NonNullable<Task['details']>, { kind: 'documentEdition' }>;
/** Settings as stored: their members' JSON texts (older records: a map). */
type StoredSettings = { settings?: JsonObject; settingsMembers?: TextMember[] };
/** An edition's context as stored: its JSON text (older records: a map). */
type StoredContext = { context?: JsonObject | null; contextText?: string };
type StoredKind =
  | Exclude<Task['kind'], SettingsKind | EditionKind>
  | (Omit<SettingsKind, 'settings'> & StoredSettings)
  | (Omit<EditionKind, 'context'> & StoredContext);
type StoredDetails =
  | Exclude<Task['details'], EditionDetails>
  | (Omit<EditionDetails, 'context'> & StoredContext)
  | { kind: 'settingsUpdate'; [SETTINGS_OF_KIND]: true }
  | (Omit<EditionDetails, 'context' | 'function'> & { [EDITION_OF_KIND]: true });
type StoredTask = Omit<Task, 'kind' | 'details'> & { kind: StoredKind; details: StoredDetails };
type StoredBatch = Omit<Batch, 'details'> & { details: Omit<Batch['details'], 'settings' | 'context'> & StoredSettings & StoredContext };

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

/** `holder` with its `context` object as its JSON text (the one a record was read with is not serialised again). */
function contextAsText<T extends { context?: JsonObject | null | undefined }>(holder: T): Omit<T, 'context'> & StoredContext {
  const { context, ...rest } = holder;
  return context === undefined || context === null ? holder : { ...rest, contextText: jsonTextOf(context) ?? stringifyReply(context) };
}

/** `holder` with its stored context text read as a `jsonTextValue`. */
function contextFromText<T extends StoredContext>(holder: T): Omit<T, 'contextText'> & { context?: JsonObject | null } {
  if (holder.contextText === undefined) return holder;
  const { contextText, ...rest } = holder;
  return { ...rest, context: jsonTextValue(contextText) };
}

function taskToStored(task: Task): StoredTask {
  const { kind, details } = task;
  if (kind.name === 'documentEdition') {
    const stored: StoredTask = { ...task, kind: contextAsText(kind) };
    if (details?.kind !== 'documentEdition') return stored;
    if (details.context === kind.context && details.function === kind.function) {
      const { context: _context, function: _function, ...counts } = details;
      return { ...stored, details: { ...counts, [EDITION_OF_KIND]: true } };
    }
    return { ...stored, details: contextAsText(details) };
  }
  if (kind.name !== 'settingsUpdate') return task as StoredTask;
  const stored: StoredTask = { ...task, kind: settingsAsText(kind) };
  if (details?.kind === 'settingsUpdate' && details.settings === kind.settings) stored.details = { kind: 'settingsUpdate', [SETTINGS_OF_KIND]: true };
  return stored;
}

function taskFromStored(stored: StoredTask): Task {
  const { kind, details } = stored;
  if (kind.name === 'documentEdition') {
    const task = { ...stored, kind: contextFromText(kind) } as Task;
    if (details?.kind !== 'documentEdition') return task;
    if (!(EDITION_OF_KIND in details)) return { ...task, details: contextFromText(details) } as Task;
    const { [EDITION_OF_KIND]: _marker, ...counts } = details;
    const { context, function: source } = task.kind as EditionKind;
    return { ...task, details: { ...counts, context, function: source } };
  }
  if (kind.name !== 'settingsUpdate') return stored as Task;
  const task = { ...stored, kind: settingsFromText(kind) } as Task;
  if (details === null || !(SETTINGS_OF_KIND in details)) return task;
  return { ...task, details: { kind: 'settingsUpdate', settings: (task.kind as SettingsKind).settings } };
}

const batchToStored = (batch: Batch): StoredBatch =>
  batch.details.settings === undefined && (batch.details.context === undefined || batch.details.context === null) ? batch : { ...batch, details: contextAsText(settingsAsText(batch.details)) };
const batchFromStored = (stored: StoredBatch): Batch =>
  stored.details.settingsMembers === undefined && stored.details.contextText === undefined ? (stored as Batch) : ({ ...stored, details: contextFromText(settingsFromText(stored.details)) } as Batch);

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
