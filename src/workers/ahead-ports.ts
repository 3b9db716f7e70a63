/**
 * Extraction ahead of an index write (engine/words/ahead-parts.ts) over worker threads, of a
 * documents write's payloads or of the stored documents a settings write rebuilds the word index
 * from: one extraction task per `--max-indexing-threads` thread, each posting its parts on its own
 * MessagePort, which the index writer thread reads synchronously (receiveMessageOnPort, with
 * Atomics to sleep until a part is posted): its write is one synchronous transaction.
 *
 * A shared Int32Array coordinates them (its slots and the messages: ahead-protocol.ts), so
 * a worker stays at most MAX_AHEAD parts ahead of what the write took, or of what it has read.
 */
import { receiveMessageOnPort, MessageChannel, type MessagePort } from 'node:worker_threads';
import { chunkBytes, type DocumentOp } from '../engine/indexer/document-batch.js';
import type { AheadPart, AheadPartSource } from '../engine/words/ahead-parts.js';
import { payloadBytes } from '../engine/documents/ndjson-payload.js';
import type { IndexSettings } from '../types/settings.js';
import {
  blockedSlot,
  FAILED,
  NOTED_LINE,
  NOTED_OP,
  OPENED,
  postedSlot,
  STARTED,
  STOP,
  stateLength,
  takenSlot,
  type AheadEnd,
  type AheadStart,
  type AheadTask,
} from './ahead-protocol.js';
import type { WorkerPools } from './pool.js';

/** Below this much addition payload, starting workers costs more than it saves. */
const AHEAD_MIN_BYTES = 1 << 20;

/** Whether a documents payload of `bytes` alone makes its write use the extraction workers. */
export function extractedAhead(bytes: number): boolean {
  return bytes >= AHEAD_MIN_BYTES;
}

/**
 * An addition smaller than this is left to the write: a part costs the worker a fixed price
 * (an extractor, a message), which a few documents do not repay, and the write would wait.
 */
const OP_MIN_BYTES = 64 << 10;

/**
 * A part's bytes against the write's chunk: the parts a worker may hold ahead (MAX_AHEAD, 16)
 * then take about two chunks' worth of payload, whatever the size of the documents.
 */
const PARTS_PER_CHUNK = 8;

/**
 * Below this many stored documents, a rebuild extracts them itself: 4,000 documents are about
 * 100 ms of extraction, which starting and opening the workers would not repay.
 */
const STORED_MIN_DOCUMENTS = 4_000;

/** Lines the write reads between two wake-ups of the workers (noted). */
const NOTIFY_LINES = 64;

/** What the index writer thread gets: its ends of the channels. */
export interface AheadEnds {
  readonly ports: readonly MessagePort[];
  readonly state: Int32Array;
  /** per operation of the batch: whether the workers extract it */
  readonly extracts: readonly boolean[];
}

/** Extraction tasks started for a write: the writer thread's ends, and the tasks' completion. */
export interface StartedAhead {
  readonly ends: AheadEnds;
  readonly done: Promise<unknown>;
}

/**
 * The batch's `writeChannelCongestion` (v1.50's `ChannelCongestion`), for extraction ahead of a
 * write: the parts the workers posted, and how many of them first waited for the write (held
 * MAX_AHEAD parts ahead). Read once the workers are done.
 */
export interface ChannelCongestion {
  readonly attempts: number;
  readonly blocking: number;
}

export function aheadCongestion({ ports, state }: AheadEnds): ChannelCongestion {
  let attempts = 0;
  let blocking = 0;
  for (let thread = 0; thread < ports.length; thread++) {
    // every worker posts an end message after its parts
    attempts += Math.max(0, Atomics.load(state, postedSlot(thread)) - 1);
    blocking += Atomics.load(state, blockedSlot(thread));
  }
  return { attempts, blocking };
}

/** Tells every worker and waiter that the write is over. */
export function stopAhead(state: Int32Array): void {
  Atomics.store(state, STOP, 1);
  for (let slot = 0; slot < state.length; slot++) Atomics.notify(state, slot);
}

/**
 * The main thread's side: starts the tasks of a documents write, or null when not worth it.
 * `owned`: the write's sharded network and the index's primary key (documents of other shards are not extracted).
 */
export function startAhead(pools: WorkerPools, ops: readonly DocumentOp[], owned: AheadTask['owned'] = null): StartedAhead | null {
  const sizes = ops.map((op) => (op.op === 'add' ? payloadBytes(op.source) : 0));
  const sources = ops.map((op, i) => (op.op === 'add' && sizes[i]! >= OP_MIN_BYTES ? op.source : null));
  const bytes = sources.reduce((sum, source, i) => sum + (source === null ? 0 : sizes[i]!), 0);
  if (bytes < AHEAD_MIN_BYTES) return null;
  const partBytes = Math.floor(chunkBytes(pools.chunkMemory) / PARTS_PER_CHUNK);
  return launch(pools, (thread, threads) => ({ sources, thread, threads, partBytes }), owned, sources.map((source) => source !== null));
}

/**
 * The main thread's side of a rebuild of the word index from `documents` stored documents under
 * the write's `settings`: starts the tasks, each extracting the stored documents through its own
 * handle on the environment at `folder` at once, and resolves once every task has opened it (or
 * failed): the write, which holds the environment's write lock until it commits, may start
 * then. Null when the index is too small for it to pay.
 */
export async function startStoredAhead(pools: WorkerPools, folder: string, uuid: string, documents: number, settings: IndexSettings): Promise<StartedAhead | null> {
  if (documents < STORED_MIN_DOCUMENTS) return null;
  const started = launch(pools, (thread, threads) => ({ stored: { folder, uuid }, settings, thread, threads }), null, [true]);
  const { state } = started.ends;
  let ended = false;
  void started.done.finally(() => (ended = true));
  while (!ended && Atomics.load(state, OPENED) < pools.threads && Atomics.load(state, FAILED) === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  return started;
}

/** Runs one extraction task per thread with `jobOf`'s job; `extracts`: per operation, whether the tasks extract it. */
function launch(pools: WorkerPools, jobOf: (thread: number, threads: number) => AheadTask['job'], owned: AheadTask['owned'], extracts: readonly boolean[]): StartedAhead {
  const threads = pools.threads;
  const state = new Int32Array(new SharedArrayBuffer(4 * stateLength(threads)));
  const ports: MessagePort[] = [];
  const tasks: Promise<unknown>[] = [];
  for (let thread = 0; thread < threads; thread++) {
    const { port1, port2 } = new MessageChannel();
    ports.push(port1);
    const task: AheadTask = { job: jobOf(thread, threads), port: port2, state, owned };
    tasks.push(
      pools.extractAheadPool().run(task, { transferList: [port2] }).catch(() => {
        Atomics.store(state, FAILED, 1);
        Atomics.notify(state, postedSlot(thread));
      }),
    );
  }
  return { ends: { ports, state, extracts }, done: Promise.all(tasks) };
}

/** The index writer's side: the parts, in order, over the ports. */
export class AheadPorts implements AheadPartSource {
  private seq = 0;
  private ended = false;
  /** the read position the workers were last woken for: addition, and line / NOTIFY_LINES */
  private notifiedOp = -1;
  private notifiedBlock = -1;

  constructor(private readonly ends: AheadEnds) {}

  extracts(op: number): boolean {
    return this.ends.extracts[op] === true;
  }

  start(settings: IndexSettings, searchFields: readonly string[]): void {
    const message: AheadStart = { settings, searchFields };
    for (const port of this.ends.ports) port.postMessage(message);
    Atomics.store(this.ends.state, STARTED, 1);
    Atomics.notify(this.ends.state, STARTED);
  }

  noted(op: number, line: number): void {
    const { state, ports } = this.ends;
    Atomics.store(state, NOTED_LINE, line);
    Atomics.store(state, NOTED_OP, op);
    // a worker held back by MAX_AHEAD may now post the parts of the lines read: woken every
    // NOTIFY_LINES lines (parts cut by size can be that short), not per document
    const block = Math.floor(line / NOTIFY_LINES);
    if (op === this.notifiedOp && block === this.notifiedBlock) return;
    this.notifiedOp = op;
    this.notifiedBlock = block;
    for (let thread = 0; thread < ports.length; thread++) Atomics.notify(state, takenSlot(thread));
  }

  next(): AheadPart | null {
    const { ports, state } = this.ends;
    const thread = this.seq % ports.length;
    while (!this.ended) {
      const posted = Atomics.load(state, postedSlot(thread));
      const got = receiveMessageOnPort(ports[thread]!);
      if (got !== undefined) {
        Atomics.add(state, takenSlot(thread), 1);
        Atomics.notify(state, takenSlot(thread));
        const message = got.message as AheadPart | AheadEnd;
        if ('end' in message) break;
        this.seq++;
        return message;
      }
      if (Atomics.load(state, FAILED) !== 0) break;
      Atomics.wait(state, postedSlot(thread), posted, 1000);
    }
    this.ended = true;
    return null;
  }
}
