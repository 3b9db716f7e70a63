/**
 * UTF-8 by hand where TextEncoder and TextDecoder do not fit: decoding with the byte span of every
 * character, for code that must relate decoded text to offsets in the original bytes (the word
 * segmentation of byte batches, segmentation.ts, and the tests' reference tokenizer,
 * reference/tokenizer.ts; invalid input decodes exactly as TextDecoder does), and encoding many
 * words one after another into one buffer.
 */

export interface Char {
  readonly cp: number;
  /** Byte offsets in the string. */
  readonly start: number;
  readonly end: number;
}

/** WHATWG "UTF-8 decode": each maximal invalid subpart becomes one U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): Char[] {
  const chars: Char[] = [];
  let i = 0;
  while (i < bytes.length) {
    const b0 = bytes[i]!;
    let need = 0;
    let cp = 0;
    let lower = 0x80;
    let upper = 0xbf;
    if (b0 < 0x80) {
      chars.push({ cp: b0, start: i, end: i + 1 });
      i += 1;
      continue;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      need = 1;
      cp = b0 & 0x1f;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      need = 2;
      cp = b0 & 0x0f;
      if (b0 === 0xe0) lower = 0xa0;
      if (b0 === 0xed) upper = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      need = 3;
      cp = b0 & 0x07;
      if (b0 === 0xf0) lower = 0x90;
      if (b0 === 0xf4) upper = 0x8f;
    } else {
      chars.push({ cp: 0xfffd, start: i, end: i + 1 });
      i += 1;
      continue;
    }
    let consumed = 1;
    for (; consumed <= need; consumed++) {
      const b = bytes[i + consumed];
      if (b === undefined || b < lower || b > upper) break;
      lower = 0x80;
      upper = 0xbf;
      cp = (cp << 6) | (b & 0x3f);
    }
    if (consumed <= need) cp = 0xfffd;
    chars.push({ cp, start: i, end: i + consumed });
    i += consumed;
  }
  return chars;
}

/** The UTF-8 length of `text`, as TextEncoder writes it (a lone surrogate as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) length += 1;
    else if (c < 0x800) length += 2;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 4;
      i++;
    } else length += 3;
  }
  return length;
}

/**
 * Writes the UTF-8 of `word` into `out` from `at` (room for 3 bytes per UTF-16 unit), as
 * TextEncoder does (a lone surrogate as U+FFFD); answers where it ends. Plain JavaScript: the
 * kernels' wrappers also run in the browser, without Buffer.
 */
function writeUtf8(word: string, out: Uint8Array, at: number): number {
  for (let i = 0; i < word.length; i++) {
    let c = word.charCodeAt(i);
    if (c < 0x80) {
      out[at++] = c;
      continue;
    }
    if (c < 0x800) {
      out[at++] = 0xc0 | (c >> 6);
      out[at++] = 0x80 | (c & 0x3f);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const low = word.charCodeAt(i + 1);
      if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        const point = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        out[at++] = 0xf0 | (point >> 18);
        out[at++] = 0x80 | ((point >> 12) & 0x3f);
        out[at++] = 0x80 | ((point >> 6) & 0x3f);
        out[at++] = 0x80 | (point & 0x3f);
        i++;
        continue;
      }
      c = 0xfffd;
    }
    out[at++] = 0xe0 | (c >> 12);
    out[at++] = 0x80 | ((c >> 6) & 0x3f);
    out[at++] = 0x80 | (c & 0x3f);
  }
  return at;
}

/**
 * The UTF-8 of `count` words, laid one after another in one buffer: word `i` is
 * `bytes[starts[i], starts[i + 1])`. For the kernels' word lists (typo.ts `packWordList`,
 * extract.ts `stopWordTable`): a TextEncoder array per word, and collecting them, cost most of
 * building a list (900,000 stop words: ~2.5 s).
 */
export function encodeWords(words: Iterable<string>, count: number): { bytes: Uint8Array; starts: Uint32Array } {
  let units = 0;
  for (const word of words) units += word.length;
  // a UTF-16 unit takes at most 3 bytes (a surrogate pair 4 for its two)
  const room = new Uint8Array(3 * units);
  const starts = new Uint32Array(count + 1);
  let i = 0;
  for (const word of words) starts[i + 1] = writeUtf8(word, room, starts[i++]!);
  return { bytes: room.slice(0, starts[count]), starts };
}
