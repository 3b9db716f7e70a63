/**
 * JSON text ↔ values without losing 64-bit integers. Meilisearch keeps an integer that fits an
 * i64 or a u64 exact (a document id such as 14630868576586246730 comes back as sent); JSON.parse
 * would round it to a double, so two ids could collide. Such integers become BigInt here, and
 * come back out as their digits. Everything else reads and prints as JSON.parse and
 * JSON.stringify do. `isJsonObject` is the one test for an object among parsed values.
 */
import { parse as parseLossless } from 'lossless-json';

const INTEGER = /^-?\d+$/;
const I64_MIN = -(2n ** 63n);
const U64_MAX = 2n ** 64n - 1n;

/** A JSON number's value: a BigInt for an integer beyond 2^53 within 64 bits, else a double as serde_json reads it. */
function numberOf(text: string): number | bigint {
  const value = Number(text);
  if (Number.isSafeInteger(value) || !INTEGER.test(text)) return value;
  const exact = BigInt(text);
  return exact >= I64_MIN && exact <= U64_MAX ? exact : value;
}

// JSON.parse keeps the last of duplicate keys (at the first one's place); so does this
const lastValue = ({ newValue }: { newValue: unknown }): unknown => newValue;

/** Whether a parsed value holds a number beyond 2^53, which its text may have written more exactly. */
function holdsUnsafeNumber(value: unknown): boolean {
  if (typeof value === 'number') return value > Number.MAX_SAFE_INTEGER || value < -Number.MAX_SAFE_INTEGER;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (holdsUnsafeNumber(item)) return true;
    return false;
  }
  for (const key in value) if (holdsUnsafeNumber((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** Whether a parsed value is a JSON number: a double, or a BigInt parseJson made of a 64-bit integer. */
export function isJsonNumber(value: unknown): value is number | bigint {
  return typeof value === 'number' || typeof value === 'bigint';
}

/** Parses valid JSON text as JSON.parse does, except that integers beyond 2^53 within 64 bits become BigInt. */
export function parseJson(text: string): unknown {
  // JSON.parse and a walk cost a fraction of the lossless parser, which only rare documents need
  const value: unknown = JSON.parse(text);
  return holdsUnsafeNumber(value) ? parseLossless(text, null, { parseNumber: numberOf, onDuplicateKey: lastValue }) : value;
}

/** Whether a value holds a BigInt (an integer `parseJson` kept exact). */
function holdsBigInt(value: unknown): boolean {
  if (typeof value === 'bigint') return true;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsBigInt);
  for (const key in value) if (holdsBigInt((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * `value` as JSON.parse reads its JSON text: its BigInts as the nearest doubles. For values that
 * are numbers to their users but come back from JSON text `parseJson` read (a settings update in
 * its task record: a `maxTotalHits` of 2^60 reached searches as a BigInt, which `Math.min` throws
 * on); the value itself when it holds none.
 */
export function withoutBigInts<T>(value: T): T {
  return holdsBigInt(value) ? (JSON.parse(stringifyJson(value)) as T) : value;
}

/** A JSON number as its text wrote it (`parseWritten`). */
export class WrittenNumber {
  constructor(readonly text: string) {}
}

/**
 * Parses valid JSON text keeping each number as written (a WrittenNumber): `1.0` and `1` read
 * alike otherwise. Slow (lossless-json): for the rare check that needs how a number was written.
 */
export function parseWritten(text: string): unknown {
  return parseLossless(text, null, { parseNumber: (written: string) => new WrittenNumber(written), onDuplicateKey: lastValue });
}

/** What a BigInt stands as while `stringifyJson` writes it: a NUL and random bytes, which no string holds by chance. */
const BIGINT = `\u0000${Array.from(globalThis.crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('')}n`;
/** The marker as JSON writes it (its NUL escaped), with the digits after it. */
const BIGINT_WRITTEN = new RegExp(`"${JSON.stringify(BIGINT).slice(1, -1).replaceAll('\\', '\\\\')}(-?\\d+)"`, 'g');
const bigintAsMarker = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${BIGINT}${value}` : value);

/** JSON.stringify, except that BigInt values print as their digits instead of throwing. */
export function stringifyJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    // only a value holding a BigInt takes the slower path: JSON.stringify again, each BigInt
    // standing as a marker (after any `toJSON`, which lossless-json's printer skipped for arrays)
    if (!(err instanceof TypeError) || !err.message.includes('BigInt')) throw err;
    return JSON.stringify(value, bigintAsMarker).replace(BIGINT_WRITTEN, (_, digits: string) => digits);
  }
}

/** Whether a parsed JSON value is an object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
