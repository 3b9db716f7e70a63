/**
 * Long answers written in pieces (types/streamed-json.ts). A search, multi-search or federation
 * builds its answer's objects first, as do the task and batch lists and the document routes;
 * serialising them in one piece then held the thread answering requests for about a second per
 * 50 MB (a multi-search of 100,000 hits held it 1.3 s). An answer of more than STREAMED_ITEMS_FROM
 * hits, tasks or batches, or holding LONG_TEXT_CHARS of strings (a hit's 40 MB value and its
 * `_formatted` copy held it 1.6 s), is written instead a member at a time down to SPLIT_DEPTH (the
 * answer, its lists of results and hits, each result), each deeper value (a hit, a field's facet
 * counts) whole, as the whole answer's serializer writes it (`stringifyReply`: 64-bit integers,
 * facet counts in their order), but for a long string, written a slice at a time; the event loop
 * is given a turn between pieces once a time slice has passed (time-slices.ts).
 */
import { stringifyReply } from '../types/reply-text.js';
import { StreamedJson } from '../types/streamed-json.js';
import { unitEnd } from '../types/utf16.js';
import { jsonTextLength } from '../types/json-text-object.js';
import { TimeSlices } from '../types/time-slices.js';

/** Answers of more items (hits, tasks, batches) than this are streamed. */
export const STREAMED_ITEMS_FROM = 1_000;

/** Containers this deep or shallower are written a member at a time: `{results: [{hits: […]}]}`. */
const SPLIT_DEPTH = 3;

/** Characters per piece. */
const PIECE_CHARS = 64 * 1024;

/** Characters of strings from which an answer is streamed, however few its items. */
const LONG_TEXT_CHARS = 1024 * 1024;

/** Values `holdsLongText` looks at before it takes the answer for a long one. */
const VALUES_LOOKED_AT = 100_000;

/**
 * Whether `answer` holds LONG_TEXT_CHARS of strings (keys too: a facet distribution's values are
 * its keys), or more than VALUES_LOOKED_AT values: a bounded look, microseconds for a page of 20
 * hits; a list or object of more members is long at once, unwalked (450,000 synonyms walked
 * member by member held the thread ~0.4 s under load).
 */
function holdsLongText(answer: unknown): boolean {
  const stack: unknown[] = [answer];
  let chars = 0;
  for (let looked = 0; stack.length > 0; looked++) {
    if (looked === VALUES_LOOKED_AT) return true;
    const value = stack.pop();
    // an object written as its text (types/json-text-object.ts) counts as that text, unparsed
    const length = typeof value === 'string' ? value.length : jsonTextLength(value);
    if (length !== undefined) {
      chars += length;
      if (chars >= LONG_TEXT_CHARS) return true;
    } else if (Array.isArray(value)) {
      // more values than are looked at: long, without pushing them all (a list of 450,000 stop words)
      if (looked + stack.length + value.length >= VALUES_LOOKED_AT) return true;
      for (const item of value) stack.push(item);
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      if (looked + stack.length + keys.length >= VALUES_LOOKED_AT) return true;
      for (const key of keys) {
        chars += key.length;
        stack.push((value as Record<string, unknown>)[key]);
      }
      if (chars >= LONG_TEXT_CHARS) return true;
    }
  }
  return false;
}

/** `text` as JSON.stringify writes it, in slices that never part a surrogate pair (each half would be escaped alone). */
function* stringSlices(text: string): Generator<string> {
  yield '"';
  for (let from = 0; from < text.length; ) {
    const to = unitEnd(text, from, PIECE_CHARS);
    yield JSON.stringify(text.slice(from, to)).slice(1, -1);
    from = to;
  }
  yield '"';
}

/** Values JSON.stringify leaves out of an object (and writes as null in an array). */
function omitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** An object JSON.stringify writes member by member (no `toJSON`, no class). */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** The JSON text of `value` in parts whose concatenation is `stringifyReply(value)`. */
function* parts(value: unknown, depth: number): Generator<string> {
  // an array with a `toJSON` of its own (a vector written as floats) is written whole
  if (depth <= SPLIT_DEPTH && Array.isArray(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ',';
      const item: unknown = value[i];
      if (omitted(item)) yield 'null';
      else yield* parts(item, depth + 1);
    }
    yield ']';
  } else if (depth <= SPLIT_DEPTH && isPlainObject(value)) {
    let separator = '{';
    for (const key of Object.keys(value)) {
      const member = value[key];
      if (omitted(member)) continue;
      yield `${separator}${JSON.stringify(key)}:`;
      separator = ',';
      yield* parts(member, depth + 1);
    }
    yield separator === '{' ? '{}' : '}';
  } else if (typeof value === 'string' && value.length > PIECE_CHARS) {
    yield* stringSlices(value);
  } else {
    yield stringifyReply(value);
  }
}

async function* pieces(value: unknown): AsyncGenerator<string> {
  const slices = new TimeSlices();
  let piece = '';
  for (const part of parts(value, 0)) {
    piece += part;
    if (piece.length < PIECE_CHARS) continue;
    yield piece;
    piece = '';
    await slices.pause();
  }
  yield piece;
}

/** `answer` as a StreamedJson when it holds more than STREAMED_ITEMS_FROM `items` or long strings, else as it is. */
export function streamedWhenLong<T extends object>(answer: T, items: number): T | StreamedJson {
  return items > STREAMED_ITEMS_FROM || holdsLongText(answer) ? new StreamedJson(pieces(answer)) : answer;
}
