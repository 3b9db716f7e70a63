/**
 * The synchronous bridge between the index writer thread and the embedders. A document batch
 * runs synchronously inside one LMDB write transaction in the writer thread, but embedding is
 * HTTP: the writer posts a request on a MessagePort and blocks (Atomics.wait on a small
 * SharedArrayBuffer) while the main thread — which owns the outgoing client under the server's
 * IP policy, and whose event loop does the HTTP without blocking searches — runs
 * `embedDocuments`, posts the answer, then raises the flag; the writer takes the answer with
 * `receiveMessageOnPort`. One channel per index write (index-writer.ts), so the requests it
 * counts are that batch's `embedderRequests`. An error the embedder answered throws an
 * EmbedderFailure in the writer: the write's, not a document's (the whole batch fails with it, as
 * in v1.50).
 *
 * The writer never waits forever: it gives up after the answer deadline (per round of requests, a bound on what the
 * retries of v1.50 can take), an EmbedderFailure too, and a cancelation (`interrupt[0]` non-zero)
 * stops the wait at once, while the main side aborts the embedding in flight.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { ApiError } from '../errors/api-error.js';
import { EmbedderFailure } from '../embedders/embed-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { embedDocuments, PARALLEL_REQUESTS } from '../embedders/embed.js';
import { EmbedderRequestStats } from '../embedders/request-stats.js';
import { STRICT_FAILURE_MODES } from '../embedders/failure-modes.js';
import { configuredRuntime } from '../embedders/runtime.js';
import type { EmbedderSettings } from '../types/settings.js';

const NO_ANSWER = 0;
const ANSWERED = 1;

/** What the writer thread gets in its job: its end of the channel and the flag. */
export interface EmbeddingEnds {
  readonly port: MessagePort;
  readonly flag: Int32Array;
  /** the longest wait for one round of requests to the embedder (an answer waits one per round) */
  readonly answerMs: number;
  /** a document whose template does not render gets no embedding instead of failing the write (failure-modes.ts) */
  readonly ignoreTemplateFailures: boolean;
}

type Request = { readonly id: number; readonly name: string; readonly settings: EmbedderSettings; readonly texts: readonly unknown[] };

type Answer =
  | { readonly embeddings: (Float32Array | null)[] }
  | { readonly error: { readonly code: ErrorCode; readonly message: string } | { readonly internal: string } };

/** An answer and the request it answers: a late answer to an abandoned request is skipped. */
type Reply = { readonly id: number; readonly answer: Answer };

/** The embedding of one write, served by this (the main) thread until `close`. */
export interface EmbeddingService {
  readonly ends: EmbeddingEnds;
  readonly transfer: MessagePort[];
  /** the requests of the write so far (`embedderRequests` of its batch) */
  readonly stats: EmbedderRequestStats;
  close(): void;
}

/** A bound on one `embedDocuments` call: 11 attempts, each with its timeout and its longest delay, plus slack. */
function answerBound(): number {
  const { timeoutMs, maxRetryDelayMs } = configuredRuntime() ?? { timeoutMs: 30_000, maxRetryDelayMs: 60_000 };
  return 11 * (timeoutMs + maxRetryDelayMs) + 60_000;
}

/** Serves the embedding requests of one write; `signal` (the task's cancelation) aborts those in flight. */
export function serveEmbedding(signal: AbortSignal): EmbeddingService {
  const { port1, port2 } = new MessageChannel();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const stats = new EmbedderRequestStats();
  const stop = new AbortController();
  const aborted = AbortSignal.any([signal, stop.signal]);
  const runtime = configuredRuntime();
  const modes = runtime?.failureModes ?? STRICT_FAILURE_MODES;
  // v1.50 logs the request it ignores, and goes on
  const ignored = modes.ignoreEmbedderFailures ? (error: ApiError) => runtime?.warn?.('ignored error embedding batch of documents due to failure policy', error) : undefined;
  port1.on('message', (request: Request) => {
    void answer(request, stats, aborted, ignored).then((reply) => {
      if (stop.signal.aborted) return;
      port1.postMessage({ id: request.id, answer: reply } satisfies Reply);
      Atomics.store(flag, 0, ANSWERED);
      Atomics.notify(flag, 0);
    });
  });
  return {
    ends: { port: port2, flag, answerMs: answerBound(), ignoreTemplateFailures: modes.ignoreDocumentTemplateFailures },
    transfer: [port2],
    stats,
    close() {
      stop.abort();
      port1.close();
    },
  };
}

async function answer(request: Request, stats: EmbedderRequestStats, signal: AbortSignal, ignored: ((error: ApiError) => void) | undefined): Promise<Answer> {
  try {
    return { embeddings: await embedDocuments(request.name, request.settings, request.texts, stats, signal, ignored) };
  } catch (error) {
    if (error instanceof ApiError) return { error: { code: error.code, message: error.message } };
    return { error: { internal: error instanceof Error ? error.message : String(error) } };
  }
}

/** The writer thread's side of a channel: blocking calls. */
export class EmbeddingClient {
  private nextId = 0;

  constructor(
    private readonly ends: EmbeddingEnds,
    private readonly interrupt: Int32Array,
    private readonly interruptedMessage: string,
  ) {}

  /**
   * One embedding per text, null for the texts of a request whose failure is ignored (the
   * service's failure modes); throws `vector_embedding_error` as v1.50 fails a batch.
   */
  embed(name: string, settings: EmbedderSettings, texts: readonly unknown[]): (Float32Array | null)[] {
    if (texts.length === 0) return [];
    return (this.ask({ id: this.nextId++, name, settings, texts }) as { embeddings: (Float32Array | null)[] }).embeddings;
  }

  private ask(request: Request): Answer {
    const { port, flag } = this.ends;
    port.postMessage(request);
    // the texts go out PARALLEL_REQUESTS at a time (at worst one a request): a bound per round
    const answerMs = this.ends.answerMs * Math.max(1, Math.ceil(request.texts.length / PARALLEL_REQUESTS));
    const deadline = performance.now() + answerMs;
    for (;;) {
      if (Atomics.load(this.interrupt, 0) !== 0) throw new Error(this.interruptedMessage);
      // The flag only wakes this thread: lowered first, then the port drained, so an answer
      // posted meanwhile (posted before its flag is raised) is never missed.
      Atomics.store(flag, 0, NO_ANSWER);
      for (let received = receiveMessageOnPort(port); received !== undefined; received = receiveMessageOnPort(port)) {
        const reply = received.message as Reply;
        if (reply.id === request.id) return unwrap(reply.answer);
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        throw new EmbedderFailure(
          'vector_embedding_error',
          `While embedding documents for embedder \`${request.name}\`: runtime error: no answer from the embedding service after ${Math.round(answerMs / 1000)}s`,
        );
      }
      Atomics.wait(flag, 0, NO_ANSWER, Math.min(100, left));
    }
  }
}

function unwrap(answer: Answer): Answer {
  if (!('error' in answer)) return answer;
  const error = answer.error;
  if ('internal' in error) throw new Error(error.internal);
  throw new EmbedderFailure(error.code, error.message);
}
