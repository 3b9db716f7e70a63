// The clock of the `searchCutoffMs` budget leaves out the time the search waits in the dictionary
// segmenters: the first Chinese, Japanese or Korean query of a process waits for the segmenter
// thread to load jieba or lindera (most of a second, seconds on a busy machine), which is not the
// search's work and must not skip its ranking (hits in docid order). Here a segmenter that sleeps
// stands for that load, deterministically.
import { afterEach, describe, expect, it } from 'vitest';
import { localSegmenter, segmentationMs, useRunSegmenter } from '../../../../src/kernels/run-segmenter.js';
import { searchClock } from '../../../../src/engine/search/time-budget.js';
import { openTestIndex, type TestIndex } from './harness.js';

const LOADING_MS = 300;
const BUDGET_MS = 100;

/** The dictionary segmenters, as a thread whose dictionaries are still loading sees them: LOADING_MS late, once. */
function loadingSegmenter(): { calls: () => number } {
  let calls = 0;
  useRunSegmenter((runs) => {
    if (calls++ === 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, LOADING_MS);
    return localSegmenter(runs);
  });
  return { calls: () => calls };
}

let index: TestIndex | undefined;
afterEach(async () => {
  useRunSegmenter(null);
  await index?.close();
  index = undefined;
});

describe('the search time budget', () => {
  it('counts the time spent segmenting in segmentationMs', () => {
    loadingSegmenter();
    const before = segmentationMs();
    const started = performance.now();
    const clock = searchClock();
    index = openTestIndex();
    expect(segmentationMs() - before).toBe(0);
    index.search('東京');
    expect(segmentationMs() - before).toBeGreaterThanOrEqual(LOADING_MS - 5);
    // the clock counts the rest only
    expect(clock()).toBeLessThanOrEqual(performance.now() - started - (LOADING_MS - 5));
  });

  it('ranks a query whose segmentation waited longer than the budget', () => {
    index = openTestIndex({ searchableAttributes: ['title', 'body'], rankingRules: ['words', 'attribute'] });
    // inserted body-match first: docid order and relevance disagree
    index.write({
      b1: { id: 'b1', body: 'night 東京タワー river' },
      b2: { id: 'b2', body: '東京タワー stone' },
      t1: { id: 't1', title: '東京タワー', body: 'fire' },
    });
    // counting the wait, the budget is spent before ranking starts: hits in docid order, unranked
    loadingSegmenter();
    const wallStart = performance.now();
    const walled = index.search('東京', { timeUp: () => performance.now() - wallStart >= BUDGET_MS });
    expect(walled.degraded).toBe(true);
    useRunSegmenter(null);

    const segmenter = loadingSegmenter();
    const started = performance.now();
    const spent = searchClock();
    const outcome = index.search('東京', { timeUp: () => spent() >= BUDGET_MS });
    expect(segmenter.calls()).toBeGreaterThan(0);
    // the wall clock ran out before ranking started; the search's own time did not
    expect(performance.now() - started).toBeGreaterThanOrEqual(LOADING_MS);
    expect(outcome.degraded).toBe(false);
    expect(outcome.hits[0]!.details.map((detail) => detail.kind)).not.toContain('skipped');
    expect(index.ids('東京')[0]).toBe('t1');
  });
});
