/**
 * What every embedder request shares, set once at startup (main.ts): the outgoing HTTP client
 * under the server's IP policy, and the environment knobs v1.50 reads (request timeout, retry
 * cap, OpenAI key, Ollama URL, Hugging Face hub cache, failure modes), the size of the query
 * embedding cache and the server's log. The search path and the indexing bridge both embed through it.
 */
import type { OutgoingClient } from '../outgoing/client.js';
import { parseFailureModes, type EmbedderFailureModes } from './failure-modes.js';
import { hubFromEnv, type HubLocation } from './hf-hub-cache.js';

export interface EmbedderRuntime {
  client: OutgoingClient;
  /** per HTTP attempt (`MEILI_EXPERIMENTAL_REST_EMBEDDER_TIMEOUT_SECONDS`, 30 s) */
  timeoutMs: number;
  /** cap of one retry delay (`MEILI_EXPERIMENTAL_REST_EMBEDDER_MAX_RETRY_DURATION_SECONDS`, 60 s) */
  maxRetryDelayMs: number;
  /** `MEILI_OPENAI_API_KEY`, else `OPENAI_API_KEY` */
  openAiApiKey: string | undefined;
  /** `MEILI_OLLAMA_URL` */
  ollamaUrl: string | undefined;
  /** where Hugging Face models are cached (`HF_HOME`) */
  huggingFaceHub: HubLocation;
  /** query embeddings kept per embedder (`--experimental-embedding-cache-entries`, 0 = none) */
  queryCacheEntries: number;
  /** what a batch's embedding tolerates (`MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES`) */
  failureModes: EmbedderFailureModes;
  /** an info log line (a Hugging Face model file fetched from the hub) */
  log?: (message: string) => void;
  /** a warning (a failed request of documents ignored as `failureModes` allow) */
  warn?: (message: string, err: unknown) => void;
}

let runtime: EmbedderRuntime | null = null;

const seconds = (value: string | undefined, fallback: number): number => {
  const parsed = value === undefined ? NaN : Number(value);
  return (Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback) * 1000;
};

/**
 * The runtime from the process environment, the server's outgoing client, its query cache size
 * and its log; throws on failure modes v1.50 does not know (failure-modes.ts).
 */
export function runtimeFromEnv(
  client: OutgoingClient,
  env: NodeJS.ProcessEnv,
  queryCacheEntries = 0,
  logs: { info?: (message: string) => void; warn?: (message: string, err: unknown) => void } = {},
): EmbedderRuntime {
  return {
    client,
    queryCacheEntries,
    ...(logs.info === undefined ? {} : { log: logs.info }),
    ...(logs.warn === undefined ? {} : { warn: logs.warn }),
    failureModes: parseFailureModes(env.MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES),
    timeoutMs: seconds(env.MEILI_EXPERIMENTAL_REST_EMBEDDER_TIMEOUT_SECONDS, 30),
    maxRetryDelayMs: seconds(env.MEILI_EXPERIMENTAL_REST_EMBEDDER_MAX_RETRY_DURATION_SECONDS, 60),
    openAiApiKey: env.MEILI_OPENAI_API_KEY ?? env.OPENAI_API_KEY,
    ollamaUrl: env.MEILI_OLLAMA_URL,
    huggingFaceHub: hubFromEnv(env),
  };
}

export function setEmbedderRuntime(next: EmbedderRuntime): void {
  runtime = next;
}

/** The runtime, or null before startup configured it. */
export function configuredRuntime(): EmbedderRuntime | null {
  return runtime;
}

export function embedderRuntime(): EmbedderRuntime {
  if (runtime === null) throw new Error('embedders used before setEmbedderRuntime');
  return runtime;
}
