/**
 * The worker-thread pools of indexing work and of formatting a search's large documents (which
 * also read large settings bodies) (piscina), sized by `--max-indexing-threads`
 * (default: half the cores, at least one; at most the cores) and carrying the indexing memory budget their writes
 * are chunked by (`--max-indexing-memory`, config/indexing-memory.ts), and the segmenter thread
 * that runs the dictionary segmenters for every thread (segmenter-channel.ts). Pools and threads
 * start lazily, so an instance never spawns a thread it does not need: the writer thread at the
 * first index write, the formatting threads at the first search that formats a large document,
 * the extraction threads with the first write that uses them (a server whose
 * writes stay small never pays their start, ~0.25 s of CPU and ~20 MiB), the segmenter thread
 * when a thread first asks for it or with a write large enough for the extraction threads. Idle
 * pool threads exit after a while (the segmenter thread stays, but hands over to a fresh one
 * without dictionaries once its dictionaries sat unused as long). A documents request that declares
 * a payload large enough for the extraction threads starts them as its upload begins
 * (`startExtractionThreads`), before its write. Starting them ahead of any write, with a settings
 * write, made a cold load after its settings ~4-5 % faster (its writer waited ~0.37 s for their
 * start) and the test suite ~80 s of CPU slower (bench/RESULTS.md 2026-12-06): not done.
 */
import os from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { indexingMemoryBudget } from '../config/indexing-memory.js';
import type { RunSegmenter } from '../kernels/run-segmenter.js';
import type { StoredFormatAnswer, StoredFormatJob } from '../engine/search/format-stored.js';
import type { SettingsBodyAnswer, SettingsBodyJob } from '../settings/body.js';
import { createSegmenterBuffer, markSegmenterGone, remoteSegmenter, retireSegmenter, whenSegmenterWanted } from './segmenter-channel.js';

/** How long pool threads, and the segmenter thread's dictionaries, stay after their last use. */
const IDLE_MS = 60_000;

/** Stack for 1000 nested Rhai script calls, with room to spare. */
const EDITION_STACK_MB = 64;

/**
 * Young generation of each thread's V8 heap, in MiB. A young generation is resident once grown,
 * and every indexing thread grows its own to the limit during a large write, so the limits add up
 * in a load's peak. The index writer, which holds a chunk's parsed documents across scavenges,
 * keeps 16; the extraction threads, whose parts leave as typed columns, take 8. Against 32 for
 * both, these limits took ~40 MiB off a movies load's cold and warm peaks at the same docs/s, and
 * cost debdocs' writer 2-7 % more CPU; 8 for the writer too cost it 9 % (bench/RESULTS.md
 * 2026-12-02). The segmenter thread (whose young generation a movies load never grows), edition
 * threads (Rhai scripts) and formatting threads keep 32: not measured smaller.
 */
const YOUNG_GENERATION_MB = { writer: 16, extraction: 8, segmenter: 32, edition: 32, format: 32 } as const;

/**
 * A pool of the task module at `file` (relative to this module) whose threads start on demand and
 * exit after `idleTimeout` ms idle. Its threads wait for their next task with `atomics: 'async'`,
 * so their event loops turn between tasks: with piscina's default ('sync') a thread blocks in
 * Atomics.wait from one task to the next, and the timers a task leaves never fire. lmdb-js sets
 * one at every read transaction it renews (`setTimeout(resetReadTxn, 0)`), which holds that
 * environment's handle: the index writer, which opens and closes a handle per write, kept every
 * one of them (its stores, transactions and 64 KiB write buffer), ~0.15 MB a write.
 */
function lazyPool(file: string, maxThreads: number, idleTimeout: number, youngGenerationMb: number, options: { stackSizeMb?: number; workerData?: PoolThreadData } = {}): Piscina {
  const { stackSizeMb, workerData } = options;
  const resourceLimits = { maxYoungGenerationSizeMb: youngGenerationMb, ...(stackSizeMb === undefined ? {} : { stackSizeMb }) };
  return new Piscina({ filename: new URL(file, import.meta.url).href, maxThreads, minThreads: 0, idleTimeout, resourceLimits, atomics: 'async', ...(workerData === undefined ? {} : { workerData }) });
}

/** What a pool thread gets (piscina `workerData`): the segmenter thread's buffer. */
export interface PoolThreadData {
  readonly segmenter: SharedArrayBuffer;
}

export class WorkerPools {
  private edition: Piscina | null = null;
  private writer: Piscina | null = null;
  private extractAhead: Piscina | null = null;
  private format: Piscina | null = null;
  private segmenterThread: Worker | null = null;
  private segmenterGeneration = 0;
  private closed = false;
  private readonly segmenterBuffer = createSegmenterBuffer();
  readonly threads: number;

  /** @param indexingMemory the indexing memory budget in bytes */
  constructor(
    maxThreads: number | null,
    readonly indexingMemory: number = indexingMemoryBudget(null),
  ) {
    // never more than the cores: each thread is a V8 isolate (~25 MiB once it extracts), and
    // `--max-indexing-threads 1000` started 1000 of them with the first large write (~25 GB)
    const cores = os.availableParallelism();
    // 0 asks for every core, as rayon's `num_threads(0)` in v1.50
    this.threads = Math.min(maxThreads === 0 ? cores : (maxThreads ?? Math.max(1, Math.floor(cores / 2))), cores);
    // a pool thread's first request starts the segmenter thread (`poolThreadData`); the wait
    // neither blocks this thread nor keeps the process alive
    void whenSegmenterWanted(this.segmenterBuffer).then(() => this.segmenter());
  }

  /**
   * The memory a write's chunks (and their parts extracted ahead) are sized by: the indexing
   * budget, never beyond one thread's heap (every indexing thread has V8's default old generation,
   * this thread's): a thread whose heap runs out takes the process down, again at each restart as
   * the batch runs again, or dies holding the write's lock.
   */
  get chunkMemory(): number {
    return Math.min(this.indexingMemory, getHeapStatistics().heap_size_limit);
  }

  /** Runs `rhai/thread.js` tasks. */
  editionPool(): Piscina {
    this.edition ??= lazyPool('../rhai/thread.js', this.threads, 30_000, YOUNG_GENERATION_MB.edition, { stackSizeMb: EDITION_STACK_MB });
    return this.edition;
  }

  /** Runs `index-writer-thread.js` tasks: one thread, kept a while between batches. */
  writerPool(): Piscina {
    this.writer ??= lazyPool('./index-writer-thread.js', 1, IDLE_MS, YOUNG_GENERATION_MB.writer, { workerData: this.poolThreadData() });
    return this.writer;
  }

  /** Runs `extract-ahead-thread.js` tasks: words extracted ahead of an index write. */
  extractAheadPool(): Piscina {
    this.extractAhead ??= lazyPool('./extract-ahead-thread.js', this.threads, IDLE_MS, YOUNG_GENERATION_MB.extraction, { workerData: this.poolThreadData() });
    return this.extractAhead;
  }

  /** Runs `format-thread.js` tasks: a search's large documents formatted off the thread answering requests. */
  private formatPool(): Piscina {
    this.format ??= lazyPool('./format-thread.js', this.threads, IDLE_MS, YOUNG_GENERATION_MB.format, { workerData: this.poolThreadData() });
    return this.format;
  }

  /** A large settings body read on a formatting thread (a copy of its bytes moves there). */
  readSettingsBody(job: SettingsBodyJob): Promise<SettingsBodyAnswer> {
    const bytes = new Uint8Array(job.bytes);
    return this.formatPool().run({ ...job, bytes }, { name: 'settingsBody', transferList: [bytes.buffer] }) as Promise<SettingsBodyAnswer>;
  }

  /** A large stored document formatted on a formatting thread (its bytes move there). */
  formatStored(job: StoredFormatJob): Promise<StoredFormatAnswer> {
    return this.formatPool().run(job, { transferList: [job.bytes.buffer as ArrayBuffer] }) as Promise<StoredFormatAnswer>;
  }

  /**
   * Starts the extraction threads that are not running, ahead of the write that will use them
   * (a documents payload large enough for them is arriving), so their start overlaps its upload.
   * Answers when they are up (tests).
   */
  startExtractionThreads(): Promise<unknown> {
    if (this.closed) return Promise.resolve();
    const pool = this.extractAheadPool();
    const starts: Promise<unknown>[] = [];
    // one no-op task per missing thread: piscina starts a thread per queued task, up to its maximum
    for (let thread = pool.threads.length; thread < this.threads; thread++) starts.push(pool.run(null, { name: 'ready' }).catch(() => undefined));
    return Promise.all(starts);
  }

  /** The dictionary segmenters for this (the HTTP) thread: the segmenter thread, started on first use. */
  runSegmenter(): RunSegmenter {
    let remote: RunSegmenter | null = null;
    return (runs) => (remote ??= remoteSegmenter(this.segmenter()))(runs);
  }

  /**
   * The pool threads get the segmenter thread's buffer without the thread: it starts when one of
   * them first asks for it (~0.1 s of CPU that a write without Chinese, Japanese or Korean text,
   * and a fresh server's first small write, does without).
   */
  private poolThreadData(): PoolThreadData {
    return { segmenter: this.segmenterBuffer };
  }

  /** Starts the segmenter thread if none runs, before any thread asks for it. */
  startSegmenterThread(): void {
    this.segmenter();
  }

  /** The segmenter thread's buffer, the thread started if none runs; it never keeps the process alive. */
  private segmenter(): SharedArrayBuffer {
    if (this.segmenterThread === null && !this.closed) this.startSegmenter();
    return this.segmenterBuffer;
  }

  /** Starts the next generation of the segmenter thread, which serves once the current one retires (or at once, the first). */
  private startSegmenter(): void {
    const generation = this.segmenterGeneration++;
    const thread = new Worker(new URL('./segmenter-thread.js', import.meta.url), {
      workerData: { buffer: this.segmenterBuffer, generation, idleMs: IDLE_MS },
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB.segmenter },
    });
    this.segmenterThread = thread;
    thread.unref();
    thread.on('error', () => undefined);
    // idle with dictionaries: a successor without them takes over between two requests
    thread.on('message', () => {
      if (this.segmenterThread !== thread || this.closed) return;
      this.startSegmenter();
      retireSegmenter(this.segmenterBuffer);
    });
    // a thread that failed: its clients then segment in their own thread, without waiting for it
    // (`close` marks the channel gone itself)
    thread.on('exit', (code) => {
      if (code !== 0) markSegmenterGone(this.segmenterBuffer);
      if (this.segmenterThread === thread) this.segmenterThread = null;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    // at once, not when the thread's exit event comes: a request this thread makes meanwhile (the
    // search warm-up, while a SIGTERM shuts the server down) waits for the answer synchronously,
    // so it would block the event loop that delivers that event, for the channel's timeouts
    markSegmenterGone(this.segmenterBuffer);
    await Promise.all([this.edition?.destroy(), this.writer?.destroy(), this.extractAhead?.destroy(), this.format?.destroy(), this.segmenterThread?.terminate()]);
    this.edition = null;
    this.writer = null;
    this.extractAhead = null;
    this.format = null;
    this.segmenterThread = null;
  }
}
