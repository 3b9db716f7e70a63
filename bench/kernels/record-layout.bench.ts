// Micro-benchmark of the record-laying kernel: 2,000 stored records shaped like movies' forward
// records (35 distinct words of 50,000, 1–3 places each, two fields) laid into a fresh arena, as
// a big candidate group's first read lays them, against the TS reference building the same words.
// A fresh arena per run: its first writes to new pages are part of what a first read pays.
import { bench, describe } from 'vitest';

import { RecordArena } from '../../src/kernels/record-arena.js';
import { referenceLayRecord } from '../../src/kernels/reference/record-layout.js';
import { mulberry32 } from '../../test/helpers/random.js';

const random = mulberry32(31);
const next = (n: number) => Math.floor(random() * n);

/** A stored record: nFields, field words, nTokens, (word id, place) pairs grouped by ascending id. */
function storedRecord(): Uint8Array {
  const ids = [...new Set(Array.from({ length: 35 }, () => next(50_000)))].sort((a, b) => a - b);
  const pairs = ids.flatMap((id) => Array.from({ length: 1 + next(3) }, () => [id, (next(2) << 16) | next(300)]).flat());
  const words = Uint32Array.from([2, (0 << 16) | 4, (1 << 16) | 60, pairs.length / 2, ...pairs]);
  return new Uint8Array(words.buffer);
}

const records = Array.from({ length: 2_000 }, storedRecord);

describe('laying 2,000 stored records (about 55 tokens each)', () => {
  bench('wasm (release), into a fresh arena', () => {
    const arena = new RecordArena('release');
    for (const bytes of records) arena.lay(bytes.buffer, bytes.byteOffset, bytes.length);
  });

  bench('reference (TS)', () => {
    for (const bytes of records) referenceLayRecord(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2), 0);
  });
});
