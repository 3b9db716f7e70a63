// Pooling of a Hugging Face model's token embeddings as milli's hf.rs pools them: the model's
// 1_Pooling config (flags in milli's precedence, mean without one), the `pooling` override, and
// each pooling over a text's real tokens only (a padded batch pools as texts embedded alone).
import { describe, expect, it } from 'vitest';
import { EmbedError } from '../../../src/embedders/embed-error.js';
import { effectivePooling, pool, poolingFromConfig } from '../../../src/embedders/hf-pooling.js';

describe('the pooling a model declares', () => {
  it('follows the config flags in milli order, mean when none is set', () => {
    expect(poolingFromConfig('{"pooling_mode_cls_token": true, "pooling_mode_mean_tokens": true}', 'm', 'f')).toBe('cls');
    expect(poolingFromConfig('{"pooling_mode_mean_tokens": true, "pooling_mode_max_tokens": true}', 'm', 'f')).toBe('mean');
    expect(poolingFromConfig('{"pooling_mode_lasttoken": true, "pooling_mode_mean_sqrt_len_tokens": true}', 'm', 'f')).toBe('lastToken');
    expect(poolingFromConfig('{"pooling_mode_mean_sqrt_len_tokens": true, "pooling_mode_max_tokens": true}', 'm', 'f')).toBe('meanSqrtLen');
    expect(poolingFromConfig('{"pooling_mode_max_tokens": true}', 'm', 'f')).toBe('max');
    expect(poolingFromConfig('{"word_embedding_dimension": 768}', 'm', 'f')).toBe('mean');
  });

  it('refuses a file that is not a pooling config with v1.50 words', () => {
    expect(() => poolingFromConfig('nope', 'org/m', '/x/1_Pooling/config.json')).toThrow(EmbedError);
    expect(() => poolingFromConfig('{"pooling_mode_cls_token": 1}', 'org/m', '/x/c.json')).toThrow(
      "runtime error: for model 'org/m', could not deserialize file at `/x/c.json` as a pooling config: invalid type for `pooling_mode_cls_token`: expected a boolean",
    );
  });

  it('is kept by useModel and replaced by forceMean and forceCls', () => {
    expect(effectivePooling('max', 'useModel')).toBe('max');
    expect(effectivePooling('cls', 'forceMean')).toBe('mean');
    expect(effectivePooling('mean', 'forceCls')).toBe('cls');
  });
});

describe('pooling token embeddings', () => {
  // two texts, sequence 3, dims 2: the second has one padding token (which must not count)
  const hidden = Float32Array.from([1, 2, 6, 4, 5, 9, /**/ 2, 0, 4, 8, 100, 100]);
  const lengths = [3, 2];
  const at = (pooling: Parameters<typeof pool>[4]) => pool(hidden, 3, 2, lengths, pooling).map((v) => Array.from(v));

  it('means, and means by the square root of the length, over real tokens', () => {
    expect(at('mean')).toEqual([[4, 5], [3, 4]]);
    expect(at('meanSqrtLen').map((v) => v.map((x) => Math.fround(x)))).toEqual([
      [Math.fround(12 / Math.sqrt(3)), Math.fround(15 / Math.sqrt(3))],
      [Math.fround(6 / Math.sqrt(2)), Math.fround(8 / Math.sqrt(2))],
    ]);
  });

  it('takes the first token, the last real token, or the maximum of real tokens', () => {
    expect(at('cls')).toEqual([[1, 2], [2, 0]]);
    expect(at('lastToken')).toEqual([[5, 9], [4, 8]]);
    expect(at('max')).toEqual([[6, 9], [4, 8]]);
  });
});
