/**
 * Cursor primitives and the result type shared by the grammar modules (value, geo, vectors,
 * parser). Internal to the filter parser.
 *
 * The grammar is a port of Meilisearch's nom combinators, so results keep nom's three outcomes,
 * because error messages depend on them:
 * - `error`: this alternative does not apply; the caller may try the next one (backtrack);
 * - `failure`: the input committed to this construct and is wrong; stop and report;
 * - `incomplete`: an escape sequence ran off the end of a value; reported on the whole input.
 * Errors carry offsets only; the fragment and message are built once, if the error surfaces, so
 * backtracking over long filters stays linear.
 *
 * Character classes are Rust's, per code point: `char::is_whitespace` (Unicode White_Space) where
 * Meilisearch strips whitespace before a value, and nom's `multispace` (only space, tab, CR, LF)
 * everywhere else.
 */
import type { Token } from './ast.js';
import type { ErrorKind } from './error-kinds.js';

export type Mode = 'error' | 'failure' | 'incomplete';

/** Where an error's fragment ends: an offset, the end of the input, or the end of the word there. */
export type FragmentEnd = number | 'rest' | 'word';

export interface Ok<T> {
  readonly ok: true;
  readonly pos: number;
  readonly value: T;
}

export interface Fail {
  readonly ok: false;
  readonly mode: Mode;
  readonly kind: ErrorKind;
  readonly scan: Scan;
  readonly start: number;
  readonly end: FragmentEnd;
}

export type Res<T> = Ok<T> | Fail;

// Sticky regexes: matched at an offset without slicing the input.
const ASCII_SPACES = /[ \t\r\n]*/y;
const UNICODE_SPACES = /\p{White_Space}*/uy;
// `char::is_alphanumeric` is Alphabetic or a numeric general category (Nd, Nl, No).
const WORD = /[\p{Alphabetic}\p{N}_.-]*/uy;
const NON_DOT_WORD = /[\p{Alphabetic}\p{N}_-]*/uy;
// What Meilisearch shows when a value is missing: everything up to whitespace or `()=<>!`.
const ERROR_WORD = /[^\p{White_Space}()=<>!]*/uy;

function stickyEnd(re: RegExp, input: string, pos: number): number {
  re.lastIndex = pos;
  re.test(input);
  return re.lastIndex;
}

/** End of the "error word" starting at `pos` (never before `pos`). */
export function errorWordEnd(input: string, pos: number): number {
  return stickyEnd(ERROR_WORD, input, pos);
}

/**
 * How many more conditions and `IN` values one filter may hold (shared by the strings of the
 * array form). Quarry's own bound, not Meilisearch's: parsing a filter runs on the thread that
 * answers requests, and this bound keeps its parse to milliseconds (what evaluating the
 * conditions reads is bounded apart, engine/filter/work.ts).
 */
export class ConditionBudget {
  static readonly MAX = 10_000;
  remaining = ConditionBudget.MAX;

  /** Takes `count` from the budget; false once it is spent. */
  take(count: number): boolean {
    this.remaining -= count;
    return this.remaining >= 0;
  }
}

/** The input being parsed and the text error messages echo (see `Span.echo`). */
export class Scan {
  constructor(
    readonly input: string,
    readonly echo: string,
    readonly budget: ConditionBudget = new ConditionBudget(),
  ) {}

  /** Same input, different echo: used inside `_foreign(...)`. */
  withEcho(echo: string): Scan {
    return new Scan(this.input, echo, this.budget);
  }

  ok<T>(pos: number, value: T): Ok<T> {
    return { ok: true, pos, value };
  }

  error(kind: ErrorKind, start: number, end: FragmentEnd = 'rest'): Fail {
    return { ok: false, mode: 'error', kind, scan: this, start, end };
  }

  failure(kind: ErrorKind, start: number, end: FragmentEnd = 'rest'): Fail {
    return { ok: false, mode: 'failure', kind, scan: this, start, end };
  }

  incomplete(): Fail {
    return { ok: false, mode: 'incomplete', kind: { kind: 'incomplete' }, scan: this, start: 0, end: 'rest' };
  }

  /** A nom `tag`/`char` mismatch: never shown, always replaced by a caller's error. */
  mismatch(pos: number): Fail {
    return this.error({ kind: 'mismatch' }, pos);
  }

  token(start: number, end: number, value: string = this.input.slice(start, end)): Token {
    return { value, span: { input: this.input, start, end, echo: this.echo } };
  }

  at(pos: number, text: string): boolean {
    return this.input.startsWith(text, pos);
  }

  /** nom `multispace0`. */
  spaces(pos: number): number {
    return stickyEnd(ASCII_SPACES, this.input, pos);
  }

  /** nom `multispace1`: the offset after the spaces, or -1 when there is none. */
  spaces1(pos: number): number {
    const end = this.spaces(pos);
    return end > pos ? end : -1;
  }

  unicodeSpaces(pos: number): number {
    return stickyEnd(UNICODE_SPACES, this.input, pos);
  }

  /** End of the run of word characters (alphanumeric, `_`, `-`, `.`) at `pos`. */
  wordEnd(pos: number): number {
    return stickyEnd(WORD, this.input, pos);
  }

  nonDotWordEnd(pos: number): number {
    return stickyEnd(NON_DOT_WORD, this.input, pos);
  }

  /** Meilisearch's `word_exact`: the whole word at `pos` is `word` (so `ORdog` is not `OR`). */
  isWord(pos: number, word: string): boolean {
    return this.at(pos, word) && this.wordEnd(pos) === pos + word.length;
  }

  /** `ws(word_exact(word))`: the offset after the word and the spaces around it, or -1. */
  spacedWord(pos: number, word: string): number {
    const start = this.spaces(pos);
    return this.isWord(start, word) ? this.spaces(start + word.length) : -1;
  }
}

/** True for a backtrackable `error` (the next alternative may be tried). */
export function isSoft<T>(result: Res<T>): result is Fail {
  return !result.ok && result.mode === 'error';
}

/** nom `cut`: an `error` becomes a `failure`; failures and incompletes pass unchanged. */
export function cut(fail: Fail): Fail {
  return fail.mode === 'error' ? { ...fail, mode: 'failure' } : fail;
}

/** Meilisearch's `map_cut`: any error becomes a `failure` of `kind`, keeping the fragment. */
export function cutAs(fail: Fail, kind: ErrorKind): Fail {
  return fail.mode === 'incomplete' ? fail : { ...fail, mode: 'failure', kind };
}
