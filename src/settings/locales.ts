/**
 * Locales accepted by `localizedAttributes` (Meilisearch's `Locale`): ISO-639-1 codes, their
 * ISO-639-3 counterparts, and `cmn`. Pure data. The engine stores the ISO-639-3 form, which is
 * what GET shows.
 */

/** [ISO-639-1, ISO-639-3] pairs in Meilisearch's declaration order. */
const PAIRS: readonly (readonly [string, string])[] = [
  ['af', 'afr'], ['ak', 'aka'], ['am', 'amh'], ['ar', 'ara'], ['az', 'aze'], ['be', 'bel'], ['bn', 'ben'],
  ['bg', 'bul'], ['ca', 'cat'], ['cs', 'ces'], ['da', 'dan'], ['de', 'deu'], ['el', 'ell'], ['en', 'eng'],
  ['eo', 'epo'], ['et', 'est'], ['fi', 'fin'], ['fr', 'fra'], ['gu', 'guj'], ['he', 'heb'], ['hi', 'hin'],
  ['hr', 'hrv'], ['hu', 'hun'], ['hy', 'hye'], ['id', 'ind'], ['it', 'ita'], ['jv', 'jav'], ['ja', 'jpn'],
  ['kn', 'kan'], ['ka', 'kat'], ['km', 'khm'], ['ko', 'kor'], ['la', 'lat'], ['lv', 'lav'], ['lt', 'lit'],
  ['ml', 'mal'], ['mr', 'mar'], ['mk', 'mkd'], ['my', 'mya'], ['ne', 'nep'], ['nl', 'nld'], ['nb', 'nob'],
  ['or', 'ori'], ['pa', 'pan'], ['fa', 'pes'], ['pl', 'pol'], ['pt', 'por'], ['ro', 'ron'], ['ru', 'rus'],
  ['si', 'sin'], ['sk', 'slk'], ['sl', 'slv'], ['sn', 'sna'], ['es', 'spa'], ['sr', 'srp'], ['sv', 'swe'],
  ['ta', 'tam'], ['te', 'tel'], ['tl', 'tgl'], ['th', 'tha'], ['tk', 'tuk'], ['tr', 'tur'], ['uk', 'ukr'],
  ['ur', 'urd'], ['uz', 'uzb'], ['vi', 'vie'], ['yi', 'yid'], ['zh', 'zho'], ['zu', 'zul'],
];

/** Every accepted value, in the order deserr lists them: two-letter codes, three-letter codes, `cmn`. */
export const LOCALES: readonly string[] = [...PAIRS.map(([two]) => two), ...PAIRS.map(([, three]) => three), 'cmn'];

/** The accepted values as `LocaleFormatError` lists them (a GET parameter's error): by length, then alphabetically. */
export const LOCALES_BY_LENGTH: readonly string[] = [...LOCALES].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));

const TO_ISO_639_3 = new Map<string, string>([...PAIRS, ...PAIRS.map(([, three]) => [three, three] as const), ['cmn', 'cmn']]);

/** The stored (ISO-639-3) form of an accepted locale. */
export function storedLocale(locale: string): string {
  return TO_ISO_639_3.get(locale) ?? locale;
}

/** charabia's `Language` variant of a stored locale, as v1.50 serializes it (`fra` → `Fra`). */
export function languageName(stored: string): string {
  return stored.charAt(0).toUpperCase() + stored.slice(1);
}
