/**
 * What a string's locales (the `locales` search parameter, an attribute's `localizedAttributes`
 * rule) let charabia's language detection choose, as the per-string byte the tokenizer kernel
 * takes, and whatlang's Mandarin-or-Japanese call on Cj text, which the kernel (normalisation)
 * and segmentation.ts (which dictionary segments the text) must make alike.
 */
import { HIRAGANA_RANGE, KATAKANA_RANGE } from './charabia-data.js';

/**
 * The per-string language byte's bits (assembly LANG_*). charabia asks whatlang for a script
 * group's language only where several segmenters serve its script (Cj: jieba or lindera; Latin:
 * plain, Swedish or German), and then (detection/mod.rs) takes a lone locale as the language
 * whatever the script, reads no locales as no language for Latin text, and otherwise lets
 * whatlang choose among the locales.
 */
export const Lang = {
  /** no locales, or several that name Mandarin: each Cj group's language is detected */
  Detect: 0,
  /** whatlang calls all Cj text Japanese: locales without Mandarin (with a lone locale, only `jpn`) */
  JapaneseOnly: 1,
  /** Swedish is the lone locale, or the only Latin-script language of several: Latin text is Swedish */
  Swedish: 2,
  /** German is the lone locale, or the only Latin-script language of several: Latin text is German */
  German: 4,
  /**
   * A lone locale that is neither Mandarin nor Japanese: Cj text has that language, which no
   * segmenter serves (it stays whole between separators) and the Chinese and Japanese
   * normalisers skip (with JapaneseOnly set, for the kernel).
   */
  CjPlain: 8,
  /** A lone Mandarin locale: all Cj text is Mandarin, kana or not */
  MandarinOnly: 16,
  /**
   * Several locales, two or more of them Latin-script ones with Swedish or German among them:
   * whatlang chooses each Latin group's language among them (segmentation.ts
   * `latinGroupLanguages`). The allowed Latin languages ride above the byte the kernel takes
   * (`latinAllowList`), so a `Lang` value is a number, not always a byte.
   */
  DetectLatin: 32,
} as const;

/** The stored locales charabia reads as Mandarin (`zh` is stored as `zho`). */
const MANDARIN_LOCALES: ReadonlySet<string> = new Set(['cmn', 'zho']);

/** whatlang's Latin-script languages, as stored locales. */
const LATIN_LOCALES: ReadonlySet<string> = new Set([
  'afr', 'aka', 'aze', 'cat', 'ces', 'cym', 'dan', 'deu', 'eng', 'epo', 'est', 'fin', 'fra', 'hrv', 'hun', 'ind', 'ita', 'jav', 'lat',
  'lav', 'lit', 'nld', 'nob', 'pol', 'por', 'ron', 'slk', 'slv', 'sna', 'spa', 'swe', 'tgl', 'tuk', 'tur', 'uzb', 'vie', 'zul',
]);

/** The order of the allowed-language bits of a DetectLatin `Lang`. */
const LATIN_ORDER: readonly string[] = [...LATIN_LOCALES];
/** Where the allowed-language bits start: above the byte the kernel takes. */
const LATIN_BITS = 256;
const allowLists = new Map<number, ReadonlySet<string>>();

/** The `Lang` of text restricted to `locales` (stored ISO-639-3 codes; none or empty = any). */
export function langOfLocales(locales: readonly string[] | null | undefined): number {
  if (locales === null || locales === undefined || locales.length === 0) return Lang.Detect;
  const latin = new Set(locales.filter((locale) => LATIN_LOCALES.has(locale)));
  const latinLang = latin.size !== 1 ? 0 : latin.has('swe') ? Lang.Swedish : latin.has('deu') ? Lang.German : 0;
  const mandarin = locales.some((locale) => MANDARIN_LOCALES.has(locale));
  if (new Set(locales).size === 1) {
    const cj = mandarin ? Lang.MandarinOnly : locales[0] === 'jpn' ? Lang.JapaneseOnly : Lang.JapaneseOnly | Lang.CjPlain;
    return cj | latinLang;
  }
  const base = (mandarin ? Lang.Detect : Lang.JapaneseOnly) | latinLang;
  if (latin.size < 2 || !(latin.has('swe') || latin.has('deu'))) return base;
  // arithmetic, not bitwise: the 37 language bits go past 32
  const mask = LATIN_ORDER.reduce((sum, locale, i) => sum + (latin.has(locale) ? 2 ** i : 0), 0);
  return base + Lang.DetectLatin + LATIN_BITS * mask;
}

/** The Latin-script languages whatlang may choose among for a `Lang` with DetectLatin set. */
export function latinAllowList(lang: number): ReadonlySet<string> {
  let list = allowLists.get(lang);
  if (list === undefined) {
    const mask = Math.floor(lang / LATIN_BITS);
    list = new Set(LATIN_ORDER.filter((_, i) => Math.floor(mask / 2 ** i) % 2 === 1));
    allowLists.set(lang, list);
  }
  return list;
}

/**
 * whatlang's call on a Cj group (detect_lang_base_on_mandarin_script): Mandarin when it is the
 * lone locale, Japanese when Mandarin is not allowed, else when more than 5% of its Han and kana
 * characters are Hiragana or Katakana (so a kana-led group is Japanese too). `mandarin` counts whatlang's Mandarin ranges.
 */
export function cjIsJapanese(kana: number, mandarin: number, lang: number): boolean {
  if ((lang & Lang.JapaneseOnly) !== 0) return true;
  if ((lang & Lang.MandarinOnly) !== 0) return false;
  // jpn_pct > 0.05, exactly: kana / (mandarin + kana) > 1 / 20
  return kana * 20 > mandarin + kana;
}

/** Whether `cp` is Hiragana or Katakana as whatlang counts them. */
export function isKana(cp: number): boolean {
  return (cp >= HIRAGANA_RANGE[0] && cp <= HIRAGANA_RANGE[1]) || (cp >= KATAKANA_RANGE[0] && cp <= KATAKANA_RANGE[1]);
}
