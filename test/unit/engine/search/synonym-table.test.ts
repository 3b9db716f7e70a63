// The synonym table queries look synonyms up in: built in slices or at once with the same result,
// built once per settings object, and kept for later settings objects with the same synonyms,
// stop words and custom tokens.
import { describe, expect, it } from 'vitest';
import { SynonymBuild, synonymKey, synonymsOf, synonymTableBuild } from '../../../../src/engine/search/synonym-table.js';
import { defaultSettings } from '../../../../src/types/settings.js';

const settingsWith = (synonyms: Record<string, string[]>, more: Partial<ReturnType<typeof defaultSettings>> = {}) => ({ ...defaultSettings(), synonyms, ...more });

/** Keys that normalise alike (`Alias1`, `alias1.`), values out of order and repeated, words dropped as stop words. */
function manySynonyms(n: number): Record<string, string[]> {
  const synonyms: Record<string, string[]> = {};
  for (let i = 0; i < n; i++) {
    const key = `${Math.floor(i / 700) % 2 === 0 ? 'Alias' : 'alias'}${i % 700}${Math.floor(i / 1400) % 2 === 0 ? '' : '.'}`;
    synonyms[key] = [`zeta ${i}`, `Beta-${i % 50}`, 'the', `beta ${i % 50}`];
    if (i % 97 === 0) synonyms[`new city ${i}`] = [`NC${i}`];
  }
  return synonyms;
}

describe('SynonymBuild', () => {
  it('builds in slices the table it builds at once: keys merged, values sorted and deduplicated, stop words dropped', () => {
    const synonyms = manySynonyms(3_000);
    const stopWords = new Set(['the']);
    const atOnce = new SynonymBuild(synonyms, stopWords, undefined).finish();
    const sliced = new SynonymBuild(synonyms, stopWords, undefined);
    let steps = 0;
    while (!sliced.step(128)) steps++;
    expect(steps).toBeGreaterThan(10);
    expect([...sliced.finish()]).toEqual([...atOnce]);
    // `Alias3` (last set by 2803), `alias3` (703), `Alias3.` (1403), `alias3.` (2103) read alike
    expect(atOnce.get('alias3')).toEqual([['beta', '3'], ['zeta', '1403'], ['zeta', '2103'], ['zeta', '2803'], ['zeta', '703']]);
    expect(atOnce.get(synonymKey(['new', 'city', '97']))).toEqual([['nc97']]);
    expect(atOnce.has('the')).toBe(false);
  });
});

describe('synonymsOf', () => {
  it('answers the same table for a later settings object with the same lists, and a new one when the synonyms change', () => {
    const first = settingsWith(manySynonyms(1_500));
    const table = synonymsOf(first);
    expect(synonymsOf(first)).toBe(table);
    // another setting changed: a new settings object, the same synonyms
    expect(synonymsOf(settingsWith(manySynonyms(1_500), { rankingRules: ['words'] }))).toBe(table);
    const changed = synonymsOf(settingsWith({ ...manySynonyms(1_500), extra: ['more'] }));
    expect(changed).not.toBe(table);
    expect(changed.get('extra')).toEqual([['more']]);
    // the stop words take part: `the` dropped from the values once it is one
    const withStop = synonymsOf(settingsWith({ a: ['the b'] }, { stopWords: ['the'] }));
    expect(withStop.get('a')).toEqual([['b']]);
  });

  it('lists the keys of new synonyms once, for both the comparison with the last table and the build', () => {
    synonymsOf(settingsWith({ a: ['b'] }));
    let listed = 0;
    const synonyms = new Proxy(Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`q${i}`, [`r${i}`]])), {
      ownKeys: (target) => (listed++, Reflect.ownKeys(target)),
    });
    expect(synonymTableBuild(settingsWith(synonyms))).toBeInstanceOf(SynonymBuild);
    // not once to compare them with the last table's and once more for the build (450,000 keys: ~0.1-0.4 s each)
    expect(listed).toBe(1);
  });

  it('leaves a small table to be built at once, and hands out the build of a large one until it is done', () => {
    expect(synonymTableBuild(settingsWith({ a: ['b'] }))).toBeUndefined();
    const large = settingsWith(Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, [`v${i}`]])));
    const build = synonymTableBuild(large)!;
    expect(build).toBeInstanceOf(SynonymBuild);
    expect(synonymTableBuild(large)).toBe(build);
    while (!build.step());
    expect(synonymTableBuild(large)).toBeUndefined();
    expect(synonymsOf(large).get('k1999')).toEqual([['v1999']]);
  });
});
