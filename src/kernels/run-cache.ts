/**
 * The dictionary segmenters' answers for short runs, remembered by the thread that asked. Korean
 * is written with spaces, so its runs are words, and a corpus meets its common words again and
 * again: each one cost lindera's lattice (~3 µs) and, from a pool thread, a trip through the
 * segmenter thread, which every thread of the process waits behind. A run's pieces depend on its
 * text and language alone (dictionary-segmenters.ts), so a remembered answer is the answer.
 *
 * Bounded: runs of at most MAX_UNITS code units, and per language two generations of at most
 * GENERATION runs; when the recent one is full it becomes the older one and the older one is let
 * go, and a run found in the older one moves up, so often-met runs stay. On a pseudo-Korean corpus
 * (Zipf-drawn words), 8,192 runs a generation answered 58 % of the runs, 16,384 answered 65 %.
 */
import type { DictionaryLanguage } from './dictionary-segmenters.js';

/** A run of text for a dictionary segmenter (run-segmenter.ts's `Run`). */
interface Run {
  readonly text: string;
  readonly language: DictionaryLanguage;
}

/** Longest run remembered: a word, or a short name or title, rather than a sentence. */
const MAX_UNITS = 24;
/** Runs a generation holds, per language. */
const GENERATION = 8192;

/** Per run, the UTF-16 indexes where its pieces start; shared with the cache, so read-only. */
export type RunStarts = readonly number[];

interface Generations {
  recent: Map<string, RunStarts>;
  older: Map<string, RunStarts>;
}

export class RunCache {
  private readonly languages = new Map<DictionaryLanguage, Generations>();
  // the last language looked up, and its generations: a call's runs are mostly of one language
  private language: DictionaryLanguage | null = null;
  private generations: Generations | undefined;

  /**
   * The pieces of every run, those not remembered asked of `segmenter` in one call (a short run
   * met twice in `runs` asked once), in the order of `runs`.
   */
  segment<R extends Run>(runs: readonly R[], segmenter: (runs: readonly R[]) => number[][]): RunStarts[] {
    const out = new Array<RunStarts>(runs.length);
    const asked: R[] = [];
    // per run not remembered: its place in `asked`
    let askedAt: Int32Array | null = null;
    // the short runs asked so far, by text (a text met again in another language is asked again)
    let askedByText: Map<string, number> | null = null;
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i]!;
      const short = run.text.length <= MAX_UNITS;
      if (short) {
        const known = this.get(run);
        if (known !== undefined) {
          out[i] = known;
          continue;
        }
      }
      askedAt ??= new Int32Array(runs.length);
      let at = short ? (askedByText ??= new Map()).get(run.text) : undefined;
      if (at === undefined || asked[at]!.language !== run.language) {
        at = asked.push(run) - 1;
        if (short) askedByText!.set(run.text, at);
      }
      askedAt[i] = at;
    }
    if (askedAt === null) return out;
    const answers = segmenter(asked);
    for (let at = 0; at < asked.length; at++) if (asked[at]!.text.length <= MAX_UNITS) this.set(asked[at]!, answers[at]!);
    for (let i = 0; i < runs.length; i++) if (out[i] === undefined) out[i] = answers[askedAt[i]!]!;
    return out;
  }

  /** Forgets every run. */
  clear(): void {
    this.languages.clear();
    this.language = null;
    this.generations = undefined;
  }

  /** The generations of `language`, made when `make`. */
  private of(language: DictionaryLanguage, make: boolean): Generations | undefined {
    if (language !== this.language || (this.generations === undefined && make)) {
      let generations = this.languages.get(language);
      if (generations === undefined && make) this.languages.set(language, (generations = { recent: new Map(), older: new Map() }));
      this.language = language;
      this.generations = generations;
    }
    return this.generations;
  }

  /** A short run's pieces, if remembered. */
  private get(run: Run): RunStarts | undefined {
    const generations = this.of(run.language, false);
    if (generations === undefined) return undefined;
    const recent = generations.recent.get(run.text);
    if (recent !== undefined) return recent;
    const older = generations.older.get(run.text);
    if (older !== undefined) this.set(run, older);
    return older;
  }

  /** Remembers a short run's pieces. */
  private set(run: Run, starts: RunStarts): void {
    const generations = this.of(run.language, true)!;
    generations.recent.set(run.text, starts);
    if (generations.recent.size >= GENERATION) {
      generations.older = generations.recent;
      generations.recent = new Map();
    }
  }
}
