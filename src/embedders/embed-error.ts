/**
 * Embedding failures as milli words them (crates/milli/src/vector/error.rs): a fault source
 * (`user error`, `runtime error`, `coding error`, `error`) then the kind's message. One class for
 * both of milli's `EmbedError` (embedding failed) and `NewEmbedderError` (the embedder could not
 * be built: bad template, unsupported Ollama URL, dimensions not inferable, model not loadable).
 * The API forms: `Error while generating embeddings: …` (code `vector_embedding_error`), and
 * for indexing ``While embedding documents for embedder `name`: …``.
 */
import { ApiError } from '../errors/api-error.js';

export type Fault = 'user' | 'runtime' | 'coding' | 'undecided';

const FAULT_WORDS: Readonly<Record<Fault, string>> = {
  user: 'user error',
  runtime: 'runtime error',
  coding: 'coding error',
  undecided: 'error',
};

/** What kind of failure, where callers must tell them apart (retry policy, Ollama's 404, OpenAI's 400). */
export type EmbedErrorKind = 'unauthorized' | 'rateLimited' | 'badRequest' | 'serverError' | 'otherStatus' | 'network' | 'deserialization' | 'other';

export class EmbedError extends Error {
  override readonly name = 'EmbedError';

  constructor(
    readonly fault: Fault,
    /** the kind's message, without the fault words */
    readonly detail: string,
    readonly kind: EmbedErrorKind = 'other',
    /** the HTTP status, for status kinds */
    readonly status?: number,
    /** the server's answer body, for status kinds */
    readonly reply?: string,
  ) {
    super(`${FAULT_WORDS[fault]}: ${detail}`);
  }
}

/** `\n  - server replied with `…``, milli's `option_info`. */
export function replyInfo(reply: string | undefined): string {
  return reply === undefined ? '' : `\n  - server replied with \`${reply}\``;
}

/** The error a search or a settings check answers (`Error while generating embeddings: …`). */
export function embeddingApiError(error: EmbedError): ApiError {
  return new ApiError('vector_embedding_error', `Error while generating embeddings: ${error.message}`);
}

/**
 * An index write that failed because its embedder did (a request still failing after v1.50's
 * retries): the embedder's failure, not one document's, so the whole batch fails with it, as in
 * v1.50, and no task is tried again without the others (that would ask the embedder again, the
 * retries each time: a queue held for minutes per task while the embedder is down).
 */
export class EmbedderFailure extends ApiError {}

/** The error that fails an indexing batch (the batch adds ``Index `uid`: ``). */
export function indexingEmbedError(embedderName: string, error: EmbedError): ApiError {
  return new ApiError('vector_embedding_error', `While embedding documents for embedder \`${embedderName}\`: ${error.message}`);
}
