// The prefix-grouping kernel: the documents of an extraction part (each one's distinct words with
// their field masks and infos, as the word extraction left them) -> the entries of every prefix
// of those words, grouped per prefix, in one call: what `word-prefix-docids` takes per document
// (src/engine/words/prefix-table.ts says the rule). Called through `groupPrefixes`
// (assembly/index.ts) by src/kernels/prefixes.ts for each part an extraction worker hands over,
// where a JS loop per document and per prefix was a sixth of the worker's time. Mirrored by
// src/kernels/reference/prefixes.ts (the tests' oracle).
//
// Rule: a document's entry under prefix p ORs the masks of its words that have p, and keeps
// their lowest position (info & 0xffff); documents come out ascending under each prefix, and
// prefixes in id order (a counting sort: one pass counts each prefix's documents, a second one
// places them).
//
// Memory (host-laid; the header holds u32 slots P_*): per document d (nDocs + 1 starts) its
// entries [docStarts[d], docStarts[d + 1]) in words/masks/infos; per vocabulary word w its
// prefix ids wordPrefixes[PREFIX_SLOTS w ..] (prefixCounts[w] of them, at most PREFIX_SLOTS);
// scratch u32[nPrefixes] × 2 (document mark, output slot); outputs starts u32[nPrefixes + 1]
// and docids, masks, infos u32[capacity]. Returns the number of entries, ERR_OUT_OF_CAPACITY
// when they would pass `capacity` (PREFIX_SLOTS × the input entries always holds them), or
// ERR_BAD_SPAN when a region lies outside memory, the starts go back or past the entries, or a
// word or prefix id is out of range; nothing is written to the outputs then.
// Invariants: no allocation, no traps.
import { ERR_BAD_SPAN, ERR_OUT_OF_CAPACITY } from './errors';

/** Prefixes of a word at most (src/engine/words/prefix-table.ts PREFIX_MAX_CHARS). */
export const PREFIX_SLOTS: u32 = 3;

export const P_DOCS: u32 = 0;
export const P_DOC_STARTS: u32 = 1;
export const P_WORDS: u32 = 2;
export const P_MASKS: u32 = 3;
export const P_INFOS: u32 = 4;
export const P_VOCABULARY: u32 = 5;
export const P_WORD_PREFIXES: u32 = 6;
export const P_PREFIX_COUNTS: u32 = 7;
export const P_PREFIXES: u32 = 8;
export const P_SCRATCH: u32 = 9;
export const P_STARTS: u32 = 10;
export const P_OUT_DOCIDS: u32 = 11;
export const P_OUT_MASKS: u32 = 12;
export const P_OUT_INFOS: u32 = 13;
export const P_CAPACITY: u32 = 14;
export const P_HEADER_U32: u32 = 15;

// @ts-ignore: decorator
@inline function slot(header: usize, at: u32): u32 {
  return load<u32>(header + (<usize>at << 2));
}

// @ts-ignore: decorator
@inline function u32At(base: usize, index: u32): u32 {
  return load<u32>(base + (<usize>index << 2));
}

/** Whether `count` u32 from byte address `ptr` lie inside memory. */
// @ts-ignore: decorator
@inline function inside(ptr: u32, count: u64, memoryBytes: u64): bool {
  return <u64>ptr + (count << 2) <= memoryBytes;
}

export function groupPrefixes(header: u32): i32 {
  const memoryBytes = <u64>memory.size() << 16;
  if (!inside(header, P_HEADER_U32, memoryBytes)) return ERR_BAD_SPAN;
  const h = <usize>header;
  const nDocs = slot(h, P_DOCS);
  const docStarts = slot(h, P_DOC_STARTS);
  const nWords = slot(h, P_VOCABULARY);
  const nPrefixes = slot(h, P_PREFIXES);
  const capacity = slot(h, P_CAPACITY);
  if (!inside(docStarts, <u64>nDocs + 1, memoryBytes)) return ERR_BAD_SPAN;
  const starts = <usize>docStarts;
  const nEntries = u32At(starts, nDocs);
  const words = slot(h, P_WORDS);
  const masks = slot(h, P_MASKS);
  const infos = slot(h, P_INFOS);
  const wordPrefixes = slot(h, P_WORD_PREFIXES);
  const prefixCounts = slot(h, P_PREFIX_COUNTS);
  const scratch = slot(h, P_SCRATCH);
  const outStarts = slot(h, P_STARTS);
  const outDocids = slot(h, P_OUT_DOCIDS);
  const outMasks = slot(h, P_OUT_MASKS);
  const outInfos = slot(h, P_OUT_INFOS);
  if (
    !inside(words, nEntries, memoryBytes) ||
    !inside(masks, nEntries, memoryBytes) ||
    !inside(infos, nEntries, memoryBytes) ||
    !inside(wordPrefixes, <u64>nWords * PREFIX_SLOTS, memoryBytes) ||
    !inside(prefixCounts, nWords, memoryBytes) ||
    !inside(scratch, <u64>nPrefixes * 2, memoryBytes) ||
    !inside(outStarts, <u64>nPrefixes + 1, memoryBytes) ||
    !inside(outDocids, capacity, memoryBytes) ||
    !inside(outMasks, capacity, memoryBytes) ||
    !inside(outInfos, capacity, memoryBytes)
  ) {
    return ERR_BAD_SPAN;
  }
  let previous: u32 = 0;
  for (let d: u32 = 0; d <= nDocs; d++) {
    const start = u32At(starts, d);
    if (start < previous || start > nEntries) return ERR_BAD_SPAN;
    previous = start;
  }
  const wordBase = <usize>words;
  for (let e: u32 = 0; e < nEntries; e++) if (u32At(wordBase, e) >= nWords) return ERR_BAD_SPAN;
  const countBase = <usize>prefixCounts;
  const prefixBase = <usize>wordPrefixes;
  for (let w: u32 = 0; w < nWords; w++) {
    const count = u32At(countBase, w);
    if (count > PREFIX_SLOTS) return ERR_BAD_SPAN;
    for (let k: u32 = 0; k < count; k++) if (u32At(prefixBase, w * PREFIX_SLOTS + k) >= nPrefixes) return ERR_BAD_SPAN;
  }

  // mark[p] = the document (+ 1) that last met prefix p; slotOf[p] = its entry for that document
  const mark = <usize>scratch;
  const slotOf = mark + (<usize>nPrefixes << 2);
  const counts = <usize>outStarts;
  memory.fill(mark, 0, <usize>nPrefixes << 2);
  memory.fill(counts, 0, (<usize>nPrefixes + 1) << 2);
  // counts[p + 1]: the documents holding prefix p
  for (let d: u32 = 0; d < nDocs; d++) {
    const end = u32At(starts, d + 1);
    for (let e = u32At(starts, d); e < end; e++) {
      const w = u32At(wordBase, e);
      const n = u32At(countBase, w);
      for (let k: u32 = 0; k < n; k++) {
        const p = u32At(prefixBase, w * PREFIX_SLOTS + k);
        const at = mark + (<usize>p << 2);
        if (load<u32>(at) === d + 1) continue;
        store<u32>(at, d + 1);
        const c = counts + (<usize>(p + 1) << 2);
        store<u32>(c, load<u32>(c) + 1);
      }
    }
  }
  for (let p: u32 = 0; p < nPrefixes; p++) {
    const c = counts + (<usize>(p + 1) << 2);
    store<u32>(c, load<u32>(c) + load<u32>(counts + (<usize>p << 2)));
  }
  const total = u32At(counts, nPrefixes);
  if (total > capacity) return ERR_OUT_OF_CAPACITY;

  // the second pass places each document's entry at its prefix's next slot (`fill`, kept in
  // slotOf between documents), then ORs into it
  const fill = slotOf;
  for (let p: u32 = 0; p < nPrefixes; p++) store<u32>(fill + (<usize>p << 2), u32At(counts, p));
  memory.fill(mark, 0, <usize>nPrefixes << 2);
  const docidBase = <usize>outDocids;
  const maskBase = <usize>outMasks;
  const infoBase = <usize>outInfos;
  const entryMasks = <usize>masks;
  const entryInfos = <usize>infos;
  for (let d: u32 = 0; d < nDocs; d++) {
    const end = u32At(starts, d + 1);
    for (let e = u32At(starts, d); e < end; e++) {
      const w = u32At(wordBase, e);
      const n = u32At(countBase, w);
      const m = u32At(entryMasks, e);
      const position = u32At(entryInfos, e) & 0xffff;
      for (let k: u32 = 0; k < n; k++) {
        const p = u32At(prefixBase, w * PREFIX_SLOTS + k);
        const at = mark + (<usize>p << 2);
        const next = fill + (<usize>p << 2);
        if (load<u32>(at) !== d + 1) {
          store<u32>(at, d + 1);
          // a new entry: the prefix's next slot, which the next document of p will not take
          const s = load<u32>(next);
          store<u32>(next, s + 1);
          store<u32>(docidBase + (<usize>s << 2), d);
          store<u32>(maskBase + (<usize>s << 2), m);
          store<u32>(infoBase + (<usize>s << 2), position);
        } else {
          const s = load<u32>(next) - 1;
          const maskAt = maskBase + (<usize>s << 2);
          store<u32>(maskAt, load<u32>(maskAt) | m);
          const infoAt = infoBase + (<usize>s << 2);
          if (position < load<u32>(infoAt)) store<u32>(infoAt, position);
        }
      }
    }
  }
  return <i32>total;
}
