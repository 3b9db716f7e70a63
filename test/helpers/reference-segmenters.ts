// The libraries src/kernels/dictionaries/ reproduces, as the references tests compare it with:
// lindera-wasm's tokenizer (IPADIC or ko-dic, Decompose mode, as charabia's) and jieba-wasm.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initSync, TokenizerBuilder, type Tokenizer } from 'lindera-wasm';

import { isSurrogatePair } from '../../src/kernels/utf16.js';

const require = createRequire(import.meta.url);

export const jieba = require('jieba-wasm') as typeof import('jieba-wasm');

let linderaReady = false;
const tokenizers = new Map<'jpn' | 'kor', Tokenizer>();

/** lindera-wasm's tokenizer with the dictionary of `language`, in Decompose mode. */
export function linderaTokenizer(language: 'jpn' | 'kor'): Tokenizer {
  if (!linderaReady) {
    initSync({ module: readFileSync(require.resolve('lindera-wasm/lindera_wasm_bg.wasm')) });
    linderaReady = true;
  }
  let tokenizer = tokenizers.get(language);
  if (tokenizer === undefined) {
    const builder = new TokenizerBuilder();
    builder.setDictionary(language === 'jpn' ? 'embedded://ipadic' : 'embedded://ko-dic');
    builder.setMode('decompose');
    tokenizers.set(language, (tokenizer = builder.build()));
  }
  return tokenizer;
}

/** The UTF-16 indexes strictly inside `text` where lindera-wasm starts a token (its UTF-8 `byteStart`s, a lone surrogate as U+FFFD's 3 bytes). */
export function linderaReferenceStarts(text: string, language: 'jpn' | 'kor'): number[] {
  const tokens = linderaTokenizer(language).tokenize(text) as readonly { readonly byteStart: number }[];
  const out: number[] = [];
  let unit = 0;
  let byte = 0;
  for (const { byteStart } of tokens) {
    while (byte < byteStart && unit < text.length) {
      const code = text.charCodeAt(unit);
      if (isSurrogatePair(text, unit)) {
        unit += 2;
        byte += 4;
      } else {
        unit += 1;
        byte += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
      }
    }
    if (unit > (out.at(-1) ?? 0) && unit < text.length) out.push(unit);
  }
  return out;
}
