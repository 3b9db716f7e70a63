/**
 * The bucket sort's costs through n-grams (ranking.md §3–§5): a rule's per-document costs replaced,
 * for the documents an n-gram matches, by those of their best cut of the query into words and
 * n-grams (ngrams.ts `QueryCuts`). The other documents have the words alone, which ranking.ts's
 * plain per-term costs already rank, so they are skipped.
 */
import { ProximityBuilder, proximityCosts } from '../../kernels/proximity.js';
import type { DocSet } from '../docset.js';
import { placesOfWord, type ForwardReader } from './forward.js';
import { keptAtLevel, type Ngram, type QueryCuts } from './ngrams.js';
import type { ResolvedTerm, TermFeatures } from './terms.js';

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
    const best = cuts.min(kept, i, (t) => termCost(t, i), (g, f) => ngramCost(g, f, i));
    if (best < Infinity) costs[k] = best;
  }
}

export interface ProximitySource {
  readonly terms: readonly ResolvedTerm[];
  readonly forward: ForwardReader;
  readonly candidates: DocSet;
  readonly byAttribute: boolean;
}

export interface ProximityStep {
  readonly group: Group;
  readonly kept: readonly boolean[];
  /** the words-only costs, parallel to `group`, replaced where a cut costs less */
  readonly costs: Uint32Array | Int32Array;
  /** whether the term at a first index has a proximity pair with the kept term before it */
  readonly paired: (first: number) => boolean;
}

/**
 * Replaces each document's proximity cost by that of its best cut into words and n-grams:
 * each pair of adjacent nodes costs their words' proximity (an n-gram's places are its joined
 * word's), plus n − 1 when the right node is an n-gram, whose first edge costs n − 1 too.
 * Each pair's costs come from one kernel call over the documents an n-gram matches.
 */
export function ngramProximityCosts(cuts: QueryCuts, source: ProximitySource, builder: ProximityBuilder, placesOf: (i: number) => number[][], step: ProximityStep): void {
  const { terms, forward, candidates } = source;
  const { group, kept, costs, paired } = step;
  const through: number[] = [];
  for (let k = 0; k < group.length; k++) if (cuts.throughNgram[group[k]!] === 1) through.push(k);
  if (through.length === 0) return;
  const ngrams = cuts.matchedNodes();
  const slots = new Map<number, number>(); // node → its place list in the batch
  terms.forEach((_, t) => slots.set(t, t));
  ngrams.forEach(([node], k) => slots.set(node, terms.length + k));
  builder.begin(terms.length + ngrams.length);
  for (const k of through) {
    const i = group[k]!;
    const record = forward.read(candidates[i]!);
    const ngramPlaces = ngrams.map(([, g]) => (record === null ? [] : g.resolved.derivations.flatMap((d) => (d.posting.id === 0 ? [] : placesOfWord(record, d.posting.id)))));
    builder.add([...placesOf(i), ...ngramPlaces]);
  }
  const nodeOf = new Map(ngrams);
  const firstOf = (node: number) => (node < terms.length ? node : nodeOf.get(node)!.first);
  const sizeOf = (node: number) => (node < terms.length ? 1 : nodeOf.get(node)!.n);
  const pairCosts = new Map<string, Uint32Array>();
  const pairCost = (previous: number, node: number, at: number) => {
    const key = `${previous},${node}`;
    let column = pairCosts.get(key);
    if (column === undefined) {
      const leftExtra = previous < terms.length ? terms[previous]!.wordCount - 1 : 0;
      column = proximityCosts(builder.batch(Uint32Array.of(slots.get(previous)!, slots.get(node)!, leftExtra), source.byAttribute));
      pairCosts.set(key, column);
    }
    return column[at]!;
  };
  through.forEach((k, at) => {
    const edge = (previous: number, node: number) => sizeOf(node) - 1 + (previous >= 0 && paired(firstOf(node)) ? pairCost(previous, node, at) : 0);
    const best = cuts.pathMin(kept, group[k]!, edge);
    if (best < Infinity) costs[k] = best;
  });
}
