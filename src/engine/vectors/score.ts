/**
 * The semantic ranking score of a hit (vectors.md §8.1): `1 − distance`, in f32 as Meilisearch
 * computes it, then the embedder's distribution shift when it has one (its `distribution`
 * setting, else OpenAI's built-in one for its model, or Hugging Face's for its default model):
 * a score equal to `mean` maps to 0.5 and `mean ± sigma` to 0.5 ± 0.4, clamped to ]0, 1].
 */
import { similarityScore } from '../../kernels/vector.js';
import type { EmbedderSettings } from '../../types/settings.js';

export interface Distribution {
  readonly mean: number;
  readonly sigma: number;
}

const OPENAI_DISTRIBUTIONS: Readonly<Record<string, Distribution>> = {
  'text-embedding-ada-002': { mean: 0.9, sigma: 0.08 },
  'text-embedding-3-large': { mean: 0.7, sigma: 0.1 },
  'text-embedding-3-small': { mean: 0.75, sigma: 0.1 },
};

const OPENAI_DEFAULT_MODEL = 'text-embedding-3-small';
const F32_EPSILON = 1.1920928955078125e-7;

/** Hugging Face's built-in one: its default model only (milli's `hf::Embedder::distribution`). */
const HUGGING_FACE_DEFAULT_MODEL = 'BAAI/bge-base-en-v1.5';
const HUGGING_FACE_DISTRIBUTION: Distribution = { mean: 0.85, sigma: 0.1 };

export function distributionOf(embedder: EmbedderSettings): Distribution | undefined {
  const given = embedder.distribution as Distribution | undefined | null;
  if (given !== undefined && given !== null) return given;
  const model = typeof embedder.model === 'string' ? embedder.model : undefined;
  switch (embedder.source ?? 'openAi') {
    case 'openAi':
      return OPENAI_DISTRIBUTIONS[model ?? OPENAI_DEFAULT_MODEL];
    case 'huggingFace':
      return (model ?? HUGGING_FACE_DEFAULT_MODEL) === HUGGING_FACE_DEFAULT_MODEL ? HUGGING_FACE_DISTRIBUTION : undefined;
    default:
      return undefined;
  }
}

/** The score of a hit at `distance`. */
export function scoreOf(distance: number, distribution: Distribution | undefined): number {
  const f = Math.fround;
  const score = similarityScore(distance);
  if (distribution === undefined) return score;
  // factor · score + offset, each step in f32 as milli's DistributionShift::shift
  const factor = f(f(0.4) / f(distribution.sigma));
  const offset = f(0.5 - f(factor * f(distribution.mean)));
  const shifted = f(f(factor * score) + offset);
  if (shifted <= 0) return F32_EPSILON;
  return shifted > 1 ? 1 : shifted;
}
