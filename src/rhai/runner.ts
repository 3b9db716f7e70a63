/**
 * Runs an edition function over documents in the indexing worker pool (piscina), for two
 * reasons: Rhai allows 1000 nested script calls, which needs more stack than the main thread
 * has, and a long edition must not stall the HTTP server. Chunks run on every pool thread at
 * once; outcomes come back in document order. Aborting the signal stops the workers at once.
 * Documents go to the threads and come back as JSON text (thread.ts), their floats kept; the
 * context goes as its JSON text, written once (or the text a task record read it as).
 */
import type { Piscina } from 'piscina';
import { stringifyReply } from '../types/reply-text.js';
import { jsonTextOf } from '../types/json-text-object.js';
import type { EditOutcome } from './index.js';
import { parseWithFloats } from '../types/written-floats.js';
import type { EditionJob, EditionReply } from './thread.js';

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

/** An outcome as the runner answers it: a replacement with its JSON text too, as the thread wrote it (floats as floats). */
export type EditedOutcome = Exclude<EditOutcome, { kind: 'replace' }> | { kind: 'replace'; document: JsonObject; text: string };

function unwrap(reply: EditionReply): EditedOutcome[] {
  if (reply.type === 'outcomes') return reply.outcomes.map((outcome) => (outcome.kind === 'replace' ? { kind: 'replace', document: parseWithFloats(outcome.text) as JsonObject, text: outcome.text } : outcome));
  throw new EditionError(reply.type === 'compile-error' ? 'compile' : 'run', reply.message);
}

export class EditionRunner {
  private readonly context: string | null;

  constructor(
    private readonly pool: Piscina,
    private readonly source: string,
    context: JsonObject | null,
    private readonly signal: AbortSignal,
  ) {
    this.context = context === null ? null : (jsonTextOf(context) ?? stringifyReply(context));
  }

  private run(documents: JsonObject[]): Promise<EditedOutcome[]> {
    const job: EditionJob = { source: this.source, context: this.context, documents: documents.map((doc) => stringifyReply(doc)) };
    return (this.pool.run(job, { signal: this.signal }) as Promise<EditionReply>).then(unwrap);
  }

  /** Throws the compile error, if the function does not compile. */
  async check(): Promise<void> {
    await this.run([]);
  }

  /** What the function does to each document, in order; rejects with the first Rhai error. */
  async edit(chunks: JsonObject[][]): Promise<EditedOutcome[][]> {
    return Promise.all(chunks.map((chunk) => this.run(chunk)));
  }
}
