// The place-gathering kernel: the proximity place lists of a run of candidate documents, read
// from their forward records, in one call. Called through `gatherPlaces` (assembly/index.ts) by
// src/kernels/record-arena.ts for src/engine/search/proximity-terms.ts, whose records live in
// the same linear memory (laid there by src/engine/search/forward.ts). Its output is the place
// and offset columns the proximity kernel (assembly/proximity.ts) prices. Mirrored by
// src/kernels/reference/gather.ts (the tests' oracle).
//
// A record (forward.ts's layout, u32 indices into memory): its nIds distinct word ids ascending
// at `idsAt`, then nIds + 1 run starts: the places (field << 16 | position) of word j are
// memory[runs[j] .. runs[j + 1]). A word id is looked up in a bitset (most words of a record
// are none of the query's), then in an open-addressing table of (id + 1, entry + 1) slots
// giving the last entry of that word; entries chain to the word's earlier ones. An entry puts the
// word's places in one list if the document allows the entry's typo level for the list's term
// (`allowed`, a level bitmask per document and term) and holds its phrase-like derivation, if
// any (`present`, a byte per document and derivation).
//
// Per document d and list l (nLists = nTerms * LISTS_PER_TERM), places land at
// places[offsets[d * nLists + l] .. offsets[d * nLists + l + 1]), each list taking its runs in
// the order of the record's word ids, then of the word's entries, last first.
//
// Memory (host-laid): docs u32[2 nDocs] (idsAt, nIds; nIds 0 for a document without a record);
// allowed u8[nDocs * nTerms]; present u8[nDocs * nPhrases]; bits u8[nBitBytes]; slots
// u32[2 nSlots] (nSlots a power of two); entries u32[4 nEntries] (list, level, phrase + 1,
// next + 1); runs u32[3 runCap] scratch; out: offsets u32[nDocs * nLists + 1], places
// u32[placeCap]. Returns nDocs; ERR_OUT_OF_CAPACITY when places or runs did not fit, having
// counted on: RESULT_RECORDS holds the runs and RESULT_OUTPUT_BYTES the place bytes a retry
// needs; ERR_BAD_SPAN for a record, entry or slot pointing outside memory or its tables.
// Invariants: no allocation, no traps.
import { writeResult, RESULT_OUTPUT_BYTES, RESULT_RECORDS } from './arena';
import { ERR_BAD_SPAN, ERR_OUT_OF_CAPACITY } from './errors';

/** Place lists per query term (src/engine/search/proximity-terms.ts LISTS_PER_TERM). */
export const GATHER_LISTS_PER_TERM: u32 = 4;
/** u32 fields of an entry: list, typo level, phrase-like derivation + 1 (0: none), next entry + 1 (0: none). */
export const GATHER_ENTRY_U32: u32 = 4;
/** Multiplier of the slot hash (Fibonacci hashing). */
export const GATHER_HASH: u32 = 0x9e3779b1;

/** Whether `count` items of `size` bytes from `at` lie inside memory. */
// @ts-ignore: decorator
@inline function inside(at: usize, count: u64, size: u32, memoryBytes: u64): bool {
  return <u64>at + count * <u64>size <= memoryBytes;
}

export function gatherPlaces(
  docs: usize,
  nDocs: u32,
  allowed: usize,
  nTerms: u32,
  present: usize,
  nPhrases: u32,
  bits: usize,
  nBitBytes: u32,
  slots: usize,
  nSlots: u32,
  entries: usize,
  nEntries: u32,
  runs: usize,
  runCap: u32,
  offsets: usize,
  places: usize,
  placeCap: u32,
): i32 {
  const memoryBytes = <u64>memory.size() << 16;
  const memoryU32 = memoryBytes >>> 2;
  const nLists = nTerms * GATHER_LISTS_PER_TERM;
  const slotMask = nSlots - 1;
  if (nSlots == 0 || (nSlots & slotMask) != 0) return ERR_BAD_SPAN;
  if (
    !inside(docs, nDocs, 8, memoryBytes) ||
    !inside(allowed, <u64>nDocs * nTerms, 1, memoryBytes) ||
    !inside(present, <u64>nDocs * nPhrases, 1, memoryBytes) ||
    !inside(bits, nBitBytes, 1, memoryBytes) ||
    !inside(slots, nSlots, 8, memoryBytes) ||
    !inside(entries, nEntries, GATHER_ENTRY_U32 * 4, memoryBytes) ||
    !inside(runs, runCap, 12, memoryBytes) ||
    !inside(offsets, <u64>nDocs * nLists + 1, 4, memoryBytes) ||
    !inside(places, placeCap, 4, memoryBytes)
  ) {
    return ERR_BAD_SPAN;
  }
  for (let e: u32 = 0; e < nEntries; e++) {
    const entry = entries + (<usize>(e * GATHER_ENTRY_U32) << 2);
    if (load<u32>(entry) >= nLists || load<u32>(entry + 8) > nPhrases || load<u32>(entry + 12) > nEntries) return ERR_BAD_SPAN;
  }
  for (let s: u32 = 0; s < nSlots; s++) if (load<u32>(slots + (<usize>s << 3) + 4) > nEntries) return ERR_BAD_SPAN;
  let placeCount: u32 = 0;
  let mostRuns: u32 = 0;
  let fits = true;
  store<u32>(offsets, 0);
  for (let d: u32 = 0; d < nDocs; d++) {
    const idsAt = load<u32>(docs + (<usize>d << 3));
    const nIds = load<u32>(docs + (<usize>d << 3) + 4);
    if (<u64>idsAt + 2 * <u64>nIds + 1 > memoryU32) return ERR_BAD_SPAN;
    const allowedRow = allowed + <usize>(d * nTerms);
    const presentRow = present + <usize>(d * nPhrases);
    // the document's matched runs (list, from, to), and their places
    let count: u32 = 0;
    let docPlaces: u32 = 0;
    for (let j: u32 = 0; j < nIds; j++) {
      const id = load<u32>(<usize>(idsAt + j) << 2);
      const byte = id >>> 3;
      if (byte >= nBitBytes || ((<u32>load<u8>(bits + byte) >>> (id & 7)) & 1) == 0) continue;
      let slot = (id * GATHER_HASH) & slotMask;
      let head: u32 = 0;
      for (let probe: u32 = 0; probe < nSlots; probe++) {
        const key = load<u32>(slots + (<usize>slot << 3));
        if (key == 0) break;
        if (key == id + 1) {
          head = load<u32>(slots + (<usize>slot << 3) + 4);
          break;
        }
        slot = (slot + 1) & slotMask;
      }
      if (head == 0) continue;
      const runAt = <usize>(idsAt + nIds + j) << 2;
      const from = load<u32>(runAt);
      const to = load<u32>(runAt + 4);
      if (from > to || <u64>to > memoryU32) return ERR_BAD_SPAN;
      // a chain longer than the entries loops: cut it there
      for (let steps: u32 = 0; head != 0 && steps < nEntries; steps++) {
        const entry = entries + (<usize>((head - 1) * GATHER_ENTRY_U32) << 2);
        head = load<u32>(entry + 12);
        const list = load<u32>(entry);
        const phrase = load<u32>(entry + 8);
        if (((<u32>load<u8>(allowedRow + list / GATHER_LISTS_PER_TERM) >>> load<u32>(entry + 4)) & 1) != 1) continue;
        if (phrase != 0 && load<u8>(presentRow + phrase - 1) != 1) continue;
        if (count < runCap) {
          const run = runs + <usize>(count * 12);
          store<u32>(run, list);
          store<u32>(run + 4, from);
          store<u32>(run + 8, to);
        }
        count++;
        docPlaces += to - from;
      }
    }
    if (count > mostRuns) mostRuns = count;
    if (count > runCap || <u64>placeCount + docPlaces > placeCap) fits = false;
    if (fits) {
      // row[l + 1]: the end of list l. Sizes per list, summed, then the runs laid from the ends
      // backwards (last run first, so each list keeps the runs' order), which leaves row[l + 1]
      // at list l's start: moved down one slot, they are the ends again.
      const row = offsets + (<usize>(d * nLists) << 2);
      for (let l: u32 = 1; l <= nLists; l++) store<u32>(row + (<usize>l << 2), 0);
      for (let h: u32 = 0; h < count; h++) {
        const run = runs + <usize>(h * 12);
        const end = row + (<usize>(load<u32>(run) + 1) << 2);
        store<u32>(end, load<u32>(end) + load<u32>(run + 8) - load<u32>(run + 4));
      }
      let at = placeCount;
      for (let l: u32 = 1; l <= nLists; l++) {
        at += load<u32>(row + (<usize>l << 2));
        store<u32>(row + (<usize>l << 2), at);
      }
      for (let h = count; h > 0; h--) {
        const run = runs + <usize>((h - 1) * 12);
        const end = row + (<usize>(load<u32>(run) + 1) << 2);
        const from = load<u32>(run + 4);
        let write = load<u32>(end);
        for (let k = load<u32>(run + 8); k > from; k--) store<u32>(places + (<usize>--write << 2), load<u32>(<usize>(k - 1) << 2));
        store<u32>(end, write);
      }
      for (let l: u32 = 1; l < nLists; l++) store<u32>(row + (<usize>l << 2), load<u32>(row + (<usize>(l + 1) << 2)));
      store<u32>(row + (<usize>nLists << 2), placeCount + docPlaces);
    }
    placeCount += docPlaces;
  }
  if (!fits) {
    writeResult(RESULT_RECORDS, mostRuns);
    writeResult(RESULT_OUTPUT_BYTES, placeCount << 2);
    return ERR_OUT_OF_CAPACITY;
  }
  return <i32>nDocs;
}
