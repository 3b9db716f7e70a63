/**
 * The dictionary words a text starts with: yada 0.5.1's `common_prefix_search`, the lookup lindera
 * makes at each position of its lattice, over the double array yada builds (dict.da).
 *
 * A unit is a u32: a leaf has bit 31 set and its value below; any other unit has its label (the
 * byte that leads to it) in bits 0 to 7, bit 8 set if a key ends there (its leaf is the child of
 * label 0), and in bits 10 to 31 the offset to its children, shifted left by 8 more if bit 9 is
 * set. The child of unit `id` by byte `c` is at `offset ^ id ^ c`, and is that child only if its
 * label is `c`. The steps are yada's, byte for byte, for any input: a NUL byte can walk onto an
 * empty unit (label 0), whose offset is 0, and on from there, as yada does.
 */
import type { DictionaryPages } from './dictionary-pages.js';

/**
 * The keys that `bytes[from .. end]` starts with, shortest first: writes the k-th one's value to
 * `values[k]` and its length in bytes to `lengths[k]`, and answers how many there are (what the
 * arrays hold past that is stale: emptying them for every position of a lattice was a twentieth of
 * segmenting Japanese). Each unit is read in through `pages` before it is read.
 */
export function commonPrefixSearch(units: Uint32Array, pages: DictionaryPages, bytes: Uint8Array, from: number, end: number, values: number[], lengths: number[]): number {
  let found = 0;
  let id = 0;
  pages.ensure(units, 0, 1);
  for (let at = from; at < end; ) {
    const c = bytes[at++]!;
    id = (offset(units[id]!) ^ id ^ c) >>> 0;
    // Never past the end for an array yada built (children lie in whole blocks of 256 units).
    if (id >= units.length) return found;
    pages.ensure(units, id, id + 1);
    const unit = units[id]!;
    // The label keeps bit 31: a leaf never matches a byte.
    if ((unit & 0x800000ff) >>> 0 !== c) return found;
    if ((unit & 0x100) !== 0) {
      const leaf = (offset(unit) ^ id) >>> 0;
      pages.ensure(units, leaf, leaf + 1);
      values[found] = units[leaf]! & 0x7fffffff;
      lengths[found++] = at - from;
    }
  }
  return found;
}

function offset(unit: number): number {
  return (unit >>> 10) << ((unit & 0x200) >>> 6);
}
