/**
 * The bucket sort's costs through n-grams (ranking.md §3–§5): a rule's per-document costs replaced,
 * for the documents an n-gram matches, by those of their best cut of the query into words and
 * n-grams (ngrams.ts `QueryCuts`). The other documents have the words alone, which ranking.ts's
 * plain per-term costs already rank, so they are skipped.
 */
import { keptAtLevel, type Ngram, type QueryCuts } from './ngrams.js';
import type { GroupPlaces, ProximityTerms } from './proximity-terms.js';
import type { TermFeatures } from './terms.js';

/** Indices into the candidates (a bucket sort group). */
type Group = ArrayLike<number>;

/** Each document's words-rule level with n-grams: the first level where it matches a cut of the kept terms. */
export function cutLevels(cuts: QueryCuts, removal: readonly (readonly number[])[], group: Group, levels: Int32Array): void {
  const keptAt = Array.from({ length: removal.length + 1 }, (_, level) => keptAtLevel(cuts.termCount, removal, level));
  for (let k = 0; k < group.length; k++) {
    if (cuts.throughNgram[group[k]!] === 0) continue;
    let level = 0;
    while (level < removal.length && !cuts.matches(keptAt[level]!, group[k]!)) level++;
    levels[k] = level;
  }
}

/**
 * Replaces each document's cost by that of its best cut into words and n-grams, where it
 * matches one (the words-only cost stays for a document matching none).
 */
export function cutCosts(
  cuts: QueryCuts,
  group: Group,
  kept: readonly boolean[],
  costs: Int32Array,
  termCost: (t: number, i: number) => number,
  ngramCost: (g: Ngram, features: TermFeatures, i: number) => number,
): void {
  for (let k = 0; k < group.length; k++) {
    const i = group[k]!;
    if (cuts.throughNgram[i] === 0) continue;
    const best = cuts.min(kept, i, termCost, ngramCost);
    if (best < Infinity) costs[k] = best;
  }
}

export interface ProximityStep {
  readonly group: Group;
  readonly kept: readonly boolean[];
  /** the words-only costs, parallel to `group`, replaced where a cut costs less */
  readonly costs: Int32Array;
  /** whether the term at a first index has a proximity pair with the kept term before it */
  readonly paired: (first: number) => boolean;
}

/** How many documents of `group` an n-gram matches. */
export function throughCount(cuts: QueryCuts, group: Group): number {
  let count = 0;
  for (let k = 0; k < group.length; k++) count += cuts.throughNgram[group[k]!] === 1 ? 1 : 0;
  return count;
}

/**
 * Replaces each document's proximity cost by that of its best cut into words and n-grams:
 * each pair of adjacent nodes costs their proximity over the place lists of proximity-terms.ts
 * (`lists` holds the query terms' and then the n-grams' lists, node k being term k), plus n − 1
 * when the right node is an n-gram (the records' cost offset), whose first edge costs n − 1 too.
 * Each node pair's costs come from one kernel call: over `groupPlaces`, the whole group's lists
 * from `lists`' table when the caller gathered them (an n-gram matching a fifth of the group or
 * more: the words-only costs were priced on them too), else over the lists of the documents an
 * n-gram matches, gathered here. `exactOnly`: the terms an exactWords bucket narrowed to their exact form.
 */
export function ngramProximityCosts(
  cuts: QueryCuts,
  lists: ProximityTerms,
  groupPlaces: GroupPlaces | undefined,
  byAttribute: boolean,
  exactOnly: ReadonlySet<number> | undefined,
  step: ProximityStep,
): void {
  const { group, kept, costs, paired } = step;
  // the positions in the group of the documents an n-gram matches, and those documents
  const through: number[] = [];
  const members: number[] = [];
  for (let k = 0; k < group.length; k++) {
    if (cuts.throughNgram[group[k]!] !== 1) continue;
    through.push(k);
    members.push(group[k]!);
  }
  if (through.length === 0) return;
  const places = groupPlaces ?? lists.gatherGroup(members, exactOnly, byAttribute);
  const count = cuts.termCount;
  const firstOf = (node: number) => (node < count ? node : cuts.ngrams[node - count]!.first);
  const sizeOf = (node: number) => (node < count ? 1 : cuts.ngrams[node - count]!.n);
  const pairCosts = new Map<number, Uint32Array>();
  const pairCost = (previous: number, node: number, at: number) => {
    const key = previous * (count + cuts.ngrams.length) + node;
    let column = pairCosts.get(key);
    if (column === undefined) {
      column = places.costs(lists.pairRecords(previous, node, sizeOf(node) - 1));
      pairCosts.set(key, column);
    }
    return column[at]!;
  };
  through.forEach((k, at) => {
    const column = groupPlaces === undefined ? at : k;
    const edge = (previous: number, node: number) => (previous >= 0 && paired(firstOf(node)) ? pairCost(previous, node, column) : sizeOf(node) - 1);
    const best = cuts.pathMin(kept, group[k]!, edge);
    if (best < Infinity) costs[k] = best;
  });
}
