// The distribution an embedder's semantic scores are shifted by (vectors.md §8.1): the
// configured one, else OpenAI's built-in one for its model, else Hugging Face's for its default
// model only (milli's `hf::Embedder::distribution`), else none.
import { describe, expect, it } from 'vitest';
import { distributionOf } from '../../../../src/engine/vectors/score.js';

describe('the distribution of an embedder', () => {
  it('is the configured one first', () => {
    expect(distributionOf({ source: 'huggingFace', distribution: { mean: 0.5, sigma: 0.2 } })).toEqual({ mean: 0.5, sigma: 0.2 });
  });

  it("is Hugging Face's built-in one for the default model, named or not, and none for another", () => {
    expect(distributionOf({ source: 'huggingFace' })).toEqual({ mean: 0.85, sigma: 0.1 });
    expect(distributionOf({ source: 'huggingFace', model: 'BAAI/bge-base-en-v1.5' })).toEqual({ mean: 0.85, sigma: 0.1 });
    expect(distributionOf({ source: 'huggingFace', model: 'BAAI/bge-small-en-v1.5' })).toBeUndefined();
  });

  it("is OpenAI's for its model, and none for the other sources", () => {
    expect(distributionOf({})).toEqual({ mean: 0.75, sigma: 0.1 });
    expect(distributionOf({ source: 'openAi', model: 'text-embedding-3-large' })).toEqual({ mean: 0.7, sigma: 0.1 });
    expect(distributionOf({ source: 'rest', url: 'http://x' })).toBeUndefined();
  });
});
