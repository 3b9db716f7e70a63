/**
 * Runs an edition function on documents in a worker thread (thread.ts), for two reasons: Rhai
 * allows 1000 nested script calls, which needs more stack than the main thread has, and a long
 * edition must not stall the HTTP server. One runner per `documentEdition` task; documents go
 * in batches, in order, one batch at a time.
 *
 * @example
 *   const runner = await EditionRunner.start('doc.title = doc.title.to_upper()', null);
 *   try { const outcomes = await runner.edit([{ id: 1, title: 'a' }]); } finally { await runner.close(); }
 */
import { Worker } from 'node:worker_threads';
import type { EditOutcome } from './index.js';

type JsonObject = Record<string, unknown>;

/** A script that does not compile (`compile`) or fails on a document (`run`), with Rhai's message. */
export class EditionError extends Error {
  constructor(
    readonly phase: 'compile' | 'run',
    message: string,
  ) {
    super(message);
    this.name = 'EditionError';
  }
}

type Reply =
  | { type: 'ready' }
  | { type: 'compile-error'; message: string }
  | { type: 'outcomes'; outcomes: EditOutcome[] }
  | { type: 'runtime-error'; message: string }
  | { type: 'failure'; message: string };

/** Stack for 1000 nested calls of a script function, with room to spare. */
const STACK_MB = 64;

export class EditionRunner {
  private pending: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | null = null;
  private broken: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: Reply) => this.settle((p) => p.resolve(reply)));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`the edition worker exited with code ${code}`)));
  }

  static async start(source: string, context: JsonObject | null): Promise<EditionRunner> {
    const worker = new Worker(new URL('./thread.js', import.meta.url), {
      workerData: { source, context },
      resourceLimits: { stackSizeMb: STACK_MB },
    });
    const runner = new EditionRunner(worker);
    const reply = await runner.next();
    if (reply.type === 'ready') return runner;
    await runner.close();
    throw reply.type === 'compile-error' ? new EditionError('compile', reply.message) : new Error(`unexpected edition worker reply ${reply.type}`);
  }

  /** What the function does to each document, in order; rejects with the first Rhai error. */
  async edit(documents: JsonObject[]): Promise<EditOutcome[]> {
    const reply = this.next();
    this.worker.postMessage(documents);
    const answer = await reply;
    if (answer.type === 'outcomes') return answer.outcomes;
    if (answer.type === 'runtime-error') throw new EditionError('run', answer.message);
    throw new Error(answer.type === 'failure' ? answer.message : `unexpected edition worker reply ${answer.type}`);
  }

  /** Stops the worker; a batch still running is rejected. */
  async close(): Promise<void> {
    this.fail(new Error('the edition worker was stopped'));
    this.worker.removeAllListeners();
    await this.worker.terminate();
  }

  private next(): Promise<Reply> {
    if (this.broken !== null) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => (this.pending = { resolve, reject }));
  }

  private settle(action: (pending: NonNullable<EditionRunner['pending']>) => void): void {
    const pending = this.pending;
    this.pending = null;
    if (pending !== null) action(pending);
  }

  private fail(error: Error): void {
    this.broken ??= error;
    this.settle((p) => p.reject(error));
  }
}
