/**
 * The process's one segmenter thread and its clients (src/kernels/run-segmenter.ts), over a
 * SharedArrayBuffer: a client thread (HTTP, index writer, extraction workers) blocks on a
 * request while the segmenter thread runs jieba or lindera, so the tokenizer stays synchronous
 * and the dictionaries load once per process. Clients take turns in the order they asked (a
 * ticket lock), and a request holds at most REQUEST_BYTES of runs (a fraction of a second of
 * lindera), so a search's query waits behind one request of an indexing batch, not its whole
 * batch.
 *
 * Layout: HEADER_SLOTS Int32 slots, then the data region. A request is, per run, its language
 * and length (u32 each) then its UTF-16 code units (padded to 4 bytes); the answer, per run, its
 * count of piece starts then the starts (u32 each).
 * Idle: a thread that loaded a dictionary and then got no request for `idleMs` tells its host,
 * which starts a successor (no dictionary loaded; it waits for its generation in SERVER) and
 * sets RETIRE; the old thread, between requests, passes SERVER on and ends, so its dictionaries'
 * memory (16 to 75 MiB) goes back to the system. The handover
 * is between the two threads alone: a client blocked in the host's own thread (the HTTP thread)
 * never waits for its host to act.
 * Start: a host may start the thread only once a client asks (WANTED), as most writes have no
 * Chinese, Japanese or Korean text: the client then waits for the thread to start.
 * Failure: a client that cannot get an answer (the thread never started, exited, which its host
 * marks, or failed) segments in its own thread from then on; results never depend on where the
 * runs were cut.
 */
import { dictionaryWordStarts, loadedDictionaries, unloadDictionaries, type DictionaryLanguage } from '../kernels/dictionary-segmenters.js';
import { localSegmenter, useRunSegmenter, type Run, type RunSegmenter } from '../kernels/run-segmenter.js';

/** The next ticket to hand out, and the ticket whose holder may use the buffer. */
const TICKET = 0;
const SERVING = 1;
const STATE = 2;
const RUNS = 3;
const READY = 4;
/** The generation of the thread that serves; a retiring thread passes it to its successor. */
const SERVER = 5;
/** Set by the host once a successor is started: the serving thread hands over between requests. */
const RETIRE = 6;
/** Set by a client that needs a thread none has started yet: its host starts one (`whenSegmenterWanted`). */
const WANTED = 7;
const HEADER_SLOTS = 8;
const HEADER_BYTES = HEADER_SLOTS * 4;
/** Data region size: a request's runs, or its answer, fit in it (see `runCost`). */
const REQUEST_BYTES = 128 * 1024;

/** READY once the thread exited (its host marks it): clients stop waiting for it. */
const GONE = -1;

const IDLE = 0;
const REQUEST = 1;
const ANSWER = 2;
const FAILED = 3;

const LANGUAGES: readonly DictionaryLanguage[] = ['cmn', 'jpn', 'kor'];

export interface ChannelTimeouts {
  /** how long a client waits for the segmenter thread to start */
  readonly startMs: number;
  /** how long a client waits for its turn, then for its answer */
  readonly answerMs: number;
}

/** Generous: a full request of Japanese takes lindera a few seconds, the first one a second more. */
const TIMEOUTS: ChannelTimeouts = { startMs: 30_000, answerMs: 300_000 };

export function createSegmenterBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + REQUEST_BYTES);
}

/** Bytes a run takes in a request or in its answer, whichever is more. */
const runCost = (run: Run): number => 12 + 4 * run.text.length;

/** A RunSegmenter that asks the segmenter thread serving `buffer`. */
export function remoteSegmenter(buffer: SharedArrayBuffer, timeouts: ChannelTimeouts = TIMEOUTS): RunSegmenter {
  const header = new Int32Array(buffer, 0, HEADER_SLOTS);
  const u32 = new Uint32Array(buffer, HEADER_BYTES);
  const u16 = new Uint16Array(buffer, HEADER_BYTES);
  let broken = false;

  /** Waits while `slot` holds `value`; false on the deadline or once the thread is gone. */
  const waitWhile = (slot: number, value: number, deadline: number): boolean => {
    while (Atomics.load(header, slot) === value) {
      if (performance.now() > deadline || Atomics.load(header, READY) === GONE) return false;
      Atomics.wait(header, slot, value, 100);
    }
    return Atomics.load(header, READY) !== GONE;
  };

  /** One request's answers, or null when the thread does not answer. */
  const ask = (runs: readonly Run[]): number[][] | null => {
    if (Atomics.load(header, READY) === 0 && Atomics.compareExchange(header, WANTED, 0, 1) === 0) Atomics.notify(header, WANTED);
    if (!waitWhile(READY, 0, performance.now() + timeouts.startMs)) return null;
    const ticket = Atomics.add(header, TICKET, 1);
    const turnDeadline = performance.now() + timeouts.answerMs;
    for (let serving; (serving = Atomics.load(header, SERVING)) !== ticket; ) {
      if (!waitWhile(SERVING, serving, turnDeadline)) return null;
    }
    let at = 0;
    for (const { text, language } of runs) {
      u32[at] = LANGUAGES.indexOf(language);
      u32[at + 1] = text.length;
      const units = (at + 2) * 2;
      for (let i = 0; i < text.length; i++) u16[units + i] = text.charCodeAt(i);
      at += 2 + ((text.length + 1) >>> 1);
    }
    Atomics.store(header, RUNS, runs.length);
    Atomics.store(header, STATE, REQUEST);
    Atomics.notify(header, STATE);
    // On a timeout the turn is never passed on: the thread may still write its answer, and no
    // client may read it as theirs.
    if (!waitWhile(STATE, REQUEST, performance.now() + timeouts.answerMs)) return null;
    const answered = Atomics.load(header, STATE) === ANSWER;
    const out: number[][] = [];
    if (answered) {
      at = 0;
      for (let r = 0; r < runs.length; r++) {
        const count = u32[at]!;
        out.push(Array.from(u32.subarray(at + 1, at + 1 + count)));
        at += 1 + count;
      }
    }
    Atomics.store(header, STATE, IDLE);
    Atomics.add(header, SERVING, 1);
    Atomics.notify(header, SERVING);
    return answered ? out : null;
  };

  return (runs) => {
    if (broken) return localSegmenter(runs);
    const out: number[][] = [];
    let first = 0;
    while (first < runs.length) {
      let end = first;
      let bytes = 0;
      while (end < runs.length && bytes + runCost(runs[end]!) <= REQUEST_BYTES) bytes += runCost(runs[end++]!);
      // a run too long for the buffer is segmented here
      if (end === first) {
        out.push(...localSegmenter([runs[first++]!]));
        continue;
      }
      const answers = ask(runs.slice(first, end));
      if (answers === null) {
        broken = true;
        out.push(...localSegmenter(runs.slice(first)));
        return out;
      }
      out.push(...answers);
      first = end;
    }
    return out;
  };
}

/**
 * Resolves once a client of `buffer` asks for a segmenter thread (its host then starts one), or
 * once the channel is marked gone. It waits without blocking this thread's event loop, and does
 * not keep the process alive.
 */
export async function whenSegmenterWanted(buffer: SharedArrayBuffer): Promise<void> {
  const header = new Int32Array(buffer, 0, HEADER_SLOTS);
  // a channel marked gone first (its pool closed) ends the wait too: a wait left pending kept the
  // closed pool and its buffer alive (a library opened and closed 800 times grew 100 MB)
  while (Atomics.load(header, WANTED) === 0 && Atomics.load(header, READY) !== GONE) await Atomics.waitAsync(header, WANTED, 0).value;
}

/** Marks the segmenter thread of `buffer` gone (it exited): its clients segment in their own thread at once. */
export function markSegmenterGone(buffer: SharedArrayBuffer): void {
  const header = new Int32Array(buffer, 0, HEADER_SLOTS);
  Atomics.store(header, READY, GONE);
  for (const slot of [READY, SERVING, STATE, WANTED]) Atomics.notify(header, slot);
}

/** Sends this pool thread's dictionary segmentation to the segmenter thread of `data` (piscina `workerData`), if any. */
export function useSegmenterThread(data: { segmenter?: SharedArrayBuffer } | undefined): void {
  if (data?.segmenter !== undefined) useRunSegmenter(remoteSegmenter(data.segmenter));
}

/** Asks the thread serving `buffer` to hand over to its successor, already started, and end. */
export function retireSegmenter(buffer: SharedArrayBuffer): void {
  const header = new Int32Array(buffer, 0, HEADER_SLOTS);
  Atomics.store(header, RETIRE, 1);
  Atomics.notify(header, STATE);
}

export interface ServeOptions {
  /** this thread's generation: it serves once SERVER holds it (0 for the first thread) */
  readonly generation?: number;
  /** how long the thread may hold dictionaries without a request before it calls `onIdle` (once) */
  readonly idleMs?: number;
  readonly onIdle?: () => void;
}

/** How often a thread that said it is idle looks for RETIRE, should it have missed the wake-up. */
const RETIRE_POLL_MS = 1000;

/**
 * The segmenter thread's loop: answers requests on `buffer` until the thread is terminated, or
 * returns after passing SERVER on once its host set RETIRE (the thread then ends).
 */
export function serveSegmenter(buffer: SharedArrayBuffer, { generation = 0, idleMs = Infinity, onIdle }: ServeOptions = {}): void {
  const header = new Int32Array(buffer, 0, HEADER_SLOTS);
  const u32 = new Uint32Array(buffer, HEADER_BYTES);
  const u16 = new Uint16Array(buffer, HEADER_BYTES);
  for (let server; (server = Atomics.load(header, SERVER)) !== generation; ) Atomics.wait(header, SERVER, server);
  Atomics.store(header, READY, 1);
  Atomics.notify(header, READY);
  let saidIdle = false;
  for (;;) {
    const state = Atomics.load(header, STATE);
    if (state !== REQUEST) {
      if (Atomics.load(header, RETIRE) !== 0) {
        // the thread ends: its dictionaries' memory goes with it, their open files would not
        unloadDictionaries();
        Atomics.store(header, RETIRE, 0);
        Atomics.store(header, SERVER, generation + 1);
        Atomics.notify(header, SERVER);
        return;
      }
      const timeout = saidIdle ? RETIRE_POLL_MS : loadedDictionaries().length === 0 ? Infinity : idleMs;
      if (Atomics.wait(header, STATE, state, timeout) === 'timed-out' && !saidIdle) {
        saidIdle = true;
        onIdle?.();
      }
      continue;
    }
    try {
      const runs: Run[] = [];
      let at = 0;
      for (let r = Atomics.load(header, RUNS); r > 0; r--) {
        const language = LANGUAGES[u32[at]!]!;
        const length = u32[at + 1]!;
        const units = (at + 2) * 2;
        runs.push({ text: unitsToString(u16.subarray(units, units + length)), language });
        at += 2 + ((length + 1) >>> 1);
      }
      at = 0;
      for (const { text, language } of runs) {
        const starts = dictionaryWordStarts(text, language);
        u32[at] = starts.length;
        u32.set(starts, at + 1);
        at += 1 + starts.length;
      }
      Atomics.store(header, STATE, ANSWER);
    } catch {
      Atomics.store(header, STATE, FAILED);
    }
    Atomics.notify(header, STATE);
  }
}

/**
 * The string of UTF-16 code units, lone surrogates kept: Node's UTF-16LE decoding copies the units
 * as they are (TextDecoder would replace a lone surrogate), some 30 times faster than spreading
 * slices of them into String.fromCharCode.
 */
function unitsToString(units: Uint16Array): string {
  return Buffer.from(units.buffer, units.byteOffset, units.byteLength).toString('utf16le');
}
