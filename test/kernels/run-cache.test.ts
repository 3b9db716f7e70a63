// The dictionary segmenters' answers remembered per thread (src/kernels/run-cache.ts), and
// segmentRuns answering through them (src/kernels/run-segmenter.ts): the same pieces as asking,
// each short run asked once, long runs always asked, nothing kept from a call that failed, and
// memory bounded by two generations.
import { afterEach, describe, expect, it } from 'vitest';

import type { DictionaryLanguage } from '../../src/kernels/dictionary-segmenters.js';
import { RunCache } from '../../src/kernels/run-cache.js';
import { localSegmenter, segmentRuns, useRunSegmenter, type Run } from '../../src/kernels/run-segmenter.js';

/** A segmenter that records every run it is asked, answering as `answer` does (the dictionaries by default). */
function asking(answer: (runs: readonly Run[]) => number[][] = localSegmenter): { segmenter: (runs: readonly Run[]) => number[][]; asked: Run[] } {
  const asked: Run[] = [];
  return {
    asked,
    segmenter: (runs) => {
      asked.push(...runs);
      return answer(runs);
    },
  };
}

const run = (text: string, language: DictionaryLanguage = 'kor'): Run => ({ text, language });

/** 30 units, past the longest run remembered (24). */
const LONG = '저는서울에살고있으며매일지하철을타고회사에갑니다주말에는친구';

afterEach(() => useRunSegmenter(null));

describe('RunCache', () => {
  it('answers every run as the segmenter does, asking a short run met again in the call once', () => {
    const runs = [run('서울에'), run('살고'), run('서울에'), run(LONG), run('東京都に住んでいる', 'jpn'), run('살고'), run(LONG)];
    const { segmenter, asked } = asking();
    expect(new RunCache().segment(runs, segmenter)).toEqual(localSegmenter(runs));
    expect(asked).toEqual([run('서울에'), run('살고'), run(LONG), run('東京都に住んでいる', 'jpn'), run(LONG)]);
  });

  it('answers the short runs it met before without asking, and asks the long ones again', () => {
    const cache = new RunCache();
    const runs = [run('회사에'), run(LONG), run('中国北京大学', 'cmn')];
    cache.segment(runs, localSegmenter);
    const { segmenter, asked } = asking();
    expect(cache.segment([...runs, run('친구들과')], segmenter)).toEqual(localSegmenter([...runs, run('친구들과')]));
    expect(asked).toEqual([run(LONG), run('친구들과')]);
  });

  it('keeps a text apart per language', () => {
    const cache = new RunCache();
    cache.segment([run('東京大学', 'jpn')], localSegmenter);
    const { segmenter, asked } = asking();
    expect(cache.segment([run('東京大学', 'cmn'), run('東京大学', 'jpn')], segmenter)).toEqual(localSegmenter([run('東京大学', 'cmn'), run('東京大学', 'jpn')]));
    expect(asked).toEqual([run('東京大学', 'cmn')]);
  });

  it('asks a run again in a call after one whose segmenter failed', () => {
    const cache = new RunCache();
    expect(() =>
      cache.segment([run('지하철을')], () => {
        throw new Error('the segmenter failed');
      }),
    ).toThrow('the segmenter failed');
    const { segmenter, asked } = asking();
    cache.segment([run('지하철을')], segmenter);
    expect(asked).toEqual([run('지하철을')]);
  });

  it('lets go of runs two generations old and keeps those met again meanwhile', () => {
    const cache = new RunCache();
    // any answer: the cache does not look into it
    const fake = (runs: readonly Run[]) => runs.map((r) => [r.text.length - 1]);
    const words = Array.from({ length: 3 * 8192 }, (_, i) => run(`w${i}`));
    cache.segment([run('kept'), run('gone')], fake);
    for (let i = 0; i < words.length; i += 1000) {
      cache.segment(words.slice(i, i + 1000), fake);
      // met again every 1,000 runs, so it stays in the recent generation or the one before
      cache.segment([run('kept')], fake);
    }
    const { segmenter, asked } = asking(fake);
    cache.segment([run('kept'), run('gone'), words.at(-1)!], segmenter);
    expect(asked).toEqual([run('gone')]);
  });
});

describe('segmentRuns', () => {
  it('remembers the answers of the segmenter in use until another is installed', () => {
    const first = asking();
    useRunSegmenter(first.segmenter);
    expect(segmentRuns([run('영화를'), run('봤습니다')])).toEqual(localSegmenter([run('영화를'), run('봤습니다')]));
    segmentRuns([run('영화를')]);
    expect(first.asked).toEqual([run('영화를'), run('봤습니다')]);
    const second = asking();
    useRunSegmenter(second.segmenter);
    segmentRuns([run('영화를')]);
    expect(second.asked).toEqual([run('영화를')]);
  });
});
