// A settings update's record stores its settings once, though its details show them too; every
// other record, and records written before, read back as they were written.
import { describe, expect, it } from 'vitest';
import { defaultDetails } from '../../../src/tasks/details.js';
import { TaskRecordPackr } from '../../../src/tasks/task-record-codec.js';
import { ProtoSafePackr } from '../../../src/store/proto-safe-packr.js';
import type { JsonObject, Task, TaskKind } from '../../../src/types/task.js';
import { kind } from './fixtures.js';

const codec = new TaskRecordPackr({ copyBuffers: true });
const before = new ProtoSafePackr({ copyBuffers: true });

function task(k: TaskKind): Task {
  return {
    uid: 7,
    batchUid: null,
    status: 'enqueued',
    kind: k,
    details: defaultDetails(k),
    error: null,
    canceledBy: null,
    enqueuedAt: 1_796_558_400_000_000_000n,
    startedAt: null,
    finishedAt: null,
    customMetadata: null,
  };
}

const synonyms = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`word${i}`, [`syn${i}`, `other${i}`]]));

describe('TaskRecordPackr', () => {
  it('stores the settings of a settings update once and reads them back as its kind and its details', () => {
    const settings: JsonObject = { synonyms, rankingRules: ['typo'] };
    const record = task(kind.settings('movies', settings));
    const bytes = codec.encode(record);
    expect(bytes.length).toBeLessThan(before.encode(record).length * 0.6);
    const back = codec.decode(bytes) as Task;
    expect(back).toEqual(record);
    expect(back.details).toEqual({ kind: 'settingsUpdate', settings });
  });

  it('keeps both copies when the details are not the very settings of the kind', () => {
    const record = task(kind.settings('movies', { synonyms }));
    const dumped = { ...record, details: { kind: 'settingsUpdate' as const, settings: { synonyms: { ...synonyms } } } };
    expect(codec.decode(codec.encode(dumped))).toEqual(dumped);
    const changed = { ...record, details: { kind: 'settingsUpdate' as const, settings: { rankingRules: ['words'] } } };
    expect(codec.decode(codec.encode(changed))).toEqual(changed);
  });

  it('reads the records of other tasks, and those written before, as they were written', () => {
    for (const k of [kind.add('movies'), kind.settings('movies', { synonyms }), kind.snapshot(), kind.cancel([1, 2])]) {
      const record = task(k);
      expect(codec.decode(codec.encode(record))).toEqual(record);
      expect(codec.decode(before.encode(record))).toEqual(record);
    }
  });
});
