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

describe('PayloadDictionaries', () => {
  it('asks after the request for what the sampled documents need in a new index', async () => {
    const asked = preloads();
    const dictionaries = new PayloadDictionaries({ get: () => undefined, envOf: () => { throw new Error('no index'); } }, busy);
    const sample = dictionaries.sample();
    sample.observe(Buffer.from('{"id":1,"t":"엄마"}'));
    sample.observe(Buffer.from('{"id":2,"t":"クーポン"}'));
    dictionaries.preload('movies', 7, null, sample);
    expect(asked).toEqual([]);
    await nextTick();
    expect(asked).toEqual([['jpn', 'kor']]);
  });

  it('asks for nothing when the task runs at once: no batch running, or the running batch is its own', async () => {
    const asked = preloads();
    for (const running of [() => null, () => new Set([7])]) {
      const dictionaries = new PayloadDictionaries({ get: () => undefined, envOf: () => { throw new Error('no index'); } }, running);
      const sample = dictionaries.sample();
      sample.observe(Buffer.from('{"id":1,"t":"엄마"}'));
      dictionaries.preload('movies', 7, null, sample);
    }
    await nextTick();
    expect(asked).toEqual([]);
  });

  it('reads the index settings: text in a field no search reads asks for nothing', async () => {
    index = openTestIndex();
    const env = index.env;
    env.root.transactionSync(() => env.main.putSync('settings', { searchableAttributes: ['title'] }));
    const asked = preloads();
    const dictionaries = new PayloadDictionaries({ get: () => ({ uid: 'movies' }) as IndexRecord, envOf: () => env }, busy);
    const sample = dictionaries.sample();
    sample.observe(Buffer.from('{"id":1,"hidden":"엄마","title":"クーポン"}'));
    dictionaries.preload('movies', 7, null, sample);
    await nextTick();
    expect(asked).toEqual([['jpn']]);
  });

  it('asks for nothing for documents the write would refuse, under the payload primary key or the inferred one', async () => {
    const asked = preloads();
    const dictionaries = new PayloadDictionaries({ get: () => undefined, envOf: () => { throw new Error('no index'); } }, busy);
    const sample = dictionaries.sample();
    sample.observe(Buffer.from('{"t":"엄마"}'));
    sample.observe(Buffer.from('{"id":"not valid!","t":"クーポン"}'));
    sample.observe(Buffer.from('{"id":1,"key":2,"t":"我们诞生在中国"}'));
    dictionaries.preload('movies', 7, 'key', sample);
    await nextTick();
    expect(asked).toEqual([['cmn']]);
  });

  it('asks for nothing without such documents, or when the index cannot be read', async () => {
    const asked = preloads();
    const failing = new PayloadDictionaries({ get: () => ({ uid: 'x' }) as IndexRecord, envOf: () => { throw new Error('closed'); } }, busy);
    const sample = failing.sample();
    sample.observe(Buffer.from('{"id":1,"t":"엄마"}'));
    failing.preload('x', 7, null, sample);
    const empty = failing.sample();
    empty.observe(Buffer.from('{"id":1,"t":"latin text"}'));
    failing.preload('x', 7, null, empty);
    await nextTick();
    expect(asked).toEqual([]);
  });
});
