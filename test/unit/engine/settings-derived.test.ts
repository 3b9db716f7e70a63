// What tokenizing derives from settings is derived once per settings object, and a new settings
// object (a commit's) gets its own values; the stop-word set is kept for settings read again with
// the same stop words (a write's next batch).
import { describe, expect, it } from 'vitest';
import { derivedOnce, stopWordSet, tokenizerRules, typoExemptWords } from '../../../src/engine/settings-derived.js';
import { defaultSettings } from '../../../src/types/settings.js';

describe('derivedOnce', () => {
  it('derives once per key object, undefined included, and again for another object', () => {
    let calls = 0;
    const derive = derivedOnce((key: { n: number }) => {
      calls++;
      return key.n > 0 ? key.n * 2 : undefined;
    });
    const a = { n: 2 };
    const zero = { n: 0 };
    expect([derive(a), derive(a), derive(zero), derive(zero)]).toEqual([4, 4, undefined, undefined]);
    expect(calls).toBe(2);
    expect(derive({ n: 2 })).toBe(4);
    expect(calls).toBe(3);
  });
});

describe('settings-derived values', () => {
  it('answers the same set and rules for one settings object, and the new words for the next', () => {
    const before = { ...defaultSettings(), stopWords: ['the'], dictionary: ['J. K.'], typoTolerance: { ...defaultSettings().typoTolerance, disableOnWords: ['kiwi'] } };
    expect(stopWordSet(before)).toBe(stopWordSet(before));
    expect([...stopWordSet(before)]).toEqual(['the']);
    expect(tokenizerRules(before)).toBe(tokenizerRules(before));
    expect([...tokenizerRules(before)!.dictionary]).toEqual(['J. K.']);
    expect(typoExemptWords(before).has('kiwi')).toBe(true);
    const after = { ...before, stopWords: ['a'], dictionary: [], typoTolerance: { ...before.typoTolerance, disableOnWords: [] } };
    expect([...stopWordSet(after)]).toEqual(['a']);
    expect(tokenizerRules(after)).toBeUndefined();
    expect(typoExemptWords(after).size).toBe(0);
  });
});

describe('stopWordSet', () => {
  it('answers the set made before for settings read again with the same stop words, and a new one when they differ', () => {
    const read = (stopWords: string[]) => ({ ...defaultSettings(), stopWords });
    const first = stopWordSet(read(['the', 'of', 'é']));
    expect(stopWordSet(read(['the', 'of', 'é']))).toBe(first);
    for (const other of [['the', 'of'], ['the', 'é', 'of'], ['the', 'of', 'e'], []]) {
      const set = stopWordSet(read(other));
      expect(set).not.toBe(first);
      expect([...set]).toEqual(other);
    }
  });
});
