/**
 * Values: the field names and operands of conditions (`word`, 'single quoted', "double quoted"),
 * and the dot-separated parts of `_vectors.<embedder>.fragments.<name>`. Internal to the parser.
 *
 * A value:
 * - skips leading Unicode whitespace, and trailing spaces/tabs/newlines after it;
 * - fails at once (a `failure`) when it is a geo construct: `_geoPoint…`, `_geoDistance…`, the
 *   word `_geo` (reserved names), or the words `_geoRadius` / `_geoBoundingBox` (operations, not
 *   values) — so `_geo = x` and `x = _geoRadius(1, 2, 3)` get their dedicated messages;
 * - as a word, must not be a reserved keyword (they must be quoted to be used as names or values);
 * - in quotes, may contain anything; `\<quote>` stands for the quote character; a lone backslash
 *   before the end of the input is "Malformed value";
 * - is then decoded by `unescapeValue` (quoted or not).
 */
import type { Token } from './ast.js';
import type { ErrorKind } from './error-kinds.js';
import { unescapeValue } from './unescape.js';
import type { Res, Scan } from './scan.js';

/** Upper-case only: `and`/`or` are ordinary words. */
const KEYWORDS = new Set(['AND', 'OR', 'IN', 'NOT', 'TO', 'EXISTS', 'IS', 'NULL', 'EMPTY', 'CONTAINS', 'STARTS', 'WITH']);

/** `value = WS* ( word | singleQuoted | doubleQuoted ) WS*` */
export function parseValue(s: Scan, pos: number): Res<Token> {
  const start = s.unicodeSpaces(pos);

  const misuse = geoMisuse(s, start);
  if (misuse !== null) return s.failure(misuse, start);

  const quote = s.input[start];
  let raw: Res<Token>;
  if (quote === "'" || quote === '"') {
    raw = quoted(s, start, quote);
    // An unclosed quote is reported on the whole value, opening quote included.
    if (!raw.ok && raw.kind.kind === 'unclosedQuote') {
      return s.failure({ kind: 'missingClosingDelimiter', delimiter: quote }, start);
    }
  } else {
    const end = s.wordEnd(start);
    if (end === start) return s.error({ kind: 'expectedValue', reservedKeyword: false }, start, 'word');
    if (KEYWORDS.has(s.input.slice(start, end))) {
      return s.error({ kind: 'expectedValue', reservedKeyword: true }, start, 'word');
    }
    raw = s.ok(end, s.token(start, end));
  }
  if (!raw.ok) return raw;
  return decoded(s, s.spaces(raw.pos), raw.value);
}

/** The dotted parts of a `_vectors` filter: no whitespace handling and no dots in bare words. */
export function parseDottedValuePart(s: Scan, pos: number): Res<Token> {
  const quote = s.input[pos];
  let raw: Res<Token>;
  if (quote === "'" || quote === '"') {
    raw = quoted(s, pos, quote);
  } else {
    const end = s.nonDotWordEnd(pos);
    raw = end === pos ? s.mismatch(pos) : s.ok(end, s.token(pos, end));
  }
  if (!raw.ok) return raw;
  return decoded(s, raw.pos, raw.value);
}

/** A dotted part that must be there: any problem is a `failure` of `kind`, on the rest of the input. */
export function parseDottedValueCut(s: Scan, pos: number, kind: ErrorKind): Res<Token> {
  const part = parseDottedValuePart(s, pos);
  if (part.ok) return part;
  return s.failure(part.kind.kind === 'unclosedQuote' ? { kind: 'vectorFilterInvalidQuotes' } : kind, pos);
}

/** The reserved-geo or misused-geo error when a value starts with a geo construct. */
function geoMisuse(s: Scan, pos: number): ErrorKind | null {
  // `_geoPoint` and `_geoDistance` are plain prefixes in Meilisearch (`_geoPointer` is rejected too).
  if (s.at(pos, '_geoPoint')) return { kind: 'reservedGeo', name: '_geoPoint' };
  if (s.at(pos, '_geoDistance')) return { kind: 'reservedGeo', name: '_geoDistance' };
  if (s.isWord(pos, '_geo')) return { kind: 'reservedGeo', name: '_geo' };
  if (s.isWord(pos, '_geoRadius')) return { kind: 'misusedGeoRadius' };
  if (s.isWord(pos, '_geoBoundingBox')) return { kind: 'misusedGeoBoundingBox' };
  return null;
}

/**
 * The quoted text starting at the opening quote at `pos`. The token's span is the text between
 * the quotes; `\<quote>` is replaced by the quote, other escapes are left for `unescapeValue`.
 */
function quoted(s: Scan, pos: number, quote: string): Res<Token> {
  const { input } = s;
  const contentStart = pos + 1;
  let hasEscapedQuote = false;
  let i = contentStart;
  while (i < input.length && input[i] !== quote) {
    if (input[i] === '\\') {
      // Meilisearch reports the whole rest of the input, from after the opening quote.
      if (i + 1 >= input.length) return s.failure({ kind: 'malformedValue' }, contentStart);
      if (input[i + 1] === quote) hasEscapedQuote = true;
      i += 1 + charLength(input, i + 1);
    } else {
      i += charLength(input, i);
    }
  }
  if (i >= input.length) return s.failure({ kind: 'unclosedQuote', quote }, i);
  const text = input.slice(contentStart, i);
  const value = hasEscapedQuote ? text.split(`\\${quote}`).join(quote) : text;
  return s.ok(i + 1, s.token(contentStart, i, value));
}

/** Applies `unescapeValue` to a parsed token. */
function decoded(s: Scan, pos: number, token: Token): Res<Token> {
  const result = unescapeValue(token.value);
  if (result.ok) return s.ok(pos, result.value === token.value ? token : { ...token, value: result.value });
  if (result.reason === 'incomplete') return s.incomplete();
  // Recoverable errors, like Meilisearch's, located on the raw token.
  const kind: ErrorKind = result.reason === 'number' ? { kind: 'invalidEscapedNumber' } : { kind: 'malformedValue' };
  return s.error(kind, token.span.start, token.span.end);
}

/** UTF-16 length of the character at `i` (2 for a surrogate pair). */
function charLength(input: string, i: number): number {
  const unit = input.charCodeAt(i);
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < input.length) {
    const next = input.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return 2;
  }
  return 1;
}
