/**
 * The `huggingFace` embedder (vectors.md §3.3, milli's `embedder/hf.rs`): a model from the local
 * Hugging Face hub cache, run in this process. `model` defaults to BAAI/bge-base-en-v1.5 at its
 * pinned revision (a given `model` uses `main` unless `revision` says otherwise); `pooling` keeps
 * the model's pooling or forces mean or CLS. What the cache lacks is fetched from the hub once
 * per embedder, when it is prepared (the settings task) or first used, as v1.50 fetches it when
 * it builds the embedder (hf-hub-download.ts); then its files are found in the cache at each run
 * and the model is loaded and run in the model thread; its dimensions are those of its
 * embeddings. Texts go in runs of `chunkSize`, one run at a time while indexing (`parallelism`).
 */
import type { EmbedderSettings } from '../types/settings.js';
import type { OutgoingClient } from '../outgoing/client.js';
import { findModelFiles, type HubLocation } from './hf-hub-cache.js';
import { fetchModelFiles } from './hf-hub-download.js';
import type { PoolingSetting } from './hf-pooling.js';
import { embedInModelThread } from './hf-thread-client.js';
import type { EmbedCall } from './rest.js';
import { DEFAULT_HUGGING_FACE_MODEL, DEFAULT_HUGGING_FACE_REVISION } from './source-defaults.js';

/** Texts per model run: one padded batch (each text cut at the model's maximum positions). */
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
  // the model thread runs one at a time, and v1.50 embeds with a local model one chunk after the other
  readonly parallelism = 1;
  private known: number | undefined;
  /** the fetch of what the cache lacked; dropped when it failed, so that a later use tries again */
  private fetched: Promise<void> | undefined;

  constructor(
    readonly options: HuggingFaceOptions,
    private readonly hub: HubLocation,
    private readonly client: OutgoingClient,
    private readonly log?: (message: string) => void,
  ) {}

  /** Known once an embedding was made (v1.50 probes them with the text `"test"`). */
  get dimensions(): number | undefined {
    return this.known;
  }

  /** Fetches, finds and loads the model; throws `EmbedError` as v1.50 fails to build the embedder. */
  async prepare(): Promise<void> {
    await this.run([]);
  }

  async embed(texts: readonly string[], call: EmbedCall): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += HF_TEXTS_PER_RUN) {
      call.signal?.throwIfAborted();
      out.push(...(await this.run(texts.slice(i, i + HF_TEXTS_PER_RUN), call.signal)));
    }
    this.known ??= out[0]?.length;
    return out;
  }

  /**
   * One run of the model thread; the files are looked up each time (a ref may move). The fetch is
   * shared by every run and not bound to any: a run's signal (a search's deadline) ends its own
   * wait, not a download the next run would otherwise start again.
   */
  private async run(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const { model, revision, pooling } = this.options;
    this.fetched ??= fetchModelFiles(this.hub, model, revision, { client: this.client, ...(this.log === undefined ? {} : { log: this.log }) }).then(
      () => undefined,
      (error: unknown) => {
        this.fetched = undefined;
        throw error;
      },
    );
    await untilAborted(this.fetched, signal);
    return embedInModelThread(findModelFiles(this.hub, model, revision), model, pooling, texts);
  }
}

/** `promise`, or the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
