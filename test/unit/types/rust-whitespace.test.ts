// Rust's whitespace: the White_Space property (U+0085 in, U+FEFF out, unlike JS's `\s`), and
// `str::trim` as the property's pattern would trim, on random strings.
import { describe, expect, it } from 'vitest';
import { isRustWhitespace, rustTrim, trimmedEnd, trimmedStart } from '../../../src/types/rust-whitespace.js';
import { mulberry32 } from '../../helpers/random.js';

describe('isRustWhitespace', () => {
  it('is the White_Space property over the whole BMP', () => {
    for (let unit = 0; unit < 0x10000; unit++) expect(isRustWhitespace(unit), unit.toString(16)).toBe(/\p{White_Space}/u.test(String.fromCharCode(unit)));
  });
});

describe('rustTrim', () => {
  it('strips White_Space at both ends only: NEL yes, BOM no, inner runs kept', () => {
    expect(rustTrim('\u0085\u3000 a \u2003 b\t\n')).toBe('a \u2003 b');
    expect(rustTrim('\ufeffa\ufeff')).toBe('\ufeffa\ufeff');
    expect(rustTrim('   ')).toBe('');
    expect([trimmedStart('  ab '), trimmedEnd('  ab ', 2)]).toEqual([2, 4]);
  });

  it('trims random strings as the White_Space pattern does', () => {
    const random = mulberry32(7);
    const pieces = [' ', '\t', '\u0085', '\u00a0', '\u2003', '\u3000', '\ufeff', 'a', 'é', '😀', '\ud800'];
    for (let round = 0; round < 2_000; round++) {
      let text = '';
      for (let i = Math.floor(random() * 12); i > 0; i--) text += pieces[Math.floor(random() * pieces.length)]!;
      expect(rustTrim(text), JSON.stringify(text)).toBe(text.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, ''));
    }
  });
});
