/**
 * charabia's JapaneseNormalizer (wana_kana 4.0 `to_hiragana` with `pass_romaji`, which runs
 * `katakana_to_hiragana`): katakana become hiragana, so a word written in either script is one
 * word. Shared by facet search (facet-normalize.ts) and the reference tokenizer; the tokenizer
 * kernel (assembly/tokenize.ts `hiraganaOf`) does the same per character. Pure.
 */

const KATAKANA_FIRST = 0x30a1;
const KATAKANA_LAST = 0x30fc;
const LONG_DASH = 'ー';
/**
 * The last letter of each hiragana's romaji in wana_kana's table, U+3041 onwards: `-` for っ
 * (no romaji), `?` for ゕ and ゖ (not in the table). A long dash after a kana becomes the vowel's
 * hiragana (o gives う), after ん or っ nothing.
 */
const ROMAJI_ENDS = 'aaiiuueeooaaiiuueeooaaiiuueeooaaii-uueeooaiueoaaaiiiuuueeeoooaiueoaauuooaiueoaaieonu??';
const LONG_VOWELS: Readonly<Record<string, string>> = { a: 'あ', i: 'い', u: 'う', e: 'え', o: 'う' };

/**
 * wana_kana 4.0 `katakana_to_hiragana`, as `to_hiragana` with `pass_romaji` runs it, on a lemma
 * charabia has decomposed (NFKD): ヷ–ヺ, which wana_kana maps to わ–を, arrive as ワ–ヲ and U+3099.
 */
export function katakanaToHiragana(text: string): string {
  let out = '';
  // the hiragana the previous character became, when it was a katakana (a leading dash finds none)
  let previous: string | null = null;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '・' || ch === 'ヶ' || ch === 'ヵ') {
      out += ch;
    } else if (ch === LONG_DASH && previous !== null) {
      const end = ROMAJI_ENDS[previous.codePointAt(0)! - 0x3041];
      if (end === undefined || end === '?') out += ch;
      else out += LONG_VOWELS[end] ?? '';
    } else if (ch !== LONG_DASH && cp >= KATAKANA_FIRST && cp <= KATAKANA_LAST) {
      const hiragana = String.fromCodePoint(cp - 0x60);
      out += hiragana;
      previous = hiragana;
    } else {
      out += ch;
      previous = null;
    }
  }
  return out;
}
