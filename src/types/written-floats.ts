/**
 * The numbers a JSON text wrote as floats, marked on the values parsed from it (wire-floats.ts),
 * so that Quarry writes them back as v1.50 does. v1.50 keeps a document's fields as JSON and reads
 * them with serde_json, which holds `9.0`, `1e3`, `-0` and an integer past 64 bits as f64 and
 * writes them `9.0`, `1000.0`, `-0.0`, `1.8446744073709552e19`; JavaScript reads all of them as
 * numbers and writes `9`, `1000`, `0`, `18446744073709552000`. Only a float that ryu writes
 * otherwise than JavaScript is marked (an integral value, or one below 1e-5): `7.5` needs nothing.
 *
 * Cheap for most texts: a scan finds the texts whose numbers may be such a number (`9.0`, an
 * exponent, `0.00000…`, `-0`, 20 digits), stepping over strings at `indexOf`'s speed and reading
 * each number once;
 * only those texts are read again, token by token, beside the parsed value. (The pattern run over
 * the whole text read every character of every string: 0.12 s of a 40 MB value's decoding, and it
 * matched 4 in 10 debdocs documents, by version numbers in their text, whose walk then found
 * nothing; bench/RESULTS.md 2026-12-06.)
 * A text whose structure the walk cannot follow (an object holding a key twice, whose earlier
 * value JSON.parse dropped) is left unmarked: its numbers write as JavaScript writes them.
 */
import { parseJson } from './json-text.js';
import { withFloatMember, writtenOtherwise } from './wire-floats.js';

const I64_MIN = -(2n ** 63n);
const U64_MAX = 2n ** 64n - 1n;

/** The walk met what it cannot follow: the text stays unmarked. */
class Unfollowed extends Error {}

/** Nesting the walk follows (serde_json's own limit for documents is 128; dumps and edits are checked alike). */
const MAX_DEPTH = 512;

/** `text` parsed as `parseJson` parses it, the numbers it wrote as floats marked. */
export function parseWithFloats(text: string): unknown {
  const value = parseJson(text);
  markWrittenFloats(text, value);
  return value;
}

/** Marks in `value` (JSON.parse's or parseJson's value of `text`) the numbers `text` wrote as floats. */
export function markWrittenFloats(text: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || !numbersMayHold(text)) return;
  const walk = new Walk(text);
  try {
    walk.value(skipSpace(text, 0), value, null, '', 0);
  } catch (err) {
    if (!(err instanceof Unfollowed)) throw err;
    return;
  }
  // marked once the whole text is followed: a walk given up leaves nothing marked
  for (const [holder, member] of walk.floats) withFloatMember(holder, member);
}

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** A character of a JSON number after its first: a digit, a sign, a point or an exponent. */
function numberChar(c: number): boolean {
  return isDigit(c) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

/**
 * Where the number token starting at `at` ends, or -1 when it may be a float ryu writes otherwise
 * (the walk tells): when it matches `\d\.0+(?!\d)|\d[eE][+-]?\d|0\.00000\d|-0(?![\d.eE])|\d{20}`
 * (`9.0`, an exponent, `0.00000…`, `-0`, 20 digits). Read in one pass, a run of digits at a
 * time, without a regular expression or a slice: an embedding's hundreds of numbers per document made those twice the
 * cost of the whole text's pattern. A read past the token meets a character no number holds (or
 * NaN past the text), as the pattern's look-ahead would.
 */
export function numberEnd(text: string, at: number): number {
  for (let i = at; ; ) {
    let c = text.charCodeAt(i);
    if (isDigit(c)) {
      // a run of digits, then what follows it: the patterns need a digit before a point or an exponent
      const run = i;
      do c = text.charCodeAt(++i);
      while (isDigit(c));
      if (i - run >= 20) return -1;
      if (c === 0x2e) {
        let zeros = i + 1;
        while (text.charCodeAt(zeros) === 0x30) zeros++;
        // a digit, a point and zeros, not followed by a digit; or 0.00000 and a digit
        if (zeros > i + 1 && !isDigit(text.charCodeAt(zeros))) return -1;
        if (text.charCodeAt(i - 1) === 0x30 && zeros - (i + 1) >= 5) return -1;
        i++;
        continue;
      }
      if (c === 0x65 || c === 0x45) {
        const sign = text.charCodeAt(i + 1);
        if (isDigit(text.charCodeAt(sign === 0x2b || sign === 0x2d ? i + 2 : i + 1))) return -1;
        i++;
        continue;
      }
    }
    if (c === 0x2d) {
      // -0 not followed by a digit, a point or an exponent
      if (text.charCodeAt(i + 1) === 0x30) {
        const next = text.charCodeAt(i + 2);
        if (!isDigit(next) && next !== 0x2e && next !== 0x65 && next !== 0x45) return -1;
      }
    } else if (c !== 0x2b && c !== 0x2e && c !== 0x65 && c !== 0x45) {
      return i;
    }
    i++;
  }
}

/**
 * Whether a number of `text` (valid JSON), outside its strings, may be such a float
 * (`numberEnd`). A text whose strings do not end (never valid JSON) is left to the walk.
 */
function numbersMayHold(text: string): boolean {
  for (let at = 0; at < text.length; ) {
    const c = text.charCodeAt(at);
    if (c === 0x22) {
      const end = closingQuote(text, at);
      if (end === -1) return true;
      at = end;
    } else if (c === 0x2d || isDigit(c)) {
      const end = numberEnd(text, at);
      if (end === -1) return true;
      at = end;
    } else {
      at++;
    }
  }
  return false;
}

/** Whether a number's text is one serde_json reads as an f64. */
function floatText(token: string): boolean {
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c === 0x2e || c === 0x65 || c === 0x45) return true;
  }
  if (token === '-0') return true;
  if (token.length < 19) return false;
  const integer = BigInt(token);
  return integer < I64_MIN || integer > U64_MAX;
}

function skipSpace(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return at;
    at++;
  }
}

/** Where the string starting at `at` (its opening quote) ends, past its closing quote; -1 when it does not. */
function closingQuote(text: string, at: number): number {
  for (let i = at + 1; ; ) {
    const quote = text.indexOf('"', i);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    i = quote + 1;
  }
}

/** `closingQuote` for the walk, which gives up on a string that does not end. */
function stringEnd(text: string, at: number): number {
  const end = closingQuote(text, at);
  if (end === -1) throw new Unfollowed();
  return end;
}

class Walk {
  /** the holders and members of the floats to mark */
  readonly floats: [object, string | number][] = [];

  constructor(private readonly text: string) {}

  /**
   * Reads the value at `at`, which parsed as `parsed`, held by `holder` under `member` (null at
   * the top); returns where it ends.
   */
  value(at: number, parsed: unknown, holder: object | null, member: string | number, depth: number): number {
    const { text } = this;
    const c = text.charCodeAt(at);
    if (c === 0x7b) return this.object(at, parsed, depth);
    if (c === 0x5b) return this.array(at, parsed, depth);
    if (c === 0x22) return stringEnd(text, at);
    let end = at;
    for (;;) {
      const d = text.charCodeAt(end);
      // letters of true, false and null; digits, signs, points and exponents of numbers
      if (numberChar(d) || (d >= 0x61 && d <= 0x7a)) end++;
      else break;
    }
    if (end === at) throw new Unfollowed();
    if (holder !== null && (c === 0x2d || (c >= 0x30 && c <= 0x39)) && writtenOtherwise(parsed) && floatText(text.slice(at, end))) this.floats.push([holder, member]);
    return end;
  }

  private object(at: number, parsed: unknown, depth: number): number {
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || depth >= MAX_DEPTH) throw new Unfollowed();
    const { text } = this;
    const seen = new Set<string>();
    at = skipSpace(text, at + 1);
    if (text.charCodeAt(at) === 0x7d) return at + 1;
    for (;;) {
      const keyEnd = stringEnd(text, at);
      const raw = text.slice(at + 1, keyEnd - 1);
      const key = raw.includes('\\') ? (JSON.parse(text.slice(at, keyEnd)) as string) : raw;
      // JSON.parse keeps a repeated key's last value: the walk could mark the dropped one's numbers
      if (seen.has(key)) throw new Unfollowed();
      seen.add(key);
      at = skipSpace(text, keyEnd);
      if (text.charCodeAt(at) !== 0x3a) throw new Unfollowed();
      at = skipSpace(text, at + 1);
      at = skipSpace(text, this.value(at, (parsed as Record<string, unknown>)[key], parsed, key, depth + 1));
      const next = text.charCodeAt(at);
      if (next === 0x7d) return at + 1;
      if (next !== 0x2c) throw new Unfollowed();
      at = skipSpace(text, at + 1);
    }
  }

  private array(at: number, parsed: unknown, depth: number): number {
    if (!Array.isArray(parsed) || depth >= MAX_DEPTH) throw new Unfollowed();
    const { text } = this;
    at = skipSpace(text, at + 1);
    if (text.charCodeAt(at) === 0x5d) return at + 1;
    for (let index = 0; ; index++) {
      at = skipSpace(text, this.value(at, parsed[index], parsed, index, depth + 1));
      const next = text.charCodeAt(at);
      if (next === 0x5d) return at + 1;
      if (next !== 0x2c) throw new Unfollowed();
      at = skipSpace(text, at + 1);
    }
  }
}
