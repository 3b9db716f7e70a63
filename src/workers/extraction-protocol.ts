/**
 * What the two sides of chunk extraction share (extraction-pool.ts on the index writer's side,
 * extraction-thread.ts on the workers'): the slots of the shared Int32Array, the task a worker
 * runs and the messages on its port. It imports neither side.
 *
 * The Int32Array holds STOP (the write is over), FAILED (a task died without saying so), and per
 * thread how many chunks' words it posted (the writer sleeps on it, Atomics.wait).
 */
import type { MessagePort } from 'node:worker_threads';
import type { ShippedWords } from '../engine/words/shipped-words.js';
import type { IndexSettings } from '../types/settings.js';

export const STOP = 0;
export const FAILED = 1;
export const postedSlot = (thread: number) => 2 + thread;

/** The state's length for `threads` workers: the two flags and a counter a thread. */
export const stateLength = (threads: number) => 2 + threads;

/** One worker's task (the extraction pool runs extraction-thread.js with it). */
export interface ExtractionTask {
  readonly port: MessagePort;
  readonly state: Int32Array;
  readonly thread: number;
}

/** The writer's messages: the settings first, then chunks. */
export type ToWorker =
  | { readonly settings: IndexSettings; readonly searchFields: readonly string[] }
  | { readonly seq: number; readonly bytes: Uint8Array };

/** A worker's answer per chunk: its words, or null when it could not extract them. */
export interface ChunkResult {
  readonly seq: number;
  readonly words: ShippedWords | null;
}
