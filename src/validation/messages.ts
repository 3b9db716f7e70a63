/**
 * Meilisearch's deserialization message grammar (deserr `JsonError` / `QueryParamError`,
 * errors.md §5), as pure string builders. Every text a client sees for a malformed body or
 * query string is produced here, so wording changes happen in one place.
 *
 * Locations are already rendered (`.queries[0].indexUid` for JSON, `uids[1]` for query
 * parameters); the empty string is the JSON root, where deserr omits the location.
 */
import { ryu } from '../types/ryu.js';
import { isSentNumber } from './sent-values.js';
import { didYouMean } from './did-you-mean.js';

/** JSON value kinds, in deserr's sort order (it sorts and de-duplicates accepted kinds). */
export type ValueKind =
  | 'null'
  | 'boolean'
  | 'positiveInteger'
  | 'negativeInteger'
  | 'float'
  | 'string'
  | 'array'
  | 'object';

const KIND_ORDER: readonly ValueKind[] = [
  'null',
  'boolean',
  'positiveInteger',
  'negativeInteger',
  'float',
  'string',
  'array',
  'object',
];

const KIND_WORDS: Record<ValueKind, string> = {
  null: 'null',
  boolean: 'a boolean',
  positiveInteger: 'a positive integer',
  negativeInteger: 'a negative integer',
  float: 'a number',
  string: 'a string',
  array: 'an array',
  object: 'an object',
};

/**
 * "a string", "a boolean or a positive integer", "null, a boolean, or a number"...
 * Integer kinds followed by float collapse into "a number", both integer kinds into "an integer".
 */
export function describeKinds(kinds: readonly ValueKind[]): string {
  const sorted = KIND_ORDER.filter((k) => kinds.includes(k));
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const [a, b, c] = [sorted[i], sorted[i + 1], sorted[i + 2]];
    if (a === 'positiveInteger' && b === 'negativeInteger' && c === 'float') {
      parts.push('a number');
      i += 2;
    } else if ((a === 'positiveInteger' || a === 'negativeInteger') && b === 'float') {
      parts.push('a number');
      i += 1;
    } else if (a === 'positiveInteger' && b === 'negativeInteger') {
      parts.push('an integer');
      i += 1;
    } else {
      parts.push(KIND_WORDS[a!]);
    }
  }
  if (parts.length === 0) return 'a different value';
  if (parts.length === 1) return parts[0]!;
  if (parts.length === 2) return `${parts[0]} or ${parts[1]}`;
  return `${parts.slice(0, -1).join(', ')}, or ${parts[parts.length - 1]}`;
}

// serde_json reads integers that fit 64 bits as integers and everything else as floats.
const U64_MAX = 2 ** 64;
const I64_MIN = -(2 ** 63);

/** The kind deserr would see for a value parsed from JSON (a `SentNumber`: from its text, as serde_json reads it). */
export function kindOf(value: unknown): ValueKind {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (isSentNumber(value)) return serdeNumber(value.value).kind;
  if (typeof value === 'bigint') return value < 0n ? 'negativeInteger' : 'positiveInteger';
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return 'float';
    if (value >= 0) return value < U64_MAX ? 'positiveInteger' : 'float';
    return value >= I64_MIN ? 'negativeInteger' : 'float';
  }
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

// an integer of more digits than a u64's twenty is past 64 bits (and BigInt would take long to read it)
const INTEGER_64 = /^-?\d{1,20}$/;

/**
 * A JSON number's text as serde_json reads and prints it: an integer within a u64 or an i64 stays
 * one, digits exact; anything else (a fraction, an exponent, `-0`, an integer past 64 bits) is a
 * float, printed through ryu.
 */
function serdeNumber(text: string): { kind: ValueKind; text: string } {
  if (INTEGER_64.test(text)) {
    const exact = BigInt(text);
    if (exact >= 0n && !text.startsWith('-') && exact < BigInt(U64_MAX)) return { kind: 'positiveInteger', text: exact.toString() };
    if (exact < 0n && exact >= BigInt(I64_MIN)) return { kind: 'negativeInteger', text: exact.toString() };
  }
  return { kind: 'float', text: ryu(Number(text)) };
}

/** Compact JSON as serde_json prints it (`1e21`, not JavaScript's `1e+21`; floats through ryu). */
export function compactJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (isSentNumber(value)) return serdeNumber(value.value).text;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'null';
    return kindOf(value) === 'float' ? ryu(value) : BigInt(value).toString();
  }
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(compactJson).join(',')}]`;
  const members = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => `${JSON.stringify(k)}:${compactJson(v)}`,
  );
  return `{${members.join(',')}}`;
}

/** "a string: `\"x\"`", "an array: `[1]`", or just "null". */
export function describeValue(value: unknown): string {
  const kind = kindOf(value);
  return kind === 'null' ? 'null' : `${KIND_WORDS[kind]}: \`${compactJson(value)}\``;
}

const backticked = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(', ');
const jsonAt = (location: string, article: string): string =>
  location === '' ? '' : ` ${article} \`${location}\``;

// ---- JSON bodies ----------------------------------------------------------------------------

export function invalidTypeMessage(location: string, expected: readonly ValueKind[], value: unknown): string {
  const expectation = `expected ${describeKinds(expected)}, but found ${describeValue(value)}`;
  return `Invalid value type${jsonAt(location, 'at')}: ${expectation}`;
}

export function missingFieldMessage(objectLocation: string, field: string): string {
  return `Missing field \`${field}\`${jsonAt(objectLocation, 'inside')}`;
}

export function unknownFieldMessage(objectLocation: string, field: string, accepted: readonly string[]): string {
  const hint = didYouMean(field, accepted);
  return `Unknown field \`${field}\`${jsonAt(objectLocation, 'inside')}: ${hint}expected one of ${backticked(accepted)}`;
}

/** Meilisearch's `immutable_field_error`: no location and no hint, only the accepted fields. */
export function immutableFieldMessage(field: string, accepted: readonly string[]): string {
  return `Immutable field \`${field}\`: expected one of ${backticked(accepted)}`;
}

export function unknownValueMessage(location: string, value: string, accepted: readonly string[]): string {
  const hint = didYouMean(value, accepted);
  return `Unknown value \`${value}\`${jsonAt(location, 'at')}: ${hint}expected one of ${backticked(accepted)}`;
}

export function invalidValueMessage(location: string, message: string): string {
  return `Invalid value${jsonAt(location, 'at')}: ${message}`;
}

// ---- query strings --------------------------------------------------------------------------

export function unknownParameterMessage(name: string, accepted: readonly string[]): string {
  return `Unknown parameter \`${name}\`: ${didYouMean(name, accepted)}expected one of ${backticked(accepted)}`;
}

export function invalidParameterMessage(location: string, message: string): string {
  return `Invalid value in parameter \`${location}\`: ${message}`;
}

export function unknownParameterValueMessage(location: string, value: string, accepted: readonly string[]): string {
  const hint = didYouMean(value, accepted);
  return `Unknown value \`${value}\` for parameter \`${location}\`: ${hint}expected one of ${backticked(accepted)}`;
}
