/**
 * The `huggingFace` embedder (vectors.md §3.3, milli's `embedder/hf.rs`): a model from the local
 * Hugging Face hub cache, run in this process. `model` defaults to BAAI/bge-base-en-v1.5 at its
 * pinned revision (a given `model` uses `main` unless `revision` says otherwise); `pooling` keeps
 * the model's pooling or forces mean or CLS. Its files are found and the model loaded when the
 * embedder is prepared (the settings task) or first used; its dimensions are those of its
 * embeddings. Texts are embedded in batches of `chunkSize`, one model run each.
 */
import type { EmbedderSettings } from '../types/settings.js';
import { findModelFiles, type HubLocation } from './hf-hub-cache.js';
import { loadModel, type LoadedModel } from './hf-model.js';
import { effectivePooling, pool, type PoolingSetting } from './hf-pooling.js';
import type { EmbedCall } from './rest.js';
import { DEFAULT_HUGGING_FACE_MODEL, DEFAULT_HUGGING_FACE_REVISION } from './source-defaults.js';

/** Texts per model run: one padded batch, short enough that searches wait little between runs. */
export const HF_TEXTS_PER_RUN = 8;

export interface HuggingFaceOptions {
  readonly model: string;
  readonly revision: string;
  readonly pooling: PoolingSetting;
}

/** The model, revision and pooling of stored settings, with v1.50's defaults. */
export function huggingFaceOptions(settings: EmbedderSettings): HuggingFaceOptions {
  const model = typeof settings.model === 'string' ? settings.model : undefined;
  const revision = typeof settings.revision === 'string' ? settings.revision : model === undefined ? DEFAULT_HUGGING_FACE_REVISION : 'main';
  return { model: model ?? DEFAULT_HUGGING_FACE_MODEL, revision, pooling: (settings.pooling as PoolingSetting | undefined) ?? 'useModel' };
}

export class HuggingFaceEmbedder {
  readonly chunkSize = HF_TEXTS_PER_RUN;
  private known: number | undefined;

  constructor(
    readonly options: HuggingFaceOptions,
    private readonly hub: HubLocation,
  ) {}

  /** Known once an embedding was made (v1.50 probes them with the text `"test"`). */
  get dimensions(): number | undefined {
    return this.known;
  }

  /** Finds and loads the model; throws `EmbedError` as v1.50 fails to build the embedder. */
  async prepare(): Promise<void> {
    await this.model();
  }

  async embed(texts: readonly string[], call: EmbedCall): Promise<Float32Array[]> {
    const model = await this.model();
    const pooling = effectivePooling(model.pooling, this.options.pooling);
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += HF_TEXTS_PER_RUN) {
      call.signal?.throwIfAborted();
      const { hidden, sequence, dims, lengths } = await model.run(texts.slice(i, i + HF_TEXTS_PER_RUN));
      out.push(...pool(hidden, sequence, dims, lengths, pooling));
    }
    this.known ??= out[0]?.length;
    return out;
  }

  private model(): Promise<LoadedModel> {
    const { model, revision } = this.options;
    try {
      return loadModel(findModelFiles(this.hub, model, revision), model);
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
