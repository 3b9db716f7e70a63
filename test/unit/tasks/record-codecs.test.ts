// Settings and an edition's context in task and batch records are stored once, as their JSON
// text, and read back as objects parsed only when looked into; every other record, and records
// written before, read back as they were written.
import { describe, expect, it } from 'vitest';
import { BatchRecordPackr, TaskRecordPackr } from '../../../src/tasks/record-codecs.js';
import { openBatch } from '../../../src/tasks/batch-record.js';
import { ProtoSafePackr } from '../../../src/store/proto-safe-packr.js';
import { jsonTextObject, jsonTextOf, jsonTextValue } from '../../../src/types/json-text-object.js';
import { defaultDetails } from '../../../src/tasks/details.js';
import type { Batch, JsonObject, Task, TaskKind } from '../../../src/types/task.js';
import { T0, kind, task } from './fixtures.js';

const codec = new TaskRecordPackr({ copyBuffers: true });
const batches = new BatchRecordPackr({ copyBuffers: true });
const before = new ProtoSafePackr({ copyBuffers: true });

const record = (k: TaskKind): Task => task(7, k);
const settingsOf = (t: Task): JsonObject => (t.kind as Extract<TaskKind, { name: 'settingsUpdate' }>).settings;
/** How many times `text` is in `bytes`. */
const times = (bytes: Uint8Array, text: string): number => Buffer.from(bytes).toString('latin1').split(text).length - 1;

const synonyms = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`word${i}`, [`syn${i}`, `other${i}`]]));

describe('TaskRecordPackr', () => {
  it('stores the settings of a settings update once, as text, and reads them back as its kind and its details', () => {
    const settings: JsonObject = { synonyms, rankingRules: ['typo'] };
    const settingsTask = record(kind.settings('movies', settings));
    const bytes = codec.encode(settingsTask);
    expect(times(bytes, '"word1999":["syn1999","other1999"]')).toBe(1);
    const back = codec.decode(bytes) as Task;
    expect(back).toEqual(settingsTask);
    expect(back.details).toEqual({ kind: 'settingsUpdate', settings });
    expect(back.details?.kind === 'settingsUpdate' && back.details.settings).toBe(settingsOf(back));
    expect(jsonTextOf(settingsOf(back))).toBe(JSON.stringify(settings));
  });

  it('writes a record read back with the texts it was read with, not serialised again', () => {
    const settings = jsonTextObject([['rankingRules', '[ "typo" ]']]);
    const bytes = codec.encode(record(kind.settings('movies', settings)));
    expect(times(bytes, '[ "typo" ]')).toBe(1);
    expect(Buffer.from(codec.encode(codec.decode(bytes))).toString('hex')).toBe(Buffer.from(bytes).toString('hex'));
  });

  it('keeps both copies when the details are not the very settings of the kind', () => {
    const settingsTask = record(kind.settings('movies', { synonyms }));
    const dumped = { ...settingsTask, details: { kind: 'settingsUpdate' as const, settings: { synonyms: { ...synonyms } } } };
    expect(codec.decode(codec.encode(dumped))).toEqual(dumped);
    const changed = { ...settingsTask, details: { kind: 'settingsUpdate' as const, settings: { rankingRules: ['words'] } } };
    expect(codec.decode(codec.encode(changed))).toEqual(changed);
  });

  it('reads the records of other tasks, and those written before, as they were written', () => {
    for (const k of [kind.add('movies'), kind.settings('movies', { synonyms }), kind.snapshot(), kind.cancel([1, 2])]) {
      const other = record(k);
      expect(codec.decode(codec.encode(other))).toEqual(other);
      expect(codec.decode(before.encode(other))).toEqual(other);
    }
  });
});

describe('TaskRecordPackr, an edition', () => {
  const context = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`key${i}`, [i, `value${i}`]]));
  const edition = (c: JsonObject | null): Task => {
    const k: TaskKind = { name: 'documentEdition', indexUid: 'movies', filter: null, context: c, function: 'doc.a = context.key1' };
    return { ...task(7, k), details: defaultDetails(k) };
  };
  const contextOf = (t: Task): JsonObject | null => (t.kind as Extract<TaskKind, { name: 'documentEdition' }>).context;

  it('stores the context and the function once, as text, and reads them back as its kind and its details', () => {
    const stored = edition(context);
    const bytes = codec.encode(stored);
    expect(times(bytes, '"key1999":[1999,"value1999"]')).toBe(1);
    expect(times(bytes, 'doc.a = context.key1')).toBe(1);
    const back = codec.decode(bytes) as Task;
    expect(back).toEqual(stored);
    expect(jsonTextOf(contextOf(back))).toBe(JSON.stringify(context));
    expect(back.details?.kind === 'documentEdition' && back.details.context).toBe(contextOf(back));
  });

  it('writes a record read back with the text it was read with, not serialised again', () => {
    const bytes = codec.encode(edition(jsonTextValue('{ "spaced": [ 1 ] }')));
    expect(times(bytes, '{ "spaced": [ 1 ] }')).toBe(1);
    expect(Buffer.from(codec.encode(codec.decode(bytes))).toString('hex')).toBe(Buffer.from(bytes).toString('hex'));
  });

  it('keeps both contexts when the details do not hold the very context of the kind, and reads records written before', () => {
    const own = edition(context);
    const dumped = { ...own, details: { ...own.details!, context: { ...context } } } as Task;
    expect(codec.decode(codec.encode(dumped))).toEqual(dumped);
    for (const written of [own, edition(null)]) expect(codec.decode(before.encode(written))).toEqual(written);
    expect(codec.decode(codec.encode(edition(null)))).toEqual(edition(null));
  });

  it("stores a batch's context as text", () => {
    const batch = openBatch(3, [edition(context)], 'strategy', T0);
    const bytes = batches.encode(batch);
    expect(times(bytes, '"key1999":[1999,"value1999"]')).toBe(1);
    const back = batches.decode(bytes) as Batch;
    expect(back).toEqual(batch);
    expect(jsonTextOf(back.details.context)).toBe(JSON.stringify(context));
    expect(batches.decode(before.encode(batch))).toEqual(batch);
  });
});

describe('BatchRecordPackr', () => {
  it("stores a batch's settings once, as text, and reads them back", () => {
    const batch = openBatch(3, [record(kind.settings('movies', { synonyms }))], 'strategy', T0);
    const bytes = batches.encode(batch);
    expect(times(bytes, '"word1999":["syn1999","other1999"]')).toBe(1);
    const back = batches.decode(bytes) as Batch;
    expect(back).toEqual(batch);
    expect(jsonTextOf(back.details.settings)).toBe(JSON.stringify({ synonyms }));
  });

  it('reads other batches, and those written before, as they were written', () => {
    const settingsBatch = openBatch(3, [record(kind.settings('movies', { synonyms }))], 'strategy', T0);
    for (const batch of [openBatch(4, [record(kind.add('movies'))], 'strategy', T0), settingsBatch]) {
      expect(batches.decode(batches.encode(batch))).toEqual(batch);
      expect(batches.decode(before.encode(batch))).toEqual(batch);
    }
  });
});
