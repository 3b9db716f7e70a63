// The record-laying kernel: turns a stored forward record (the `docid-words` value of
// src/engine/words/postings.ts) into the layout the gather kernel (assembly/gather.ts) and the
// search read (src/engine/search/forward.ts), in the same linear memory. Called through
// `layRecord` (assembly/index.ts) by src/kernels/record-arena.ts, once per record a search reads
// first: a big candidate group's first read lays thousands, and this loop in JS cost three times
// the LMDB read itself. Mirrored by src/kernels/reference/record-layout.ts (the tests' oracle).
//
// Stored (u32): nFields, nFields field words (field << 16 | word count), nTokens, then nTokens
// (word id, place) pairs grouped by word id. Counts past the stored words are cut to them (a
// truncated record lays as what it holds).
// Laid (u32, from `head`): nFields, the field words, nTokens, nIds; the nIds distinct word ids in
// stored order; nIds + 1 run starts (absolute u32 indices: the places of word j are at
// [runs[j], runs[j + 1])); the nTokens places. At most stored + stored / 2 + 4 u32.
// Returns the laid record's end (u32 index, exclusive), or ERR_BAD_SPAN when the stored words or
// the laid room lie outside memory or overlap. Invariants: no allocation, no traps.
import { ERR_BAD_SPAN } from './errors';

/** The u32 a record of `stored` u32 may take once laid (every token a distinct word). */
// @ts-ignore: decorator
@inline export function laidRoom(stored: u32): u64 {
  return <u64>stored + (stored >>> 1) + 4;
}

/** Lays the `stored` u32 at u32 index `src` as a record at u32 index `head`. */
export function layRecord(src: u32, stored: u32, head: u32): i32 {
  const memoryU32 = (<u64>memory.size() << 16) >>> 2;
  const roomEnd = <u64>head + laidRoom(stored);
  if (<u64>src + stored > memoryU32 || roomEnd > memoryU32 || roomEnd > <u64>src) return ERR_BAD_SPAN;
  const from = <usize>src << 2;
  const to = <usize>head << 2;
  const nFields: u32 = stored >= 2 ? min(load<u32>(from), stored - 2) : 0;
  const headerEnd: u32 = 2 + nFields;
  const nTokens: u32 = stored >= 2 ? min(load<u32>(from + (<usize>(headerEnd - 1) << 2)), (stored - headerEnd) >>> 1) : 0;
  store<u32>(to, nFields);
  for (let k: u32 = 1; k <= nFields; k++) store<u32>(to + (<usize>k << 2), load<u32>(from + (<usize>k << 2)));
  store<u32>(to + (<usize>(headerEnd - 1) << 2), nTokens);
  const pairs = from + (<usize>headerEnd << 2);
  const pairsEnd = pairs + (<usize>nTokens << 3);
  let nIds: u32 = 0;
  let last: u32 = 0;
  for (let p = pairs; p < pairsEnd; p += 8) {
    const id = load<u32>(p);
    if (p == pairs || id != last) nIds++;
    last = id;
  }
  store<u32>(to + (<usize>headerEnd << 2), nIds);
  const idsAt = head + headerEnd + 1;
  const runsAt = idsAt + nIds;
  const placesAt = runsAt + nIds + 1;
  let ids = <usize>idsAt << 2;
  let runs = <usize>runsAt << 2;
  let at = placesAt;
  for (let p = pairs; p < pairsEnd; p += 8, at++) {
    const id = load<u32>(p);
    if (p == pairs || id != last) {
      store<u32>(ids, id);
      store<u32>(runs, at);
      ids += 4;
      runs += 4;
    }
    last = id;
    store<u32>(<usize>at << 2, load<u32>(p + 4));
  }
  store<u32>(runs, at);
  return <i32>at;
}
