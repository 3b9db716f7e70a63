/**
 * Where the dictionary segmenters run: segmentation.ts hands over all the runs of a tokenizer
 * call at once. By default in this thread (dictionary-segmenters.ts); a thread whose bootstrap
 * installed a remote (src/workers/segmenter-channel.ts) sends them to the process's segmenter
 * thread instead, so the dictionaries of jieba, IPADIC and ko-dic (45 MB together once read
 * whole) are held once per process rather than once per thread that meets Chinese, Japanese or
 * Korean. Either way, short runs met before are answered from this thread's RunCache
 * (run-cache.ts) without asking.
 */
import { dictionaryWordStarts, type DictionaryLanguage } from './dictionary-segmenters.js';
import { RunCache, type RunStarts } from './run-cache.js';

export interface Run {
  readonly text: string;
  readonly language: DictionaryLanguage;
}

/** Per run, the UTF-16 indexes where its pieces start (dictionaryWordStarts). */
export type RunSegmenter = (runs: readonly Run[]) => number[][];

export const localSegmenter: RunSegmenter = (runs) => runs.map((run) => dictionaryWordStarts(run.text, run.language));

let current: RunSegmenter = localSegmenter;
/** The answers of `current` for short runs, remembered. */
const remembered = new RunCache();
/** Milliseconds this thread has spent in the dictionary segmenters (segmentRuns). */
let spentMs = 0;

/** Per run, where its pieces start (read-only: a remembered answer is shared). */
export function segmentRuns(runs: readonly Run[]): RunStarts[] {
  if (runs.length === 0) return [];
  const start = performance.now();
  try {
    return remembered.segment(runs, current);
  } finally {
    spentMs += performance.now() - start;
  }
}

/**
 * Milliseconds this thread has spent in segmentRuns so far: mostly, with a remote, waiting for the
 * segmenter thread (behind another thread's request, or loading a dictionary: about 3 ms from the
 * build's compiled copy, 70 to 140 ms from its package without one); a search's time budget
 * leaves it out.
 */
export function segmentationMs(): number {
  return spentMs;
}

/** Makes `segmenter` this thread's (null: back to the local one), which then answers every run anew. */
export function useRunSegmenter(segmenter: RunSegmenter | null): void {
  current = segmenter ?? localSegmenter;
  remembered.clear();
}
