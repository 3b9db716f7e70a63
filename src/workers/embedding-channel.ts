/**
 * The synchronous bridge between the index writer thread and the embedders. A document batch
 * runs synchronously inside one LMDB write transaction in the writer thread, but embedding is
 * HTTP: the writer posts a request on a MessagePort and blocks (Atomics.wait on a small
 * SharedArrayBuffer) while the main thread — which owns the outgoing client under the server's
 * IP policy, and whose event loop does the HTTP without blocking searches — runs
 * `embedDocuments`, posting each run of embeddings answered (in text order) and raising the
 * flag; the writer takes each run with `receiveMessageOnPort` and stores it (the HNSW insertion)
 * while the requests after it are in flight, then tells the main thread how far it took them, so
 * that answers wait for it only a bounded way ahead (embed.ts). One channel per index write
 * (index-writer.ts), so the requests it counts are that batch's `embedderRequests`. An error the
 * embedder answered throws an EmbedderFailure in the writer: the write's, not a document's (the
 * whole batch fails with it and rolls back, runs already stored included, as in v1.50).
 *
 * The writer never waits forever: it gives up when no run comes within the answer deadline (a
 * bound on what one request's retries in v1.50 can take: the next run's request is in flight as
 * soon as the writer took the one before), an EmbedderFailure too, and a cancelation
 * (`interrupt[0]` non-zero) stops the wait at once, while the main side aborts the embedding in flight.
 */
import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { ApiError } from '../errors/api-error.js';
import { EmbedderFailure } from '../embedders/embed-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { embedDocuments } from '../embedders/embed.js';
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
  /** the longest wait for the next run of embeddings */
  readonly answerMs: number;
  /** a document whose template does not render gets no embedding instead of failing the write (failure-modes.ts) */
  readonly ignoreTemplateFailures: boolean;
}

type Request = { readonly id: number; readonly name: string; readonly settings: EmbedderSettings; readonly texts: readonly unknown[] };

/** The writer's word that it took (stored) the embeddings of request `id`'s first `took` texts. */
type Took = { readonly id: number; readonly took: number };

type Answer =
  /** the embeddings of texts `from`… (null: the failure of their request was ignored) */
  | { readonly from: number; readonly embeddings: (Float32Array | null)[] }
  | { readonly error: { readonly code: ErrorCode; readonly message: string } | { readonly internal: string } };

/** An answer and the request it answers: a late answer to an abandoned request is skipped. */
type Reply = { readonly id: number; readonly answer: Answer };

/** How far the writer took a request's embeddings, and the requests waiting for it to take more. */
class Progress {
  took = 0;
  private readonly waiting: { count: number; resolve: () => void }[] = [];

  until(count: number): Promise<void> {
    if (count <= this.took) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ count, resolve }));
  }

  advance(took: number): void {
    this.took = Math.max(this.took, took);
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      if (this.waiting[i]!.count > this.took) continue;
      this.waiting[i]!.resolve();
      this.waiting.splice(i, 1);
    }
  }
}

/** The embedding of one write, served by this (the main) thread until `close`. */
export interface EmbeddingService {
  readonly ends: EmbeddingEnds;
  readonly transfer: MessagePort[];
  /** the requests of the write so far (`embedderRequests` of its batch) */
  readonly stats: EmbedderRequestStats;
  close(): void;
}

/** A bound on one request: 11 attempts, each with its timeout and its longest delay, plus slack. */
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
  const progress = new Map<number, Progress>();
  const post = (reply: Reply) => {
    if (stop.signal.aborted) return;
    port1.postMessage(reply);
    Atomics.store(flag, 0, ANSWERED);
    Atomics.notify(flag, 0);
  };
  port1.on('message', (message: Request | Took) => {
    if ('took' in message) {
      progress.get(message.id)?.advance(message.took);
      return;
    }
    const { id, name, settings, texts } = message;
    const taken = new Progress();
    progress.set(id, taken);
    const run = {
      stats,
      signal: aborted,
      ignored,
      take: (from: number, embeddings: (Float32Array | null)[]) => post({ id, answer: { from, embeddings } }),
      taken: (count: number) => taken.until(count),
    };
    void embedDocuments(name, settings, texts, run).then(
      () => progress.delete(id),
      (error: unknown) => {
        progress.delete(id);
        post({ id, answer: failed(error) });
      },
    );
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

function failed(error: unknown): Answer {
  if (error instanceof ApiError) return { error: { code: error.code, message: error.message } };
  return { error: { internal: error instanceof Error ? error.message : String(error) } };
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
   * Embeds `texts`, handing `take` their embeddings in text order, a run at a time as the
   * requests are answered (null for the texts of a request whose failure is ignored: the
   * service's failure modes); throws `vector_embedding_error` as v1.50 fails a batch.
   */
  embed(name: string, settings: EmbedderSettings, texts: readonly unknown[], take: (from: number, embeddings: (Float32Array | null)[]) => void): void {
    if (texts.length === 0) return;
    const id = this.nextId++;
    const { port } = this.ends;
    port.postMessage({ id, name, settings, texts } satisfies Request);
    for (let took = 0; took < texts.length; ) {
      const { from, embeddings } = this.next(id, name);
      take(from, embeddings);
      took = from + embeddings.length;
      port.postMessage({ id, took } satisfies Took);
    }
  }

  /** The next run of embeddings of request `id`, waiting for it up to the answer deadline. */
  private next(id: number, name: string): { from: number; embeddings: (Float32Array | null)[] } {
    const { port, flag, answerMs } = this.ends;
    const deadline = performance.now() + answerMs;
    for (;;) {
      if (Atomics.load(this.interrupt, 0) !== 0) throw new Error(this.interruptedMessage);
      // The flag only wakes this thread: lowered first, then the port drained, so an answer
      // posted meanwhile (posted before its flag is raised) is never missed.
      Atomics.store(flag, 0, NO_ANSWER);
      for (let received = receiveMessageOnPort(port); received !== undefined; received = receiveMessageOnPort(port)) {
        const reply = received.message as Reply;
        if (reply.id === id) return unwrap(reply.answer);
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        throw new EmbedderFailure(
          'vector_embedding_error',
          `While embedding documents for embedder \`${name}\`: runtime error: no answer from the embedding service after ${Math.round(answerMs / 1000)}s`,
        );
      }
      Atomics.wait(flag, 0, NO_ANSWER, Math.min(100, left));
    }
  }
}

function unwrap(answer: Answer): { from: number; embeddings: (Float32Array | null)[] } {
  if (!('error' in answer)) return answer;
  const error = answer.error;
  if ('internal' in error) throw new Error(error.internal);
  throw new EmbedderFailure(error.code, error.message);
}
