/**
 * Filter syntax errors: their exact Meilisearch wording (per kind, error-kinds.ts) and the
 * `line:col` locator.
 *
 * Callers: the parser (every syntax error), and later stages (facet evaluator, feature gates)
 * that report a problem on a token with `formatFilterError(description, token.span)`.
 *
 * Message format (Meilisearch `filter-parser/src/error.rs`), two lines:
 *   `<description>\n<start>:<end> <echo>`
 * `<start>` is the 1-based column, in characters (code points), of the fragment's first character
 * on its line; `<end>` = `<start>` + the fragment's length in characters. `<echo>` is the filter
 * string (see `Span.echo`). Inside the description a fragment is printed with Rust's
 * `str::escape_debug` (quotes and backslashes escaped, `\n`, `\u{a0}`, …).
 */
import type { Span } from './ast.js';
import type { ErrorKind, VectorFilterPart } from './error-kinds.js';
import { osaWithin } from '../../types/edit-distance.js';
import { ConditionBudget, errorWordEnd, type Fail } from './scan.js';

/** A filter string that does not parse. `message` is Meilisearch's full two-line message. */
export class FilterParseError extends Error {
  /** The first line of the message. */
  readonly description: string;
  readonly span: Span;

  constructor(description: string, span: Span) {
    super(formatFilterError(description, span));
    this.name = 'FilterParseError';
    this.description = description;
    this.span = span;
  }
}

/** `<description>\n<start>:<end> <echo>`, the format of every located filter error. */
export function formatFilterError(description: string, span: Span): string {
  const { input, start, end } = span;
  // Columns restart after each newline (nom_locate's `get_utf8_column`).
  const lineStart = start === 0 ? 0 : input.lastIndexOf('\n', start - 1) + 1;
  const column = codePointCount(input, lineStart, start) + 1;
  return `${description}\n${column}:${column + codePointCount(input, start, end)} ${span.echo}`;
}

/** Builds the error a failed parse reports. */
export function toParseError(fail: Fail): FilterParseError {
  const { scan, start } = fail;
  if (fail.kind.kind === 'incomplete') {
    // Meilisearch reports this one on the whole filter, whatever nesting it came from.
    const whole: Span = { input: scan.input, start: 0, end: scan.input.length, echo: scan.input };
    return new FilterParseError(describe(fail.kind, whole.input), whole);
  }
  const end =
    fail.end === 'rest' ? scan.input.length : fail.end === 'word' ? errorWordEnd(scan.input, start) : fail.end;
  const span: Span = { input: scan.input, start, end, echo: scan.echo };
  return new FilterParseError(describe(fail.kind, scan.input.slice(start, end)), span);
}

const OPERATIONS =
  'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, ' +
  '`IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, ' +
  '`NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon`';
const GEO_BUILTINS =
  'Use the `_geoRadius(latitude, longitude, distance)` or `_geoBoundingBox([latitude, longitude], ' +
  '[latitude, longitude])` built-in rules to filter on `_geo` coordinates.';
const VECTOR_PARTS: readonly VectorFilterPart[] = ['fragments', 'userProvided', 'documentTemplate', 'regenerate'];

function describe(kind: ErrorKind, fragment: string): string {
  const e = escapeDebug(fragment);
  const blank = isBlank(fragment);
  switch (kind.kind) {
    case 'expectedValue':
      if (blank) return 'Was expecting a value but instead got nothing.';
      return kind.reservedKeyword
        ? `Was expecting a value but instead got \`${e}\`, which is a reserved keyword. To use \`${e}\` as a field name or a value, surround it by quotes.`
        : `Was expecting a value but instead got \`${e}\`.`;
    case 'malformedValue':
      return `Malformed value: \`${e}\`.`;
    case 'missingClosingDelimiter':
      return `Expression \`${e}\` is missing the following closing delimiter: \`${kind.delimiter}\`.`;
    case 'invalidPrimary':
      return blank ? `${OPERATIONS} but instead got nothing.` : `${OPERATIONS} at \`${e}\`.`;
    case 'invalidEscapedNumber':
      return `Found an invalid escaped sequence number: \`${e}\`.`;
    case 'expectedEof':
      return `Found unexpected characters at the end of the filter: \`${e}\`. You probably forgot an \`OR\` or an \`AND\` rule.`;
    case 'geoRadius':
      return 'The `_geoRadius` filter must be in the form: `_geoRadius(latitude, longitude, radius, optionalResolution)`.';
    case 'geoRadiusArgumentCount':
      return `Was expecting 3 or 4 arguments for \`_geoRadius\`, but instead found ${kind.count}.`;
    case 'geoBoundingBox':
      return 'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.';
    case 'geoPolygon':
      return "The `_geoPolygon` filter doesn't match the expected format: `_geoPolygon([latitude, longitude], [latitude, longitude])`.";
    case 'geoPolygonNotEnoughPoints':
      return `The \`_geoPolygon\` filter expects at least 3 points but only ${kind.count} were specified`;
    case 'geoCoordinatesNotPair':
      return `Was expecting 2 coordinates but instead found ${kind.count}.`;
    case 'reservedGeo':
      return `\`${kind.name}\` is a reserved keyword and thus can't be used as a filter expression. ${GEO_BUILTINS}`;
    case 'misusedGeoRadius':
      return "The `_geoRadius` filter is an operation and can't be used as a value.";
    case 'misusedGeoBoundingBox':
      return "The `_geoBoundingBox` filter is an operation and can't be used as a value.";
    case 'vectorFilterLeftover':
      return 'The vector filter has leftover tokens.';
    case 'vectorFilterInvalidQuotes':
      return 'The quotes in one of the values are inconsistent.';
    case 'vectorFilterMissingEmbedder':
      return 'Was expecting embedder name but found nothing.';
    case 'vectorFilterInvalidEmbedder':
      return "The vector filter's embedder name is invalid.";
    case 'vectorFilterMissingFragment':
      return 'The vector filter is missing a fragment name.';
    case 'vectorFilterInvalidFragment':
      return "The vector filter's fragment name is invalid.";
    case 'vectorFilterUnknownSuffix':
      return describeVectorSuffix(kind.previous, kind.value);
    case 'vectorFilterOperation':
      return 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.';
    case 'inOpeningBracket':
      return 'Expected `[` after `IN` keyword.';
    case 'inClosingBracket':
      return 'Expected matching `]` after the list of field names given to `IN[`';
    case 'inExpectedValue':
      // Meilisearch also has a "which is a keyword" variant, but its check can never match.
      return `Expected only comma-separated field names inside \`IN[..]\` but instead found \`${e}\`.`;
    case 'depthLimitReached':
      return 'The filter exceeded the maximum depth limit. Try rewriting the filter so that it contains fewer nested conditions.';
    case 'tooManyConditions':
      return `The filter exceeded the maximum of ${ConditionBudget.MAX} conditions and \`IN\` values. Try rewriting the filter so that it contains fewer conditions.`;
    case 'foreign':
      return `Was expecting a field name and an condition inside \`_foreign(..)\` filter but instead found \`${e}\`.`;
    case 'incomplete':
      return 'The filter is incomplete and requires Unknown additional bytes to be parsed.';
    case 'mismatch':
    case 'unclosedQuote':
      // Internal kinds are always converted first; this is Meilisearch's own fallback text.
      return `Encountered an internal \`${kind.kind}\` error while parsing your filter. Please fill an issue`;
  }
}

function describeVectorSuffix(previous: VectorFilterPart | null, value: string): string {
  if (value === '.') {
    return 'Was expecting one of `.fragments`, `.userProvided`, `.documentTemplate`, `.regenerate` or nothing, but instead found a point without a valid value.';
  }
  if (previous !== null) {
    return `Vector filter can only accept one of \`fragments\`, \`userProvided\`, \`documentTemplate\` or \`regenerate\`, but found both \`${previous}\` and \`${value}\`.`;
  }
  // A known part can only get here quoted, e.g. `_vectors.rest."userProvided"`.
  if ((VECTOR_PARTS as readonly string[]).includes(value)) return 'Was expecting this part to be unquoted.';
  const base = `Was expecting one of \`fragments\`, \`userProvided\`, \`documentTemplate\`, \`regenerate\` or nothing, but instead found \`${value}\`.`;
  const suggestion = VECTOR_PARTS.find((part) => osaWithin(value, part, 2));
  return suggestion === undefined ? base : `${base} Did you mean \`${suggestion}\`?`;
}

/** Rust `str::trim().is_empty()`: only Unicode White_Space characters. */
export function isBlank(text: string): boolean {
  return /^\p{White_Space}*$/u.test(text);
}

// Rust's `is_printable` is false for these categories, except for the plain space.
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;
const GRAPHEME_EXTEND = /^\p{Grapheme_Extend}$/u;

// Printable ASCII that escape_debug leaves alone (all but `"`, `'` and `\`).
const PLAIN_ASCII = /^[\x20\x21\x23-\x26\x28-\x5b\x5d-\x7e]*$/;

/** Rust's `str::escape_debug`. */
export function escapeDebug(text: string): string {
  // The fragment of an error can be the rest of a filter of megabytes: skip the per-character walk.
  if (PLAIN_ASCII.test(text)) return text;
  let out = '';
  let first = true;
  for (const char of text) {
    switch (char) {
      case '\0':
        out += '\\0';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\\':
      case '"':
      case "'":
        out += `\\${char}`;
        break;
      default:
        // Only the first character is escaped for being a combining mark (it has nothing to attach to).
        if ((char !== ' ' && NOT_PRINTABLE.test(char)) || (first && GRAPHEME_EXTEND.test(char))) {
          out += `\\u{${char.codePointAt(0)!.toString(16)}}`;
        } else {
          out += char;
        }
    }
    first = false;
  }
  return out;
}

function codePointCount(text: string, start: number, end: number): number {
  let count = 0;
  for (let i = start; i < end; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}
