/**
 * Typed wrapper of the prefix-grouping kernel (assembly/prefixes.ts): a part's documents (their
 * distinct words, field masks and infos) and each word's prefix ids in, every prefix's entries
 * out, grouped per prefix with documents ascending, in one WASM call. Caller:
 * src/engine/words/ahead-words.ts, for each part an extraction worker hands over.
 * reference/prefixes.ts computes the same in TS (the tests' oracle).
 */
import { getKernels, KernelStatus, type Kernels } from './module.js';

/** Prefixes of a word at most (assembly PREFIX_SLOTS). */
export const PREFIX_SLOTS = 3;

/** u32 slots of the kernel's header (assembly P_*), in order. */
const P = {
  Docs: 0,
  DocStarts: 1,
  Words: 2,
  Masks: 3,
  Infos: 4,
  Vocabulary: 5,
  WordPrefixes: 6,
  PrefixCounts: 7,
  Prefixes: 8,
  Scratch: 9,
  Starts: 10,
  OutDocids: 11,
  OutMasks: 12,
  OutInfos: 13,
  Capacity: 14,
} as const;
export const PREFIX_HEADER_U32 = 15;
/** The header slot names, for the tests that compare them with the kernel's exports. */
export const PREFIX_HEADER_SLOTS: Readonly<Record<string, number>> = P;

export interface PrefixInput {
  /** per document (count + 1): where its entries start in words/masks/infos */
  readonly docStarts: ArrayLike<number>;
  /** per entry: its vocabulary word, field mask and info (position in the low 16 bits) */
  readonly words: ArrayLike<number>;
  readonly masks: ArrayLike<number>;
  readonly infos: ArrayLike<number>;
  /** per vocabulary word: its prefix ids at [PREFIX_SLOTS w, PREFIX_SLOTS w + prefixCounts[w]) */
  readonly wordPrefixes: ArrayLike<number>;
  readonly prefixCounts: ArrayLike<number>;
  readonly nPrefixes: number;
}

/** Prefix p's entries are [starts[p], starts[p + 1]): document indexes ascending, ORed masks, lowest positions. */
export interface GroupedPrefixes {
  readonly starts: Int32Array;
  readonly docids: Uint32Array;
  readonly masks: Uint32Array;
  readonly infos: Uint32Array;
}

interface PrefixExports {
  groupPrefixes(header: number): number;
}

export function groupPrefixes(input: PrefixInput, kernels: Kernels = getKernels()): GroupedPrefixes {
  const { arena } = kernels;
  const exports = kernels.exports as unknown as PrefixExports;
  const nDocs = input.docStarts.length - 1;
  const nEntries = input.words.length;
  const nWords = input.prefixCounts.length;
  const { nPrefixes } = input;
  if (nDocs < 0 || input.masks.length !== nEntries || input.infos.length !== nEntries || input.wordPrefixes.length !== PREFIX_SLOTS * nWords) {
    throw new RangeError('one mask and info per entry, PREFIX_SLOTS prefix slots per word');
  }
  const capacity = PREFIX_SLOTS * nEntries;
  arena.reset();
  const header = arena.alloc(PREFIX_HEADER_U32 * 4);
  const region = (u32s: number, source?: ArrayLike<number>): number => arena.allocU32(u32s, source);
  const slots: Record<keyof typeof P, number> = {
    Docs: nDocs,
    DocStarts: region(nDocs + 1, input.docStarts),
    Words: region(nEntries, input.words),
    Masks: region(nEntries, input.masks),
    Infos: region(nEntries, input.infos),
    Vocabulary: nWords,
    WordPrefixes: region(PREFIX_SLOTS * nWords, input.wordPrefixes),
    PrefixCounts: region(nWords, input.prefixCounts),
    Prefixes: nPrefixes,
    Scratch: region(2 * nPrefixes),
    Starts: region(nPrefixes + 1),
    OutDocids: region(capacity),
    OutMasks: region(capacity),
    OutInfos: region(capacity),
    Capacity: capacity,
  };
  const u32 = arena.u32;
  for (const [name, at] of Object.entries(P)) u32[(header >>> 2) + at] = slots[name as keyof typeof P];
  const total = exports.groupPrefixes(header);
  if (total === KernelStatus.BadSpan) throw new RangeError('the prefix kernel was given entries, words or prefixes outside their regions');
  if (total < 0) throw new Error(`prefix kernel returned status ${total}`);
  const column = (ptr: number, length: number) => arena.copyU32(ptr, length);
  return {
    starts: new Int32Array(column(slots.Starts, nPrefixes + 1).buffer),
    docids: column(slots.OutDocids, total),
    masks: column(slots.OutMasks, total),
    infos: column(slots.OutInfos, total),
  };
}
