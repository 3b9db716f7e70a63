/**
 * charabia 0.9.9's FstSegmenter (segmenter/utils.rs), which its German, Thai and Khmer segmenters
 * run over a word list: at each position the longest word that starts there is a piece; the
 * characters where no word starts are buffered, and the buffer becomes a piece where a word
 * starts, at the run's end, or once it holds `maxUnmatched` characters (German: no limit, so they
 * gather into one piece, "fährt" → "fähr", "t"; Thai and Khmer: 1, each such character alone).
 * Matching is case-sensitive, on the text as written.
 *
 * Input: one run of characters between separators, as charabia hands its segmenters the text
 * between separators. Output: the UTF-16 indexes strictly inside the run where a piece starts.
 *
 * The words are put in a trie over UTF-16 code units. A lookup walks the run's code units from a
 * position until no word goes on. It finds exactly the matches of charabia's byte FST: every
 * word is whole characters of the Basic Multilingual Plane, so a word's UTF-8 bytes start the
 * run's bytes at a character boundary if and only if its code units start the run's code units
 * there. A lone surrogate is never in a word, as U+FFFD, which Rust would have been given, is not.
 */
import { isSurrogatePair } from './utf16.js';

/**
 * The words as a trie whose nodes are numbered in depth-first order. A node's children are the
 * edges `first[node]` up to `first[node + 1]`, ordered by `labels`; a label is a code unit's
 * number in `symbols` (0: a code unit no word holds). The root's children are also indexed by
 * label in `rootChild`, as every position of a run starts a lookup there.
 */
export interface WordTrie {
  readonly symbols: Uint16Array;
  readonly rootChild: Int32Array;
  readonly first: Uint32Array;
  readonly labels: Uint16Array;
  readonly targets: Uint32Array;
  readonly final: Uint8Array;
}

/** The UTF-16 indexes in `piece` (increasing, strictly inside it) where charabia's FstSegmenter starts a piece. */
export function prefixWordStarts(words: WordTrie, piece: string, maxUnmatched: number): number[] {
  const out: number[] = [];
  let unmatched = 0;
  for (let at = 0; at < piece.length; ) {
    const end = longestWordEnd(words, piece, at);
    if (end < 0) {
      if ((unmatched === 0 || unmatched === maxUnmatched) && at > 0) out.push(at);
      if (unmatched === maxUnmatched) unmatched = 0;
      unmatched++;
      at += isSurrogatePair(piece, at) ? 2 : 1;
    } else {
      if (at > 0) out.push(at);
      unmatched = 0;
      at = end;
    }
  }
  return out;
}

/** The end (UTF-16 index) of the longest word `piece` holds at `at`, or -1 if no word starts there. */
function longestWordEnd(words: WordTrie, piece: string, at: number): number {
  const { symbols, first, labels, targets, final } = words;
  let node = words.rootChild[symbols[piece.charCodeAt(at)]];
  if (node < 0) return -1;
  let end = final[node] ? at + 1 : -1;
  for (let i = at + 1; i < piece.length; i++) {
    const label = symbols[piece.charCodeAt(i)];
    if (label === 0) break;
    let edge = first[node];
    const stop = first[node + 1];
    while (edge < stop && labels[edge] < label) edge++;
    if (edge === stop || labels[edge] !== label) break;
    node = targets[edge];
    if (final[node]) end = i + 1;
  }
  return end;
}

/** The trie of `words` (any order; each made of whole characters of the Basic Multilingual Plane). */
export function wordTrie(list: readonly string[]): WordTrie {
  // Sorted, each word shares with the one before it the longest prefix it shares with any before
  // it, so a word's new nodes hang off the previous word's path and come out in depth-first order.
  const words = [...list].sort();
  // Labels number the code units in their order, so that siblings, created in the words' order,
  // come out sorted by label.
  const symbols = new Uint16Array(0x10000);
  let units = 0;
  let longest = 0;
  for (const word of words) {
    for (let i = 0; i < word.length; i++) symbols[word.charCodeAt(i)] = 1;
    units += word.length;
    longest = Math.max(longest, word.length);
  }
  let symbolCount = 0;
  for (let code = 0; code < symbols.length; code++) if (symbols[code]) symbols[code] = ++symbolCount;
  const parent = new Uint32Array(units + 1);
  const label = new Uint16Array(units + 1);
  const final = new Uint8Array(units + 1);
  const path = new Uint32Array(longest + 1);
  let nodes = 1;
  let previous = '';
  for (const word of words) {
    let shared = 0;
    while (shared < word.length && word.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
    for (let i = shared; i < word.length; i++) {
      parent[nodes] = path[i];
      label[nodes] = symbols[word.charCodeAt(i)];
      path[i + 1] = nodes++;
    }
    final[path[word.length]] = 1;
    previous = word;
  }
  // Nodes are numbered in depth-first order with siblings by increasing label, so walking them in
  // order lays each node's edges out contiguously and sorted.
  const first = new Uint32Array(nodes + 1);
  for (let node = 1; node < nodes; node++) first[parent[node] + 1]++;
  for (let node = 0; node < nodes; node++) first[node + 1] += first[node];
  const labels = new Uint16Array(nodes - 1);
  const targets = new Uint32Array(nodes - 1);
  const next = first.slice(0, nodes);
  for (let node = 1; node < nodes; node++) {
    const edge = next[parent[node]]++;
    labels[edge] = label[node];
    targets[edge] = node;
  }
  const rootChild = new Int32Array(symbolCount + 1).fill(-1);
  for (let edge = first[0]; edge < first[1]; edge++) rootChild[labels[edge]] = targets[edge];
  return { symbols, rootChild, first, labels, targets, final: final.slice(0, nodes) };
}

