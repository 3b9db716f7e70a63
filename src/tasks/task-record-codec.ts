/**
 * The tasks database's value codec. A settings update's details are the settings it carries
 * (details.ts: `details.settings` is `kind.settings`), so its record stored them twice, and every
 * read and write of the record took twice the time: with 100,000 synonyms (3 MB of settings) each
 * was some 0.25-0.6 s on the thread that answers requests, several times per task. A record whose
 * details hold the very object its kind carries stores them once, with a marker that reading
 * resolves; any other record is stored as it is (a dump's tasks, whose two copies are distinct
 * objects, keep both). Records written before read as they were written.
 */
import type { Options } from 'msgpackr';
import { ProtoSafePackr } from '../store/proto-safe-packr.js';
import type { Task } from '../types/task.js';

/** Stands for `settings` in stored details: the kind's own settings. */
const SETTINGS_OF_KIND = 'settingsOfKind';

type Stored = Omit<Task, 'details'> & { details: Task['details'] | { kind: 'settingsUpdate'; [SETTINGS_OF_KIND]: true } };

function toStored(task: Task): Stored {
  const { kind, details } = task;
  if (kind.name !== 'settingsUpdate' || details?.kind !== 'settingsUpdate' || details.settings !== kind.settings) return task;
  return { ...task, details: { kind: 'settingsUpdate', [SETTINGS_OF_KIND]: true } };
}

function fromStored(stored: Stored): Task {
  const { kind, details } = stored;
  if (kind.name !== 'settingsUpdate' || details === null || !(SETTINGS_OF_KIND in details)) return stored as Task;
  return { ...stored, details: { kind: 'settingsUpdate', settings: kind.settings } };
}

export class TaskRecordPackr extends ProtoSafePackr {
  constructor(options?: Options) {
    super(options);
    const encode = this.encode;
    this.pack = this.encode = ((value: Task, mode?: number) => encode(toStored(value), mode)) as ProtoSafePackr['encode'];
  }

  // msgpackr's decode reads through unpack
  override unpack(source: Buffer | Uint8Array, options?: Parameters<ProtoSafePackr['unpack']>[1]): unknown {
    return fromStored(super.unpack(source, options) as Stored);
  }
}

/** The `openDB` option of the tasks database. */
export const TASK_RECORD_VALUES = { encoder: { Encoder: TaskRecordPackr } };
