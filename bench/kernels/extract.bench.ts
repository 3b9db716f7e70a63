// Micro-benchmark of word extraction: the extraction kernel (tokenize + extractWords in WASM,
// JavaScript only interning each distinct word of a chunk) against the per-token JavaScript
// walk it replaces, through WordExtractor.extract on 5000 movies and 5000 debdocs documents
// from the shared datasets (read in place; QUARRY_MOVIES_DATASET / QUARRY_DEBDOCS_DATASET
// override their paths). Both paths use the release kernels; throughput = documents × hz.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { bench, describe } from 'vitest';

import type { JsonObject } from '../../src/engine/document-id.js';
import { extractorFor, SearchFieldIds, WordExtractor } from '../../src/engine/words/extract.js';
import { defaultSettings } from '../../src/types/settings.js';

const SIZE = 5000;
const dataset = (name: string, env: string | undefined) => env ?? fileURLToPath(new URL(`../../../shared/datasets/${name}`, import.meta.url));
const MOVIES = dataset('movies.json.gz', process.env.QUARRY_MOVIES_DATASET);
const DEBDOCS = dataset('debdocs.ndjson.gz', process.env.QUARRY_DEBDOCS_DATASET);

function load(path: string, ndjson: boolean): { docid: number; doc: JsonObject }[] {
  if (!existsSync(path)) return [];
  const text = gunzipSync(readFileSync(path)).toString('utf8');
  const docs = ndjson ? text.split('\n', SIZE).filter((line) => line.length > 0).map((line) => JSON.parse(line) as JsonObject) : (JSON.parse(text) as JsonObject[]).slice(0, SIZE);
  return docs.map((doc, docid) => ({ docid, doc }));
}

const sets = { movies: load(MOVIES, false), debdocs: load(DEBDOCS, true) };
// the release kernels for both paths (vitest would otherwise pick the debug build)
process.env.QUARRY_KERNELS = 'release';

function extract(docs: { docid: number; doc: JsonObject }[], kernelPath: boolean): void {
  WordExtractor.kernelPath = kernelPath;
  extractorFor(defaultSettings(), new SearchFieldIds([])).extract(docs);
  WordExtractor.kernelPath = true;
}

for (const [name, docs] of Object.entries(sets)) {
  describe.skipIf(docs.length === 0)(`extract the words of ${SIZE} ${name} documents`, () => {
    bench('extraction kernel', () => extract(docs, true), { time: 3000 });
    bench('JS walk of the token records', () => extract(docs, false), { time: 3000 });
  });
}
