/**
 * WHATWG UTF-8 decoding with the byte span of every character, for code that must relate decoded
 * text to offsets in the original bytes: the word segmentation of byte batches (segmentation.ts),
 * and the tests' reference tokenizer (reference/tokenizer.ts). Invalid input decodes exactly as
 * TextDecoder does.
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
