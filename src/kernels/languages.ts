/**
 * What a string's locales (the `locales` search parameter, an attribute's `localizedAttributes`
 * rule) let charabia's language detection choose, as the per-string byte the tokenizer kernel
 * takes, and whatlang's Mandarin-or-Japanese call on Cj text, which the kernel (normalisation)
 * and segmentation.ts (which dictionary segments the text) must make alike.
 */
import { HIRAGANA_RANGE, KATAKANA_RANGE } from './reference/charabia-data.js';

/** The per-string language byte's bits (assembly LANG_*). */
export const Lang = {
  /** no locales, or locales that name Mandarin: each Cj group's language is detected */
  Detect: 0,
  /** locales without Mandarin: whatlang calls all Cj text Japanese */
  JapaneseOnly: 1,
  /** locales whose only Latin-script language is Swedish: whatlang calls all Latin text Swedish */
  Swedish: 2,
} as const;

/** The stored locales charabia reads as Mandarin (`zh` is stored as `zho`). */
const MANDARIN_LOCALES: ReadonlySet<string> = new Set(['cmn', 'zho']);

/**
 * whatlang's Latin-script languages, as stored locales. With several of them allowed, whatlang
 * tells them apart by trigrams, which Quarry does not reproduce: only Swedish alone is known.
 */
const LATIN_LOCALES: ReadonlySet<string> = new Set([
  'afr', 'aka', 'aze', 'cat', 'ces', 'cym', 'dan', 'deu', 'eng', 'epo', 'est', 'fin', 'fra', 'hrv', 'hun', 'ind', 'ita', 'jav', 'lat',
  'lav', 'lit', 'nld', 'nob', 'pol', 'por', 'ron', 'slk', 'slv', 'sna', 'spa', 'swe', 'tgl', 'tuk', 'tur', 'uzb', 'vie', 'zul',
]);

/** The `Lang` byte of text restricted to `locales` (stored ISO-639-3 codes; none or empty = any). */
export function langOfLocales(locales: readonly string[] | null | undefined): number {
  if (locales === null || locales === undefined || locales.length === 0) return Lang.Detect;
  const latin = locales.filter((locale) => LATIN_LOCALES.has(locale));
  const swedish = latin.length > 0 && latin.every((locale) => locale === 'swe') ? Lang.Swedish : 0;
  return (locales.some((locale) => MANDARIN_LOCALES.has(locale)) ? Lang.Detect : Lang.JapaneseOnly) | swedish;
}

/**
 * whatlang's call on a Cj group (detect_lang_base_on_mandarin_script): Japanese when Mandarin is
 * not allowed, else when more than 5% of its Han and kana characters are Hiragana or Katakana
 * (so a kana-led group is Japanese too). `mandarin` counts whatlang's Mandarin ranges.
 */
export function cjIsJapanese(kana: number, mandarin: number, lang: number): boolean {
  // jpn_pct > 0.05, exactly: kana / (mandarin + kana) > 1 / 20
  return (lang & Lang.JapaneseOnly) !== 0 || kana * 20 > mandarin + kana;
}

/** Whether `cp` is Hiragana or Katakana as whatlang counts them. */
export function isKana(cp: number): boolean {
  return (cp >= HIRAGANA_RANGE[0] && cp <= HIRAGANA_RANGE[1]) || (cp >= KATAKANA_RANGE[0] && cp <= KATAKANA_RANGE[1]);
}
