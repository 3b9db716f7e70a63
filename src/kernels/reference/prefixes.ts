/**
 * Plain TypeScript reference of the prefix-grouping kernel (assembly/prefixes.ts): a part's
 * documents' word entries and each word's prefix ids in, every prefix's entries out. The tests
 * compare the kernel against it.
 */
import type { PrefixInput, GroupedPrefixes } from '../prefixes.js';

export function referenceGroupPrefixes(input: PrefixInput): GroupedPrefixes {
  const { docStarts, words, masks, infos, wordPrefixes, prefixCounts, nPrefixes } = input;
  // per prefix: its documents in order, each with the OR of the masks and the lowest position
  const lists = Array.from({ length: nPrefixes }, () => [] as { doc: number; mask: number; position: number }[]);
  for (let doc = 0; doc + 1 < docStarts.length; doc++) {
    for (let e = docStarts[doc]!; e < docStarts[doc + 1]!; e++) {
      const word = words[e]!;
      for (let k = 0; k < prefixCounts[word]!; k++) {
        const list = lists[wordPrefixes[3 * word + k]!]!;
        const last = list[list.length - 1];
        const position = infos[e]! & 0xffff;
        if (last !== undefined && last.doc === doc) {
          last.mask = (last.mask | masks[e]!) >>> 0;
          last.position = Math.min(last.position, position);
        } else {
          list.push({ doc, mask: masks[e]!, position });
        }
      }
    }
  }
  const starts = new Int32Array(nPrefixes + 1);
  lists.forEach((list, p) => (starts[p + 1] = starts[p]! + list.length));
  const all = lists.flat();
  return {
    starts,
    docids: Uint32Array.from(all, (entry) => entry.doc),
    masks: Uint32Array.from(all, (entry) => entry.mask),
    infos: Uint32Array.from(all, (entry) => entry.position),
  };
}
