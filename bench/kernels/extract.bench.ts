// Micro-benchmark of word extraction per chunk: the extraction kernel (tokenize + extractWords
// in WASM, then each distinct word interned in a ByteVocabulary once) against the per-token
// JavaScript walk it replaced in src/engine/words/extract.ts (tokenize in WASM, then every word
// record read, interned and appended to per-document arrays in JS; kept here, in short, as the
// baseline). Input: the searchable strings of 5000 movies and 5000 debdocs documents from the
// shared datasets (read in place; QUARRY_MOVIES_DATASET / QUARRY_DEBDOCS_DATASET override the
// paths), one chunk each, no stop words, release kernels on both sides.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { bench, describe } from 'vitest';

import { ByteVocabulary } from '../../src/engine/words/vocabulary.js';
import { extractChunk, type ExtractInput } from '../../src/kernels/extract.js';
import { getKernels } from '../../src/kernels/module.js';
import { TOKEN_RECORD_U32, TokenField, TokenKind, tokenizeBatch } from '../../src/kernels/tokenizer.js';

const SIZE = 5000;
const dataset = (name: string, env: string | undefined) => env ?? fileURLToPath(new URL(`../../../shared/datasets/${name}`, import.meta.url));
const MOVIES = dataset('movies.json.gz', process.env.QUARRY_MOVIES_DATASET);
const DEBDOCS = dataset('debdocs.ndjson.gz', process.env.QUARRY_DEBDOCS_DATASET);

/** The string leaves of the first SIZE documents as one chunk, a field id per top-level key. */
function load(path: string, ndjson: boolean): ExtractInput | undefined {
  if (!existsSync(path)) return undefined;
  const text = gunzipSync(readFileSync(path)).toString('utf8');
  const docs = (ndjson ? text.split('\n', SIZE).filter((line) => line.length > 0).map((line) => JSON.parse(line)) : JSON.parse(text).slice(0, SIZE)) as Record<string, unknown>[];
  const fields = new Map<string, number>();
  const strings: string[] = [];
  const stringDocs: number[] = [];
  const stringFields: number[] = [];
  docs.forEach((doc, d) => {
    for (const [key, value] of Object.entries(doc)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item !== 'string' && typeof item !== 'number') continue;
        if (!fields.has(key)) fields.set(key, fields.size);
        strings.push(String(item));
        stringDocs.push(d);
        stringFields.push(fields.get(key)!);
      }
    }
  });
  return { strings, stringDocs: Uint32Array.from(stringDocs), stringFields: Uint32Array.from(stringFields), nDocs: docs.length, nFields: fields.size };
}

const kernels = getKernels('release');

function withKernel(input: ExtractInput): void {
  const chunk = extractChunk(input, {}, kernels);
  const vocabulary = new ByteVocabulary();
  const bytes = Buffer.from(chunk.wordBytes.buffer, chunk.wordBytes.byteOffset, chunk.wordBytes.byteLength);
  for (let w = 0; w + 1 < chunk.wordStarts.length; w++) vocabulary.idOf(bytes, chunk.wordStarts[w]!, chunk.wordStarts[w + 1]! - chunk.wordStarts[w]!);
}

/** The replaced walk: every word record interned and placed in JS (value gap and limits applied). */
function perTokenJs(input: ExtractInput): void {
  const batch = tokenizeBatch(input.strings, { separators: false }, kernels);
  const norm = Buffer.from(batch.normalized.buffer, batch.normalized.byteOffset, batch.normalized.byteLength);
  const vocabulary = new ByteVocabulary();
  const seenBy: number[] = [];
  const slotOf: number[] = [];
  const tokenWords: number[] = [];
  const tokenPlaces: number[] = [];
  let words: number[] = [];
  let infos: number[] = [];
  const lastOf = new Map<number, number>();
  let r = 0;
  for (let s = 0; s < input.strings.length; s++) {
    const doc = input.stringDocs[s]!;
    if (s === 0 || doc !== input.stringDocs[s - 1]) {
      lastOf.clear();
      words = [];
      infos = [];
    }
    const field = input.stringFields[s]!;
    const previous = lastOf.get(field);
    const base = previous === undefined ? 0 : previous + 8;
    let last = base;
    for (; r < batch.count && batch.records[r * TOKEN_RECORD_U32 + TokenField.String] === s; r++) {
      const at = r * TOKEN_RECORD_U32;
      if (batch.records[at + TokenField.Kind] !== TokenKind.Word) continue;
      const position = base + batch.records[at + TokenField.Position]!;
      const length = batch.records[at + TokenField.NormLength]!;
      if (position >= 65_536 || length === 0 || length > 250) continue;
      last = position;
      const vid = vocabulary.idOf(norm, batch.records[at + TokenField.NormStart]!, length);
      let word = slotOf[vid];
      if (seenBy[vid] !== doc + 1) {
        seenBy[vid] = doc + 1;
        slotOf[vid] = word = words.length;
        words.push(vid);
        infos.push(position);
      } else if (position < infos[word!]!) infos[word!] = position;
      tokenWords.push(word!);
      tokenPlaces.push(((field << 16) | position) >>> 0);
    }
    lastOf.set(field, last);
  }
}

const sets = { movies: load(MOVIES, false), debdocs: load(DEBDOCS, true) };
for (const [name, input] of Object.entries(sets)) {
  if (input !== undefined) console.log(`extract corpus ${name}: ${input.nDocs} documents, ${input.strings.length} strings, ${input.strings.reduce((sum, text) => sum + text.length, 0)} UTF-16 units`);
  describe.skipIf(input === undefined)(`extract the words of ${SIZE} ${name} documents (one chunk)`, () => {
    bench('extraction kernel (tokenize + extractWords, distinct words interned in JS)', () => withKernel(input!), { time: 3000 });
    bench('tokenize + per-token JS walk (the replaced path)', () => perTokenJs(input!), { time: 3000 });
  });
}
