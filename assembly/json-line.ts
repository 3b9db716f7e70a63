// The JSON line check: how long the compact JSON object at the start of some bytes is, and how
// far a run of such objects each followed by a separator goes, so that the documents route can
// store payload lines or array elements as they are; and, in its spaced mode, an object with
// whitespace between its tokens written compact. Called through src/kernels/json-line.ts, a run
// per window of a body chunk (src/indexes/payload-lines.ts widens a window the run fills) and the
// spaced mode for a single object where a run stops, in place of UTF-8 validation, JSON.parse
// (whose objects were thrown away) and a scan for whitespace, or of the byte-by-byte cutter: the
// HTTP thread's largest cost in a bulk load.
//
// An object is taken when it is valid UTF-8, what JSON.parse reads as one object (ECMA-404:
// strings without raw control characters and with the escapes \" \\ \/ \b \f \n \r \t \uXXXX;
// numbers -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?; true, false, null), with no whitespace outside
// strings and brackets nested at most `maxDepth` deep (the object itself is depth 1), and no number
// that may be past f64's range (a long integer part or a positive exponent of three digits). One pass,
// no recursion: the open containers are a stack of bytes in static memory. The answer tells a
// refusal (JSON_OBJECT_INVALID) from bytes that end before the object does
// (JSON_OBJECT_TRUNCATED), which more bytes could complete.

import { RESULT_OUTPUT_BYTES, RESULT_RECORDS, writeResult } from './arena';

/** Deepest nesting the stack holds; a deeper `maxDepth` is refused like a deeper line. */
export const JSON_LINE_MAX_DEPTH: i32 = 1024;
/** No compact object within the limits starts the bytes. */
export const JSON_OBJECT_INVALID: i32 = -1;
/** The bytes end before the object does (so far it is one). */
export const JSON_OBJECT_TRUNCATED: i32 = -2;

const STACK: usize = memory.data(JSON_LINE_MAX_DEPTH);

const OBJECT: u8 = 1;
const ARRAY: u8 = 2;

// what the byte at the cursor may be
const VALUE: i32 = 0; // a value
const KEY_OR_CLOSE: i32 = 1; // after `{`: a key or `}`
const VALUE_OR_CLOSE: i32 = 2; // after `[`: a value or `]`
const KEY: i32 = 3; // after `,` in an object
const COLON: i32 = 4; // after a key
const AFTER_VALUE: i32 = 5; // `,` or the container's close

@inline
function isDigit(b: u32): bool {
  return b - 0x30 < 10;
}

@inline
function isHex(b: u32): bool {
  return b - 0x30 < 10 || (b | 0x20) - 0x61 < 6;
}

const QUOTES: v128 = i8x16.splat(0x22);
const BACKSLASHES: v128 = i8x16.splat(0x5c);
const SPACE: v128 = i8x16.splat(0x20);

/**
 * Where the string whose content starts at `at` ends (past its quote), JSON_OBJECT_INVALID when
 * it is not valid, JSON_OBJECT_TRUNCATED when the bytes end first.
 * Runs of 16 plain ASCII bytes (no quote, backslash or control character) are skipped a vector
 * at a time: most of a document's bytes are such string contents.
 */
function stringEnd(at: usize, end: usize): isize {
  while (at < end) {
    if (at + 16 <= end) {
      const v = v128.load(at);
      // bytes from 0x80 up are negative as i8, so one signed compare finds them with the controls
      if (!v128.any_true(v128.or(v128.or(i8x16.eq(v, QUOTES), i8x16.eq(v, BACKSLASHES)), i8x16.lt_s(v, SPACE)))) {
        at += 16;
        continue;
      }
    }
    const b = <u32>load<u8>(at);
    if (b == 0x22) return <isize>(at + 1);
    if (b == 0x5c) {
      if (at + 1 >= end) return JSON_OBJECT_TRUNCATED;
      const e = <u32>load<u8>(at + 1);
      if (e == 0x75) {
        for (let k: usize = 2; k < 6; k++) {
          if (at + k >= end) return JSON_OBJECT_TRUNCATED;
          if (!isHex(load<u8>(at + k))) return JSON_OBJECT_INVALID;
        }
        at += 6;
      } else if (e == 0x22 || e == 0x5c || e == 0x2f || e == 0x62 || e == 0x66 || e == 0x6e || e == 0x72 || e == 0x74) {
        at += 2;
      } else {
        return JSON_OBJECT_INVALID;
      }
    } else if (b < 0x20) {
      return JSON_OBJECT_INVALID;
    } else if (b < 0x80) {
      at++;
    } else {
      // UTF-8 as WHATWG decodes it: no overlong forms, no surrogates, nothing past U+10FFFF
      let need: usize;
      let low: u32 = 0x80;
      let high: u32 = 0xbf;
      if (b >= 0xc2 && b <= 0xdf) need = 1;
      else if (b >= 0xe0 && b <= 0xef) {
        need = 2;
        if (b == 0xe0) low = 0xa0;
        else if (b == 0xed) high = 0x9f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        need = 3;
        if (b == 0xf0) low = 0x90;
        else if (b == 0xf4) high = 0x8f;
      } else return JSON_OBJECT_INVALID;
      if (at + 1 >= end) return JSON_OBJECT_TRUNCATED;
      const second = <u32>load<u8>(at + 1);
      if (second < low || second > high) return JSON_OBJECT_INVALID;
      for (let k: usize = 2; k <= need; k++) {
        if (at + k >= end) return JSON_OBJECT_TRUNCATED;
        const c = <u32>load<u8>(at + k);
        if (c < 0x80 || c > 0xbf) return JSON_OBJECT_INVALID;
      }
      at += need + 1;
    }
  }
  return JSON_OBJECT_TRUNCATED;
}

/** Integer digits past which a number may exceed f64's range (with an exponent below 100: 10^309 needs 210). */
const MAX_PLAIN_INTEGER_DIGITS: usize = 200;

/**
 * Where the number starting at `at` ends, JSON_OBJECT_INVALID when it is not a JSON number or
 * may be past f64's range (over MAX_PLAIN_INTEGER_DIGITS integer digits, or a positive exponent
 * of three digits or more: serde_json refuses such a number, which the cutter then finds),
 * JSON_OBJECT_TRUNCATED when the bytes end where it needs more (a number is never the last byte
 * of an object, so one that reaches the end is truncated too).
 */
function numberEnd(at: usize, end: usize): isize {
  if (load<u8>(at) == 0x2d) at++;
  if (at >= end) return JSON_OBJECT_TRUNCATED;
  const first = <u32>load<u8>(at);
  if (first == 0x30) at++;
  else if (first - 0x31 < 9) {
    const start = at;
    at++;
    while (at < end && isDigit(load<u8>(at))) at++;
    if (at - start > MAX_PLAIN_INTEGER_DIGITS) return JSON_OBJECT_INVALID;
  } else return JSON_OBJECT_INVALID;
  if (at < end && load<u8>(at) == 0x2e) {
    at++;
    if (at >= end) return JSON_OBJECT_TRUNCATED;
    if (!isDigit(load<u8>(at))) return JSON_OBJECT_INVALID;
    while (at < end && isDigit(load<u8>(at))) at++;
  }
  if (at < end && (<u32>load<u8>(at) | 0x20) == 0x65) {
    at++;
    const negative = at < end && load<u8>(at) == 0x2d;
    if (at < end && (load<u8>(at) == 0x2b || load<u8>(at) == 0x2d)) at++;
    if (at >= end) return JSON_OBJECT_TRUNCATED;
    if (!isDigit(load<u8>(at))) return JSON_OBJECT_INVALID;
    while (at < end && load<u8>(at) == 0x30) at++;
    const significant = at;
    while (at < end && isDigit(load<u8>(at))) at++;
    if (!negative && at - significant >= 3) return JSON_OBJECT_INVALID;
  }
  if (at >= end) return JSON_OBJECT_TRUNCATED;
  return <isize>at;
}

/**
 * Where the ASCII literal `word` of `n` bytes (true, false, null) at `at` ends, JSON_OBJECT_INVALID
 * when other bytes are there, JSON_OBJECT_TRUNCATED when the bytes end inside it.
 */
function literalEnd(at: usize, end: usize, word: u64, n: usize): isize {
  for (let k: usize = 0; k < n; k++) {
    if (at + k >= end) return JSON_OBJECT_TRUNCATED;
    if (<u64>load<u8>(at + k) != ((word >> (<u64>(8 * k))) & 0xff)) return JSON_OBJECT_INVALID;
  }
  return <isize>(at + n);
}

/**
 * The length of the compact JSON object nested at most `maxDepth` deep that the `len` bytes at
 * `ptr` start with (see the header), JSON_OBJECT_INVALID, or JSON_OBJECT_TRUNCATED.
 */
export function jsonObjectLength(ptr: usize, len: usize, maxDepth: i32): i32 {
  return scanObject(ptr, len, maxDepth, false);
}

/**
 * The JSON object nested at most `maxDepth` deep that the `len` bytes at `ptr` start with,
 * whitespace allowed between its tokens as JSON allows it (a payload spaced out as Python's
 * `json.dumps` writes it, or pretty-printed), written compact in place from `ptr` (its strings,
 * numbers and literals as they are, the whitespace between them left out: the compact form is
 * never ahead of what is read): answers its length in the input, JSON_OBJECT_INVALID or
 * JSON_OBJECT_TRUNCATED (the bytes then partly overwritten), and writes the compact length to
 * RESULT_OUTPUT_BYTES and the newlines left out to RESULT_RECORDS.
 */
export function spacedJsonObject(ptr: usize, len: usize, maxDepth: i32): i32 {
  return scanObject(ptr, len, maxDepth, true);
}

@inline
function isSpace(b: u32): bool {
  return b == 0x20 || b == 0x09 || b == 0x0a || b == 0x0d;
}

/**
 * `jsonObjectLength`, or with `spaced` `spacedJsonObject`: one state machine, which in the
 * spaced mode skips whitespace between tokens and moves what it keeps back over what it skipped.
 */
function scanObject(ptr: usize, len: usize, maxDepth: i32, spaced: bool): i32 {
  const end = ptr + len;
  if (len == 0) return JSON_OBJECT_TRUNCATED;
  if (load<u8>(ptr) != 0x7b || maxDepth < 1 || maxDepth > JSON_LINE_MAX_DEPTH) return JSON_OBJECT_INVALID;
  let at = ptr + 1;
  // where the compact form goes on (spaced): `at` until whitespace is skipped
  let to = at;
  let newlines: u32 = 0;
  let depth: i32 = 1;
  store<u8>(STACK, OBJECT);
  let expect = KEY_OR_CLOSE;
  while (at < end) {
    const b = <u32>load<u8>(at);
    if (spaced && isSpace(b)) {
      if (b == 0x0a) newlines++;
      at++;
      continue;
    }
    if (expect == AFTER_VALUE || expect == KEY_OR_CLOSE || expect == VALUE_OR_CLOSE) {
      const open = load<u8>(STACK + <usize>(depth - 1));
      if ((b == 0x7d && open == OBJECT && expect != VALUE_OR_CLOSE) || (b == 0x5d && open == ARRAY && expect != KEY_OR_CLOSE)) {
        if (spaced) store<u8>(to++, <u8>b);
        at++;
        depth--;
        // the object closed
        if (depth == 0) {
          if (spaced) {
            writeResult(RESULT_OUTPUT_BYTES, <u32>(to - ptr));
            writeResult(RESULT_RECORDS, newlines);
          }
          return <i32>(at - ptr);
        }
        expect = AFTER_VALUE;
        continue;
      }
      if (expect == AFTER_VALUE) {
        if (b != 0x2c) return JSON_OBJECT_INVALID;
        if (spaced) store<u8>(to++, 0x2c);
        at++;
        expect = open == OBJECT ? KEY : VALUE;
        continue;
      }
      expect = expect == KEY_OR_CLOSE ? KEY : VALUE;
    }
    let next: isize;
    if (expect == KEY) {
      if (b != 0x22) return JSON_OBJECT_INVALID;
      next = stringEnd(at + 1, end);
      if (next < 0) return <i32>next;
      if (spaced) to = kept(to, at, <usize>next);
      at = <usize>next;
      expect = COLON;
      continue;
    }
    if (expect == COLON) {
      if (b != 0x3a) return JSON_OBJECT_INVALID;
      if (spaced) store<u8>(to++, 0x3a);
      at++;
      expect = VALUE;
      continue;
    }
    // a value
    if (b == 0x7b || b == 0x5b) {
      if (depth >= maxDepth) return JSON_OBJECT_INVALID;
      store<u8>(STACK + <usize>depth, b == 0x7b ? OBJECT : ARRAY);
      if (spaced) store<u8>(to++, <u8>b);
      depth++;
      at++;
      expect = b == 0x7b ? KEY_OR_CLOSE : VALUE_OR_CLOSE;
      continue;
    }
    if (b == 0x22) next = stringEnd(at + 1, end);
    else if (b == 0x2d || isDigit(b)) next = numberEnd(at, end);
    else if (b == 0x74) next = literalEnd(at, end, 0x65757274, 4); // "true"
    else if (b == 0x66) next = literalEnd(at, end, 0x65736c6166, 5); // "false"
    else if (b == 0x6e) next = literalEnd(at, end, 0x6c6c756e, 4); // "null"
    else return JSON_OBJECT_INVALID;
    if (next < 0) return <i32>next;
    if (spaced) to = kept(to, at, <usize>next);
    at = <usize>next;
    expect = AFTER_VALUE;
  }
  return JSON_OBJECT_TRUNCATED;
}

/** Moves the token at [from, until) back to `to` (unless it is there already); answers where the compact form goes on. */
@inline
function kept(to: usize, from: usize, until: usize): usize {
  if (to != from) memory.copy(to, from, until - from);
  return to + (until - from);
}
/**
 * The run of compact objects (nested at most `maxDepth` deep), each followed by exactly one
 * `separator` byte, that the `len` bytes at `ptr` start with: an NDJSON chunk's `{…}\n` lines, or
 * a JSON array's `{…},` elements, checked in one call rather than one call per document. With
 * `newlines`, each separator of the run is overwritten with `\n` in place, so that a run of array
 * elements reads as NDJSON lines. Writes the objects counted to RESULT_RECORDS; answers the bytes
 * the run spans (through its last separator) when it stopped at something else (a byte that does
 * not start such an object, or an object not followed by the separator), or -(bytes + 1) when it
 * stopped because the bytes ended inside the next object or right after it.
 */
export function compactObjectRun(ptr: usize, len: usize, maxDepth: i32, separator: u32, newlines: bool): i32 {
  const end = ptr + len;
  let at = ptr;
  let count: u32 = 0;
  let answer: i32 = 0;
  for (;;) {
    if (at >= end) {
      answer = -<i32>(at - ptr) - 1;
      break;
    }
    const length = jsonObjectLength(at, end - at, maxDepth);
    if (length == JSON_OBJECT_TRUNCATED || (length > 0 && at + <usize>length >= end)) {
      answer = -<i32>(at - ptr) - 1;
      break;
    }
    if (length < 0 || <u32>load<u8>(at + <usize>length) != separator) {
      answer = <i32>(at - ptr);
      break;
    }
    at += <usize>length;
    if (newlines) store<u8>(at, 0x0a);
    at++;
    count++;
  }
  writeResult(RESULT_RECORDS, count);
  return answer;
}
