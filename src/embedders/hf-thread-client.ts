/**
 * The main thread's side of the Hugging Face model thread (hf-model-thread.ts): started at the
 * first use, one per process, so each model is loaded once per process; requests answered by id.
 * The thread holds the process open only while requests wait. If it dies (a native failure), the
 * requests waiting on it fail with `could not run model` and the next request starts a new one.
 */
import { Worker } from 'node:worker_threads';
import { EmbedError, type Fault } from './embed-error.js';
import type { ModelFiles } from './hf-hub-cache.js';
import type { PoolingSetting } from './hf-pooling.js';

/** Embed `texts` (none: only load) with the model of `files`, named `model` in errors. */
export interface ModelRequest {
  readonly id: number;
  readonly files: ModelFiles;
  readonly model: string;
  readonly pooling: PoolingSetting;
  readonly texts: readonly string[];
}

export type ModelReply =
  | { readonly id: number; readonly embeddings: Float32Array[] }
  | { readonly id: number; readonly error: { readonly fault: Fault; readonly detail: string } };

type Waiting = { resolve: (embeddings: Float32Array[]) => void; reject: (error: EmbedError) => void };

interface ModelThread {
  readonly worker: Worker;
  readonly waiting: Map<number, Waiting>;
}

const THREAD = new URL('./hf-model-thread.js', import.meta.url);

let current: ModelThread | undefined;
let nextId = 0;

function stopped(thread: ModelThread, reason: string): void {
  if (current === thread) current = undefined;
  for (const { reject } of thread.waiting.values()) reject(new EmbedError('runtime', `could not run model:\n  - the model thread stopped: ${reason}`));
  thread.waiting.clear();
}

function started(): ModelThread {
  if (current !== undefined) return current;
  let worker: Worker;
  try {
    worker = new Worker(THREAD);
  } catch (error) {
    throw new EmbedError('runtime', `could not run model:\n  - the model thread could not start: ${error instanceof Error ? error.message : String(error)}`);
  }
  const thread: ModelThread = { worker, waiting: new Map() };
  thread.worker.unref();
  thread.worker.on('message', (reply: ModelReply) => {
    const waiting = thread.waiting.get(reply.id);
    if (waiting === undefined) return;
    thread.waiting.delete(reply.id);
    if (thread.waiting.size === 0) thread.worker.unref();
    if ('error' in reply) waiting.reject(new EmbedError(reply.error.fault, reply.error.detail));
    else waiting.resolve(reply.embeddings);
  });
  thread.worker.on('error', (error) => stopped(thread, error.message));
  thread.worker.on('exit', (code) => stopped(thread, `exit code ${code}`));
  current = thread;
  return thread;
}

/** The pooled embeddings of `texts` by the model thread; rejects with `EmbedError`. */
export function embedInModelThread(files: ModelFiles, model: string, pooling: PoolingSetting, texts: readonly string[]): Promise<Float32Array[]> {
  const thread = started();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    thread.waiting.set(id, { resolve, reject });
    thread.worker.ref();
    thread.worker.postMessage({ id, files, model, pooling, texts } satisfies ModelRequest);
  });
}
