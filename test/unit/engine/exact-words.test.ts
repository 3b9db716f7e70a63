// milli's typo-exempt words: each word's tokens' normalised forms, separators kept as written.
import { describe, expect, it } from 'vitest';
import { normalizeExactWords } from '../../../src/engine/exact-words.js';

describe('normalizeExactWords', () => {
  it('concatenates the lemmas of the words and the text of the separators, deduplicated and byte-sorted', () => {
    expect(normalizeExactWords(['Hello', 'hello', 'New-York', 'Ça va'])).toEqual(['ca va', 'hello', 'new-york']);
  });

  it('reads the separators of a long non-ASCII entry in one pass over its text', () => {
    // each separator's text used to re-encode the whole entry: 64 Ki of them took 19 s
    const spaces = '\u3000'.repeat(100_000);
    const [normalized] = normalizeExactWords([` a${spaces}é `]);
    expect(normalized === ` a${spaces}e `).toBe(true);
  });
});
