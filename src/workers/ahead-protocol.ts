/**
 * What the two sides of extraction ahead of an index write share (ahead-ports.ts on the
 * index writer's side, extract-ahead-thread.ts on the workers'): the slots of the shared Int32Array,
 * the task a worker runs and the messages on its port. It imports neither side.
 *
 * The Int32Array holds STOP (the write is over), STARTED (the writer posted the settings),
 * FAILED (a task died without saying so), and per thread how many messages were posted and taken.
 */
import type { MessagePort } from 'node:worker_threads';
import type { AheadJob } from '../engine/words/extract-ahead.js';
import type { IndexSettings } from '../types/settings.js';
import type { Sharding } from '../engine/shards/shard-of.js';

export const STOP = 0;
export const STARTED = 1;
export const FAILED = 2;
export const postedSlot = (thread: number) => 3 + 2 * thread;
export const takenSlot = (thread: number) => 4 + 2 * thread;

/** The state's length for `threads` workers: the three flags and two counters a thread. */
export const stateLength = (threads: number) => 3 + 2 * threads;

/** One worker's task (the extraction pool runs extract-ahead-thread.js with it). */
export interface AheadTask {
  readonly job: AheadJob;
  readonly port: MessagePort;
  readonly state: Int32Array;
  /** the write's sharded network and the index's primary key, when both are known: documents of other shards are not extracted */
  readonly owned?: { readonly sharding: Sharding; readonly primaryKey: string } | null;
}

/** The start message a writer posts to every worker. */
export interface AheadStart {
  readonly settings: IndexSettings;
  readonly searchFields: readonly string[];
}

/** The end message a worker posts after its last part. */
export interface AheadEnd {
  readonly end: true;
}
