// The facet search form (normalize_facet_string as v1.50 runs it: one lossy charabia token per
// string): each normaliser under the script whatlang finds and the language the locales give.
import { describe, expect, it } from 'vitest';
import { normalizeFacetString } from '../../src/kernels/facet-normalize.js';

describe('normalizeFacetString', () => {
  it('lowercases plain ASCII and keeps everything else', () => {
    expect(normalizeFacetString('Science Fiction', null)).toBe('science fiction');
    expect(normalizeFacetString(' 42 ', null)).toBe(' 42 ');
  });

  it('keeps the white-space controls of ASCII text and drops the other controls', () => {
    expect(normalizeFacetString('Line One\n\tLine\x0bTwo\x0c\r', null)).toBe('line one\n\tline\x0btwo\x0c\r');
    expect(normalizeFacetString('A\x01B\x7fC\nD', null)).toBe('abc\nd');
    // a line break leaves the rest to the full path: accents still go
    expect(normalizeFacetString('Café\nBar', null)).toBe('cafe\nbar');
  });

  it('drops Latin accents and maps quotes, ligatures, đ and dotless i', () => {
    expect(normalizeFacetString('Comédie', null)).toBe('comedie');
    expect(normalizeFacetString('l’Œuvre', null)).toBe("l'oeuvre");
    expect(normalizeFacetString('Đà Nẵng', null)).toBe('da nang');
    expect(normalizeFacetString('ılık', null)).toBe('ilik');
  });

  it('keeps the marks of scripts charabia does not strip (Cyrillic й stays)', () => {
    expect(normalizeFacetString('Йошкар', null)).toBe('й'.normalize('NFKD') + 'ошкар');
  });

  it('ends a Greek string with σ and strips its accents', () => {
    expect(normalizeFacetString('Οδυσσέας', null)).toBe('οδυσσεασ');
  });

  it('maps Chinese variants to one form unless the language is another', () => {
    const simplified = normalizeFacetString('进击', null);
    expect(normalizeFacetString('進撃', null)).toBe(simplified);
    expect(normalizeFacetString('進撃', ['cmn'])).toBe(simplified);
    expect(normalizeFacetString('進撃', ['zho'])).toBe(simplified);
    // a lone Japanese locale: Japanese text, no Chinese normaliser
    expect(normalizeFacetString('進撃', ['jpn'])).toBe('進撃');
  });

  it('turns katakana into hiragana, long vowels as wana_kana spells them', () => {
    // after NFKD, ピ is ヒ and a combining mark, which no long vowel follows
    expect(normalizeFacetString('ワンピース', null)).toBe('わんひ\u309aーす');
    expect(normalizeFacetString('スーパー', ['jpn'])).toBe('すうは\u309aー');
    expect(normalizeFacetString('オー', null)).toBe('おう');
    expect(normalizeFacetString('カンー', null)).toBe('かん');
    expect(normalizeFacetString('ーカ', null)).toBe('ーか');
    // Mandarin alone: no Japanese normaliser
    expect(normalizeFacetString('ワンピース', ['cmn'])).toBe('ワンピース'.normalize('NFKD'));
  });

  it('lets whatlang choose among several locales', () => {
    // Han text with kana is Japanese among cmn and jpn: no Chinese variants
    expect(normalizeFacetString('進撃の巨人', ['cmn', 'jpn'])).toBe('進撃の巨人');
    expect(normalizeFacetString('進撃巨人', ['cmn', 'jpn'])).toBe(normalizeFacetString('进击巨人', null));
  });

  it('recomposes Swedish å, ä and ö only for Swedish', () => {
    expect(normalizeFacetString('Åsa', ['swe'])).toBe('åsa');
    expect(normalizeFacetString('Åsa', null)).toBe('asa');
  });

  it('normalises Arabic letter forms and drops the tatweel', () => {
    expect(normalizeFacetString('مدرسـة', null)).toBe('مدرسه');
  });
});
