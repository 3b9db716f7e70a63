/**
 * An embedder built from its settings, per source (vectors.md §3.3, milli's `embedder/*.rs`):
 * `rest` as configured (its request holds `{{fragment}}` when it has multimodal fragments); `openAi` and `ollama` as REST configurations with their fixed request and
 * response shapes, default URLs and keys; `userProvided` refuses to embed; `composite` embeds
 * documents with its indexing embedder and queries with its search embedder; `huggingFace` runs a
 * model from the local hub cache (hf-embedder.ts). Building never does I/O; preparing and
 * embedding do.
 */
import { hasFragments } from '../types/fragments.js';
import type { EmbedderSettings } from '../types/settings.js';
import { EmbedError, replyInfo } from './embed-error.js';
import { HuggingFaceEmbedder, huggingFaceOptions } from './hf-embedder.js';
import { firstTokens, OPENAI_MAX_TOKENS } from './openai-tokens.js';
import { DEFAULT_OPENAI_MODEL, OPENAI_MODELS } from './source-defaults.js';
import { REPEAT_PLACEHOLDER, TEXT_PLACEHOLDER, EMBEDDING_PLACEHOLDER } from './json-template.js';
import { parseFragmentRestTemplates, parseRestTemplates, restEmbed, textsPerRequest, type EmbedCall, type RestOptions, type RestTemplates } from './rest.js';
import type { EmbedderRuntime } from './runtime.js';

export const OPENAI_EMBEDDINGS_URL = 'https://api.openai.com/v1/embeddings';
export const OLLAMA_DEFAULT_URL = 'http://localhost:11434/api/embeddings';

/** Requests a remote embedder has in flight at once while indexing: v1.50's `REQUEST_PARALLELISM` (its pool of embedding request threads). */
const REQUEST_PARALLELISM = 40;

export interface Embedder {
  /** texts sent per request */
  readonly chunkSize: number;
  /** chunks embedded at once while indexing (milli's `chunk_count_hint`) */
  readonly parallelism: number;
  /** the configured or known dimensions; undefined until inferred */
  readonly dimensions: number | undefined;
  /** embeds `texts` (rendered fragments for a fragment embedder), one embedding each, in order */
  embed(texts: readonly unknown[], call: EmbedCall): Promise<Float32Array[]>;
  /** loads what embedding needs (a local model) before the first embedding; throws `EmbedError` */
  prepare?(): Promise<void>;
}

class RestEmbedder implements Embedder {
  readonly chunkSize: number;
  readonly parallelism = REQUEST_PARALLELISM;

  constructor(
    private readonly options: RestOptions,
    private readonly templates: RestTemplates,
    readonly dimensions: number | undefined,
    /** embeds texts again after a 400 (OpenAI's way) */
    private readonly onBadRequest?: (texts: readonly unknown[], call: EmbedCall) => Promise<Float32Array[]>,
  ) {
    this.chunkSize = textsPerRequest(templates);
  }

  async embed(texts: readonly unknown[], call: EmbedCall): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.chunkSize) {
      const chunk = texts.slice(i, i + this.chunkSize);
      out.push(...(await this.embedChunk(chunk, call)));
    }
    return out;
  }

  async embedChunk(texts: readonly unknown[], call: EmbedCall): Promise<Float32Array[]> {
    const dimensions = call.dimensions ?? this.dimensions;
    try {
      return await restEmbed(this.options, this.templates, texts, { ...call, dimensions });
    } catch (error) {
      if (error instanceof EmbedError && error.kind === 'badRequest' && this.onBadRequest !== undefined) return this.onBadRequest(texts, call);
      if (error instanceof EmbedError && error.kind === 'otherStatus' && error.status === 404 && this.options.configuration === 'ollama') {
        throw ollamaModelNotFound(error.reply);
      }
      throw error;
    }
  }
}

function ollamaModelNotFound(reply: string | undefined): EmbedError {
  return new EmbedError('user', `model not found. Meilisearch will not automatically download models from the Ollama library, please pull the model manually${replyInfo(reply)}`);
}

class UserProvidedEmbedder implements Embedder {
  readonly chunkSize = 1;
  readonly parallelism = 1;

  constructor(readonly dimensions: number | undefined) {}

  embed(texts: readonly unknown[]): Promise<Float32Array[]> {
    return Promise.reject(
      new EmbedError('user', `attempt to embed the following text in a configuration where embeddings must be user provided:\n  - \`${texts[0] ?? ''}\``),
    );
  }
}

export class CompositeEmbedder implements Embedder {
  constructor(
    readonly search: Embedder,
    readonly indexing: Embedder,
  ) {}

  get chunkSize(): number {
    return this.indexing.chunkSize;
  }

  get parallelism(): number {
    return this.indexing.parallelism;
  }

  get dimensions(): number | undefined {
    return this.indexing.dimensions ?? this.search.dimensions;
  }

  embed(texts: readonly unknown[], call: EmbedCall): Promise<Float32Array[]> {
    return this.indexing.embed(texts, call);
  }
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

function restEmbedder(settings: EmbedderSettings): Embedder {
  const options: RestOptions = {
    url: settings.url as string,
    request: settings.request,
    response: settings.response,
    apiKey: str(settings.apiKey),
    headers: (settings.headers as Record<string, string> | undefined) ?? {},
    configuration: 'user',
  };
  const fragments = hasFragments(settings);
  // milli's `infer_dimensions`: a test embedding of "test" has no fragment to go in
  if (fragments && settings.dimensions === undefined) {
    throw new EmbedError('user', 'cannot infer `dimensions` for an embedder using `indexingFragments`.\n  - Note: Specify `dimensions` explicitly or don\'t use `indexingFragments`.');
  }
  const templates = fragments ? parseFragmentRestTemplates(options.request, options.response) : parseRestTemplates(options.request, options.response);
  return new RestEmbedder(options, templates, num(settings.dimensions));
}

function openAiEmbedder(settings: EmbedderSettings, runtime: EmbedderRuntime): Embedder {
  const model = str(settings.model) ?? DEFAULT_OPENAI_MODEL;
  const known = OPENAI_MODELS[model] ?? OPENAI_MODELS[DEFAULT_OPENAI_MODEL]!;
  const overridden = known.overridable ? num(settings.dimensions) : undefined;
  const request: Record<string, unknown> = { model, input: [TEXT_PLACEHOLDER, REPEAT_PLACEHOLDER] };
  if (overridden !== undefined) request.dimensions = overridden;
  const response = { data: [{ embedding: EMBEDDING_PLACEHOLDER }, REPEAT_PLACEHOLDER] };
  const apiKey = str(settings.apiKey) ?? runtime.openAiApiKey;
  const options: RestOptions = {
    url: str(settings.url) ?? OPENAI_EMBEDDINGS_URL,
    request,
    response,
    apiKey: apiKey === '' ? undefined : apiKey,
    configuration: 'openAi',
  };
  const templates = parseRestTemplates(request, response);
  const dimensions = overridden ?? known.dimensions;
  // On a 400 (input maybe too long), v1.50 re-sends each text alone, or, from OPENAI_MAX_TOKENS
  // cl100k tokens on, its first OPENAI_MAX_TOKENS tokens as one tokenized input.
  const tokenized = async (texts: readonly unknown[], call: EmbedCall) => {
    const out: Float32Array[] = [];
    const alone = { ...call, dimensions: call.dimensions ?? dimensions };
    for (const text of texts) {
      const tokens = await firstTokens(String(text), OPENAI_MAX_TOKENS);
      if (tokens === null) out.push(...(await restEmbed(options, templates, [text], alone)));
      else out.push(...(await restEmbed(options, templates, tokens, alone, 1)));
    }
    return out;
  };
  return new RestEmbedder(options, templates, dimensions, tokenized);
}

/** Ollama's request/response shapes for its URL (milli's `into_rest_embedder_config`); throws for another URL. */
export function ollamaRestShape(settings: EmbedderSettings, envUrl: string | undefined): { url: string; request: unknown; response: unknown } {
  const model = str(settings.model) ?? 'nomic-embed-text';
  const url = str(settings.url) ?? envUrl ?? OLLAMA_DEFAULT_URL;
  if (url.endsWith('/api/embeddings')) return { url, request: { model, prompt: TEXT_PLACEHOLDER }, response: { embedding: EMBEDDING_PLACEHOLDER } };
  if (url.endsWith('/api/embed')) {
    return {
      url,
      request: { model, input: [TEXT_PLACEHOLDER, REPEAT_PLACEHOLDER] },
      response: { embeddings: [EMBEDDING_PLACEHOLDER, REPEAT_PLACEHOLDER] },
    };
  }
  throw new EmbedError(
    'user',
    `unsupported Ollama URL.\n  - For \`ollama\` sources, the URL must end with \`/api/embed\` or \`/api/embeddings\`\n  - Got \`${url}\``,
  );
}

function ollamaEmbedder(settings: EmbedderSettings, runtime: EmbedderRuntime): Embedder {
  const { url, request, response } = ollamaRestShape(settings, runtime.ollamaUrl);
  const options: RestOptions = { url, request, response, apiKey: str(settings.apiKey), configuration: 'ollama' };
  return new RestEmbedder(options, parseRestTemplates(request, response), num(settings.dimensions));
}

/** The embedder for stored (merged, validated) settings; throws `EmbedError` when it cannot be built. */
export function buildEmbedder(settings: EmbedderSettings, runtime: EmbedderRuntime): Embedder {
  switch ((settings.source as string | undefined) ?? 'openAi') {
    case 'rest':
      return restEmbedder(settings);
    case 'ollama':
      return ollamaEmbedder(settings, runtime);
    case 'userProvided':
      return new UserProvidedEmbedder(num(settings.dimensions));
    case 'huggingFace':
      return new HuggingFaceEmbedder(huggingFaceOptions(settings), runtime.huggingFaceHub, runtime.client, runtime.log);
    case 'composite':
      return new CompositeEmbedder(
        buildEmbedder(settings.searchEmbedder as EmbedderSettings, runtime),
        buildEmbedder(settings.indexingEmbedder as EmbedderSettings, runtime),
      );
    default:
      return openAiEmbedder(settings, runtime);
  }
}

/** The embedder that embeds search queries (a composite's search embedder). */
export function queryEmbedder(embedder: Embedder): Embedder {
  return embedder instanceof CompositeEmbedder ? embedder.search : embedder;
}
