/**
 * The form facet search compares (milli `normalize_facet_string`, v1.50): a facet string or a
 * `facetQuery` normalised as ONE charabia 0.9.9 token, lossy, with the script whatlang finds in
 * the whole string and a language from the locales: a lone locale is the language, several let
 * whatlang choose among them, none leave it unknown. Unlike the tokenizer, which normalises each
 * word of a script group, this runs every normaliser charabia's `LOSSY_NORMALIZERS` list holds,
 * each gated as charabia gates it: NFKD and control characters, Swedish recomposition, lowercase
 * (cased scripts), quotes, æ/œ, Chinese variants (Cj text of Mandarin or unknown language),
 * katakana to hiragana (Cj text of Japanese or unknown language, kana.ts), Greek final
 * sigma, Arabic letter forms, nonspacing marks (Hebrew, Thai, Arabic, Latin, Greek), đ and ı.
 * Not done: the Persian normaliser (Arabic text whose language is Persian, which whatlang's
 * Arabic-script detection, not ported, would have to find). Pure; no I/O.
 */
import { CHARACTER_CONVERSIONS, MARK_REMOVING_SCRIPTS, SCRIPTS } from './charabia-data.js';
import { katakanaToHiragana } from './kana.js';
import { kvariantOf } from './kvariants.js';
import { lemmaOfText, recomposeSwedish, scriptOf } from './unicode.js';
import { detectLatinLanguage, whatlangScript } from './whatlang-latin.js';

/** charabia's Script of whatlang's: the three Chinese and Japanese scripts are one, Cj. */
function charabiaScript(text: string): string {
  const script = whatlangScript(text);
  if (script === 'Mandarin' || script === 'Hiragana' || script === 'Katakana') return 'Cj';
  return script ?? 'Other';
}

/**
 * StrDetection::language for locales given as stored ISO 639-3 codes, asked only where a
 * normaliser reads it: Cj text (Chinese or Japanese, a count of kana) and Latin text holding a
 * pair Swedish recomposes, under locales naming Swedish (Latin detection scores trigrams: not
 * run for every value of a facet). whatlang's detection of other scripts is not ported
 * (whatlang-latin.ts), and no normaliser here needs it.
 */
function languageOf(text: string, locales: readonly string[] | null): string | null {
  if (locales === null || locales.length <= 1) return locales?.[0] ?? null;
  return detectLatinLanguage(text, new Set(locales));
}

/** What SwedishRecompositionNormalizer recomposes (unicode.ts `recomposeSwedish`): only such a lemma asks for the language. */
const SWEDISH_PAIR = /[aA]\u030a|[aAoO]\u0308/;

const CASED = new Set(['Latin', 'Cyrillic', 'Greek', 'Georgian', 'Armenian']);
const MARK_REMOVING = new Set(MARK_REMOVING_SCRIPTS.map((script) => SCRIPTS[script]!));
/**
 * charabia's character conversions (charabia-data.ts), split by the normaliser that makes them:
 * the Arabic normaliser's for Arabic text, the others (quotes, æ/œ, đ, ı) for Latin text. No
 * other normaliser reads or writes those characters, so one pass per script does them all.
 */
const ARABIC = SCRIPTS.indexOf('Arabic');
const conversionsWhere = (arabic: boolean): Readonly<Record<string, string>> =>
  Object.fromEntries(Object.entries(CHARACTER_CONVERSIONS).filter(([from]) => (scriptOf(from.codePointAt(0)!) === ARABIC) === arabic));
const LATIN_CONVERSIONS = conversionsWhere(false);
const ARABIC_CONVERSIONS = conversionsWhere(true);

/** Replaces each character `table` names, in one regular-expression pass (most text holds none). */
function charMapper(table: Readonly<Record<string, string>>): (text: string) => string {
  const pattern = new RegExp(`[${Object.keys(table).join('').replace(/[\]\\^-]/g, '\\$&')}]`, 'gu');
  return (text) => text.replace(pattern, (ch) => table[ch]!);
}
const mapLatinChars = charMapper(LATIN_CONVERSIONS);
const mapArabicChars = charMapper(ARABIC_CONVERSIONS);

/**
 * Printable ASCII and the white-space controls (tab to carriage return, which ControlCharNormalizer
 * keeps): no normaliser but lowercase changes it (whatever its script). Most long facet strings
 * (descriptions) hold line breaks, and the full path costs ~15 times as much.
 */
const PLAIN_ASCII = /^[\t-\r\x20-\x7e]*$/;

/**
 * `text` as v1.50's facet search compares it, under `locales` (stored ISO 639-3 codes; null for
 * none). Callers pass a stored facet value with its field's `localizedAttributes` locales, and a
 * `facetQuery` with those locales narrowed to the request's.
 */
export function normalizeFacetString(text: string, locales: readonly string[] | null): string {
  if (PLAIN_ASCII.test(text)) return text.toLowerCase();
  const script = charabiaScript(text);
  let lemma = lemmaOfText(text);
  if (script === 'Latin' && locales?.includes('swe') === true && SWEDISH_PAIR.test(lemma) && languageOf(text, locales) === 'swe') {
    lemma = recomposeSwedish(lemma);
  }
  if (CASED.has(script)) {
    // char::to_lowercase, character by character: no final-sigma rule
    let lower = '';
    for (const ch of lemma) lower += ch.toLowerCase();
    lemma = lower;
  }
  if (script === 'Latin') lemma = mapLatinChars(lemma);
  if (script === 'Cj') {
    const language = languageOf(text, locales);
    if (language === null || language === 'cmn' || language === 'zho') lemma = lemma.replace(/./gsu, kvariantOf);
    if (language === null || language === 'jpn') lemma = katakanaToHiragana(lemma);
  }
  if (script === 'Greek' && lemma.endsWith('ς')) lemma = lemma.slice(0, -1) + 'σ';
  if (script === 'Arabic') lemma = mapArabicChars(lemma);
  if (MARK_REMOVING.has(script)) lemma = lemma.replace(/\p{Mn}/gu, '');
  return lemma;
}
