import { describe, expect, it } from 'vitest';
import {
  accumulateDetails,
  defaultDetails,
  failedDetails,
  humanSize,
  toDetailsView,
} from '../../../src/tasks/details.js';
import type { TaskDetails } from '../../../src/types/task.js';
import { kind } from './fixtures.js';

const view = (k: Parameters<typeof defaultDetails>[0]) => toDetailsView(defaultDetails(k)!);

describe('defaultDetails', () => {
  it('counts received documents and leaves the indexed count null', () => {
    expect(defaultDetails(kind.add('a', { count: 3 }))).toEqual({
      kind: 'documentAdditionOrUpdate',
      receivedDocuments: 3,
      indexedDocuments: null,
    });
  });

  it('shows a deletion filter as JSON text, quotes included', () => {
    expect(view(kind.deleteFilter('a', 'doggo = bernese')).originalFilter).toBe('"doggo = bernese"');
    expect(view(kind.deleteFilter('a', ['a = 1', ['b = 2']])).originalFilter).toBe('["a = 1",["b = 2"]]');
  });

  it('counts the matched tasks of a cancelation', () => {
    expect(view(kind.cancel([1, 2, 3], '?uids=1,2,3'))).toEqual({
      matchedTasks: 3,
      canceledTasks: null,
      originalFilter: '?uids=1,2,3',
    });
  });

  it('gives snapshots no details', () => {
    expect(defaultDetails(kind.snapshot())).toBeNull();
  });

  it('names the old and new uid of a rename only', () => {
    expect(view(kind.update('a', 'id'))).toEqual({ primaryKey: 'id' });
    expect(view(kind.update('a', null, 'b'))).toEqual({ primaryKey: null, oldIndexUid: 'a', newIndexUid: 'b' });
  });
});

describe('failedDetails', () => {
  it.each<[string, TaskDetails, Partial<TaskDetails>]>([
    ['additions', defaultDetails(kind.add('a'))!, { indexedDocuments: 0 }],
    ['deletions', defaultDetails(kind.deleteIds('a'))!, { deletedDocuments: 0 }],
    ['index deletions', defaultDetails(kind.drop('a'))!, { deletedDocuments: 0 }],
    ['cancelations', defaultDetails(kind.cancel([1]))!, { canceledTasks: 0 }],
    ['task deletions', defaultDetails(kind.deleteTasks([1]))!, { deletedTasks: 0 }],
    ['rule clears', defaultDetails(kind.dsrClear())!, { deletedDocuments: 0 }],
  ])('sets the counter of %s to 0', (_what, details, expected) => {
    expect(failedDetails(details)).toMatchObject(expected);
  });

  it('zeroes only the edited count of a document edition', () => {
    expect(failedDetails(defaultDetails(kind.edit('a'))!)).toMatchObject({ editedDocuments: 0, deletedDocuments: null });
  });

  it('removes compaction sizes', () => {
    const done: TaskDetails = { kind: 'indexCompaction', preCompactionSize: 100, postCompactionSize: 50 };
    expect(toDetailsView(failedDetails(done))).toEqual({});
  });

  it('prefixes the network message', () => {
    expect(failedDetails(defaultDetails(kind.network())!)).toMatchObject({
      message: 'Failed. Previous status: processing tasks for previous network versions',
    });
  });

  it('leaves settings unchanged', () => {
    const details = defaultDetails(kind.settings('a'))!;
    expect(failedDetails(details)).toEqual(details);
  });
});

describe('humanSize', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1000, '1 KB'],
    [1024, '1 KiB'],
    [1536, '1.5 KiB'],
    [25_165_824, '24 MiB'],
    [100_000_000, '95.367431640625 MiB'],
    [1_000_000_000, '1 GB'],
  ])('prints %i bytes as %s (largest decimal or binary unit not above the value)', (bytes, expected) => {
    expect(humanSize(bytes)).toBe(expected);
  });
});

describe('secret masking', () => {
  it('masks embedder API keys in settings details', () => {
    const settings = { embedders: { default: { source: 'openAi', apiKey: 'sk-0123456789abcdef' } } };
    expect(view(kind.settings('a', settings)).settings).toEqual({
      embedders: { default: { source: 'openAi', apiKey: 'skXXXX...' } },
    });
  });

  it('masks an export API key and prints its payload size', () => {
    const details: TaskDetails = {
      kind: 'export',
      url: 'https://x',
      apiKey: 'abcdefghijklmnopqrstuvwxyz0123',
      payloadSize: 24 * 1024 * 1024,
      indexes: { b: { filter: null, overrideSettings: true, matchedDocuments: 3 }, a: { filter: 'x = 1', overrideSettings: false } },
    };
    expect(toDetailsView(details)).toEqual({
      url: 'https://x',
      apiKey: 'abcdeXXXXXX...',
      payloadSize: '24 MiB',
      indexes: {
        a: { filter: 'x = 1', overrideSettings: false },
        b: { filter: null, overrideSettings: true, matched_documents: 3 },
      },
    });
    expect(Object.keys(toDetailsView(details).indexes!)).toEqual(['a', 'b']);
  });
});

describe('accumulateDetails', () => {
  it('adds counters, a null counter counting as nothing', () => {
    const merged = [
      { receivedDocuments: 2, indexedDocuments: null },
      { receivedDocuments: 3, indexedDocuments: 3 },
      { providedIds: 1, deletedDocuments: null, originalFilter: null },
    ].reduce(accumulateDetails, {});
    expect(merged).toEqual({
      receivedDocuments: 5,
      indexedDocuments: 3,
      providedIds: 1,
      deletedDocuments: null,
      originalFilter: null,
    });
  });

  it('joins filters with & and concatenates swaps', () => {
    const merged = accumulateDetails(
      { originalFilter: '?uids=1', swaps: [{ indexes: ['a', 'b'], rename: false }] },
      { originalFilter: '?uids=2', swaps: [{ indexes: ['c', 'd'], rename: true }] },
    );
    expect(merged.originalFilter).toBe('?uids=1&?uids=2');
    expect(merged.swaps).toHaveLength(2);
  });

  it('keeps the first primary key, preferring a value to null', () => {
    expect(accumulateDetails({ primaryKey: null }, { primaryKey: 'id' }).primaryKey).toBe('id');
    expect(accumulateDetails({ primaryKey: 'a' }, { primaryKey: 'b' }).primaryKey).toBe('a');
  });

  it('merges settings, later values winning, in the settings order', () => {
    const merged = accumulateDetails(
      { settings: { stopWords: ['a'], rankingRules: ['typo'] } },
      { settings: { displayedAttributes: ['*'], stopWords: null } },
    );
    expect(merged.settings).toEqual({ displayedAttributes: ['*'], rankingRules: ['typo'], stopWords: null });
    expect(Object.keys(merged.settings!)).toEqual(['displayedAttributes', 'rankingRules', 'stopWords']);
  });

  it('keeps the oldest upgrade origin and the newest target', () => {
    const merged = accumulateDetails(
      { upgradeFrom: 'v1.48.0', upgradeTo: 'v1.49.0' },
      { upgradeFrom: 'v1.49.0', upgradeTo: 'v1.50.0' },
    );
    expect(merged).toEqual({ upgradeFrom: 'v1.48.0', upgradeTo: 'v1.50.0' });
  });

  it('shows one rule, and none once several rule updates are merged', () => {
    const one = accumulateDetails({}, { rule: { a: 1 }, updatedRules: 1 });
    expect(one).toEqual({ rule: { a: 1 }, updatedRules: 1 });
    const two = accumulateDetails(one, { rule: { b: 2 }, updatedRules: 1 });
    expect(two).toEqual({ updatedRules: 2 });
    expect(accumulateDetails(two, { rule: { c: 3 }, updatedRules: 1 })).toEqual({ updatedRules: 3 });
  });
});
