// Micro-benchmark of the typo kernel: the release WASM kernel against the TS reference, and one
// batched call for all query words against one call per word, on a fixed dictionary: every
// distinct normalised word of the first 5000 movies of the shared dataset (read in place), with
// the `typo` and `prefix` words of movies.queries.json as queries (Meilisearch budgets).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { bench, describe } from 'vitest';

import { compileKernelModule, getKernels, instantiateKernels } from '../../src/kernels/module.js';
import { referenceTypoMatch } from '../../src/kernels/reference/typo.js';
import { materializeTokens, tokenizeBatch } from '../../src/kernels/tokenizer.js';
import { packWordList, TypoFlag, TypoMatcher, type TypoQuery } from '../../src/kernels/typo.js';

const DATASETS = fileURLToPath(new URL('../../../shared/datasets/', import.meta.url));
const MOVIES = process.env.QUARRY_MOVIES_DATASET ?? `${DATASETS}movies.json.gz`;
const QUERIES = `${DATASETS}movies.queries.json`;

function budget(word: string): number {
  const length = [...word].length;
  return length < 5 ? 0 : length < 9 ? 1 : 2;
}

function load(): { words: string[]; queries: TypoQuery[] } | undefined {
  if (!existsSync(MOVIES) || !existsSync(QUERIES)) return undefined;
  const movies = (JSON.parse(gunzipSync(readFileSync(MOVIES)).toString('utf8')) as { title: string; overview: string }[]).slice(0, 5000);
  const texts = movies.map((movie) => `${movie.title} ${movie.overview}`);
  const tokens = materializeTokens(tokenizeBatch(texts, { separators: false }, getKernels('release')), texts);
  const words = [...new Set(tokens.map((token) => token.normalized))].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const queries: TypoQuery[] = [];
  for (const { type, q } of JSON.parse(readFileSync(QUERIES, 'utf8')) as { type: string; q: string }[]) {
    if (type !== 'typo' && type !== 'prefix') continue;
    const parts = q.toLowerCase().split(/\s+/).filter((part) => budget(part) > 0);
    parts.forEach((word, i) => {
      const prefix = type === 'prefix' && i === parts.length - 1;
      queries.push({ word, maxTypos: budget(word), flags: TypoFlag.FirstChar | TypoFlag.SkipExact | (prefix ? TypoFlag.Prefix : 0) });
    });
  }
  return { words, queries };
}

const data = load();
const matcher = data === undefined ? undefined : new TypoMatcher(packWordList(data.words), instantiateKernels(compileKernelModule('release'), 'release'));
if (data !== undefined) console.log(`typo corpus: ${data.words.length} dictionary words, ${data.queries.length} query words`);

describe.skipIf(data === undefined)('typo matching of the movies query words', () => {
  bench('wasm (release), one batched call', () => {
    matcher!.match(data!.queries);
  });

  bench('wasm (release), one call per word', () => {
    for (const query of data!.queries) matcher!.match([query]);
  });

  bench(
    'reference (TS)',
    () => {
      referenceTypoMatch(data!.words, data!.queries);
    },
    { iterations: 2, time: 0 },
  );
});
