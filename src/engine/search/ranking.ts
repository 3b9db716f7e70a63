/**
 * Ranking rules and the bucket sort (ranking.md §1–§6, §8, §10).
 *
 * `rankingSteps` expands the `rankingRules` setting and the `sort` parameter into internal
 * steps (`attribute` = fid + position, `exactness` = exactAttribute + exactWords, `sort` = the
 * parameter's criteria in place), inserting the Words step before the first relevancy step; it
 * does so once per `rankingRules` array and request shape. Sort steps on fields no document holds
 * split nothing: a group passes a run of them whole, with their details (`AbsentSortRuns`).
 *
 * `bucketSort` splits the candidates depth-first: each step orders a group into buckets of equal
 * cost, and every bucket with more than one document goes to the next step, until enough
 * documents came out; ties keep ascending docids. A step's costs come from the per-document term
 * features (terms.ts) for the terms the Words bucket kept; positions that features do not
 * carry (proximity, positions away from the query start, multi-word exactness) are read from
 * the documents' forward records, only for the groups that reach those steps; a group's proximity
 * costs are computed by the proximity kernel in one call, over the place lists and pair records
 * of proximity-terms.ts. Step costs are computed column by
 * column over the typed feature arrays, then grouped. With n-grams in the query (ngrams.ts), the
 * documents an n-gram matches are costed on their best cut into words and n-grams (ngram-costs.ts).
 * Each emitted document carries its rank per step, from which `_rankingScore` and
 * `_rankingScoreDetails` are computed exactly as Meilisearch's score details.
 *
 * Time budget (`searchCutoffMs`, ranking.md §9): before each next bucket the budget is checked,
 * as Meilisearch's bucket sort does. Once it is spent, no step refines anything more: the
 * documents the interrupted step had not yet put in a bucket are emitted in docid order with a
 * `skipped` detail (rank 0 of 1), then those its parent steps had not reached, level by level;
 * the sort is degraded when the first step still had documents left.
 *
 * Score threshold (`rankingScoreThreshold`), as Meilisearch's bucket sort: a bucket whose score so
 * far is under it leaves the ranking, and so does every document its step had not yet put in a
 * bucket (they score lower still); those documents leave the hit count too (`dropped`), and the
 * page fills with documents above it.
 */
import { EMPTY, fromUnsorted, has, indexIn, type DocSet } from '../docset.js';
import type { LatLng } from '../facets/geo.js';
import { fieldValueBuckets, geoBuckets, type SortCriterion } from '../facets/sort.js';
import type { FacetReader } from '../facets/store.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { bucketedPosition } from './bucketed-position.js';
import type { Dictionary } from './dictionary.js';
import { fieldWordCounts, wordIndex, type ForwardReader, type ForwardTokens } from './forward.js';
import { INFO_POSITION } from '../words/postings.js';
import { cutCosts, cutLevels, ngramProximityCosts, throughCount } from './ngram-costs.js';
import type { Ngram, QueryCuts } from './ngrams.js';
import { ProximityTerms, type PairRecords } from './proximity-terms.js';
import { termEnd } from './query.js';
import { scratchInt32, scratchUint32, withScratch } from './scratch.js';
import { EXACT_AT_START, EXACT_WHOLE_FIELD, HAS_EXACT, NO_MATCH, termWordIndex, type ResolvedTerm, type TermFeatures, type TermWordIndex } from './terms.js';

export type MatchingStrategy = 'last' | 'all' | 'frequency';

export type RankStep =
  | { readonly kind: 'words' | 'typo' | 'proximity' | 'exactAttribute' | 'exactWords' }
  | { readonly kind: 'fid' | 'position'; readonly unified: boolean }
  | { readonly kind: 'sort'; readonly criterion: SortCriterion }
  /** semantic search: the relevancy rules collapsed into one ordering by vector similarity (semantic.ts) */
  | { readonly kind: 'vector' };

/** One step's outcome for a document. */
export type StepDetail =
  | { readonly kind: 'words'; readonly matching: number; readonly max: number }
  | { readonly kind: 'typo'; readonly count: number; readonly max: number }
  | { readonly kind: 'proximity' | 'fid' | 'position'; readonly rank: number; readonly max: number; readonly unified?: boolean }
  | { readonly kind: 'exactAttribute'; readonly match: 'exactMatch' | 'matchesStart' | 'noExactMatch' }
  | { readonly kind: 'exactWords'; readonly matching: number; readonly max: number }
  /** a `_geoPoint` sort ranks by `point` (the bucket's first point), `value` being its distance in metres */
  | { readonly kind: 'sort'; readonly criterion: SortCriterion; readonly value: number | string | null; readonly point?: LatLng | null }
  /** the step the time budget interrupted: its documents were not ordered by it nor by later steps */
  | { readonly kind: 'skipped' }
  /** semantic ranking: the document's best similarity to the query vector, null without a vector */
  | { readonly kind: 'vector'; readonly similarity: number | null }
  /** a document a dynamic search rule pinned at `position`: placed there, whatever its ranking (score 1) */
  | { readonly kind: 'pin'; readonly position: number };

export interface RankedDoc {
  readonly docid: number;
  readonly details: readonly StepDetail[];
  /** `scoreOf(details)`, when the sort knew it without reading them */
  readonly score?: number;
}

const RELEVANCY = new Set(['words', 'typo', 'proximity', 'attributeRank', 'wordPosition', 'attribute', 'exactness']);

/**
 * The steps for a search. `placeholder` keeps only sort steps; `sort` (already parsed) expands
 * in place of the `sort` rule; a field sorted by an earlier step is not sorted again. A `vector`
 * (semantic) search puts one vector step where the first relevancy rule is, as milli's
 * `get_ranking_rules_for_vector`, and drops the other relevancy rules. A words step comes only
 * from the rules, before the first relevancy rule (milli's `get_ranking_rules_for_query_graph_search`):
 * rules without one rank the query's candidates by the other steps, or in docid order with none.
 */
export function rankingSteps(
  rankingRules: readonly string[],
  sort: readonly SortCriterion[],
  strategy: MatchingStrategy,
  placeholder: boolean,
  vector = false,
): readonly RankStep[] {
  let expanded = EXPANDED.get(rankingRules);
  if (expanded === undefined) EXPANDED.set(rankingRules, (expanded = new Map()));
  const key = `${strategy} ${placeholder} ${vector} ${JSON.stringify(sort)}`;
  let steps = expanded.get(key);
  if (steps === undefined) {
    if (expanded.size >= MAX_EXPANDED) expanded.clear();
    steps = expandSteps(rankingRules, sort, strategy, placeholder, vector);
    expanded.set(key, steps);
  }
  return steps;
}

/**
 * The steps of each `rankingRules` array (searches share one per stored settings version,
 * index-settings.ts), per request shape: 150,000 `field:asc` rules took ~0.6-1 s to expand (under
 * load), at every search; they are read once per array (`compiledRules`). A few shapes are kept per array; the `sort` parameter's criteria make the key.
 */
const EXPANDED = new WeakMap<readonly string[], Map<string, readonly RankStep[]>>();
const MAX_EXPANDED = 64;

/** A rule read once per `rankingRules` array: a field's sort step, `sort`, or a relevancy rule. */
type CompiledRule = { readonly kind: 'field'; readonly field: string; readonly step: RankStep } | { readonly kind: 'rule'; readonly rule: string };

/** The rules read, each once; where each field is sorted and where `sort` is, whose criteria do not sort a field an earlier rule sorts. */
interface CompiledRules {
  readonly rules: readonly CompiledRule[];
  readonly fieldRules: ReadonlyMap<string, number>;
  readonly sortRule: number;
}

const COMPILED = new WeakMap<readonly string[], CompiledRules>();

/** The rules of `rankingRules` that make steps, read (`field:asc|desc`) and deduplicated once per array. */
function compiledRules(rankingRules: readonly string[]): CompiledRules {
  let compiled = COMPILED.get(rankingRules);
  if (compiled !== undefined) return compiled;
  const rules: CompiledRule[] = [];
  const seenRules = new Set<string>();
  const fieldRules = new Map<string, number>();
  let sortRule = Number.POSITIVE_INFINITY;
  for (const rule of rankingRules) {
    if (seenRules.has(rule)) continue;
    seenRules.add(rule);
    const ascDesc = /^(.+):(asc|desc)$/.exec(rule);
    if (ascDesc !== null) {
      // a field sorts once
      if (fieldRules.has(ascDesc[1]!)) continue;
      fieldRules.set(ascDesc[1]!, rules.length);
      rules.push({ kind: 'field', field: ascDesc[1]!, step: { kind: 'sort', criterion: { kind: 'field', field: ascDesc[1]!, descending: ascDesc[2] === 'desc' } } });
    } else if (rule === 'sort' || RELEVANCY.has(rule)) {
      if (rule === 'sort') sortRule = rules.length;
      rules.push({ kind: 'rule', rule });
    }
  }
  compiled = { rules, fieldRules, sortRule };
  COMPILED.set(rankingRules, compiled);
  return compiled;
}

function expandSteps(rankingRules: readonly string[], sort: readonly SortCriterion[], strategy: MatchingStrategy, placeholder: boolean, vector: boolean): readonly RankStep[] {
  const steps: RankStep[] = [];
  const { rules, fieldRules, sortRule } = compiledRules(rankingRules);
  // the `sort` parameter's fields: a rule after it does not sort them again
  const paramFields = new Set<string>();
  let wordsDone = strategy === 'all' || placeholder;
  for (const compiled of rules) {
    if (compiled.kind === 'field') {
      if (!paramFields.has(compiled.field)) steps.push(compiled.step);
      continue;
    }
    const rule = compiled.rule;
    if (rule === 'sort') {
      for (const criterion of sort) {
        // a field sorts once; every `_geoPoint` is a step of its own (v1.50 never sets its `geo_sorted`)
        if (criterion.kind === 'field') {
          if ((fieldRules.get(criterion.field) ?? sortRule) < sortRule || paramFields.has(criterion.field)) continue;
          paramFields.add(criterion.field);
        }
        steps.push({ kind: 'sort', criterion });
      }
      continue;
    }
    if (vector) {
      if (!steps.some((step) => step.kind === 'vector')) steps.push({ kind: 'vector' });
      continue;
    }
    if (placeholder) continue;
    if (!wordsDone && rule !== 'words') steps.push({ kind: 'words' });
    wordsDone = true;
    switch (rule) {
      case 'words':
        // a Words step inserted before an earlier rule is the only one
        if (strategy !== 'all' && !steps.some((step) => step.kind === 'words')) steps.push({ kind: 'words' });
        break;
      case 'typo':
        steps.push({ kind: 'typo' });
        break;
      case 'proximity':
        steps.push({ kind: 'proximity' });
        break;
      case 'attributeRank':
        steps.push({ kind: 'fid', unified: false });
        break;
      case 'wordPosition':
        steps.push({ kind: 'position', unified: false });
        break;
      case 'attribute':
        steps.push({ kind: 'fid', unified: true }, { kind: 'position', unified: true });
        break;
      case 'exactness':
        steps.push({ kind: 'exactAttribute' }, { kind: 'exactWords' });
        break;
    }
  }
  return steps;
}

/** Rank and maximum rank of a relevancy detail; null for sort details. */
export function rankOf(detail: StepDetail): [number, number] | null {
  const max = maxRankIn(detail);
  return max === -1 ? null : [rankIn(detail), max];
}

/** The maximum rank of a relevancy detail; -1 for sort, vector and pin details, which have none. */
function maxRankIn(detail: StepDetail): number {
  switch (detail.kind) {
    case 'words':
    case 'proximity':
    case 'fid':
    case 'position':
      return detail.max;
    case 'typo':
    case 'exactWords':
      return detail.max + 1;
    case 'exactAttribute':
      return 3;
    case 'sort':
    case 'vector':
    case 'pin':
      return -1;
    case 'skipped':
      return 1;
  }
}

/** The rank of a relevancy detail (one with a maximum rank). */
function rankIn(detail: StepDetail): number {
  switch (detail.kind) {
    case 'words':
      return detail.matching;
    case 'typo':
      return detail.max + 1 - detail.count;
    case 'proximity':
    case 'fid':
    case 'position':
      return detail.rank;
    case 'exactAttribute':
      return detail.match === 'exactMatch' ? 3 : detail.match === 'matchesStart' ? 2 : 1;
    case 'exactWords':
      return detail.matching + 1;
    case 'sort':
    case 'vector':
    case 'pin':
    case 'skipped':
      return 0;
  }
}

/**
 * `_rankingScore`: the global score of the relevancy ranks (sort steps excluded), or for a
 * semantic hit its similarity (0 without a vector), as milli's `ScoreDetails::global_score`:
 * the ranks merged lexicographically into one fraction. Every hit of every search is scored, so
 * the ranks are read in place (rankOf's pairs, made per detail, were a share of a search's garbage).
 */
export function scoreOf(details: readonly StepDetail[]): number {
  let rank = 1;
  let max = 1;
  for (const detail of details) {
    if (detail.kind === 'vector') return detail.similarity ?? 0;
    const m = maxRankIn(detail);
    if (m === -1) continue;
    rank = Math.max(rank - 1, 0) * m + rankIn(detail);
    max *= m;
  }
  return rank / max;
}

/** The pair records of a query without two terms in a row. */
const NO_PAIRS: PairRecords = { records: new Uint32Array(0), pairs: 0 };

/** Whether a term has an exact form in the index: a phrase, or a word some document holds as is. */
function hasExactForm(term: ResolvedTerm): boolean {
  return term.phraseHits !== null || term.derivations.some((d) => d.exact);
}

/**
 * The one typo level every document matching `term` has (a phrase's is 0), or -1 when its
 * derivations have several: a document's level is that of the best derivation it holds.
 */
function soleLevel(term: ResolvedTerm): number {
  if (term.phraseHits !== null) return 0;
  let level = -1;
  for (const d of term.derivations) {
    if (d.posting.docids.length === 0) continue;
    if (level !== -1 && d.typo !== level) return -1;
    level = d.typo;
  }
  return level;
}

/** Whether every document matching `term` (of sole level `level`) holds it exactly: a phrase, or only exact derivations. */
function alwaysExact(term: ResolvedTerm, level: number): boolean {
  return term.phraseHits !== null || (level === 0 && term.derivations.every((d) => d.exact || d.posting.docids.length === 0));
}

/** Distance cost of the wordPosition rule. */
function costFromDistance(distance: number): number {
  if (distance <= 1) return distance;
  if (distance <= 4) return 2;
  if (distance <= 7) return 3;
  if (distance <= 11) return 4;
  if (distance <= 16) return 5;
  if (distance <= 24) return 6;
  if (distance <= 64) return 7;
  if (distance <= 256) return 8;
  if (distance <= 1024) return 9;
  return 10;
}

export interface RankInput {
  readonly env: IndexReadEnv;
  readonly dictionary: Dictionary;
  readonly candidates: DocSet;
  readonly terms: readonly ResolvedTerm[];
  readonly features: readonly TermFeatures[];
  /** Words-rule removal groups (term indices), first removed first. */
  readonly removal: readonly (readonly number[])[];
  /** field mask → weight of its most important field */
  readonly weightOf: (mask: number) => number;
  readonly maxWeight: number;
  readonly byAttribute: boolean;
  /** reads the candidates' forward records (positions for proximity, wordPosition, exactness) */
  readonly forward: ForwardReader;
  readonly facets: FacetReader;
  /** whether the time budget is spent, asked before each bucket (Meilisearch's `deadline.exceeded()`) */
  readonly timeUp: () => boolean;
  /** the query's n-grams (ngrams.ts): rules then cost a document on its best cut into words and n-grams */
  readonly cuts?: QueryCuts;
}

/**
 * Indices into the candidates, ascending; always a Uint32Array, so that the per-document loops
 * over groups stay monomorphic (a plain array among them made every such loop generic).
 */
type Group = Uint32Array;

/** One level of the bucket sort: a group being cut by one step, its buckets so far. */
interface SortLevel {
  readonly step: number;
  readonly group: Group;
  readonly buckets: Generator<[Group, StepDetail, readonly boolean[]]>;
  readonly done: Group[];
  consumed: number;
  /** whether the group passed a run of steps on absent fields on its way down to `step` (`AbsentSortRuns`) */
  readonly passed: boolean;
}

/** A term's multi-word synonym or split word, which wordPosition places at its first word. */
interface PhraseFirst {
  readonly t: number;
  readonly typo: number;
  readonly firstWord: number;
  /** the documents holding the phrase */
  readonly docids: DocSet;
}

/** The exact attribute's words, the same for every document of a group (`Ranker.exactPlan`). */
interface ExactPlan {
  readonly ids: readonly number[];
  /** each word's bucketed query position */
  readonly wants: readonly number[];
  /** the positions the exact terms span */
  readonly count: number;
  /** scratch: where each word's places lie in the record being read */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

class Ranker {
  /**
   * The terms an exactWords bucket narrowed to their exact word (exact in every document of the
   * bucket), keyed by the bucket's kept terms, which later steps receive: milli hands later graph
   * rules only the paths that made the bucket, so a later typo rule counts their narrowed maximum.
   * Computed when a later step asks (rarely: exactness is usually the last rule).
   */
  private readonly exactOnly = new WeakMap<readonly boolean[], () => ReadonlySet<number>>();
  private wordIndex: TermWordIndex | undefined;
  /** the terms' multi-word derivations placed by their first word (phrasePlaces), found on first use */
  private phraseFirsts: PhraseFirst[] | undefined;
  /** per term, its best wordPosition cost in the candidate last scanned (bestPositionCosts) */
  private readonly bestCosts: Int32Array;
  /** the candidate whose costs `bestCosts` holds, -1 for none */
  private scannedIndex = -1;
  private proximity: ProximityTerms | undefined;
  /** the same with the n-grams' lists after the query terms', for the documents an n-gram matches */
  private nodeProximity: ProximityTerms | undefined;
  private readonly totalWords: number;
  /** per term, whether it has an exact form in the index (decided once per query) */
  private readonly exactForm: readonly boolean[];
  /**
   * Per term, soleLevel and alwaysExact: a step whose every kept term has one level (typo), or
   * is always exact (exactWords), gives every document of a group the same cost, known without
   * a pass over the group. A group's documents match its kept terms, unless an n-gram stood in
   * for some (cuts.active), when the passes run.
   */
  private readonly soleLevels: readonly number[];
  private readonly alwaysExact: readonly boolean[];
  /** the kept terms of `activeFor` (activeTerms) */
  private active: readonly ResolvedTerm[] = [];
  private activeFor: readonly boolean[] | undefined;
  /** the group a sort step last read the docids of, and those docids (`sortBuckets`) */
  private sortedGroup: Group | undefined;
  private sortedDocids: DocSet = EMPTY;
  /** the time budget is spent: no step refines anything more */
  private timedOut = false;
  /** the time budget cut the first step short (Meilisearch's `degraded`) */
  degraded = false;
  /** the first graph-based rule, which receives the whole query graph (every cut into words and n-grams) */
  firstGraphStep: RankStep | undefined;
  /** the page's offset: a bucket whose documents all come before it is not refined (bucketSort) */
  from = 0;
  /** `rankingScoreThreshold`, null for none */
  threshold: number | null = null;
  /** the groups of indices the threshold took out of the ranking */
  readonly dropped: Group[] = [];

  constructor(
    private readonly input: RankInput,
    /** a typo step ranks before the proximity step: proximity takes each document's own typo levels */
    private readonly typoBeforeProximity: boolean,
    /** the same for the wordPosition step; without, it takes every level of the document's words */
    private readonly typoBeforePosition: boolean,
  ) {
    this.totalWords = input.terms.reduce((sum, t) => sum + t.matchingWords, 0);
    this.exactForm = input.terms.map(hasExactForm);
    this.soleLevels = input.terms.map(soleLevel);
    this.alwaysExact = input.terms.map((term, t) => alwaysExact(term, this.soleLevels[t]!));
    this.bestCosts = new Int32Array(input.terms.length);
  }

  /**
   * Each term's best wordPosition cost in candidate `i` (valid until another candidate's are asked
   * for): a step asks for one document's terms one after the other, and each document reaches the
   * position step once, so only the last document's are kept.
   */
  private bestPositionCosts(i: number): Int32Array {
    if (i !== this.scannedIndex) {
      this.scanPositions(i);
      this.scannedIndex = i;
    }
    return this.bestCosts;
  }

  /**
   * Scans candidate `i`'s forward record for the places of every term at the document's typo
   * levels (at any level when no typo step ranks before), keeping each term's least wordPosition
   * cost (10 without a place) in `bestCosts`. The
   * costs are taken in the scan, not from lists of places: lists emptied and refilled per
   * document were reallocated as they grew, the largest share of a search's garbage.
   */
  private scanPositions(i: number): void {
    const { terms, features, dictionary, candidates } = this.input;
    const index = (this.wordIndex ??= termWordIndex(terms, dictionary));
    const best = this.bestCosts;
    best.fill(10);
    // terms matched at 0 typos in this document (or at all, when any level counts), and whether
    // any is matched with typos
    const anyLevel = !this.typoBeforePosition;
    let zeroTerms = 0;
    let typoTerms = false;
    for (let t = 0; t < terms.length; t++) {
      const typo = features[t]!.typo[i]!;
      // a phrase's cost comes from its features (positionCost)
      if (typo === NO_MATCH || terms[t]!.phraseHits !== null) continue;
      if (typo === 0 || anyLevel) zeroTerms |= 1 << t;
      if (typo !== 0 || anyLevel) typoTerms = true;
    }
    const record = this.input.forward.read(candidates[i]!);
    if (record === null) return;
    const { zero, typos } = index;
    const { words, idsAt, nIds, runsAt } = record;
    for (let j = 0; j < nIds; j++) {
      const id = words[idsAt + j]!;
      let matched = id < zero.length ? zero[id]! & zeroTerms : 0;
      if (typoTerms) {
        const codes = typos.get(id);
        if (codes !== undefined) {
          for (let c = 0; c < codes.length; c++) {
            const t = codes[c]! >>> 2;
            if (anyLevel ? (zeroTerms & (1 << t)) !== 0 : features[t]!.typo[i] === (codes[c]! & 3)) matched |= 1 << t;
          }
        }
      }
      for (let m = matched; m !== 0; m &= m - 1) {
        const t = 31 - Math.clz32(m & -m);
        const qpos = terms[t]!.term.position;
        let cost = best[t]!;
        for (let k = words[runsAt + j]!; k < words[runsAt + j + 1]! && cost > 0; k++) {
          cost = Math.min(cost, costFromDistance(Math.abs(bucketedPosition(words[k]! & 0xffff) - qpos)));
        }
        best[t] = cost;
      }
    }
    this.phrasePlaces(i, record, best);
  }

  /**
   * Lowers `best` with the multi-word synonyms and split words of candidate `i`'s typo levels (any
   * level when no typo step ranks before) that it holds: milli's position graph places such a phrase at its first word's places, any of them,
   * in a document holding the phrase.
   */
  private phrasePlaces(i: number, record: ForwardTokens, best: Int32Array): void {
    const { terms, features, candidates } = this.input;
    this.phraseFirsts ??= terms.flatMap((term, t) =>
      term.derivations.flatMap((d) => (d.firstWord === undefined ? [] : [{ t, typo: d.typo, firstWord: d.firstWord, docids: d.posting.docids }])),
    );
    const { words, runsAt } = record;
    for (const { t, typo, firstWord, docids } of this.phraseFirsts) {
      const level = features[t]!.typo[i]!;
      if (best[t] === 0 || level === NO_MATCH || (this.typoBeforePosition && level !== typo) || !has(docids, candidates[i]!)) continue;
      const j = wordIndex(record, firstWord);
      if (j < 0) continue;
      const qpos = terms[t]!.term.position;
      let cost = best[t]!;
      for (let k = words[runsAt + j]!; k < words[runsAt + j + 1]! && cost > 0; k++) {
        cost = Math.min(cost, costFromDistance(Math.abs(bucketedPosition(words[k]! & 0xffff) - qpos)));
      }
      best[t] = cost;
    }
  }

  /** Buckets of `group` for one step: [indices, detail, kept terms of the bucket]. */
  *buckets(step: RankStep, group: Group, kept: readonly boolean[]): Generator<[Group, StepDetail, readonly boolean[]]> {
    const { terms, features, cuts } = this.input;
    const active = this.activeTerms(kept);
    switch (step.kind) {
      case 'words': {
        const columns = this.input.removal.map((members) => members.map((t) => features[t]!.typo));
        if (columns.length === 0 && cuts?.active !== true) {
          // nothing to remove (a one-word query): one bucket, every document at level 0
          yield [group, { kind: 'words', matching: this.totalWords, max: this.totalWords }, [...kept]];
          return;
        }
        let buckets: [number, Group][];
        if (columns.length === 1 && cuts?.active !== true) {
          // one removal group (a two-word query, say): level 0 holds its members, level 1 lacks one
          buckets = splitByMembers(group, columns[0]!);
        } else {
          const levels = removalLevels(group, columns);
          if (cuts?.active === true) cutLevels(cuts, this.input.removal, group, levels);
          buckets = byCost(group, levels);
        }
        for (const [level, indices] of buckets) {
          const nextKept = [...kept];
          let removed = 0;
          for (const members of this.input.removal.slice(0, level)) {
            for (const t of members) {
              nextKept[t] = false;
              removed += terms[t]!.wordCount;
            }
          }
          yield [indices, { kind: 'words', matching: this.totalWords - removed, max: this.totalWords }, nextKept];
        }
        return;
      }
      case 'typo': {
        // an n-gram costs n + its typos, and the maximum is that of the costliest cut
        const exactOnly = this.exactOnly.get(kept)?.();
        const termMax = (t: number) => (exactOnly?.has(t) === true ? terms[t]!.exactTypoCost : terms[t]!.maxTypoCost);
        const max =
          cuts === undefined
            ? active.reduce((sum, t) => sum + termMax(t.index), 0)
            : cuts.max(kept, group, step === this.firstGraphStep, termMax, (g) => g.n + g.resolved.maxTypoCost);
        if (cuts?.active !== true && active.every((t) => this.soleLevels[t.index] !== -1)) {
          yield [group, { kind: 'typo', count: active.reduce((sum, t) => sum + this.soleLevels[t.index]!, 0), max }, kept];
          return;
        }
        const costs = scratchInt32(group.length);
        for (const t of active) addColumn(costs, group, features[t.index]!.typo);
        if (cuts?.active === true) cutCosts(cuts, group, kept, costs, (t, i) => features[t]!.typo[i]!, (g, f, i) => g.n + f.typo[i]!);
        for (const [cost, indices] of byCost(group, costs)) yield [indices, { kind: 'typo', count: cost, max }, kept];
        return;
      }
      case 'proximity': {
        // a one-term query has no pair: no place list to set up
        const { records, pairs } = terms.length < 2 ? NO_PAIRS : this.proximityTerms().records(kept);
        if (pairs === 0 && cuts === undefined) {
          // no pair to price: one bucket, as milli's proximity rule on a one-term graph
          yield [group, { kind: 'proximity', rank: 1, max: 1 }, kept];
          return;
        }
        const exactOnly = this.exactOnly.get(kept)?.();
        let maxCost = 3 * pairs;
        const nodes = cuts?.active === true ? this.nodeProximityTerms(cuts) : undefined;
        // with an n-gram matching a fifth of the group or more, one gather of the words' and the
        // n-grams' lists prices both the words and the cuts; else the n-grams' documents are
        // gathered apart (pricing cuts over a whole group for a few of its documents costs more)
        const together = nodes !== undefined && pairs > 0 && 5 * throughCount(cuts!, group) >= group.length;
        const places = pairs === 0 ? undefined : (together ? nodes : this.proximityTerms()).gatherGroup(group, exactOnly, this.input.byAttribute);
        // null while nothing priced the group: with no pair and no n-gram matching a candidate,
        // every document costs 0, whatever the cuts' maximum
        let costs = places === undefined ? null : asInt32(places.costs(records));
        if (cuts !== undefined) {
          // an n-gram's edge costs n − 1 more (its first edge too); the maximum is that of the costliest cut
          const paired = (first: number) => first > 0 && kept[first - 1] === true && termEnd(terms[first - 1]!.term) + 1 === terms[first]!.term.position;
          const ngramMax = (g: Ngram) => (paired(g.first) ? 3 : 0) + g.n - 1;
          maxCost = cuts.max(kept, group, step === this.firstGraphStep, (t) => (paired(t) ? 3 : 0), ngramMax);
          if (nodes !== undefined) {
            costs ??= scratchInt32(group.length);
            ngramProximityCosts(cuts, nodes, together ? places : undefined, this.input.byAttribute, exactOnly, { group, kept, costs, paired });
          }
        }
        if (costs === null) {
          yield [group, { kind: 'proximity', rank: maxCost + 1, max: maxCost + 1 }, kept];
          return;
        }
        for (const [c, indices] of byCost(group, costs)) yield [indices, { kind: 'proximity', rank: maxCost + 1 - c, max: maxCost + 1 }, kept];
        return;
      }
      case 'fid': {
        const { weightOf, maxWeight } = this.input;
        const maxCost = active.reduce((sum, t) => sum + maxWeight * t.wordCount, 0);
        const costs = scratchInt32(group.length);
        for (const t of active) addWeights(costs, group, features[t.index]!.mask, weightOf, t.wordCount);
        if (cuts?.active === true) cutCosts(cuts, group, kept, costs, (t, i) => weightOf(features[t]!.mask[i]!) * terms[t]!.wordCount, (g, f, i) => weightOf(f.mask[i]!) * g.n);
        for (const [c, indices] of byCost(group, costs)) {
          yield [indices, { kind: 'fid', rank: maxCost + 1 - c, max: maxCost + 1, unified: step.unified }, kept];
        }
        return;
      }
      case 'position': {
        const maxCost = active.reduce((sum, t) => sum + 10 * t.wordCount, 0);
        const costs = this.positionCosts(group, active);
        if (cuts?.active === true) cutCosts(cuts, group, kept, costs, (t, i) => this.positionCost(terms[t]!, i), (g, f, i) => this.ngramPositionCost(g, f, i));
        for (const [c, indices] of byCost(group, costs)) {
          yield [indices, { kind: 'position', rank: maxCost + 1 - c, max: maxCost + 1, unified: step.unified }, kept];
        }
        return;
      }
      case 'exactAttribute': {
        const names = ['exactMatch', 'matchesStart', 'noExactMatch'] as const;
        const exact = this.exactTerms(kept);
        if (exact === null) {
          yield [group, { kind: 'exactAttribute', match: 'noExactMatch' }, kept];
          return;
        }
        const plan = this.exactPlan(exact);
        for (const [c, indices] of byCost(group, costsOf(group, (i) => this.exactAttribute(i, exact, plan)))) {
          yield [indices, { kind: 'exactAttribute', match: names[c]! }, kept];
        }
        return;
      }
      case 'exactWords': {
        const max = active.reduce((sum, t) => sum + t.wordCount, 0);
        // every document holding every kept term exactly: one bucket, missing no word
        const uniform = cuts?.active !== true && active.every((t) => this.alwaysExact[t.index]);
        const buckets: [number, Group][] = uniform ? [[0, group]] : byCost(group, missingExactWords(group, active, features, max));
        for (const [c, indices] of buckets) {
          const bucketKept = [...kept];
          this.exactOnly.set(bucketKept, () => new Set(active.filter((t) => Array.prototype.every.call(indices, (i: number) => isExactIn(features[t.index]!, i))).map((t) => t.index)));
          yield [indices, { kind: 'exactWords', matching: max - c, max }, bucketKept];
        }
        return;
      }
      case 'sort':
        yield* this.sortBuckets(step.criterion, group, kept);
        return;
    }
  }

  /**
   * The kept terms; the last answer is kept, as sibling buckets and the steps below a bucket
   * mostly receive the same `kept` array.
   */
  private activeTerms(kept: readonly boolean[]): readonly ResolvedTerm[] {
    if (kept !== this.activeFor) {
      this.activeFor = kept;
      this.active = this.input.terms.filter((_, t) => kept[t]);
    }
    return this.active;
  }

  private proximityTerms(): ProximityTerms {
    return (this.proximity ??= new ProximityTerms(this.input, this.typoBeforeProximity));
  }

  /**
   * The proximity place lists of the query's cuts: the query terms', then the n-grams' (node k is
   * term k); kept apart from `proximityTerms` so the documents no n-gram matches fill no n-gram list.
   */
  private nodeProximityTerms(cuts: QueryCuts): ProximityTerms {
    const { terms, features } = this.input;
    const input = { ...this.input, terms: [...terms, ...cuts.ngrams.map((g) => g.resolved)], features: [...features, ...cuts.ngramFeatures] };
    return (this.nodeProximity ??= new ProximityTerms(input, this.typoBeforeProximity));
  }

  /**
   * wordPosition cost of an n-gram of n words found at position p: Σ_{k<n} cost(|p − its query
   * position| + k), at its best place in the document (milli's position graph).
   */
  private ngramPositionCost(g: Ngram, features: TermFeatures, i: number): number {
    const qpos = g.resolved.term.position;
    const first = features.position[i]!;
    if (first === INFO_POSITION) return 10 * g.n;
    const cost = (position: number) => {
      const distance = Math.abs(bucketedPosition(position) - qpos);
      let sum = 0;
      for (let k = 0; k < g.n; k++) sum += costFromDistance(distance + k);
      return sum;
    };
    let best = cost(first);
    if (qpos === 0 || best === 0) return best;
    const record = this.input.forward.read(this.input.candidates[i]!);
    if (record === null) return best;
    const { words, runsAt } = record;
    for (const d of g.resolved.derivations) {
      if (this.typoBeforePosition && d.typo !== features.typo[i]) continue;
      // a multi-word synonym or split word of the n-gram stands at its first word where it is held
      const id = d.posting.id !== 0 ? d.posting.id : d.firstWord !== undefined && has(d.posting.docids, this.input.candidates[i]!) ? d.firstWord : 0;
      if (id === 0) continue;
      const j = wordIndex(record, id);
      if (j < 0) continue;
      for (let p = words[runsAt + j]!; p < words[runsAt + j + 1]!; p++) best = Math.min(best, cost(words[p]! & 0xffff));
    }
    return best;
  }

  /** Each document's wordPosition cost over the `active` terms, parallel to `group`. */
  private positionCosts(group: Group, active: readonly ResolvedTerm[]): Int32Array {
    const costs = scratchInt32(group.length);
    for (let k = 0; k < group.length; k++) {
      let cost = 0;
      // indexed loops in the per-document passes: a `for … of` there left an array iterator per
      // document in the profiles' garbage
      for (let t = 0; t < active.length; t++) cost += this.positionCost(active[t]!, group[k]!);
      costs[k] = cost;
    }
    return costs;
  }

  private positionCost(term: ResolvedTerm, i: number): number {
    const qpos = term.term.position;
    const features = this.input.features[term.index]!;
    if (qpos === 0 || term.phraseHits !== null) {
      const position = features.position[i]!;
      return position === INFO_POSITION ? 10 : costFromDistance(Math.abs(bucketedPosition(position) - qpos));
    }
    return this.bestPositionCosts(i)[term.index]!;
  }

  /**
   * The exact terms, the same for every document (ranking.md §6.3): kept, and a phrase or a word
   * present in the index; null when no document can match exactly (none, or they do not start
   * the query without a gap).
   */
  private exactTerms(kept: readonly boolean[]): readonly ResolvedTerm[] | null {
    const exact = this.input.terms.filter((t) => kept[t.index] && this.exactForm[t.index]);
    if (exact.length === 0 || exact[0]!.index !== 0) return null;
    for (let k = 1; k < exact.length; k++) if (exact[k]!.index - exact[k - 1]!.index > 1) return null;
    return exact;
  }

  /**
   * 0 exact match, 1 matches start, 2 neither (Meilisearch ExactAttribute): the document must
   * hold each exact term at its query position.
   */
  private exactAttribute(i: number, exact: readonly ResolvedTerm[], plan: ExactPlan | null): number {
    const { features } = this.input;
    // a document without one of the exact words cannot hold it at its position: no record to read
    for (let t = 0; t < exact.length; t++) if ((features[exact[t]!.index]!.flags[i]! & HAS_EXACT) === 0) return 2;
    const only = exact[0]!;
    if (exact.length === 1 && only.term.kind === 'word' && only.term.position === 0) {
      const flags = features[0]!.flags[i]!;
      if ((flags & EXACT_AT_START) === 0) return 2;
      return (flags & EXACT_WHOLE_FIELD) !== 0 ? 0 : 1;
    }
    return plan === null ? 2 : this.exactAttributeFromRecord(i, plan);
  }

  /**
   * What every document's record is checked against, the same for the whole group: the exact
   * terms' words in query order (a phrase's from its position on, leading holes included, and its
   * positions up to its last hole, as milli's exact attribute reads them), each word's id and
   * bucketed query position, and the positions the terms span. Null when a word is in no
   * document: then none holds the terms.
   */
  private exactPlan(exact: readonly ResolvedTerm[]): ExactPlan | null {
    const ids: number[] = [];
    const wants: number[] = [];
    let count = 0;
    for (const t of exact) {
      const words: (string | null)[] = t.term.kind === 'word' ? [t.term.word] : [...t.term.words];
      count += termEnd(t.term) - t.term.position + 1;
      for (const [offset, word] of words.entries()) {
        if (word === null) continue;
        const id = this.wordId(word);
        if (id === undefined) return null;
        ids.push(id);
        wants.push(bucketedPosition(t.term.position + offset));
      }
    }
    return { ids, wants, count, starts: new Int32Array(ids.length), ends: new Int32Array(ids.length) };
  }

  /**
   * The exact attribute read from the document's record: each planned word at its position, then
   * a field holding all of them, with as many words as the terms span for an exact match. The
   * places are read where the record lies (`wordIndex`), not copied: copying them per word,
   * document and field was a third of a two-word search's time over debdocs.
   */
  private exactAttributeFromRecord(i: number, plan: ExactPlan): number {
    const { forward, candidates } = this.input;
    const tokens = forward.read(candidates[i]!);
    if (tokens === null) return 2;
    const { words, runsAt } = tokens;
    const { ids, wants, count, starts, ends } = plan;
    for (let k = 0; k < ids.length; k++) {
      const j = wordIndex(tokens, ids[k]!);
      if (j < 0) return 2;
      const start = words[runsAt + j]!;
      const end = words[runsAt + j + 1]!;
      let found = false;
      for (let p = start; p < end && !found; p++) found = bucketedPosition(words[p]! & 0xffff) === wants[k];
      if (!found) return 2;
      starts[k] = start;
      ends[k] = end;
    }
    let best = 2;
    for (const [field, fieldWords] of fieldWordCounts(tokens)) {
      let all = true;
      for (let k = 0; k < ids.length && all; k++) {
        let holds = false;
        for (let p = starts[k]!; p < ends[k]! && !holds; p++) holds = words[p]! >>> 16 === field;
        all = holds;
      }
      if (!all) continue;
      if (fieldWords === count) return 0;
      best = 1;
    }
    return best;
  }

  private wordId(word: string): number | undefined {
    for (const t of this.input.terms) {
      for (const d of t.derivations) if (d.exact && t.term.kind === 'word' && t.term.word === word) return d.posting.id;
    }
    const bytes = this.input.env.wordIds.getBinary(word);
    return bytes === undefined ? undefined : bytes.readUInt32LE(0);
  }

  private *sortBuckets(criterion: SortCriterion, group: Group, kept: readonly boolean[]): Generator<[Group, StepDetail, readonly boolean[]]> {
    const { candidates, facets } = this.input;
    // A bucket of the whole group (a field none of them holds) is the group itself, and the next
    // sort step reads the docids already read: 10,000 `field:asc` rules on absent fields converted
    // the group both ways at each, 6 s of a search of 2,000 documents (its time budget cut it short).
    if (group !== this.sortedGroup) [this.sortedGroup, this.sortedDocids] = [group, docidsAt(candidates, group)];
    for (const { docids, detail } of sortStepBuckets(facets, criterion, this.sortedDocids)) {
      yield [docids.length === group.length ? group : positionsIn(candidates, docids), detail, kept];
    }
  }

  /**
   * Depth-first bucket sort of `group` from step `s` on, appending to `out` until it holds
   * `need` documents. Once the time budget is spent, every level only emits what it has left.
   * `details` holds the details of the buckets the group came through, one per step before `s`:
   * one array for the whole sort, pushed and popped on the way down and up (a run of steps on
   * absent fields is one entry, `AbsentSortRuns`), flattened only for a group that emits a
   * document (a copy per bucket was a share of a search's garbage). The levels
   * are an explicit stack, not recursion: a level per ranking rule, and 10,000 rules overflowed
   * the call stack.
   */
  sort(steps: readonly RankStep[], s: number, group: Group, kept: readonly boolean[], details: DetailStack, out: RankedDoc[], need: number, accept: Accept | null): void {
    const levels: SortLevel[] = [];
    const absent = AbsentSortRuns.of(steps, this.input.facets);
    // false when the group needs no level: the page is full, or no step is left (it is emitted)
    const descend = (first: number, at: Group, atKept: readonly boolean[]): boolean => {
      if (out.length >= need) return false;
      // the sort steps on fields no document holds pass the group on whole, with their details
      const step = absent.end(first);
      const passed = step > first;
      if (passed) details.push(absent.run(first));
      if (step === steps.length) {
        this.emit(at, details, out, need, accept);
        if (passed) details.pop();
        return false;
      }
      levels.push({ step, group: at, buckets: this.buckets(steps[step]!, at, atKept), done: [], consumed: 0, passed });
      return true;
    };
    // a finished level gives back the details of the run it passed, then that of the bucket its
    // parent descended with; a level left before its last bucket holds its step's reads open (a
    // sort step's LMDB cursor pins the read transaction it was opened in, and its reader slot):
    // returned when popped
    const ascend = () => {
      const level = levels.pop()!;
      level.buckets.return(undefined);
      if (level.passed) details.pop();
      if (levels.length > 0) details.pop();
    };
    descend(s, group, kept);
    try {
      while (levels.length > 0) {
        const level = levels[levels.length - 1]!;
        // a step whose documents are all in buckets hands back to its parent, as Meilisearch's empty universe
        if (level.consumed >= level.group.length || out.length >= need) {
          ascend();
          continue;
        }
        if (this.timedOut || this.input.timeUp()) {
          this.timedOut = true;
          details.push({ kind: 'skipped' });
          const rest = this.notIn(level.group, level.done);
          if (this.below(details)) this.dropped.push(rest);
          else this.emit(rest, details, out, need, accept);
          details.pop();
          // Meilisearch reports a degraded search only when the first step itself is cut short
          if (level.step === 0) this.degraded = true;
          ascend();
          continue;
        }
        const next = level.buckets.next();
        if (next.done === true) {
          ascend();
          continue;
        }
        const [indices, detail, nextKept] = next.value;
        level.done.push(indices);
        level.consumed += indices.length;
        details.push(detail);
        if (this.below(details)) {
          this.dropped.push(indices, this.notIn(level.group, level.done));
          level.consumed = level.group.length;
          details.pop();
          continue;
        }
        // as milli's bucket sort: a bucket wholly before the offset goes out in docid order (its
        // documents are not shown, but distinct takes their values in that order)
        if (out.length + indices.length < this.from) {
          this.emit(indices, details, out, need, accept);
          details.pop();
        } else if (!descend(level.step + 1, indices, nextKept)) {
          details.pop();
        }
      }
    } finally {
      for (const level of levels) level.buckets.return(undefined);
    }
  }

  /** Whether a bucket with `details` scores under the threshold (a NaN threshold drops nothing, as v1.50 compares). */
  private below(details: DetailStack): boolean {
    return this.threshold !== null && stackScore(details) < this.threshold;
  }

  /**
   * Appends the accepted documents of `group`, in its order, until `out` holds `need`; they
   * share one copy of `details`. Distinct still sees the rest of the group, as milli applies its
   * rule to a whole bucket before it takes the documents it needs: their values count as held.
   */
  private emit(group: Group, details: DetailStack, out: RankedDoc[], need: number, accept: Accept | null): void {
    let stacked: StackedDetails | undefined;
    for (const i of group) {
      const docid = this.input.candidates[i]!;
      if (out.length >= need) {
        if (accept === null) return;
        accept(docid);
      } else if (accept === null || accept(docid)) {
        out.push((stacked ??= new StackedDetails(details.slice())).doc(docid));
      }
    }
  }

  /** The indices of `group` in none of the `buckets` (subsets of it), in group order. */
  private notIn(group: Group, buckets: readonly Group[]): Group {
    const taken = new Set<number>();
    for (const bucket of buckets) for (const i of bucket) taken.add(i);
    const rest: number[] = [];
    for (const i of group) if (!taken.has(i)) rest.push(i);
    return Uint32Array.from(rest);
  }
}

/**
 * The details of the steps a group came through, one entry per step, or one per run of steps on
 * absent fields (`AbsentSortRuns.run`): flattened (`flatDetails`) only for a group that emits.
 */
export type DetailStack = (StepDetail | readonly StepDetail[])[];

/** The details `stack` stands for, one per step. */
export function flatDetails(stack: DetailStack): StepDetail[] {
  return ([] as StepDetail[]).concat(...stack);
}

/** The score of the details `stack` stands for: a run's sort details have no rank (scoreOf). */
export function stackScore(stack: DetailStack): number {
  return scoreOf(stack.filter((entry): entry is StepDetail => !Array.isArray(entry)));
}

/**
 * The details a group emitted with, flattened when a hit's details are first read (shown, or
 * merged by a federation or a hybrid search): a run of 150,000 steps on absent fields copied into
 * every hit cost ~0.4 s of a search that shows no details. The score needs no run's details.
 */
export class StackedDetails {
  private flat: StepDetail[] | undefined;
  private readonly score: number;

  constructor(private readonly stack: DetailStack) {
    this.score = stackScore(stack);
  }

  /** A ranked document reading these details. */
  doc(docid: number): RankedDoc {
    const read = () => (this.flat ??= flatDetails(this.stack));
    return {
      docid,
      score: this.score,
      get details(): readonly StepDetail[] {
        return read();
      },
    };
  }
}

const ABSENT_RUNS = new WeakMap<readonly RankStep[], { readonly fields: ReadonlyMap<string, number>; readonly runs: AbsentSortRuns }>();

/**
 * The runs of sort steps on fields no document holds: such a step makes one bucket of any group,
 * with the same detail, so a group passes a run whole, and the run's details go on the detail
 * stack as one entry. 150,000 `field:asc` rules on absent fields took each group through as many
 * levels, ~1.5 s of every search. A sort detail has no rank: a run leaves the score, and the
 * threshold's verdict, as they were.
 */
export class AbsentSortRuns {
  /** per step, where its run ends: the step itself when it is no such step */
  private readonly ends: Uint32Array;
  private readonly details: StepDetail[];
  /** the details of the runs entered, by first step */
  private readonly runs = new Map<number, readonly StepDetail[]>();

  /** The runs of `steps` in the index `facets` reads, shared by the searches of a settings version until a field is added. */
  static of(steps: readonly RankStep[], facets: FacetReader): AbsentSortRuns {
    const fields = facets.fieldIds();
    let runs = ABSENT_RUNS.get(steps);
    if (runs?.fields !== fields) ABSENT_RUNS.set(steps, (runs = { fields, runs: new AbsentSortRuns(steps, fields) }));
    return runs.runs;
  }

  private constructor(steps: readonly RankStep[], fields: ReadonlyMap<string, number>) {
    this.ends = new Uint32Array(steps.length + 1);
    this.details = new Array<StepDetail>(steps.length);
    this.ends[steps.length] = steps.length;
    for (let k = steps.length - 1; k >= 0; k--) {
      const step = steps[k]!;
      const absent = step.kind === 'sort' && step.criterion.kind === 'field' && !fields.has(step.criterion.field);
      this.ends[k] = absent ? this.ends[k + 1]! : k;
      if (absent) this.details[k] = { kind: 'sort', criterion: step.criterion, value: null };
    }
  }

  /** The first step at or after `step` that is on no absent field. */
  end(step: number): number {
    return this.ends[step]!;
  }

  /** The details of the run from `step` to `end(step)`. */
  run(step: number): readonly StepDetail[] {
    let run = this.runs.get(step);
    if (run === undefined) this.runs.set(step, (run = this.details.slice(step, this.ends[step])));
    return run;
  }
}

/**
 * The buckets of a sort step over `docids` (ascending), best first, each with its detail: the
 * field's numbers then strings in the criterion's direction, then the documents without a value;
 * a `_geoPoint` criterion by distance. Shared by the keyword and the semantic bucket sorts.
 */
export function* sortStepBuckets(facets: FacetReader, criterion: SortCriterion, docids: DocSet): Generator<{ docids: DocSet; detail: StepDetail }> {
  if (criterion.kind === 'geo') {
    for (const { docids: bucket, point, distance } of geoBuckets(facets, criterion.point, criterion.descending, docids)) {
      yield { docids: bucket, detail: { kind: 'sort', criterion, value: distance, point } };
    }
    return;
  }
  for (const { value, docids: bucket } of fieldValueBuckets(facets, criterion.field, criterion.descending, docids)) {
    yield { docids: bucket, detail: { kind: 'sort', criterion, value } };
  }
}

// The per-document loops of the steps live in plain functions: V8 cannot replace a running
// generator's frame with optimized code, so a loop over thousands of documents inside
// `buckets` ran unoptimized until the whole generator was (a one-word search 30-50 % slower).

/** Whether candidate `i` lacks a member of a removal group (its members' typo columns). */
function lacksMember(members: readonly Uint8Array[], i: number): boolean {
  for (let m = 0; m < members.length; m++) if (members[m]![i] === NO_MATCH) return true;
  return false;
}

/**
 * A document's words-rule level: the last removal group with a member it does not match, looked
 * for from the last group down, which most documents (matching few words) stop at early.
 */
function removalLevels(group: Group, columns: readonly (readonly Uint8Array[])[]): Int32Array {
  const levels = scratchInt32(group.length);
  for (let k = 0; k < group.length && columns.length > 0; k++) {
    const i = group[k]!;
    let level = columns.length;
    while (level > 0 && !lacksMember(columns[level - 1]!, i)) level--;
    levels[k] = level;
  }
  return levels;
}

/**
 * The words-rule buckets of a query with one removal group, in one pass instead of the levels and
 * their grouping: level 0, the documents holding every member, then level 1; empty ones left out.
 */
function splitByMembers(group: Group, members: readonly Uint8Array[]): [number, Group][] {
  const holding = scratchUint32(group.length);
  const lacking = scratchUint32(group.length);
  let held = 0;
  let lacked = 0;
  for (let k = 0; k < group.length; k++) {
    const i = group[k]!;
    if (lacksMember(members, i)) lacking[lacked++] = i;
    else holding[held++] = i;
  }
  const buckets: [number, Group][] = [];
  if (held > 0) buckets.push([0, holding.subarray(0, held)]);
  if (lacked > 0) buckets.push([1, lacking.subarray(0, lacked)]);
  return buckets;
}

/**
 * The docids of `group`'s candidates, in a plain loop: `Uint32Array.from` with a mapping function
 * walks a typed array through the iterator protocol, 4 ms for the 36,273 movies of a placeholder
 * search sorted by a field.
 */
function docidsAt(candidates: DocSet, group: Group): DocSet {
  const out = new Uint32Array(group.length);
  for (let k = 0; k < group.length; k++) out[k] = candidates[group[k]!]!;
  return out;
}

/**
 * The indices in `candidates` (ascending docids) of a bucket's docids, found by binary search: a
 * map from docid to index built per sort step cost most of a placeholder search sorted by a field
 * (36,273 movies: 6-7 ms).
 */
function positionsIn(candidates: DocSet, docids: DocSet): Group {
  const out = new Uint32Array(docids.length);
  for (let k = 0; k < docids.length; k++) out[k] = indexIn(candidates, docids[k]!);
  return out;
}

/** Adds a feature column (one term's typo levels) to each document's cost. */
function addColumn(costs: Int32Array, group: Group, column: Uint8Array): void {
  for (let k = 0; k < group.length; k++) costs[k] = costs[k]! + column[group[k]!]!;
}

/** Each document's `max` minus the words of the `active` terms it matches exactly (exactness). */
function missingExactWords(group: Group, active: readonly ResolvedTerm[], features: readonly TermFeatures[], max: number): Int32Array {
  const costs = scratchInt32(group.length);
  for (let k = 0; k < group.length; k++) {
    const i = group[k]!;
    let missing = max;
    for (let t = 0; t < active.length; t++) if (isExactIn(features[active[t]!.index]!, i)) missing -= active[t]!.wordCount;
    costs[k] = missing;
  }
  return costs;
}

/** Whether document `i` holds the term's exact word at 0 typos. */
function isExactIn(features: TermFeatures, i: number): boolean {
  return features.typo[i] === 0 && (features.flags[i]! & HAS_EXACT) !== 0;
}

/** Proximity costs (small, unsigned) as Int32: the one column type the grouping sees. */
function asInt32(costs: Uint32Array): Int32Array {
  return new Int32Array(costs.buffer, costs.byteOffset, costs.length);
}

/** Each document's `cost(i)`, parallel to `group`. */
function costsOf(group: Group, cost: (i: number) => number): Int32Array {
  const costs = scratchInt32(group.length);
  for (let k = 0; k < group.length; k++) costs[k] = cost(group[k]!);
  return costs;
}

/**
 * Adds `weightOf(mask) × wordCount` of one term's field masks to each document's cost. Most
 * documents of a group share their mask with the one before (the fields a word is in vary
 * little), so the weight is worked out again only when the mask changes: per document, the
 * weight's bit loop and its call cost five times the addition.
 */
function addWeights(costs: Int32Array, group: Group, masks: Uint32Array, weightOf: (mask: number) => number, wordCount: number): void {
  let lastMask = -1;
  let weight = 0;
  for (let k = 0; k < group.length; k++) {
    const mask = masks[group[k]!]!;
    if (mask !== lastMask) {
      lastMask = mask;
      weight = weightOf(mask) * wordCount;
    }
    costs[k] = costs[k]! + weight;
  }
}

/** Cost counts of `byCost`, kept between calls (zero between them): most steps' costs are small. */
const SMALL_COSTS = 1024;
const costCounts = new Uint32Array(SMALL_COSTS + 1);

/**
 * Groups indices by their integer cost (parallel to `group`), ascending cost, each group keeping
 * index order. A group where every cost is equal comes back as is (the common case for the
 * first steps on big groups). Costs in [0, SMALL_COSTS) are counted in the same pass that finds
 * the smallest and largest (one pass of three saved on the big groups).
 */
export function byCost(group: Group, costs: Int32Array): [number, Group][] {
  if (group.length === 0) return [];
  let min = costs[0]!;
  let max = min;
  let small = true;
  for (let k = 0; k < group.length; k++) {
    const c = costs[k]!;
    if (c < min) min = c;
    if (c > max) max = c;
    if (c >= 0 && c < SMALL_COSTS) costCounts[c + 1]!++;
    else small = false;
  }
  if (!small) costCounts.fill(0);
  if (min === max) {
    if (small) costCounts[min + 1] = 0;
    return [[min, group]];
  }
  // counting sort: starts[c] is where cost min + c begins in `sorted`
  const starts = scratchUint32(max - min + 2);
  if (small) {
    starts.set(costCounts.subarray(min + 1, max + 2), 1);
    costCounts.fill(0, min + 1, max + 2);
  } else {
    for (let k = 0; k < group.length; k++) starts[costs[k]! - min + 1]!++;
  }
  for (let c = 1; c < starts.length; c++) starts[c] = starts[c]! + starts[c - 1]!;
  const next = scratchUint32(starts.length - 1);
  next.set(starts.subarray(0, -1));
  const sorted = scratchUint32(group.length);
  for (let k = 0; k < group.length; k++) sorted[next[costs[k]! - min]!++] = group[k]!;
  const out: [number, Group][] = [];
  for (let c = 0; c + 1 < starts.length; c++) {
    if (starts[c + 1]! > starts[c]!) out.push([min + c, sorted.subarray(starts[c]!, starts[c + 1]!)]);
  }
  return out;
}

/**
 * Whether a typo step ranks before the step of `kind`: milli then hands that step each bucket's
 * typo level of the terms' derivations, else every derivation.
 */
export function typoRanksBefore(steps: readonly RankStep[], kind: RankStep['kind']): boolean {
  const typo = steps.findIndex((step) => step.kind === 'typo');
  return typo !== -1 && typo < steps.findIndex((step) => step.kind === kind);
}

/** Whether a document leaving the sort may be a hit (distinct); called in ranking order. */
export type Accept = (docid: number) => boolean;

/** A bucket sort's result: the documents ranked, and those the score threshold took out. */
export interface SortedDocs {
  readonly docs: RankedDoc[];
  readonly degraded: boolean;
  readonly dropped: DocSet;
}

/**
 * The first `need` accepted candidates in ranking order at or above `threshold`, with their step
 * details; `degraded` when the time budget stopped the ranking early. With `from` (the page's
 * offset), a bucket whose documents all come before it is not ranked further: its documents, in
 * docid order, carry the details of the steps that made it. Only for callers that show nothing
 * before `from` and need no score of those documents (so not under a threshold).
 */
export function bucketSort(input: RankInput, steps: readonly RankStep[], need: number, accept: Accept | null = null, from = 0, threshold: number | null = null): SortedDocs {
  const docs: RankedDoc[] = [];
  if (need <= 0 || input.candidates.length === 0) return { docs, degraded: false, dropped: EMPTY };
  if (steps.length === 0) {
    // nothing to order (a placeholder search without sort): candidates go out in docid order,
    // distinct document by document, as milli's search without ranking rules
    for (const docid of input.candidates) {
      if (docs.length >= need) break;
      if (accept === null || accept(docid)) docs.push({ docid, details: [] });
    }
    return { docs, degraded: false, dropped: EMPTY };
  }
  // the ranking's arrays come from the scratch, free again once it returns (scratch.ts)
  return withScratch(() => {
    const group = scratchUint32(input.candidates.length);
    for (let i = 0; i < group.length; i++) group[i] = i;
    const ranker = new Ranker(input, typoRanksBefore(steps, 'proximity'), typoRanksBefore(steps, 'position'));
    ranker.firstGraphStep = steps.find((step) => step.kind !== 'sort' && step.kind !== 'vector' && step.kind !== 'exactAttribute');
    ranker.from = from;
    ranker.threshold = threshold;
    ranker.sort(steps, 0, group, input.terms.map(() => true), [], docs, need, accept);
    const dropped: number[] = [];
    for (const indices of ranker.dropped) for (const i of indices) dropped.push(input.candidates[i]!);
    return { docs, degraded: ranker.degraded, dropped: fromUnsorted(dropped) };
  });
}

