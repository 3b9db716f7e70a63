/**
 * Reads documents' forward records (`docid-words`, format in postings.ts) in place for search:
 * each record is copied once into a reused aligned buffer instead of being decoded into fresh
 * arrays, because proximity and phrase matching read thousands of them per query.
 * Main thread, read snapshot.
 */
import type { IndexEnv } from '../index-env.js';

/** A record's tokens: (word id, field << 16 | position) pairs in words[start .. end), grouped by word id ascending. */
export interface ForwardTokens {
  readonly words: Uint32Array;
  readonly start: number;
  readonly end: number;
}

export class ForwardReader {
  private scratch = new Uint32Array(1024);

  constructor(private readonly env: IndexEnv) {}

  /** The tokens of `docid`'s record, valid until the next read; null without a record. */
  read(docid: number): ForwardTokens | null {
    const fast = this.env.docWords.getBinaryFast(docid);
    if (fast === undefined) return null;
    // lmdb's fast buffer reports the value's length but spans its whole shared region
    const bytes = new Uint8Array(fast.buffer, fast.byteOffset, fast.length);
    if (this.scratch.byteLength < bytes.length) this.scratch = new Uint32Array(Math.ceil(bytes.length / 4) * 2);
    new Uint8Array(this.scratch.buffer, 0, bytes.length).set(bytes);
    const start = 2 + this.scratch[0]!;
    return { words: this.scratch, start, end: start + 2 * this.scratch[start - 1]! };
  }
}

/** The places of word `id` in a record's tokens, in text order (binary search over the word ids). */
export function placesOfWord(tokens: ForwardTokens, id: number): number[] {
  const { words } = tokens;
  let lo = 0;
  let hi = (tokens.end - tokens.start) >>> 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (words[tokens.start + 2 * mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let k = tokens.start + 2 * lo; k < tokens.end && words[k] === id; k += 2) out.push(words[k + 1]!);
  return out;
}

/** (search field id, word count) of each field of the record's document, in stored order. */
export function fieldWordCounts(tokens: ForwardTokens): [number, number][] {
  const out: [number, number][] = [];
  // the header before the tokens: nFields, then field << 16 | word count per field, then nTokens
  for (let k = 1; k < tokens.start - 1; k++) out.push([tokens.words[k]! >>> 16, tokens.words[k]! & 0xffff]);
  return out;
}
