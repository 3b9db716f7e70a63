/**
 * Keyword search over one index (ranking.md §1): the engine's entry point, a pure function of
 * (index snapshot, settings, request) → ranked docids with their score details and the hit count.
 * Callers: the request-level search service (src/search/single.ts). Main thread, read snapshot; the WASM
 * kernels run in batches per query (tokenizer for the query and the synonyms, typo matching).
 *
 * Steps: universe (all documents ∩ the filter sets the caller evaluated) → query terms and their
 * n-grams (ngrams.ts) → derivations (terms.ts) → minus negative words/phrases → candidates of the
 * relaxations of the query for `matchingStrategy` (any cut into words and n-grams) → per-document
 * term features → bucket sort (ranking.ts, bounded
 * by the request's time budget) → `rankingScoreThreshold`. A query without usable terms is a
 * placeholder search: every document of the universe, ordered by sort steps only, score 1.
 * With `phases`, these run timed as v1.50's `tokenize query`, `evaluate query` and `keyword
 * ranking` (`placeholder ranking` for an empty `q`), the caller's `performanceDetails`.
 */
import { langOfLocales } from '../../kernels/languages.js';
import type { IndexSettings } from '../../types/settings.js';
import { difference, EMPTY, intersect, unionAll, type DocSet } from '../docset.js';
import type { SortCriterion } from '../facets/sort.js';
import { FacetReader } from '../facets/store.js';
import { isFacetedBy, matchWildcard } from '../../types/attribute-patterns.js';
import { EntryCache } from '../entry-cache.js';
import { stopWordSet, tokenizerRules } from '../settings-derived.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import { localesOfFields } from '../localized-fields.js';
import { dictionaryOf, type Dictionary } from './dictionary.js';
import { distinctFilter } from './distinct.js';
import { matchingWords, type MatchTerm } from './format.js';
import { ForwardReader } from './forward.js';
import { cachedPostings } from './posting-cache.js';
import { fieldBit, MASK_BITS } from '../words/postings.js';
import { cutCandidates, ngramTerms, QueryCuts, withNgramWords, type Ngram } from './ngrams.js';
import { parseQuery } from './query.js';
import { bucketSort, rankingSteps, typoRanksBefore, type MatchingStrategy, type StepDetail } from './ranking.js';
import { rankedPage, rankingNeed } from './ranked-page.js';
import { negativeDocs, resolveTerms, termFeatures, type ResolvedTerm } from './terms.js';
import { withScratch } from './scratch.js';
import { readWordsVersion } from '../index-changes.js';
import { readSearchFields } from '../words/word-index.js';

export interface SearchRequest {
  readonly q: string;
  /** documents to rank before skipping `offset`: min(offset + limit, maxTotalHits) */
  readonly need: number;
  /**
   * The page's offset when nothing before it is shown or scored (a keyword search without pins or
   * a score threshold): buckets wholly before it are not refined, as milli's bucket sort skips
   * them, and distinct takes their documents in docid order. Absent: 0, every bucket ranked.
   */
  readonly rankFrom?: number;
  readonly matchingStrategy: MatchingStrategy;
  /** restricts the searched fields; null = every searchable field */
  readonly attributesToSearchOn: readonly string[] | null;
  /** DocSets every hit must belong to (filter, tenant token filter) */
  readonly filters: readonly DocSet[];
  readonly sort: readonly SortCriterion[];
  readonly rankingScoreThreshold: number | null;
  /** the query's languages (stored ISO-639-3 codes; empty: detected); null: those of the searched fields */
  readonly locales?: readonly string[] | null;
  /** attribute whose values may appear in one hit only (already checked to be filterable) */
  readonly distinct: string | null;
  /** page mode: counts must be exact, so distinct goes over every candidate */
  readonly exhaustive: boolean;
  /**
   * Whether the search's time budget (`searchCutoffMs`, whose clock the caller started with the
   * request) is spent: asked before each bucket, after which the sort stops refining; absent: no limit
   */
  readonly timeUp?: () => boolean;
  /** times the search's phases (`performanceDetails`); absent: untimed */
  readonly phases?: SearchPhases;
}

/**
 * The phases of a search, as v1.50's progress names them in `performanceDetails`: `tokenize
 * query`, `evaluate query` (the terms, their derivations, the candidates), then `keyword ranking`;
 * a placeholder search (an empty `q`) only `placeholder ranking`.
 */
export interface SearchPhases {
  step<T>(name: string, work: () => T): T;
}

const UNTIMED: SearchPhases = { step: (_name, work) => work() };

/** A keyword search of `q` for `need` hits: every searchable field, no filter, sort, distinct or score threshold. */
export function plainRequest(q: string, need: number): SearchRequest {
  return { q, need, matchingStrategy: 'last', attributesToSearchOn: null, filters: [], sort: [], rankingScoreThreshold: null, distinct: null, exhaustive: false };
}

export interface SearchHit {
  readonly docid: number;
  readonly score: number;
  readonly details: readonly StepDetail[];
}

export interface SearchOutcome {
  readonly hits: SearchHit[];
  /** documents matching query and filters (minus those dropped by the threshold) */
  readonly totalHits: number;
  /** every matching document, not only the ranked page: what facets are counted over */
  readonly candidates: DocSet;
  /** what the query matches in field text, for highlighting and cropping (format.ts) */
  readonly matchingWords: MatchTerm[];
  /** the time budget cut the ranking, or a synonym's phrase check, short (Meilisearch's `degraded`, counted by /metrics) */
  readonly degraded: boolean;
}

/**
 * Whether typos are off in a field path: it is named in `disableOnAttributes` or nested under a name
 * there. Entries are plain names, never patterns (`*`, `prefix*`, `*suffix` match nothing else), as
 * milli marks a field exact with `is_faceted_by(field, entry)`.
 */
function isExactField(disableOnAttributes: readonly string[], path: string): boolean {
  return disableOnAttributes.some((entry) => isFacetedBy(path, entry));
}

/**
 * Whether an `attributesToSearchOn` entry selects a field path: a name selects the field and what is
 * nested in it; an entry with `*` is an attribute pattern (`prefix*`, `*suffix`, `*infix*`), matched
 * as Meilisearch matches `attributesToSearchOn` patterns against the searchable fields.
 */
export function searchesOn(entry: string, path: string): boolean {
  return entry.includes('*') ? matchWildcard(entry, path) === 'match' : isFacetedBy(path, entry);
}

/** Weight (importance, 0 = most) of a searchable path under `searchableAttributes`. */
function weightOfPath(searchable: readonly string[], path: string): number | undefined {
  if (searchable.includes('*')) return 0;
  const index = searchable.findIndex((entry) => path === entry || (path.startsWith(entry) && path[entry.length] === '.'));
  return index === -1 ? undefined : index;
}

interface FieldModel {
  weightOf: (mask: number) => number;
  maxWeight: number;
  allowedMask: number;
  exactFieldsMask: number;
  /** the searched fields' locales (localized-fields.ts), null for none */
  locales: string[] | null;
}

const searchFields = new EntryCache((env) => env.main, INDEX_MAIN_KEYS.searchFields, readSearchFields);

/**
 * The index's searchable fields as v1.50 lists them (its `searchable_fields`, what
 * `attributesToSearchOn` names and patterns are checked against): the fields it numbered that
 * `searchableAttributes` reaches, top-level ones and the nested paths holding words.
 */
export function searchableFields(env: IndexReadEnv, settings: IndexSettings): string[] {
  const fields = new Set<string>();
  for (const path of searchFields.get(env)) {
    const dot = path.indexOf('.');
    if (dot !== -1 && weightOfPath(settings.searchableAttributes, path.slice(0, dot)) !== undefined) fields.add(path.slice(0, dot));
    if (weightOfPath(settings.searchableAttributes, path) !== undefined) fields.add(path);
  }
  return [...fields];
}

function fieldModel(env: IndexReadEnv, settings: IndexSettings, attributesToSearchOn: readonly string[] | null): FieldModel {
  const paths = searchFields.get(env);
  const bitWeights = new Array<number>(MASK_BITS).fill(Number.MAX_SAFE_INTEGER);
  let maxWeight = 0;
  let allowedMask = 0;
  let exactFieldsMask = 0;
  const restricted = attributesToSearchOn !== null && !attributesToSearchOn.includes('*');
  const searched: string[] = [];
  paths.forEach((path, field) => {
    const weight = weightOfPath(settings.searchableAttributes, path);
    if (weight === undefined) return;
    const bit = Math.min(field, MASK_BITS - 1);
    bitWeights[bit] = Math.min(bitWeights[bit]!, weight);
    maxWeight = Math.max(maxWeight, weight);
    if (!restricted || attributesToSearchOn.some((entry) => searchesOn(entry, path))) {
      allowedMask = (allowedMask | fieldBit(field)) >>> 0;
      searched.push(path);
    }
    if (isExactField(settings.typoTolerance.disableOnAttributes, path)) exactFieldsMask = (exactFieldsMask | fieldBit(field)) >>> 0;
  });
  // milli's `max_searchable_attribute_weight`: the last listed attribute's, even one no document holds
  if (!settings.searchableAttributes.includes('*')) maxWeight = Math.max(maxWeight, settings.searchableAttributes.length - 1);
  const weightOf = (mask: number): number => {
    let best = maxWeight;
    for (let m = mask >>> 0; m !== 0; m &= m - 1) {
      const bit = 31 - Math.clz32(m & -m);
      if (bitWeights[bit]! < best) best = bitWeights[bit]!;
    }
    return best;
  };
  return { weightOf, maxWeight, allowedMask: restricted ? allowedMask : 0xffffffff, exactFieldsMask, locales: localesOfFields(settings.localizedAttributes, searched) };
}

/** The documents of `set` in `universe` (null: every document). */
function within(universe: DocSet | null, set: DocSet): DocSet {
  return universe === null ? set : intersect(universe, set);
}

/** Words-rule removal groups and the terms no strategy may drop (ranking.md §3). */
function removalPlan(terms: readonly ResolvedTerm[], ngrams: readonly Ngram[], strategy: MatchingStrategy): { removal: number[][]; mandatory: number[] } {
  const words = terms.filter((t) => t.term.kind === 'word').map((t) => t.index);
  const phrases = terms.filter((t) => t.term.kind === 'phrase').map((t) => t.index);
  if (strategy === 'all') return { removal: [], mandatory: terms.map((t) => t.index) };
  let order: number[][];
  if (strategy === 'last') {
    order = [...words].reverse().map((t) => [t]);
  } else {
    // most frequent first; a term matching nothing counts as the most frequent. The counts are over
    // the whole index, not the filtered documents, and a word counts the documents of the n-grams
    // joining it too, as milli's frequency order reads them
    const count = (t: number) => unionAll([terms[t]!.docs, ...ngrams.filter((g) => g.first <= t && t < g.first + g.n).map((g) => g.resolved.docs)]).length;
    const frequency = new Map(words.map((t) => [t, count(t) || Infinity]));
    const sorted = [...words].sort((a, b) => frequency.get(b)! - frequency.get(a)! || b - a);
    order = [];
    for (const t of sorted) {
      const last = order[order.length - 1];
      if (last !== undefined && frequency.get(last[0]!) === frequency.get(t)) last.push(t);
      else order.push([t]);
    }
  }
  if (phrases.length > 0 || order.length === 0) return { removal: order, mandatory: phrases };
  // without phrases the last remaining word group is never dropped
  const kept = order.pop()!;
  return { removal: order, mandatory: kept };
}

/** Runs one keyword (or placeholder) search on the current snapshot of `env`. */
export function executeSearch(env: IndexReadEnv, settings: IndexSettings, request: SearchRequest): SearchOutcome {
  const facets = new FacetReader(env);
  // null while every document is in: term postings and filter sets only hold indexed documents,
  // so intersecting them with every document would copy them unchanged
  let universe: DocSet | null = null;
  for (const filter of request.filters) universe = within(universe, filter);
  const fields = fieldModel(env, settings, request.attributesToSearchOn);
  const lang = langOfLocales(request.locales ?? fields.locales);
  const wordsVersion = readWordsVersion(env);
  const phases = request.phases ?? UNTIMED;
  const placeholderQuery = request.q === '';
  const tokenize = () => parseQuery(request.q, stopWordSet(settings), tokenizerRules(settings), lang);
  const parsed = placeholderQuery ? tokenize() : phases.step('tokenize query', tokenize);
  // built on first use: a placeholder search reads no word, and building an index's dictionary
  // (its typo matcher) is the cold cost of the first search after a batch
  let dictionary: Dictionary | undefined;
  // likewise the postings kept between searches, which a placeholder search never reads
  let kept: ReturnType<typeof cachedPostings> | undefined;
  const postings = () => (kept ??= cachedPostings(env, wordsVersion));
  // a synonym's phrase check stopped by the time budget (terms.ts) degrades the search
  let phrasesCut = false;
  const options = {
    env,
    settings,
    get dictionary(): Dictionary {
      return (dictionary ??= dictionaryOf(env));
    },
    allowedMask: fields.allowedMask,
    exactFieldsMask: fields.exactFieldsMask,
    get postings() {
      return postings().words;
    },
    get prefixes() {
      return postings().prefixes;
    },
    get splits() {
      return postings().splits;
    },
    get phrases() {
      return postings().phrases;
    },
    forward: new ForwardReader(env, wordsVersion),
    timeUp: request.timeUp ?? (() => false),
    onCut: () => {
      phrasesCut = true;
    },
  };
  const placeholder = parsed.terms.length === 0;
  const prefixSearch = settings.prefixSearch !== 'disabled';
  const evaluate = () => {
    let searched = universe;
    if (parsed.negativeWords.length > 0 || parsed.negativePhrases.length > 0) {
      searched = difference(searched ?? facets.allDocids(), negativeDocs(parsed.negativeWords, parsed.negativePhrases, options));
    }
    // the n-gram terms resolve with the query's own, in one typo kernel call
    const ngramQueries = placeholder ? [] : ngramTerms(parsed.terms);
    const resolved = placeholder ? [] : resolveTerms([...parsed.terms, ...ngramQueries.map((q) => q.term)], prefixSearch, options);
    const terms = resolved.slice(0, parsed.terms.length);
    const ngrams: Ngram[] = ngramQueries.map((q, k) => ({ first: q.first, n: q.term.ngram!.length, resolved: resolved[terms.length + k]! }));
    const { removal, mandatory } = removalPlan(terms, ngrams, request.matchingStrategy);
    let candidates = searched;
    if (ngrams.some((g) => g.resolved.docs.length > 0)) candidates = cutCandidates(terms, ngrams, removal, searched);
    else for (const t of mandatory) candidates = within(candidates, terms[t]!.docs);
    return { terms, ngrams, removal, candidates: candidates ?? facets.allDocids() };
  };
  const { terms, ngrams, removal, candidates } = placeholderQuery ? evaluate() : phases.step('evaluate query', evaluate);
  const rank = (): SearchOutcome => {
    const steps = rankingSteps(settings.rankingRules, request.sort, request.matchingStrategy, placeholder);
    const matchedNgrams = ngrams.filter((g) => g.resolved.docs.length > 0);
    const distinct = request.distinct === null ? null : distinctFilter(env, facets, request.distinct);
    const need = rankingNeed(request, settings);
    // No document to rank (a facet search's candidates, a `limit: 0` search) and no distinct
    // groups to count: the candidates are the answer, as milli's `execute_for_candidates` ranks
    // nothing. The terms' features alone read the forward record of every candidate.
    if (need === 0 && distinct === null) {
      const page = rankedPage({ docs: [], dropped: EMPTY }, request, 0, null, candidates);
      return { ...page, matchingWords: matchingWords(withNgramWords(terms, ngrams), prefixSearch), degraded: phrasesCut };
    }
    // the terms' features live in the ranking's scratch (scratch.ts) until the ranking is over
    const ranked = withScratch(() => {
      // attributeRank and wordPosition read every typo level of the words when no typo step ranks before them
      const every = { mask: !typoRanksBefore(steps, 'fid'), position: !typoRanksBefore(steps, 'position') };
      const allFeatures = termFeatures([...terms, ...matchedNgrams.map((g) => g.resolved)], candidates, every);
      const features = allFeatures.slice(0, terms.length);
      let nextNgram = terms.length;
      const ngramFeatures = ngrams.map((g) => (g.resolved.docs.length === 0 ? null : allFeatures[nextNgram++]!));
      return bucketSort(
        {
          env,
          get dictionary(): Dictionary {
            return options.dictionary;
          },
          candidates,
          terms,
          features,
          removal,
          weightOf: fields.weightOf,
          maxWeight: fields.maxWeight,
          byAttribute: settings.proximityPrecision === 'byAttribute',
          forward: options.forward,
          facets,
          timeUp: options.timeUp,
          cuts: ngrams.length === 0 ? undefined : new QueryCuts(terms, features, ngrams, ngramFeatures),
        },
        steps,
        need,
        distinct?.accept,
        request.rankingScoreThreshold === null ? (request.rankFrom ?? 0) : 0,
        request.rankingScoreThreshold,
      );
    });
    const page = rankedPage(ranked, request, need, distinct, candidates);
    return { ...page, matchingWords: matchingWords(withNgramWords(terms, ngrams), prefixSearch), degraded: ranked.degraded || phrasesCut };
  };
  return phases.step(placeholderQuery ? 'placeholder ranking' : 'keyword ranking', rank);
}
