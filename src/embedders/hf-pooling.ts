/**
 * How a Hugging Face model's token embeddings become one embedding per text (milli's
 * `hf::Pooling`): the model's own choice from sentence-transformers' `1_Pooling/config.json`
 * (mean when absent), which the `pooling` setting keeps (`useModel`) or forces (`forceMean`,
 * `forceCls`); then the pooling itself over each text's real tokens (padding of a batch excluded,
 * so a text pools as if embedded alone, as v1.50 embeds it).
 */
import { EmbedError } from './embed-error.js';

export type Pooling = 'mean' | 'cls' | 'max' | 'meanSqrtLen' | 'lastToken';
export type PoolingSetting = 'useModel' | 'forceMean' | 'forceCls';

/** The config's flags in milli's order of precedence. */
const FLAGS: ReadonlyArray<readonly [string, Pooling]> = [
  ['pooling_mode_cls_token', 'cls'],
  ['pooling_mode_mean_tokens', 'mean'],
  ['pooling_mode_lasttoken', 'lastToken'],
  ['pooling_mode_mean_sqrt_len_tokens', 'meanSqrtLen'],
  ['pooling_mode_max_tokens', 'max'],
];

/** The pooling a `1_Pooling/config.json` declares; throws v1.50's error when it is not one. */
export function poolingFromConfig(text: string, model: string, file: string): Pooling {
  const problem = (reason: string) =>
    new EmbedError('runtime', `for model '${model}', could not deserialize file at \`${file}\` as a pooling config: ${reason}`);
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw problem((error as Error).message);
  }
  if (config === null || typeof config !== 'object' || Array.isArray(config)) throw problem('invalid type: expected struct PoolingConfig');
  const flags = config as Record<string, unknown>;
  for (const [flag] of FLAGS) {
    if (flags[flag] !== undefined && typeof flags[flag] !== 'boolean') throw problem(`invalid type for \`${flag}\`: expected a boolean`);
  }
  return FLAGS.find(([flag]) => flags[flag] === true)?.[1] ?? 'mean';
}

export function effectivePooling(model: Pooling, setting: PoolingSetting): Pooling {
  return setting === 'forceMean' ? 'mean' : setting === 'forceCls' ? 'cls' : model;
}

/**
 * One embedding per text from `hidden` ([texts, sequence, dims], row-major), where text `t` has
 * `lengths[t]` real tokens from the start of its sequence.
 */
export function pool(hidden: Float32Array, sequence: number, dims: number, lengths: readonly number[], pooling: Pooling): Float32Array[] {
  return lengths.map((length, t) => {
    const out = new Float32Array(dims);
    const row = (i: number) => hidden.subarray((t * sequence + i) * dims, (t * sequence + i + 1) * dims);
    if (pooling === 'cls' || pooling === 'lastToken') {
      out.set(row(pooling === 'cls' ? 0 : length - 1));
      return out;
    }
    if (pooling === 'max') {
      out.set(row(0));
      for (let i = 1; i < length; i++) row(i).forEach((v, d) => (out[d] = Math.max(out[d]!, v)));
      return out;
    }
    const sum = new Float64Array(dims);
    for (let i = 0; i < length; i++) row(i).forEach((v, d) => (sum[d]! += v));
    const divisor = pooling === 'mean' ? length : Math.sqrt(length);
    sum.forEach((v, d) => (out[d] = v / divisor));
    return out;
  });
}
