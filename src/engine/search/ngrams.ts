/**
 * N-grams (ranking.md §4–§6): 2 or 3 adjacent query words joined into one term of their own
 * (`sun flower` → `sunflower`), as milli's query graph builds them, and the cuts of the query they
 * make possible.
 *
 * An n-gram term is resolved like a word (terms.ts): its joined word, a prefix when it ends the
 * query, typos within `budget(joined) − (n − 1)`, its split into two words, synonyms. A query is
 * then matched by any cut into words and n-grams (`sun flower` by `sun` + `flower`, or by
 * `sunflower`), and a document is ranked by each rule on the best cut it fully matches: it cannot
 * take a word from one cut and the rest from another. `QueryCuts` answers these per document,
 * through the terms' and n-grams' per-document features; `cutCandidates` gives the documents a
 * relaxation level of the words rule matches.
 */
import { intersect, unionAll, type DocSet } from '../docset.js';
import { indexable, NO_MATCH, type ResolvedTerm, type TermFeatures } from './terms.js';
import type { QueryTerm, WordTerm } from './query.js';

export interface Ngram {
  /** index of the first query term it joins */
  readonly first: number;
  /** how many query words it joins (2 or 3) */
  readonly n: number;
  readonly resolved: ResolvedTerm;
}

/**
 * The n-gram terms of a query, each with the index of its first term: every run of 2 or 3 word
 * terms at consecutive positions (a phrase never joins one) whose joined word could be indexed;
 * a prefix when its last word is.
 */
export function ngramTerms(terms: readonly QueryTerm[]): { first: number; term: WordTerm }[] {
  const out: { first: number; term: WordTerm }[] = [];
  for (let first = 0; first < terms.length; first++) {
    for (const n of [2, 3]) {
      const group = terms.slice(first, first + n);
      if (group.length < n) break;
      const adjacent = group.every((t, k) => t.kind === 'word' && (k === 0 || t.position === group[k - 1]!.position + 1));
      if (!adjacent) break;
      const words = (group as WordTerm[]).map((t) => t.word);
      const word = words.join('');
      // milli builds no n-gram past the longest indexable word
      if (!indexable(word)) continue;
      out.push({ first, term: { kind: 'word', word, position: group[0]!.position, prefix: (group[n - 1] as WordTerm).prefix, ngram: words } });
    }
  }
  return out;
}

/** Whether every word an n-gram joins is kept. */
function usable(g: Ngram, kept: readonly boolean[]): boolean {
  for (let t = g.first; t < g.first + g.n; t++) if (!kept[t]) return false;
  return true;
}

/** An n-gram ending at a term, usable with the kept terms: its features and its `pathMin` node. */
interface EndingNgram {
  readonly g: Ngram;
  readonly own: TermFeatures | null;
  readonly node: number;
}

/**
 * The usable n-grams ending at each term, flat: term t's are `list[start[t]]` to
 * `list[start[t + 1]]`. One flat list because the per-document walks read it: nested lists, some
 * empty (another array map), made V8 deoptimize a walk's loop on every call, thousands of times
 * a second on a server (the rest of each call then ran in the interpreter).
 */
interface UsableEnding {
  readonly start: Int32Array;
  readonly list: readonly EndingNgram[];
}

/** The n-grams ending at each term index. */
function byLastTerm(termCount: number, ngrams: readonly Ngram[]): Ngram[][] {
  const ending: Ngram[][] = Array.from({ length: termCount }, () => []);
  for (const g of ngrams) ending[g.first + g.n - 1]!.push(g);
  return ending;
}

/** The kept terms after the words rule removed its first `level` groups. */
export function keptAtLevel(termCount: number, removal: readonly (readonly number[])[], level: number): boolean[] {
  const kept = new Array<boolean>(termCount).fill(true);
  for (const members of removal.slice(0, level)) for (const t of members) kept[t] = false;
  return kept;
}

/**
 * The documents of `universe` (null: every one) matching some cut of the kept terms, by set
 * operations: what reaches term t is what matched a cut of the kept terms before it.
 */
function cutDocs(terms: readonly ResolvedTerm[], ending: readonly Ngram[][], kept: readonly boolean[], universe: DocSet | null): DocSet | null {
  const reach: (DocSet | null)[] = [universe];
  const within = (set: DocSet | null, docs: DocSet) => (set === null ? docs : intersect(set, docs));
  terms.forEach((term, t) => {
    if (!kept[t]) {
      reach.push(reach[t]!);
      return;
    }
    const sets = [within(reach[t]!, term.docs)];
    for (const g of ending[t]!) if (g.resolved.docs.length > 0 && usable(g, kept)) sets.push(within(reach[g.first]!, g.resolved.docs));
    reach.push(sets.length === 1 ? sets[0]! : unionAll(sets));
  });
  return reach[terms.length]!;
}

/**
 * The candidates of a search with matching n-grams: the documents of `universe` matching some
 * cut of the kept terms at any level of the words rule (a document holding `sunflower` alone
 * matches `sun flower` while both words are kept, not once `flower` is dropped). Levels without
 * a usable n-gram add nothing the last level does not hold.
 */
export function cutCandidates(terms: readonly ResolvedTerm[], ngrams: readonly Ngram[], removal: readonly (readonly number[])[], universe: DocSet | null): DocSet | null {
  const ending = byLastTerm(terms.length, ngrams);
  const sets: DocSet[] = [];
  for (let level = 0; level <= removal.length; level++) {
    const kept = keptAtLevel(terms.length, removal, level);
    if (level < removal.length && !ngrams.some((g) => g.resolved.docs.length > 0 && usable(g, kept))) continue;
    const docs = cutDocs(terms, ending, kept, universe);
    if (docs === null) return null;
    sets.push(docs);
  }
  return sets.length === 1 ? sets[0]! : unionAll(sets);
}

/**
 * Per-document answers over the cuts of the query into words and n-grams. `ngramFeatures` is
 * parallel to `ngrams`, null for an n-gram matching no document.
 */
export class QueryCuts {
  private readonly ending: Ngram[][];
  private readonly best: Float64Array;
  private readonly featuresOf: Map<Ngram, TermFeatures | null>;
  private readonly ngramIndex: Map<Ngram, number>;
  /** `usableEnding`'s answer per kept set */
  private readonly endingFor = new WeakMap<readonly boolean[], UsableEnding>();
  /** `pathMin`'s best cost per node, and the (node, first term) pairs of the nodes it visits */
  private readonly nodeBest: Float64Array;
  private readonly nodes: Int32Array;
  /** how many query terms the cuts are over */
  readonly termCount: number;
  /** whether some n-gram matches a candidate: else every cut but the words alone is unmatched */
  readonly active: boolean;
  /**
   * Per candidate, whether some n-gram matches it: for the others the words alone are the only
   * cut, which the rules' plain per-term costs already rank.
   */
  readonly throughNgram: Uint8Array;

  constructor(
    terms: readonly ResolvedTerm[],
    private readonly features: readonly TermFeatures[],
    /** the n-grams: node terms.length + k of `pathMin` is the k-th */
    readonly ngrams: readonly Ngram[],
    /** parallel to `ngrams`, null for an n-gram matching no candidate */
    readonly ngramFeatures: readonly (TermFeatures | null)[],
  ) {
    this.termCount = terms.length;
    this.ending = byLastTerm(terms.length, ngrams);
    this.best = new Float64Array(terms.length + 1);
    this.featuresOf = new Map(ngrams.map((g, k) => [g, ngramFeatures[k]!]));
    this.ngramIndex = new Map(ngrams.map((g, k) => [g, k]));
    this.nodeBest = new Float64Array(terms.length + ngrams.length);
    // the nodes ending at one term, then those ending at the kept term before it
    this.nodes = new Int32Array(4 * (1 + ngrams.length));
    this.throughNgram = new Uint8Array(features[0]?.typo.length ?? 0);
    for (const f of ngramFeatures) {
      if (f === null) continue;
      for (let i = 0; i < f.typo.length; i++) if (f.typo[i] !== NO_MATCH) this.throughNgram[i] = 1;
    }
    this.active = this.throughNgram.includes(1);
  }

  /**
   * The least total cost, over the cuts of the kept terms whose every node candidate `i`
   * matches, of `termCost(t, i)` per word or phrase and `ngramCost(g, its features, i)` per
   * n-gram; Infinity when it matches no cut. The costs take `i` so that a caller walking a group
   * passes the same two functions for every document (a closure per document cost more than
   * the walk).
   */
  min(kept: readonly boolean[], i: number, termCost: (t: number, i: number) => number, ngramCost: (g: Ngram, features: TermFeatures, i: number) => number): number {
    // `i` is a candidate: the features of every n-gram walked through are there
    return this.walk(kept, i, termCost, ngramCost as (g: Ngram, features: TermFeatures | null, i: number) => number, Math.min, Infinity);
  }

  /** Whether candidate `i` matches some cut of the kept terms. */
  matches(kept: readonly boolean[], i: number): boolean {
    return this.min(kept, i, zero, zero) < Infinity;
  }

  /**
   * A rule's maximum cost: the greatest total of `termMax(t)` per term and `ngramMax(g)` per
   * n-gram over the cuts of the kept terms in the graph the rule receives. The first graph rule
   * receives every cut, whether its n-grams match anything or not (`everyCut`); a later one only
   * those an earlier rule's bucket came from, the cuts some document of `group` fully matches.
   */
  max(kept: readonly boolean[], group: ArrayLike<number>, everyCut: boolean, termMax: (t: number) => number, ngramMax: (g: Ngram) => number): number {
    if (everyCut) return this.walk(kept, -1, termMax, ngramMax, Math.max, NO_CUT);
    // no n-gram matches a candidate: the words alone are every document's cut
    if (!this.active) return this.walk(kept, -1, termMax, unmatched, Math.max, NO_CUT);
    let max = NO_CUT;
    let wordsAlone = false;
    for (let k = 0; k < group.length; k++) {
      const i = group[k]!;
      if (this.throughNgram[i] === 1) max = Math.max(max, this.walk(kept, i, termMax, ngramMax, Math.max, NO_CUT));
      else wordsAlone = true;
    }
    if (max === NO_CUT || wordsAlone) max = Math.max(max, this.walk(kept, -1, termMax, unmatched, Math.max, NO_CUT));
    return max;
  }

  /**
   * The least total of `edgeCost(previous node, node)` over the cuts of the kept terms whose
   * every node candidate `i` matches; a node is a term index, or terms.length + the index of an
   * n-gram in `ngrams`; the first node's previous one is −1. Infinity when it matches no cut.
   */
  pathMin(kept: readonly boolean[], i: number, edgeCost: (previous: number, node: number) => number): number {
    const count = this.termCount;
    const ending = this.usableEnding(kept);
    // each node's best is written at its last term before any later term reads it
    const { nodeBest } = this;
    let last = -1;
    for (let t = 0; t < count; t++) {
      if (!kept[t]) continue;
      const nodes = this.nodesEndingAt(t, i, ending, 0);
      for (let k = 0; k < nodes; k++) {
        const node = this.nodes[2 * k]!;
        let before = this.nodes[2 * k + 1]! - 1;
        while (before >= 0 && !kept[before]) before--;
        let best = before < 0 ? edgeCost(-1, node) : Infinity;
        if (before >= 0) {
          const previous = this.nodesEndingAt(before, i, ending, nodes);
          for (let p = nodes; p < nodes + previous; p++) {
            const reached = nodeBest[this.nodes[2 * p]!]!;
            if (reached < Infinity) best = Math.min(best, reached + edgeCost(this.nodes[2 * p]!, node));
          }
        }
        nodeBest[node] = best;
      }
      last = t;
    }
    let best = Infinity;
    if (last >= 0) {
      const nodes = this.nodesEndingAt(last, i, ending, 0);
      for (let k = 0; k < nodes; k++) best = Math.min(best, nodeBest[this.nodes[2 * k]!]!);
    }
    return best;
  }

  /**
   * Writes the nodes candidate `i` matches ending at term `t` (node, its first term) to `nodes`
   * from pair `at` on, and returns how many: the term itself, then its usable n-grams.
   */
  private nodesEndingAt(t: number, i: number, ending: UsableEnding, at: number): number {
    let k = at;
    if (this.features[t]!.typo[i] !== NO_MATCH) {
      this.nodes[2 * k] = t;
      this.nodes[2 * k + 1] = t;
      k++;
    }
    for (let u = ending.start[t]!; u < ending.start[t + 1]!; u++) {
      const { g, own, node } = ending.list[u]!;
      if (own === null || own.typo[i] === NO_MATCH) continue;
      this.nodes[2 * k] = node;
      this.nodes[2 * k + 1] = g.first;
      k++;
    }
    return k - at;
  }

  /**
   * Dynamic programming over the cuts: the best (`pick`) total up to each term, through the nodes
   * candidate `i` matches (every node when `i` is −1); `none` when no cut qualifies.
   */
  private walk(
    kept: readonly boolean[],
    i: number,
    termCost: (t: number, i: number) => number,
    ngramCost: (g: Ngram, features: TermFeatures | null, i: number) => number,
    pick: (a: number, b: number) => number,
    none: number,
  ): number {
    const { best, features } = this;
    const ending = this.usableEnding(kept);
    best[0] = 0;
    for (let t = 0; t < this.termCount; t++) {
      if (!kept[t]) {
        best[t + 1] = best[t]!;
        continue;
      }
      let cost = i >= 0 && features[t]!.typo[i] === NO_MATCH ? none : best[t]! + termCost(t, i);
      for (let u = ending.start[t]!; u < ending.start[t + 1]!; u++) {
        const { g, own } = ending.list[u]!;
        if (i >= 0 && (own === null || own.typo[i] === NO_MATCH)) continue;
        cost = pick(cost, best[g.first]! + ngramCost(g, own, i));
      }
      best[t + 1] = cost;
    }
    return best[this.termCount]!;
  }

  /**
   * Per term, the n-grams ending there that the kept terms allow, with their features: worked
   * out once per kept set (a walk runs per document, and looked them up per document).
   */
  private usableEnding(kept: readonly boolean[]): UsableEnding {
    let ending = this.endingFor.get(kept);
    if (ending === undefined) {
      const count = this.termCount;
      const start = new Int32Array(count + 1);
      const list: EndingNgram[] = [];
      for (let t = 0; t < count; t++) {
        for (const g of this.ending[t]!) if (usable(g, kept)) list.push({ g, own: this.featuresOf.get(g)!, node: count + this.ngramIndex.get(g)! });
        start[t + 1] = list.length;
      }
      ending = { start, list };
      this.endingFor.set(kept, ending);
    }
    return ending;
  }
}

const zero = (): number => 0;
/**
 * A maximum over no cut. A constant, not `-Infinity` in place (a unary minus): V8 compiles `max`
 * on the stack while its loop runs, and that code deoptimized at every operation after the loop
 * the interpreter had not yet seen (this one, or a compare skipped by `||`), on every long call.
 */
const NO_CUT = Number.NEGATIVE_INFINITY;
const unmatched = (): number => NO_CUT;

/**
 * The terms highlighting and cropping match: the query's, then its n-grams, each a term of its own
 * over the query positions it joins, as milli's matcher takes the n-gram terms of its query graph:
 * `sun flower` marks `sunflower`, and the prefix n-gram of `sun flo` marks `sunflo` in `sunflower`.
 */
export function withNgramWords(terms: readonly ResolvedTerm[], ngrams: readonly Ngram[]): ResolvedTerm[] {
  return [...terms, ...ngrams.map((g) => g.resolved)];
}
