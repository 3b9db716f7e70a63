// Micro-benchmark of the JSON line kernel: the release WASM kernel (the copy in included), a call
// per line and one run over all the lines (what the documents route now asks, a window at a time),
// against its reference (UTF-8 check, JSON.parse, a scan: what the route ran per line before the
// kernel), over the first 5,000 lines of movies and debdocs as NDJSON payload lines.
import { bench, describe } from 'vitest';

import { loadDataset } from '../datasets.js';
import { compactJsonObjectLength, compactObjectRun } from '../../src/kernels/json-line.js';
import { getKernels } from '../../src/kernels/module.js';
import { isCompactJsonObjectReference } from '../../src/kernels/reference/json-line.js';

const release = getKernels('release');
const DEPTH = 128;

for (const name of ['movies', 'debdocs'] as const) {
  const dataset = await loadDataset(name);
  const lines = dataset.ndjson[0]!.split('\n').slice(0, 5000).map((line) => Buffer.from(line, 'utf8'));
  const bytes = lines.reduce((sum, line) => sum + line.length, 0);
  const joined = Buffer.from(lines.map((line) => line.toString('utf8') + '\n').join(''), 'utf8');
  describe(`${name}: ${lines.length} lines, ${(bytes / 2 ** 20).toFixed(1)} MiB`, () => {
    bench('wasm (release), a call per line', () => {
      for (const line of lines) if (compactJsonObjectLength(line, DEPTH, release) !== line.length) throw new Error('refused');
    });
    bench('wasm (release), one run', () => {
      if (compactObjectRun(joined, DEPTH, 0x0a, false, release).count !== lines.length) throw new Error('refused');
    });
    bench('reference (TS: isUtf8, JSON.parse, scan)', () => {
      for (const line of lines) if (!isCompactJsonObjectReference(line, DEPTH)) throw new Error('refused');
    });
  });
}
