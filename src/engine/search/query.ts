/**
 * Query parsing (search.md §7, ranking.md §7.4): `q` → located query terms, negative words and
 * negative phrases. Pure apart from the tokenizer kernel calls.
 *
 * - Words and positions come from the tokenizer (+1 per word, +8 after a hard separator), so a
 *   term's position is comparable with document positions; the index's custom tokens
 *   (separatorTokens, nonSeparatorTokens, dictionary) cut the query exactly as they cut documents.
 * - `"…"` is a phrase (a stop word inside is a one-position hole, `null`, kept at its ends too, as
 *   milli keeps them); a hard separator inside quotes splits the phrase; an unclosed quote runs to
 *   the end; a phrase of stop words only is dropped.
 * - `-word` / `-"phrase"` (the `-` at the start or after whitespace, and directly followed by
 *   the word or quote) are negative: excluded, never terms.
 * - Stop words are dropped unless they are the very last token.
 * - Only the first MAX_TERMS terms count (a phrase is one term): the first token after them ends
 *   the query, negations included; and only the first MAX_TOKENS tokens are read (milli's limits).
 * - The last term is a prefix when it is a word and nothing follows it in `q`.
 *
 * So the work a query causes is bounded whatever its length: `q` is tokenized by growing windows
 * from its start until the terms are decided, tokens of a window counting only while they are not
 * its last one (which a cut may have shortened), and no further than its first MAX_QUERY_BYTES.
 */
import type { CustomTokens } from '../../kernels/custom-tokens.js';
import { Lang } from '../../kernels/languages.js';
import { materializeTokens, tokenizeBatch } from '../../kernels/tokenizer.js';
import { leadingUnits } from '../../types/utf16.js';

const MAX_TERMS = 10;
const MAX_TOKENS = 1000;
/** The first window of `q` tokenized, in bytes; each next one is WINDOW_GROWTH times larger. */
const FIRST_WINDOW = 4096;
const WINDOW_GROWTH = 4;

export interface WordTerm {
  readonly kind: 'word';
  readonly word: string;
  readonly position: number;
  readonly prefix: boolean;
  /** an n-gram (ngrams.ts): the 2 or 3 adjacent query words `word` joins */
  readonly ngram?: readonly string[];
}

export interface PhraseTerm {
  readonly kind: 'phrase';
  /** normalised words; `null` for a stop-word hole (at least one word is not a hole) */
  readonly words: readonly (string | null)[];
  /** the position of its first word that is not a hole (milli's phrase start) */
  readonly position: number;
}

export type QueryTerm = WordTerm | PhraseTerm;

export interface ParsedQuery {
  readonly terms: QueryTerm[];
  readonly negativeWords: string[];
  readonly negativePhrases: (string | null)[][];
}

/** Holes before a phrase's first word. */
function leadingHoles(words: readonly (string | null)[]): number {
  return words.findIndex((word) => word !== null);
}

/** Query words a word term spans: an n-gram's words, else 1. */
export function termWordCount(term: WordTerm): number {
  return term.ngram?.length ?? 1;
}

/** The last query position a term occupies (a phrase's trailing holes included, as milli's). */
export function termEnd(term: QueryTerm): number {
  return term.kind === 'word' ? term.position + termWordCount(term) - 1 : term.position - leadingHoles(term.words) + term.words.length - 1;
}

const WHITESPACE = /\s/u;

/**
 * Bytes of `q` read, Quarry's bound: a longer query is read as if it ended there (a word cut there
 * is its last term, a prefix). Every token up to the MAX_TOKENS-th counts, so a single word or
 * separator run longer than the windows must be tokenized whole: a 50 MB word held the thread
 * answering requests for 2.3 s; a query of real words ends its 10 terms long before.
 */
export const MAX_QUERY_BYTES = 1 << 20;

/** `lang`: the query's languages.ts `Lang` byte (from `locales`, or those of the searched fields). */
export function parseQuery(q: string, stopWords: ReadonlySet<string>, custom?: CustomTokens, lang: number = Lang.Detect): ParsedQuery {
  // a placeholder search: nothing to tokenize (a kernel call and its arena cost ~40 µs per search)
  if (q === '') return { terms: [], negativeWords: [], negativePhrases: [] };
  // as many UTF-16 units hold at least as many bytes
  const read = leadingUnits(q, MAX_QUERY_BYTES);
  const bytes = Buffer.from(read);
  const limit = Math.min(bytes.length, MAX_QUERY_BYTES);
  for (let window = FIRST_WINDOW; ; window *= WINDOW_GROWTH) {
    const whole = window >= limit;
    // a cut at a character start (not a UTF-8 continuation byte)
    let end = whole ? limit : window;
    while ((bytes[end]! & 0xc0) === 0x80) end--;
    const text = end === bytes.length ? read : bytes.subarray(0, end).toString();
    const parsed = parseWindow(text, bytes.subarray(0, end), whole, stopWords, custom, lang);
    if (parsed !== null) return parsed;
  }
}

/** The query read from the window `text` (`bytes`) of `q`; null when a cut window does not decide it. */
function parseWindow(text: string, bytes: Buffer, whole: boolean, stopWords: ReadonlySet<string>, custom: CustomTokens | undefined, lang: number): ParsedQuery | null {
  const tokens = materializeTokens(tokenizeBatch([text], { custom, langs: [lang] }), [text]);
  const count = Math.min(tokens.length, MAX_TOKENS);
  const charBefore = (byte: number): string => (byte === 0 ? '' : bytes.subarray(Math.max(0, byte - 4), byte).toString().slice(-1));
  const isStop = (text: string) => stopWords.size > 0 && stopWords.has(text.normalize('NFKD'));

  const terms: QueryTerm[] = [];
  const negativeWords: string[] = [];
  const negativePhrases: (string | null)[][] = [];
  let phrase: { words: (string | null)[]; position: number; negative: boolean } | null = null;
  let negateNext = false;

  const closePhrase = () => {
    if (phrase === null) return;
    if (phrase.position >= 0) {
      if (phrase.negative) negativePhrases.push(phrase.words);
      else terms.push({ kind: 'phrase', words: phrase.words, position: phrase.position });
    }
    phrase = null;
  };

  for (let i = 0; i < count; i++) {
    if (!whole && i === tokens.length - 1) return null;
    // milli stops at the first token after the last term, leaving an open phrase out
    if (terms.length >= MAX_TERMS) return { terms, negativeWords, negativePhrases };
    const token = tokens[i]!;
    const next = tokens[i + 1];
    if (token.kind !== 'word') {
      if (token.text.includes('"')) {
        if (phrase !== null) {
          closePhrase();
        } else {
          phrase = { words: [], position: -1, negative: negateNext };
          negateNext = false;
        }
        continue;
      }
      if (phrase !== null && token.kind === 'hard') {
        const negative: boolean = phrase.negative;
        closePhrase();
        phrase = { words: [], position: -1, negative };
        continue;
      }
      negateNext =
        phrase === null &&
        token.text === '-' &&
        (token.start === 0 || WHITESPACE.test(charBefore(token.start))) &&
        next !== undefined &&
        next.start === token.end &&
        (next.kind === 'word' || next.text.includes('"'));
      continue;
    }
    if (phrase !== null) {
      const stop = isStop(token.text);
      if (phrase.position < 0 && !stop) phrase.position = token.position;
      phrase.words.push(stop ? null : token.normalized);
      continue;
    }
    if (negateNext) {
      negateNext = false;
      negativeWords.push(token.normalized);
      continue;
    }
    // the MAX_TOKENS-th token is the last one milli reads
    const last = i === count - 1;
    if (isStop(token.text) && !last) continue;
    terms.push({ kind: 'word', word: token.normalized, position: token.position, prefix: last && (token.end === bytes.length || i === MAX_TOKENS - 1) });
  }
  if (!whole && count < MAX_TOKENS) return null;
  closePhrase();
  return { terms, negativeWords, negativePhrases };
}
