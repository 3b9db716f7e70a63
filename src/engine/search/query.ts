/**
 * Query parsing (search.md §7, ranking.md §7.4): `q` → located query terms, negative words and
 * negative phrases. One tokenizer kernel call per query. Pure apart from that call.
 *
 * - Words and positions come from the tokenizer (+1 per word, +8 after a hard separator), so a
 *   term's position is comparable with document positions; the index's custom tokens
 *   (separatorTokens, nonSeparatorTokens, dictionary) cut the query exactly as they cut documents.
 * - `"…"` is a phrase (consecutive words; a stop word inside is a one-position hole, `null`); a
 *   hard separator inside quotes splits the phrase; an unclosed quote runs to the end.
 * - `-word` / `-"phrase"` (the `-` at the start or after whitespace, and directly followed by
 *   the word or quote) are negative: excluded, never terms.
 * - Stop words are dropped unless they are the very last token.
 * - Only the first MAX_TERMS terms count (a phrase is one term).
 * - The last term is a prefix when it is a word and nothing follows it in `q`.
 */
import type { CustomTokens } from '../../kernels/custom-tokens.js';
import { Lang } from '../../kernels/languages.js';
import { materializeTokens, tokenizeBatch } from '../../kernels/tokenizer.js';

const MAX_TERMS = 10;

export interface WordTerm {
  readonly kind: 'word';
  readonly word: string;
  readonly position: number;
  readonly prefix: boolean;
}

export interface PhraseTerm {
  readonly kind: 'phrase';
  /** normalised words; `null` for a stop-word hole */
  readonly words: readonly (string | null)[];
  readonly position: number;
}

export type QueryTerm = WordTerm | PhraseTerm;

export interface ParsedQuery {
  readonly terms: QueryTerm[];
  readonly negativeWords: string[];
  readonly negativePhrases: (string | null)[][];
}

/** Words a term spans (a phrase counts each of its words and holes). */
export function termWordCount(term: QueryTerm): number {
  return term.kind === 'word' ? 1 : term.words.length;
}

/** The last query position a term occupies. */
export function termEnd(term: QueryTerm): number {
  return term.kind === 'word' ? term.position : term.position + term.words.length - 1;
}

const WHITESPACE = /\s/u;

/** `lang`: the query's languages.ts `Lang` byte (from `locales`, or those of the searched fields). */
export function parseQuery(q: string, stopWords: ReadonlySet<string>, custom?: CustomTokens, lang: number = Lang.Detect): ParsedQuery {
  const tokens = materializeTokens(tokenizeBatch([q], { custom, langs: [lang] }), [q]);
  const qBytes = Buffer.byteLength(q);
  const bytes = Buffer.from(q);
  const charBefore = (byte: number): string => (byte === 0 ? '' : bytes.subarray(0, byte).toString().slice(-1));
  const isStop = (text: string) => stopWords.size > 0 && stopWords.has(text.normalize('NFKD'));

  const terms: QueryTerm[] = [];
  const negativeWords: string[] = [];
  const negativePhrases: (string | null)[][] = [];
  let phrase: { words: (string | null)[]; position: number; negative: boolean } | null = null;
  let negateNext = false;

  const closePhrase = () => {
    if (phrase === null) return;
    // leading and trailing holes carry no meaning
    while (phrase.words.length > 0 && phrase.words[0] === null) {
      phrase.words.shift();
      phrase.position++;
    }
    while (phrase.words.length > 0 && phrase.words[phrase.words.length - 1] === null) phrase.words.pop();
    if (phrase.words.length > 0) {
      if (phrase.negative) negativePhrases.push(phrase.words);
      else terms.push({ kind: 'phrase', words: phrase.words, position: phrase.position });
    }
    phrase = null;
  };

  tokens.forEach((token, i) => {
    const next = tokens[i + 1];
    if (token.kind !== 'word') {
      if (token.text.includes('"')) {
        if (phrase !== null) {
          closePhrase();
        } else {
          phrase = { words: [], position: -1, negative: negateNext };
          negateNext = false;
        }
        return;
      }
      if (phrase !== null && token.kind === 'hard') {
        const negative = phrase.negative;
        closePhrase();
        phrase = { words: [], position: -1, negative };
        return;
      }
      negateNext =
        phrase === null &&
        token.text === '-' &&
        (token.start === 0 || WHITESPACE.test(charBefore(token.start))) &&
        next !== undefined &&
        next.start === token.end &&
        (next.kind === 'word' || next.text.includes('"'));
      return;
    }
    if (phrase !== null) {
      if (phrase.position < 0) phrase.position = token.position;
      phrase.words.push(isStop(token.text) ? null : token.normalized);
      return;
    }
    if (negateNext) {
      negateNext = false;
      negativeWords.push(token.normalized);
      return;
    }
    const last = next === undefined;
    if (isStop(token.text) && !last) return;
    terms.push({ kind: 'word', word: token.normalized, position: token.position, prefix: last && token.end === qBytes });
  });
  closePhrase();
  return { terms: terms.slice(0, MAX_TERMS), negativeWords, negativePhrases };
}
