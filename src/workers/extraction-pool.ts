/**
 * Chunk extraction over worker threads (engine/words/chunk-words.ts): one extraction task per
 * `--max-indexing-threads` thread, started by the main thread beside a documents write, each
 * with its own MessagePort to the index writer thread. The writer posts chunks round-robin and
 * reads their words synchronously (receiveMessageOnPort, with Atomics to sleep until a worker
 * posts): its write is one synchronous transaction. A shared Int32Array (extraction-protocol.ts)
 * says when a worker posted, when a task died (FAILED) and when the write is over (STOP).
 */
import { receiveMessageOnPort, MessageChannel, type MessagePort } from 'node:worker_threads';
import type { IndexWrite } from '../engine/indexer/commit.js';
import type { ChunkExtractor } from '../engine/words/chunk-words.js';
import type { ShippedWords } from '../engine/words/shipped-words.js';
import { wordIndexUpdater } from '../engine/words/word-index.js';
import { payloadBytes } from '../engine/documents/ndjson-payload.js';
import type { IndexSettings } from '../types/settings.js';
import { FAILED, postedSlot, STOP, stateLength, type ChunkResult, type ExtractionTask, type ToWorker } from './extraction-protocol.js';
import type { WorkerPools } from './pool.js';

/** Below this much addition payload, starting workers costs more than it saves: the write extracts. */
const POOL_MIN_BYTES = 1 << 20;

/** Below this many documents, an edition's write, or a settings write rebuilding the word index, extracts them itself. */
const POOL_MIN_DOCUMENTS = 2_000;

/** What the index writer thread gets: its ends of the channels. */
export interface ExtractionEnds {
  readonly ports: readonly MessagePort[];
  readonly state: Int32Array;
}

/** Tells every worker and waiter that the write is over. */
export function stopExtraction(state: Int32Array): void {
  Atomics.store(state, STOP, 1);
  for (let slot = 0; slot < state.length; slot++) Atomics.notify(state, slot);
}

/**
 * Whether `write` is worth extraction workers: additions of POOL_MIN_BYTES or more or edited
 * documents (`put`) of POOL_MIN_DOCUMENTS or more (not in a rehearsal, which only finds whether
 * the operations apply), or settings rebuilding the word index of POOL_MIN_DOCUMENTS or more
 * documents (`stored`: how many the index holds).
 */
export function wantsExtraction(write: IndexWrite, stored: () => number): boolean {
  if (write.kind === 'documents') {
    if (write.rehearsal === true) return false;
    const bytes = write.ops.reduce((sum, op) => sum + (op.op === 'add' ? payloadBytes(op.source) : 0), 0);
    const edited = write.ops.reduce((sum, op) => sum + (op.op === 'put' ? op.changes.size : 0), 0);
    return bytes >= POOL_MIN_BYTES || edited >= POOL_MIN_DOCUMENTS;
  }
  return write.kind === 'settings' && !write.clear && write.rebuild.includes(wordIndexUpdater.name) && stored() >= POOL_MIN_DOCUMENTS;
}

/** The main thread's side: starts the workers of a write. */
export function startExtraction(pools: WorkerPools): { ends: ExtractionEnds; done: Promise<unknown> } {
  const threads = pools.threads;
  const state = new Int32Array(new SharedArrayBuffer(4 * stateLength(threads)));
  const ports: MessagePort[] = [];
  const tasks: Promise<unknown>[] = [];
  for (let thread = 0; thread < threads; thread++) {
    const { port1, port2 } = new MessageChannel();
    ports.push(port1);
    const task: ExtractionTask = { port: port2, state, thread };
    tasks.push(
      pools.extractionPool().run(task, { transferList: [port2] }).catch(() => {
        Atomics.store(state, FAILED, 1);
        Atomics.notify(state, postedSlot(thread));
      }),
    );
  }
  return { ends: { ports, state }, done: Promise.all(tasks) };
}

/** The index writer's side: chunks posted round-robin, their words read back in any order. */
export class PortExtractor implements ChunkExtractor {
  /** words read from a port before they were asked for */
  private readonly received = new Map<number, ShippedWords | null>();

  constructor(private readonly ends: ExtractionEnds) {}

  start(settings: IndexSettings, searchFields: readonly string[]): void {
    const message: ToWorker = { settings, searchFields };
    for (const port of this.ends.ports) port.postMessage(message);
  }

  post(seq: number, bytes: Uint8Array): void {
    const message: ToWorker = { seq, bytes };
    this.ends.ports[seq % this.ends.ports.length]!.postMessage(message, [bytes.buffer as ArrayBuffer]);
  }

  take(seq: number): ShippedWords | null {
    const { ports, state } = this.ends;
    const thread = seq % ports.length;
    for (;;) {
      const words = this.received.get(seq);
      if (words !== undefined) {
        this.received.delete(seq);
        return words;
      }
      const posted = Atomics.load(state, postedSlot(thread));
      const got = receiveMessageOnPort(ports[thread]!);
      if (got !== undefined) {
        const result = got.message as ChunkResult;
        this.received.set(result.seq, result.words);
        continue;
      }
      if (Atomics.load(state, FAILED) !== 0 || Atomics.load(state, STOP) !== 0) return null;
      Atomics.wait(state, postedSlot(thread), posted, 1000);
    }
  }

  drop(seq: number): void {
    for (const key of this.received.keys()) if (key < seq) this.received.delete(key);
  }
}
