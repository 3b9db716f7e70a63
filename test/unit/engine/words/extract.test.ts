// Word extraction through the extraction kernel against the per-token JavaScript path it
// replaces: the shipped words of a movies slice must be identical, with and without stop words.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import type { JsonObject } from '../../../../src/engine/document-id.js';
import { extractorFor, SearchFieldIds, WordExtractor } from '../../../../src/engine/words/extract.js';
import { defaultSettings } from '../../../../src/types/settings.js';

const DATASET = fileURLToPath(new URL('../../../../../shared/datasets/movies.json.gz', import.meta.url));
const movies = existsSync(DATASET) ? (JSON.parse(gunzipSync(readFileSync(DATASET)).toString('utf8')) as JsonObject[]).slice(0, 1500) : [];

function shipped(kernelPath: boolean, stopWords: string[]) {
  WordExtractor.kernelPath = kernelPath;
  try {
    const extractor = extractorFor({ ...defaultSettings(), stopWords }, new SearchFieldIds([]));
    return extractor.ship(extractor.extract(movies.map((doc, docid) => ({ docid, doc })), true));
  } finally {
    WordExtractor.kernelPath = true;
  }
}

describe.skipIf(movies.length === 0)('word extraction', () => {
  it('ships the same words of a movies slice through the kernel as through the JS path', () => {
    expect(shipped(true, [])).toEqual(shipped(false, []));
  });

  it('ships the same words with stop words, ASCII and not', () => {
    const stops = ['the', 'a', 'of', 'and', 'é', 'über', 'ｔｈｅ', 'fi'];
    expect(shipped(true, stops)).toEqual(shipped(false, stops));
  });
});
