// Micro-benchmark of the prefix-grouping kernel on one extraction part shaped like movies' (500
// documents of 60 distinct words from a 6,000-word vocabulary, 3 prefixes per word, 2,500
// prefixes): the kernel, the JS loop it replaced (PrefixTable aggregation per document into
// KeyOps, then grouped), and the TS reference.
import { bench, describe } from 'vitest';

import { getKernels } from '../../src/kernels/module.js';
import { groupPrefixes, type PrefixInput } from '../../src/kernels/prefixes.js';
import { referenceGroupPrefixes } from '../../src/kernels/reference/prefixes.js';
import { KeyOps } from '../../src/engine/words/key-ops.js';
import { mulberry32 } from '../../test/helpers/random.js';

const random = mulberry32(47);
const next = (n: number) => Math.floor(random() * n);
const nWords = 6_000;
const nPrefixes = 2_500;
const wordPrefixes = Array.from({ length: 3 * nWords }, () => next(nPrefixes));
const prefixCounts = Array.from({ length: nWords }, () => 3);
const docStarts = [0];
const words: number[] = [];
for (let d = 0; d < 500; d++) {
  for (const word of new Set(Array.from({ length: 60 }, () => next(nWords)))) words.push(word);
  docStarts.push(words.length);
}
const input: PrefixInput = {
  docStarts: Int32Array.from(docStarts),
  words: Int32Array.from(words),
  masks: Uint32Array.from(words, () => 1 << next(3)),
  infos: Uint32Array.from(words, () => next(400)),
  wordPrefixes: Int32Array.from(wordPrefixes),
  prefixCounts: Int8Array.from(prefixCounts),
  nPrefixes,
};
const kernels = getKernels('release');

/** The loop the kernel replaced: per document, its prefixes aggregated, then upserted and grouped. */
function jsLoop(): void {
  const ops = new KeyOps();
  const seenBy = new Int32Array(nPrefixes);
  const masks = new Uint32Array(nPrefixes);
  const positions = new Uint32Array(nPrefixes);
  const current: number[] = [];
  for (let d = 0; d < 500; d++) {
    current.length = 0;
    for (let e = input.docStarts[d]!; e < input.docStarts[d + 1]!; e++) {
      const word = input.words[e]!;
      for (let k = 0; k < 3; k++) {
        const p = input.wordPrefixes[3 * word + k]!;
        const position = input.infos[e]! & 0xffff;
        if (seenBy[p] !== d + 1) {
          seenBy[p] = d + 1;
          masks[p] = input.masks[e]!;
          positions[p] = position;
          current.push(p);
        } else {
          masks[p]! |= input.masks[e]!;
          if (position < positions[p]!) positions[p] = position;
        }
      }
    }
    for (const p of current) ops.upsert(p, d, masks[p]!, positions[p]!);
  }
  ops.grouped(nPrefixes);
}

describe(`grouping the prefixes of one part (500 documents, ${words.length} word entries)`, () => {
  bench('wasm (release)', () => {
    groupPrefixes(input, kernels);
  });

  bench('JS loop (per document, then grouped)', jsLoop);

  bench('reference (TS)', () => {
    referenceGroupPrefixes(input);
  });
});
