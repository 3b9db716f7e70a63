/**
 * The serializer of what v1.50 writes with serde: HTTP answers, dumps, exports and stored
 * documents written again. JSON text as `stringifyJson` writes it (64-bit integers), in which
 * some values write what JSON.stringify cannot: a record whose keys keep the order they were given
 * (ordered-counts.ts), floats as Rust writes them (wire-floats.ts). Such a value carries a
 * `toJSON` (not enumerable) that, while `stringifyReply` runs, hands its text over through
 * `written` and stands in the JSON as a marker string, replaced by that text at the end; any other
 * serialization (and any copy) sees the plain value, so the library's answers stay plain values.
 */
import { stringifyJson } from './json-text.js';

/**
 * What a value's text stands as while `stringifyReply` collects it, followed by its number: a NUL
 * and random bytes, which no string of an answer holds by chance (WebCrypto: the browser build
 * has these modules too).
 */
const MARKER = `\u0000${Array.from(globalThis.crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('')}#`;
/** The marker as JSON writes it (its NUL escaped), as a string of the answer. */
const WRITTEN = new RegExp(`"${JSON.stringify(MARKER).slice(1, -1).replaceAll('\\', '\\\\')}(\\d+)"`, 'g');

/** The texts `stringifyReply` is collecting, or null. */
let capture: string[] | null = null;

/**
 * While `stringifyReply` runs: keeps `text()` as the JSON a value writes, and returns the marker
 * its `toJSON` returns in its place; otherwise null (the value then writes as plain JSON).
 */
export function written(text: () => string): string | null {
  if (capture === null) return null;
  capture.push(text());
  return `${MARKER}${capture.length - 1}`;
}

/** `payload` as JSON text (stringifyJson), the values that write their own text written so. */
export function stringifyReply(payload: unknown): string {
  const texts: string[] = [];
  capture = texts;
  try {
    const text = stringifyJson(payload);
    return texts.length === 0 ? text : text.replace(WRITTEN, (_, at: string) => texts[Number(at)]!);
  } finally {
    capture = null;
  }
}
