// The early dictionary preload of a documents payload: after the request, while another batch runs,
// the languages its sampled documents ask for under the index's settings (the defaults for an index
// the task creates) go to the thread's preloader; a task the scheduler runs at once (none running,
// or its own batch), an empty sample or a failing read ask for nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { PayloadDictionaries } from '../../../src/indexes/payload-dictionaries.js';
import { localSegmenter, useRunSegmenter } from '../../../src/kernels/run-segmenter.js';
import { openTestIndex, type TestIndex } from '../engine/search/harness.js';
import type { IndexRecord } from '../../../src/indexes/registry.js';

let index: TestIndex | undefined;
afterEach(async () => {
  useRunSegmenter(null);
  await index?.close();
  index = undefined;
});

const nextTick = () => new Promise((resolve) => setImmediate(resolve));
/** Another batch (tasks 1 and 2) runs while the payload's task (7) waits. */
const busy = () => new Set([1, 2]);

function preloads(): string[][] {
  const asked: string[][] = [];
  useRunSegmenter(localSegmenter, (languages) => asked.push([...languages].sort()));
  return asked;
}

/** No index yet (the task creates it); `running`: the running batch's tasks. */
const newIndex = (running: () => ReadonlySet<number> | null = busy) =>
  new PayloadDictionaries({ get: () => undefined, envOf: () => { throw new Error('no index'); } }, running);

/** Has `dictionaries` preload for task 7 of index `movies` after a payload of `lines`. */
function preloadLines(dictionaries: PayloadDictionaries, lines: string[], primaryKey: string | null = null): void {
  const sample = dictionaries.sample();
  for (const line of lines) sample.observe(Buffer.from(line));
  dictionaries.preload('movies', 7, primaryKey, sample);
}

describe('PayloadDictionaries', () => {
  it('asks after the request for what the sampled documents need in a new index', async () => {
    const asked = preloads();
    preloadLines(newIndex(), ['{"id":1,"t":"엄마"}', '{"id":2,"t":"クーポン"}']);
    expect(asked).toEqual([]);
    await nextTick();
    expect(asked).toEqual([['jpn', 'kor']]);
  });

  it('asks for nothing when the task runs at once: no batch running, or the running batch is its own', async () => {
    const asked = preloads();
    for (const running of [() => null, () => new Set([7])]) preloadLines(newIndex(running), ['{"id":1,"t":"엄마"}']);
    await nextTick();
    expect(asked).toEqual([]);
  });

  it('reads the index settings: text in a field no search reads asks for nothing', async () => {
    index = openTestIndex();
    const env = index.env;
    env.root.transactionSync(() => env.main.putSync('settings', { searchableAttributes: ['title'] }));
    const asked = preloads();
    preloadLines(new PayloadDictionaries({ get: () => ({ uid: 'movies' }) as IndexRecord, envOf: () => env }, busy), ['{"id":1,"hidden":"엄마","title":"クーポン"}']);
    await nextTick();
    expect(asked).toEqual([['jpn']]);
  });

  it('asks for nothing for documents the write would refuse, under the payload primary key or the inferred one', async () => {
    const asked = preloads();
    preloadLines(newIndex(), ['{"t":"엄마"}', '{"id":"not valid!","t":"クーポン"}', '{"id":1,"key":2,"t":"我们诞生在中国"}'], 'key');
    await nextTick();
    expect(asked).toEqual([['cmn']]);
  });

  it('asks for nothing without such documents, or when the index cannot be read', async () => {
    const asked = preloads();
    const failing = new PayloadDictionaries({ get: () => ({ uid: 'movies' }) as IndexRecord, envOf: () => { throw new Error('closed'); } }, busy);
    preloadLines(failing, ['{"id":1,"t":"엄마"}']);
    preloadLines(newIndex(), ['{"id":1,"t":"latin text"}']);
    await nextTick();
    expect(asked).toEqual([]);
  });
});
