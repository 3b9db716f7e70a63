/**
 * What the two sides of extraction ahead of an index write share (ahead-ports.ts on the
 * index writer's side, extract-ahead-thread.ts on the workers'): the slots of the shared Int32Array,
 * the task a worker runs and the messages on its port. It imports neither side.
 *
 * The Int32Array holds STOP (the write is over), STARTED (the writer posted the settings),
 * FAILED (a task died without saying so), OPENED (how many workers of a rebuild have their
 * handle on the index environment: the write starts once all have), where the write has read
 * the batch's additions to (NOTED_OP, NOTED_LINE: the last payload line it took as a document
 * whose ahead words it will ask for), and per thread how many messages were posted and taken,
 * and how many parts waited for the write before they could be posted (the batch's
 * `writeChannelCongestion`).
 */
import type { MessagePort } from 'node:worker_threads';
import type { AheadJob, StoredJob } from '../engine/words/extract-ahead.js';
import type { IndexSettings } from '../types/settings.js';
import type { Sharding } from '../engine/shards/shard-of.js';

export const STOP = 0;
export const STARTED = 1;
export const FAILED = 2;
/**
 * The write's read position, (addition, line), only ever growing. The writer stores the line
 * before the addition and a worker reads the addition first, so a worker may see a position
 * behind the true one (which only holds it back), never one ahead of it.
 */
export const NOTED_OP = 3;
export const NOTED_LINE = 4;
export const OPENED = 5;
export const postedSlot = (thread: number) => 6 + 3 * thread;
export const takenSlot = (thread: number) => 7 + 3 * thread;
export const blockedSlot = (thread: number) => 8 + 3 * thread;

/** The state's length for `threads` workers: the four flags, the read position and three counters a thread. */
export const stateLength = (threads: number) => 6 + 3 * threads;

/** One worker's task (the extraction pool runs extract-ahead-thread.js with it). */
export interface AheadTask {
  /** a batch's addition payloads, or an index's stored documents (a settings write's rebuild) */
  readonly job: AheadJob | StoredJob;
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
