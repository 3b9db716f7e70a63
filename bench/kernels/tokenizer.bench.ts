// Micro-benchmark of the tokenizer: the release WASM kernel against the TS reference, and one
// batched call against one call per string, on a fixed corpus: the first 2000 non-empty movie
// overviews of the shared movies dataset (read in place, never copied into the repository;
// QUARRY_MOVIES_DATASET overrides its path). Throughput = corpus bytes (printed) x hz. One case
// adds custom tokens (separatorTokens, nonSeparatorTokens, dictionary) to show their cost; the
// default cases must not slow down because custom tokens exist.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { bench, describe } from 'vitest';

import { customTokens } from '../../src/kernels/custom-tokens.js';
import { getKernels } from '../../src/kernels/module.js';
import { referenceTokenizeBatch } from '../../src/kernels/reference/tokenizer.js';
import { encodeBatch, tokenizeBatch } from '../../src/kernels/tokenizer.js';

const DATASET =
  process.env.QUARRY_MOVIES_DATASET ?? fileURLToPath(new URL('../../../shared/datasets/movies.json.gz', import.meta.url));
const CORPUS_SIZE = 2000;

function loadOverviews(): string[] {
  if (!existsSync(DATASET)) return [];
  const movies = JSON.parse(gunzipSync(readFileSync(DATASET)).toString('utf8')) as { overview?: unknown }[];
  return movies
    .map((movie) => (typeof movie.overview === 'string' ? movie.overview : ''))
    .filter((overview) => overview.length > 0)
    .slice(0, CORPUS_SIZE);
}

const overviews = loadOverviews();
const custom = customTokens({
  separatorTokens: ['&sep', '<br/>'],
  nonSeparatorTokens: ['#', '&', '@'],
  dictionary: ['J. R. R.', 'New York', 'C#', 'Dr.', 'U.S.', 'World War II'],
});
const kernels = overviews.length > 0 ? getKernels('release') : undefined;
if (kernels) {
  const bytes = encodeBatch(overviews).bytes.length;
  const all = tokenizeBatch(overviews, {}, kernels).count;
  const wordsOnly = tokenizeBatch(overviews, { separators: false }, kernels).count;
  console.log(
    `tokenizer corpus: ${overviews.length} overviews, ${bytes} UTF-8 bytes, ${all} tokens (${wordsOnly} words)`,
  );
}

describe.skipIf(!kernels)(`tokenize ${CORPUS_SIZE} movie overviews`, () => {
  bench('wasm (release), one batched call', () => {
    tokenizeBatch(overviews, {}, kernels!);
  });

  bench('wasm (release), one batched call, words only', () => {
    tokenizeBatch(overviews, { separators: false }, kernels!);
  });

  bench('wasm (release), one batched call, custom tokens', () => {
    tokenizeBatch(overviews, { custom }, kernels!);
  });

  bench('wasm (release), one call per string', () => {
    for (const overview of overviews) tokenizeBatch([overview], {}, kernels!);
  });

  bench('reference (TS), batched', () => {
    referenceTokenizeBatch(overviews);
  });
});
