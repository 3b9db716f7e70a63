/**
 * A JSON body's values as they were sent, for error messages that quote them as v1.50 does.
 * serde_json keeps what JSON.parse loses: a number's kind and digits (`1.0` and `1e2` are floats,
 * printed `1.0` and `100.0`; `12345678901234567891` is an exact u64; `-0` a float, `-0.0`).
 * The error path reads them: the body's text, remembered by its parsed root, is parsed again
 * keeping each number's text (`SentNumber`), and the value at the error's location taken from it.
 * A body that is a bare number written as a float stays a `SentNumber` from the start
 * (`parseSentBody`), since no parsed root could remember its text.
 */
import { isLosslessNumber, LosslessNumber, parse as parseLossless } from 'lossless-json';
import type { Segment } from './location.js';

/** A number as sent: its JSON text. */
export interface SentNumber {
  readonly value: string;
  readonly isLosslessNumber: true;
}

/** Bodies longer than this are not parsed again (their messages read the parsed value): an error must stay cheap (lossless-json took ~120 ms over 0.7 MB of numbers). */
export const MAX_REPARSED_LENGTH = 64 * 1024;

// a parsed body → its text, then (once an error asked for it) that text parsed again
const sent = new WeakMap<object, { text: string; parsed?: unknown }>();

/** Records that `body` (a parsed object or array) was parsed from `text`. */
export function rememberBodyText(body: unknown, text: string): void {
  if (typeof body === 'object' && body !== null && text.length <= MAX_REPARSED_LENGTH) sent.set(body, { text });
}

/**
 * `text` parsed by `parse` as a body whose values error messages quote as sent: an object or array
 * remembers its text; a bare number written as a float (`1.0`, `1e2`, `-0`, a settings sub-route's
 * whole body) stays a number as sent, which no integer schema takes, as serde_json keeps it a float.
 */
export function parseSentBody(text: string, parse: (text: string) => unknown): unknown {
  const parsed = parse(text);
  if (typeof parsed === 'number') {
    const written = text.trim();
    return /[.eE]/.test(written) || written === '-0' ? new LosslessNumber(written) : parsed;
  }
  rememberBodyText(parsed, text);
  return parsed;
}

/** Records that `copy`, a body rebuilt from `body` (same keys, in the same order), was sent as `body`'s text. */
export function carryBodyText(body: unknown, copy: unknown): void {
  const record = typeof body === 'object' && body !== null ? sent.get(body) : undefined;
  if (record !== undefined && typeof copy === 'object' && copy !== null) sent.set(copy, record);
}

/** The value at `path` in `body` as sent, its numbers as `SentNumber`s; `undefined` when the text is not known. */
export function sentValueAt(body: unknown, path: readonly Segment[]): { value: unknown } | undefined {
  const record = typeof body === 'object' && body !== null ? sent.get(body) : undefined;
  if (record === undefined) return undefined;
  // JSON.parse keeps the last of duplicate keys; so does this
  record.parsed ??= parseLossless(record.text, null, { onDuplicateKey: ({ newValue }) => newValue });
  let node = record.parsed;
  for (const segment of path) {
    if (typeof node !== 'object' || node === null || isSentNumber(node) || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node === undefined ? undefined : { value: node };
}

export function isSentNumber(value: unknown): value is SentNumber {
  return isLosslessNumber(value);
}

/**
 * What may be a number sent as a float with an integer value (`20.0`, `1e2`, `-0`), which
 * JSON.parse reads as an integer and serde_json as a float; a body without one is not parsed
 * again (it may also match inside a string: the parse tells). Negative exponents are left out:
 * embeddings are full of them (`1.2e-05`), and an integer written so (`100e-2`) is far-fetched.
 */
const INTEGRAL_FLOAT_LIKE = /[0-9]\.0+(?![0-9])|[0-9][eE]\+?[0-9]|-0(?![.0-9eE])/;

/**
 * The paths of the numbers of `body` sent as floats whose value is an integer; none when its
 * text is not known (a body over MAX_REPARSED_LENGTH).
 */
export function integralFloatPaths(body: unknown): Segment[][] {
  const record = typeof body === 'object' && body !== null ? sent.get(body) : undefined;
  if (record === undefined || !INTEGRAL_FLOAT_LIKE.test(record.text)) return [];
  record.parsed ??= parseLossless(record.text, null, { onDuplicateKey: ({ newValue }) => newValue });
  const paths: Segment[][] = [];
  const walk = (node: unknown, path: Segment[]): void => {
    if (isSentNumber(node)) {
      if ((/[.eE]/.test(node.value) || node.value === '-0') && Number.isInteger(Number(node.value))) paths.push([...path]);
    } else if (Array.isArray(node)) {
      node.forEach((child, index) => walk(child, [...path, index]));
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
    }
  };
  walk(record.parsed, []);
  return paths;
}
