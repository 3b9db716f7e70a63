// What a string's locales let charabia's language detection choose (src/kernels/languages.ts):
// a lone locale is the language of every script group, several let whatlang choose among them.
import { describe, expect, it } from 'vitest';

import { cjIsJapanese, Lang, latinAllowList, langOfLocales } from '../../src/kernels/languages.js';

describe('langOfLocales', () => {
  it('detects everything without locales', () => {
    expect(langOfLocales(undefined)).toBe(Lang.Detect);
    expect(langOfLocales(null)).toBe(Lang.Detect);
    expect(langOfLocales([])).toBe(Lang.Detect);
  });

  it('takes a lone locale as the language of Cj text: Mandarin, Japanese, or one no segmenter serves', () => {
    expect(langOfLocales(['cmn'])).toBe(Lang.MandarinOnly);
    expect(langOfLocales(['zho'])).toBe(Lang.MandarinOnly);
    expect(langOfLocales(['jpn'])).toBe(Lang.JapaneseOnly);
    expect(langOfLocales(['kor'])).toBe(Lang.JapaneseOnly | Lang.CjPlain);
    expect(langOfLocales(['eng'])).toBe(Lang.JapaneseOnly | Lang.CjPlain);
    expect(langOfLocales(['eng', 'eng'])).toBe(Lang.JapaneseOnly | Lang.CjPlain);
  });

  it('lets whatlang choose among several: the kana rule when Mandarin is allowed, else Japanese', () => {
    expect(langOfLocales(['cmn', 'jpn'])).toBe(Lang.Detect);
    expect(langOfLocales(['cmn', 'eng'])).toBe(Lang.Detect);
    expect(langOfLocales(['jpn', 'kor'])).toBe(Lang.JapaneseOnly);
    expect(langOfLocales(['eng', 'fra'])).toBe(Lang.JapaneseOnly);
  });

  it('makes Latin text Swedish or German when that is the only Latin-script language allowed', () => {
    expect(langOfLocales(['swe'])).toBe(Lang.Swedish | Lang.JapaneseOnly | Lang.CjPlain);
    expect(langOfLocales(['deu'])).toBe(Lang.German | Lang.JapaneseOnly | Lang.CjPlain);
    expect(langOfLocales(['deu', 'cmn'])).toBe(Lang.German);
    expect(langOfLocales(['swe', 'jpn'])).toBe(Lang.Swedish | Lang.JapaneseOnly);
    expect(langOfLocales(['deu', 'eng']) & (Lang.German | Lang.Swedish)).toBe(0);
    expect(langOfLocales(['deu', 'swe']) & (Lang.German | Lang.Swedish)).toBe(0);
  });
});

describe('langOfLocales with several Latin-script languages', () => {
  it('lets whatlang choose among them when Swedish or German is one, carrying the list above the kernel byte', () => {
    const lang = langOfLocales(['deu', 'eng', 'jpn']);
    expect(lang & 0xff).toBe(Lang.JapaneseOnly | Lang.DetectLatin);
    expect([...latinAllowList(lang)].sort()).toEqual(['deu', 'eng']);
    const many = langOfLocales(['swe', 'zul', 'afr', 'cmn']);
    expect(many & 0xff).toBe(Lang.DetectLatin);
    expect([...latinAllowList(many)].sort()).toEqual(['afr', 'swe', 'zul']);
  });

  it('asks nothing when neither Swedish nor German is allowed', () => {
    expect(langOfLocales(['eng', 'fra']) & Lang.DetectLatin).toBe(0);
    expect(langOfLocales(['eng', 'fra'])).toBe(Lang.JapaneseOnly);
  });
});

describe('cjIsJapanese', () => {
  it("is whatlang's 5% kana rule unless the locales decide", () => {
    expect(cjIsJapanese(1, 19, Lang.Detect)).toBe(false);
    expect(cjIsJapanese(2, 19, Lang.Detect)).toBe(true);
    expect(cjIsJapanese(0, 5, Lang.JapaneseOnly)).toBe(true);
    expect(cjIsJapanese(5, 0, Lang.MandarinOnly)).toBe(false);
  });
});
