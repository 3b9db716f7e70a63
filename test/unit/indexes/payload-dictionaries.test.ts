// The early dictionary preload of a documents payload: after the request, the languages its sampled
// documents ask for under the index's settings (the defaults for an index the task creates) go to
// the thread's preloader; an empty sample or a failing read asks for nothing.
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

function preloads(): string[][] {
  const asked: string[][] = [];
  useRunSegmenter(localSegmenter, (languages) => asked.push([...languages].sort()));
  return asked;
}

describe('PayloadDictionaries', () => {
  it('asks after the request for what the sampled documents need in a new index', async () => {
    const asked = preloads();
    const dictionaries = new PayloadDictionaries({ get: () => undefined, envOf: () => { throw new Error('no index'); } });
    const sample = dictionaries.sample();
    sample.observe(Buffer.from('{"id":1,"t":"엄마"}'));
    sample.observe(Buffer.from('{"id":2,"t":"クーポン"}'));
    dictionaries.preload('movies', sample);
    expect(asked).toEqual([]);
    await nextTick();
    expect(asked).toEqual([['jpn', 'kor']]);
  });

  it('reads the index settings: text in a field no search reads asks for nothing', async () => {
    index = openTestIndex();
    const env = index.env;
    env.root.transactionSync(() => env.main.putSync('settings', { searchableAttributes: ['title'] }));
    const asked = preloads();
    const dictionaries = new PayloadDictionaries({ get: () => ({ uid: 'movies' }) as IndexRecord, envOf: () => env });
    const sample = dictionaries.sample();
    sample.observe(Buffer.from('{"id":1,"hidden":"엄마","title":"クーポン"}'));
    dictionaries.preload('movies', sample);
    await nextTick();
    expect(asked).toEqual([['jpn']]);
  });

  it('asks for nothing without such documents, or when the index cannot be read', async () => {
    const asked = preloads();
    const failing = new PayloadDictionaries({ get: () => ({ uid: 'x' }) as IndexRecord, envOf: () => { throw new Error('closed'); } });
    const sample = failing.sample();
    sample.observe(Buffer.from('{"id":1,"t":"엄마"}'));
    failing.preload('x', sample);
    const empty = failing.sample();
    empty.observe(Buffer.from('{"id":1,"t":"latin text"}'));
    failing.preload('x', empty);
    await nextTick();
    expect(asked).toEqual([]);
  });
});
