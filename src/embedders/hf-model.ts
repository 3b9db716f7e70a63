/**
 * A Hugging Face model as the model thread (hf-model-thread.ts) runs it: its tokenizer
 * (`tokenizer.json`) and its ONNX graph, with Transformers.js on onnxruntime-node's CPU backend,
 * remote loading off (no network, ever). Loading follows v1.50's steps and words (pooling config,
 * `config.json`, tokenizer, weights); a model is loaded once per cached snapshot and kept (the
 * last few). Running turns
 * texts into token embeddings: each text tokenized as v1.50 does (special tokens added, cut at
 * the config's `max_position_embeddings`), the batch padded, token types zero.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EmbedError } from './embed-error.js';
import type { ModelFiles } from './hf-hub-cache.js';
import { poolingFromConfig, type Pooling } from './hf-pooling.js';

type Transformers = typeof import('@huggingface/transformers');
type Tokenizer = InstanceType<Transformers['PreTrainedTokenizer']>;
type Model = Awaited<ReturnType<Transformers['AutoModel']['from_pretrained']>>;

/** Token embeddings of a batch: `hidden` is [texts, sequence, dims]; text `t` has `lengths[t]` real tokens. */
export interface TokenEmbeddings {
  readonly hidden: Float32Array;
  readonly sequence: number;
  readonly dims: number;
  readonly lengths: readonly number[];
}

export interface LoadedModel {
  /** the pooling the model declares (mean without a pooling config) */
  readonly pooling: Pooling;
  run(texts: readonly string[]): Promise<TokenEmbeddings>;
}

/** Graph outputs holding token embeddings: transformers' and sentence-transformers' exports. */
const TOKEN_OUTPUTS = ['last_hidden_state', 'token_embeddings'];
const DEFAULT_MAX_TOKENS = 512;
const KEPT_MODELS = 4;

let library: Promise<Transformers> | undefined;

function transformers(): Promise<Transformers> {
  library ??= import('@huggingface/transformers').then(
    (tf) => {
      tf.env.allowRemoteModels = false;
      tf.env.allowLocalModels = true;
      tf.env.useFSCache = false;
      tf.env.useBrowserCache = false;
      tf.env.logLevel = tf.LogLevel.ERROR;
      return tf;
    },
    (error: unknown) => {
      library = undefined;
      throw new EmbedError('runtime', `loading model failed:\n  - the model runtime (@huggingface/transformers) could not be loaded: ${message(error)}`);
    },
  );
  return library;
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function readText(file: string, failure: (reason: string) => EmbedError): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw failure(message(error));
  }
}

/** `max_position_embeddings` of `config.json`, read as v1.50 reads it. */
function maxTokensOf(files: ModelFiles, model: string): number {
  const text = readText(files.config, (reason) => new EmbedError('runtime', `could not open config at ${files.config}: ${reason}`));
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch (error) {
    throw new EmbedError('runtime', `for model '${model}', could not deserialize config at ${files.config} as JSON: ${message(error)}`);
  }
  const max = (config as Record<string, unknown> | null)?.max_position_embeddings;
  return typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : DEFAULT_MAX_TOKENS;
}

function tokenizerOf(tf: Transformers, files: ModelFiles): Tokenizer {
  try {
    const json = JSON.parse(readFileSync(files.tokenizer, 'utf8')) as object;
    // tokenizer_config.json is optional (v1.50 reads tokenizer.json alone); it names special tokens
    let config: object = {};
    try {
      config = JSON.parse(readFileSync(path.join(files.snapshot, 'tokenizer_config.json'), 'utf8')) as object;
    } catch {
      // absent or unreadable: the tokenizer.json alone
    }
    return new tf.PreTrainedTokenizer(json, config);
  } catch (error) {
    throw new EmbedError('runtime', `could not open tokenizer at ${files.tokenizer}: ${message(error)}`);
  }
}

async function modelOf(tf: Transformers, files: ModelFiles, name: string): Promise<{ model: Model; output: string }> {
  const folder = path.dirname(files.onnx);
  let model: Model;
  try {
    model = await tf.AutoModel.from_pretrained(files.snapshot, {
      local_files_only: true,
      device: 'cpu',
      dtype: 'fp32',
      subfolder: folder === '.' ? '' : folder,
      model_file_name: path.basename(files.onnx, '.onnx'),
    });
  } catch (error) {
    throw new EmbedError('runtime', `loading model failed:\n  - ${message(error)}`);
  }
  const outputs: string[] = model.sessions.model?.outputNames ?? [];
  const output = TOKEN_OUTPUTS.find((name) => outputs.includes(name));
  if (output === undefined) {
    throw new EmbedError(
      'user',
      `model \`${name}\` appears to be unsupported\n  - inner error: its ONNX graph has no token embeddings output (\`last_hidden_state\` or \`token_embeddings\`); outputs: ${JSON.stringify(outputs)}\n  - Note: only models that output token embeddings (BERT-like encoders exported for feature extraction) are supported.`,
    );
  }
  return { model, output };
}

class OnnxModel implements LoadedModel {
  constructor(
    private readonly tf: Transformers,
    private readonly tokenizer: Tokenizer,
    private readonly model: Model,
    private readonly output: string,
    private readonly maxTokens: number,
    readonly pooling: Pooling,
  ) {}

  async run(texts: readonly string[]): Promise<TokenEmbeddings> {
    const encoded = texts.map((text) => this.tokenizer.encode(text).slice(0, this.maxTokens));
    const lengths = encoded.map((ids) => ids.length);
    if (lengths.includes(0)) throw new EmbedError('runtime', 'no embedding was produced');
    const sequence = Math.max(...lengths);
    const ids = new BigInt64Array(texts.length * sequence).fill(BigInt(this.tokenizer.pad_token_id ?? 0));
    const mask = new BigInt64Array(texts.length * sequence);
    encoded.forEach((tokens, t) =>
      tokens.forEach((id, i) => {
        ids[t * sequence + i] = BigInt(id);
        mask[t * sequence + i] = 1n;
      }),
    );
    const shape = [texts.length, sequence];
    let outputs: Record<string, InstanceType<Transformers['Tensor']>>;
    try {
      outputs = await this.model({ input_ids: new this.tf.Tensor('int64', ids, shape), attention_mask: new this.tf.Tensor('int64', mask, shape) });
    } catch (error) {
      throw new EmbedError('runtime', `could not run model:\n  - ${message(error)}`);
    }
    const hidden = outputs[this.output]!;
    if (!(hidden.data instanceof Float32Array) || hidden.dims.length !== 3) {
      throw new EmbedError('runtime', `unexpected tensor shape:\n  - \`${this.output}\` is ${hidden.type} of shape ${JSON.stringify(hidden.dims)}, expected float32 [texts, tokens, dimensions]`);
    }
    return { hidden: hidden.data, sequence, dims: hidden.dims[2]!, lengths };
  }
}

async function load(files: ModelFiles, name: string): Promise<LoadedModel> {
  const tf = await transformers();
  let pooling: Pooling = 'mean';
  if (files.pooling !== undefined) {
    const file = files.pooling;
    const text = readText(file, (reason) => new EmbedError('runtime', `could not open pooling config at ${file}: ${reason}`));
    pooling = poolingFromConfig(text, name, file);
  }
  const maxTokens = maxTokensOf(files, name);
  const tokenizer = tokenizerOf(tf, files);
  const { model, output } = await modelOf(tf, files, name);
  return new OnnxModel(tf, tokenizer, model, output, maxTokens, pooling);
}

/** Loaded models of this (the model) thread by snapshot and weights, the most recently used last; a failed load is not kept. */
const loaded = new Map<string, Promise<LoadedModel>>();

/** The model of `files` (named `name` in errors), loaded at its first use. Rejects with `EmbedError`. */
export function loadModel(files: ModelFiles, name: string): Promise<LoadedModel> {
  const key = path.join(files.snapshot, files.onnx);
  let model = loaded.get(key);
  if (model !== undefined) {
    loaded.delete(key);
  } else {
    model = load(files, name);
    model.catch(() => loaded.get(key) === model && loaded.delete(key));
    // an evicted model is garbage collected, its session with it, once no run in flight uses it
    if (loaded.size >= KEPT_MODELS) loaded.delete(loaded.keys().next().value!);
  }
  loaded.set(key, model);
  return model;
}
