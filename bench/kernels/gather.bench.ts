// Micro-benchmark of the gather kernel: the release WASM kernel against the TS reference on
// records shaped like movies' forward records (35 distinct words of 50,000, 1–3 places each) and
// a two-term query whose second term is a common prefix (2,000 words in one list), one call per
// group: a big group (4000 documents, as "the g" reaches proximity with 17,000) and a small one
// (20 documents), where the call's fixed cost (copying rows and the table in) shows.
import { bench, describe } from 'vitest';

import { gatherTable, RecordArena, type GatherDocs } from '../../src/kernels/record-arena.js';
import { referenceGatherPlaces } from '../../src/kernels/reference/gather.js';
import { mulberry32 } from '../../test/helpers/random.js';

const random = mulberry32(29);
const next = (n: number) => Math.floor(random() * n);
const VOCABULARY = 50_000;
const arena = new RecordArena('release');

/** Lays `count` records in the arena as forward.ts does; their (idsAt, nIds) rows. */
function layRecords(count: number): { records: Uint32Array; tokens: number } {
  const records = new Uint32Array(2 * count);
  let tokens = 0;
  for (let d = 0; d < count; d++) {
    const ids = [0, ...new Set(Array.from({ length: 34 }, () => next(VOCABULARY)))].sort((a, b) => a - b);
    const places = ids.map(() => Array.from({ length: 1 + next(3) }, () => (next(2) << 16) | next(300)));
    const total = places.reduce((sum, list) => sum + list.length, 0);
    const idsAt = arena.take(2 * ids.length + 1 + total);
    const u32 = arena.u32;
    let at = idsAt + 2 * ids.length + 1;
    ids.forEach((id, j) => {
      u32[idsAt + j] = id;
      u32[idsAt + ids.length + j] = at;
      for (const place of places[j]!) u32[at++] = place;
    });
    u32[idsAt + 2 * ids.length] = at;
    arena.settle(at);
    records[2 * d] = idsAt;
    records[2 * d + 1] = ids.length;
    tokens += total;
  }
  return { records, tokens };
}

// term 0's word is id 0 (every record holds it); term 1 a prefix of 2,000 words in its prefix list
const prefixWords = Array.from({ length: 2_000 }, (_, k) => 1 + k * 24);
const ids = [0, ...prefixWords];
const table = gatherTable(2, 0, ids, [0, ...prefixWords.map(() => 7)], ids.map(() => 0), ids.map(() => -1));

for (const count of [4000, 20]) {
  const { records, tokens } = layRecords(count);
  const docs: GatherDocs = { count, records, allowed: new Uint8Array(2 * count).fill(0xff), present: new Uint8Array(0), tokens };
  describe(`gather of ${count} documents, 2 terms, 2,001 words`, () => {
    bench('wasm (release), one call', () => {
      arena.gather(table, docs);
    });

    bench('reference (TS)', () => {
      referenceGatherPlaces(arena.u32, table, docs);
    });
  });
}
