// Micro-benchmark of the proximity kernel: the release WASM kernel against the TS reference on
// fixed batches shaped like a three-word query's proximity step (3 place lists, 1–8 places each in
// 2 fields, two adjacent pairs), one call per batch: a big group (4000 documents) and a small
// one (20 documents), where the call's fixed cost (copying the batch in and the costs out) shows.
import { bench, describe } from 'vitest';

import { getKernels } from '../../src/kernels/module.js';
import { ProximityBuilder, proximityCosts } from '../../src/kernels/proximity.js';
import { referenceProximityCosts } from '../../src/kernels/reference/proximity.js';
import { mulberry32 } from '../../test/helpers/random.js';

const random = mulberry32(11);
const next = (n: number) => Math.floor(random() * n);
function batchOf(docs: number) {
  const builder = new ProximityBuilder();
  builder.begin(3);
  for (let d = 0; d < docs; d++) {
    const lists = Array.from({ length: 3 }, () => Array.from({ length: 1 + next(8) }, () => (next(2) << 16) | next(200)));
    const offsets = [0];
    for (const list of lists) offsets.push(offsets[offsets.length - 1]! + list.length);
    builder.add(Uint32Array.from(offsets), Uint32Array.from(lists.flat()), 1);
  }
  return builder.batch(Uint32Array.from([0, 1, 0, 0, 1, 2, 0, 0]), false);
}
const release = getKernels('release');

for (const docs of [4000, 20]) {
  const batch = batchOf(docs);
  describe(`proximity costs of ${docs} documents, 2 pairs`, () => {
    bench('wasm (release), one call', () => {
      proximityCosts(batch, release);
    });

    bench('reference (TS)', () => {
      referenceProximityCosts(batch);
    });
  });
}
