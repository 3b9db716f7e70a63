/**
 * Plain TypeScript reference of the gather kernel (assembly/gather.ts): the same place lists,
 * document by document, with each word's entries in a Map and each list an array. The tests
 * compare the kernel against it.
 */
import { GATHER_ENTRY_U32, GATHER_LISTS_PER_TERM, type GatherDocs, type GatherTable } from '../record-arena.js';

/** The place lists of `docs`, whose records are in `memory` (u32), for `table`'s entries. */
export function referenceGatherPlaces(memory: Uint32Array, table: GatherTable, docs: GatherDocs): { offsets: number[]; places: number[] } {
  const lists = table.terms * GATHER_LISTS_PER_TERM;
  // word id → its entries, last first (the slots chain them so)
  const byWord = new Map<number, number[]>();
  for (let s = 0; s < table.slots.length; s += 2) {
    if (table.slots[s] === 0) continue;
    const chain: number[] = [];
    for (let e = table.slots[s + 1]!; e !== 0; e = table.entries[GATHER_ENTRY_U32 * (e - 1) + 3]!) chain.push(e - 1);
    byWord.set(table.slots[s]! - 1, chain);
  }
  const offsets = [0];
  const places: number[] = [];
  for (let d = 0; d < docs.count; d++) {
    const byList: number[][] = Array.from({ length: lists }, () => []);
    const idsAt = docs.records[2 * d]!;
    const nIds = docs.records[2 * d + 1]!;
    for (let j = 0; j < nIds; j++) {
      const id = memory[idsAt + j]!;
      // a word the bitset leaves out is none of the query's, whatever the slots say
      if (((table.bits[id >>> 3] ?? 0) >> (id & 7)) % 2 === 0) continue;
      for (const e of byWord.get(id) ?? []) {
        const [list, level, phrase] = table.entries.subarray(GATHER_ENTRY_U32 * e, GATHER_ENTRY_U32 * e + 3);
        const term = Math.floor(list! / GATHER_LISTS_PER_TERM);
        if (((docs.allowed[d * table.terms + term]! >> level!) & 1) !== 1) continue;
        if (phrase !== 0 && docs.present[d * table.phrases + phrase! - 1] !== 1) continue;
        byList[list!]!.push(...memory.subarray(memory[idsAt + nIds + j]!, memory[idsAt + nIds + j + 1]!));
      }
    }
    for (const list of byList) {
      places.push(...list);
      offsets.push(places.length);
    }
  }
  return { offsets, places };
}
