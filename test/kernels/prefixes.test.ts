// The prefix-grouping kernel against its TS reference: a fixed part pins the grouping (masks
// ORed, lowest positions, documents ascending, a prefix shared by several words of a document
// counted once), seeded random parts check the two agree, and inputs naming words, prefixes or
// entries outside their ranges are refused. The ahead-parts tests check the grouping feeds the
// same prefix index as the write's own extraction.
import { describe, expect, it } from 'vitest';

import { getKernels } from '../../src/kernels/module.js';
import { groupPrefixes, PREFIX_HEADER_SLOTS, PREFIX_HEADER_U32, PREFIX_SLOTS, type PrefixInput } from '../../src/kernels/prefixes.js';
import { referenceGroupPrefixes } from '../../src/kernels/reference/prefixes.js';
import { PREFIX_MAX_CHARS } from '../../src/engine/words/prefix-table.js';
import { mulberry32 } from '../helpers/random.js';

const plain = (grouped: ReturnType<typeof groupPrefixes>) => ({
  starts: Array.from(grouped.starts),
  docids: Array.from(grouped.docids),
  masks: Array.from(grouped.masks),
  infos: Array.from(grouped.infos),
});

describe('prefix-grouping kernel', () => {
  it('mirrors the header slots and the prefix bound of the host', () => {
    const kernels = getKernels();
    for (const [name, slot] of Object.entries(PREFIX_HEADER_SLOTS)) {
      expect(kernels.constant(`P_${name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`), name).toBe(slot);
    }
    expect(kernels.constant('P_HEADER_U32')).toBe(PREFIX_HEADER_U32);
    expect(kernels.constant('PREFIX_SLOTS')).toBe(PREFIX_SLOTS);
    expect(PREFIX_SLOTS).toBe(PREFIX_MAX_CHARS);
  });

  it('groups each prefix’s documents, ORing masks and keeping the lowest position', () => {
    // words: 0 "cat" (c, ca, cat), 1 "car" (c, ca, car), 2 "dog" (d, do, dog), 3 "a" (a)
    // prefixes: 0 c, 1 ca, 2 cat, 3 car, 4 d, 5 do, 6 dog, 7 a
    const input: PrefixInput = {
      docStarts: [0, 2, 2, 5],
      words: [0, 1, 2, 3, 0],
      masks: [0b01, 0b10, 0b01, 0b100, 0b10],
      infos: [7 | (1 << 16), 3, 0, 9, 2],
      wordPrefixes: [0, 1, 2, 0, 1, 3, 4, 5, 6, 7, 0, 0],
      prefixCounts: [3, 3, 3, 1],
      nPrefixes: 8,
    };
    const expected = {
      // c: docs 0, 2; ca: 0, 2; cat: 0, 2; car: 0; d, do, dog: 2; a: 2 (document 1 has no words)
      starts: [0, 2, 4, 6, 7, 8, 9, 10, 11],
      docids: [0, 2, 0, 2, 0, 2, 0, 2, 2, 2, 2],
      masks: [0b11, 0b10, 0b11, 0b10, 0b01, 0b10, 0b10, 0b01, 0b01, 0b01, 0b100],
      infos: [3, 2, 3, 2, 7, 2, 3, 0, 0, 0, 9],
    };
    expect(plain(groupPrefixes(input))).toEqual(expected);
    expect(plain(referenceGroupPrefixes(input))).toEqual(expected);
  });

  it('matches the reference on random parts', () => {
    const random = mulberry32(20261130);
    for (let n = 0; n < 300; n++) {
      const nWords = 1 + Math.floor(random() * 60);
      const nPrefixes = 1 + Math.floor(random() * 40);
      const prefixCounts = Array.from({ length: nWords }, () => Math.floor(random() * (PREFIX_SLOTS + 1)));
      const wordPrefixes = Array.from({ length: PREFIX_SLOTS * nWords }, () => Math.floor(random() * nPrefixes));
      const docStarts = [0];
      const words: number[] = [];
      for (let d = Math.floor(random() * 30); d > 0; d--) {
        for (let e = Math.floor(random() * 12); e > 0; e--) words.push(Math.floor(random() * nWords));
        docStarts.push(words.length);
      }
      const input: PrefixInput = {
        docStarts,
        words,
        masks: words.map(() => Math.floor(random() * 2 ** 32)),
        infos: words.map(() => Math.floor(random() * 2 ** 17)),
        wordPrefixes,
        prefixCounts,
        nPrefixes,
      };
      expect(plain(groupPrefixes(input)), `part ${n}`).toEqual(plain(referenceGroupPrefixes(input)));
    }
  });

  it('refuses a word, a prefix or an entry out of range', () => {
    const input: PrefixInput = { docStarts: [0, 1], words: [0], masks: [1], infos: [0], wordPrefixes: [0, 0, 0], prefixCounts: [1], nPrefixes: 1 };
    expect(() => groupPrefixes(input)).not.toThrow();
    expect(() => groupPrefixes({ ...input, words: [1] })).toThrow(RangeError);
    expect(() => groupPrefixes({ ...input, wordPrefixes: [1, 0, 0] })).toThrow(RangeError);
    expect(() => groupPrefixes({ ...input, prefixCounts: [PREFIX_SLOTS + 1] })).toThrow(RangeError);
    expect(() => groupPrefixes({ ...input, docStarts: [0, 2] })).toThrow(RangeError);
    expect(() => groupPrefixes({ ...input, docStarts: [1, 0] })).toThrow(RangeError);
  });
});
