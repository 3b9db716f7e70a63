// A settings update's record stores its settings once, though its details show them too; every
// other record, and records written before, read back as they were written.
import { describe, expect, it } from 'vitest';
import { TaskRecordPackr } from '../../../src/tasks/task-record-codec.js';
import { ProtoSafePackr } from '../../../src/store/proto-safe-packr.js';
import type { JsonObject, Task, TaskKind } from '../../../src/types/task.js';
import { kind, task } from './fixtures.js';

const codec = new TaskRecordPackr({ copyBuffers: true });
const before = new ProtoSafePackr({ copyBuffers: true });

const record = (k: TaskKind): Task => task(7, k);

const synonyms = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`word${i}`, [`syn${i}`, `other${i}`]]));

describe('TaskRecordPackr', () => {
  it('stores the settings of a settings update once and reads them back as its kind and its details', () => {
    const settings: JsonObject = { synonyms, rankingRules: ['typo'] };
    const settingsTask = record(kind.settings('movies', settings));
    const bytes = codec.encode(settingsTask);
    expect(bytes.length).toBeLessThan(before.encode(settingsTask).length * 0.6);
    const back = codec.decode(bytes) as Task;
    expect(back).toEqual(settingsTask);
    expect(back.details).toEqual({ kind: 'settingsUpdate', settings });
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
