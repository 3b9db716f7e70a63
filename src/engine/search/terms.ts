/**
 * Query terms → their derivations in the index and the documents they match (ranking.md §4).
 *
 * A word term derives to: its exact word (0 typos, "exact"); when it is the prefix term, every
 * word it starts (0 typos; the `word-prefix-docids` cache for 1–3 characters, else the
 * dictionary range, at most MAX_PREFIX_WORDS words); and words within its typo budget found by
 * the typo kernel in ONE call for all terms (Meilisearch limits: 150 one-typo and 50 two-typo
 * words, a different first letter costing two). A phrase matches documents holding its words
 * pair by pair within 3-word windows (phrase.ts, checked on forward records). A word's synonyms (the values of
 * the key equal to it: a word, or words matched as a phrase) derive at 0 typos, never exact. A
 * word split in two indexed words (matched as a phrase) counts 1 typo. An n-gram term (2 or 3
 * adjacent query words joined, built by ngrams.ts) resolves as a word of its own: the joined word
 * in non-exact fields, a prefix when it ends the query, typos within its smaller budget, its split,
 * and the synonyms of its words as a multi-word key too (ranking.md §4, §7.5). Negative words and phrases exclude documents. A word longer than
 * MAX_WORD_BYTES (no indexed word is) derives nothing at all, as in milli, and costs no work.
 *
 * Per candidate document, `termFeatures` keeps, for the derivations of the document's lowest
 * typo level only (the subset rules after the typo rule see in Meilisearch's graph): typo count,
 * field mask, lowest position, and whether the exact word is there (alone in a field, at position
 * 0); the mask and position are over every level for attributeRank and wordPosition when no typo
 * rule ranks before them, as milli then hands them every derivation.
 * Reads a snapshot; no writes.
 */
import { MAX_WORD_BYTES } from '../../kernels/extract.js';
import { TypoFlag, type TypoQuery } from '../../kernels/typo.js';
import type { IndexSettings } from '../../types/settings.js';
import { EMPTY, intersect, unionAll, type DocSet } from '../docset.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { typoExemptWords } from '../settings-derived.js';
import { lowerBound, prefixRange, type Dictionary } from './dictionary.js';
import { PREFIX_MAX_CHARS } from '../words/prefix-table.js';
import { bucketedPosition } from './bucketed-position.js';
import { synonymKey, synonymsOf } from './synonym-table.js';
import { placesOfWord, type ForwardReader, type ForwardTokens } from './forward.js';
import { phraseMet, phrasePairs } from './phrase.js';
import { scratchUint16, scratchUint32, scratchUint8 } from './scratch.js';
import { phraseKey, splitKey, type FoundSplit, type PostingStore, type SplitStore } from './posting-cache.js';
import { prefixPostings, readPosting, wordPostings } from '../words/posting-blocks.js';
import { EMPTY_POSTING, fieldBit, INFO_POSITION, INFO_WHOLE_FIELD, type Posting } from '../words/postings.js';
import { termWordCount, type PhraseTerm, type QueryTerm, type WordTerm } from './query.js';

const MAX_ONE_TYPO = 150;
const MAX_TWO_TYPOS = 50;
const MAX_PREFIX_WORDS = 1000;
/** milli's limits on the synonyms of one query word: phrases, and words over all of them */
const MAX_SYNONYM_PHRASES = 50;
const MAX_SYNONYM_WORDS = 100;

/** flags of TermFeatures */
export const HAS_EXACT = 1;
export const EXACT_WHOLE_FIELD = 2;
export const EXACT_AT_START = 4;
/** typo value of a document the term does not match */
export const NO_MATCH = 255;

export interface Derivation {
  readonly typo: number;
  readonly exact: boolean;
  readonly posting: Posting;
  /** the normalised token sequence it matches (one word, or consecutive words), for highlighting;
   * absent for the prefix derivations, which the formatter matches by the term's word itself */
  readonly words?: readonly string[];
  /** a word within the term's typo budget (the other derivations with words: synonyms, splits, n-grams) */
  readonly typoWord?: true;
  /** matched as a phrase in milli (synonyms, split words): proximity pairs its first and last words forward only */
  readonly phrase?: true;
  /** a multi-word synonym's or split word's first word id: wordPosition places the phrase at that
   * word's places in the documents holding it, as milli's position graph reads a phrase */
  readonly firstWord?: number;
}

export interface ResolvedTerm {
  readonly term: QueryTerm;
  readonly index: number;
  /** Meilisearch's `max_typo_cost`: a phrase 0, a word its budget but at least 1 (split words) */
  readonly maxTypoCost: number;
  /** the same once an exactness bucket narrowed the term to its exact word: no typo word is left,
   * but a word without typo budget still allows split words (1) */
  readonly exactTypoCost: number;
  readonly derivations: Derivation[];
  /** word id → typo level of the term's words (typo derivations; every other listed id is 0) */
  readonly wordTypos: Map<number, number>;
  /** dictionary index range of prefix-derived words, when the prefix cache stands in for them */
  readonly prefixRange: [number, number] | null;
  /** phrase: matched documents with, per document, [mask, position, place (field << 16 | position)]
   * of its first word, which stands for the phrase in the field, position and proximity rules */
  readonly phraseHits: Map<number, [number, number, number]> | null;
  /** documents matching the term (before the universe) */
  readonly docs: DocSet;
  /** query terms it counts as in the rules weighing terms (attributeRank, wordPosition, exactWords):
   * 1, a phrase being one term as in milli's query graph */
  readonly wordCount: number;
  /** words the words rule counts (matchingWords / maxMatchingWords): 1, or a phrase's non-stop words */
  readonly matchingWords: number;
  /**
   * whether the index holds the word (a prefix: some word it starts), which highlighting needs:
   * milli's matcher marks only the derivations found in the index, the word itself among them
   */
  readonly known: boolean;
}

/** Per candidate document (parallel to the candidates), per term. */
export interface TermFeatures {
  readonly typo: Uint8Array;
  readonly mask: Uint32Array;
  readonly position: Uint16Array;
  readonly flags: Uint8Array;
}

export interface ResolveOptions {
  readonly env: IndexReadEnv;
  readonly settings: IndexSettings;
  readonly dictionary: Dictionary;
  /** allowed field bits (attributesToSearchOn), all ones when unrestricted */
  readonly allowedMask: number;
  /** field bits whose words take no typo (typoTolerance.disableOnAttributes) */
  readonly exactFieldsMask: number;
  /** word postings read (posting-cache.ts): split parts, phrases and n-grams read words again */
  readonly postings: PostingStore;
  /** prefix postings read (posting-cache.ts) */
  readonly prefixes: PostingStore;
  /** split words found (posting-cache.ts) */
  readonly splits: SplitStore;
  /** multi-word synonyms' postings, by `phraseKey` (posting-cache.ts) */
  readonly phrases: PostingStore;
  readonly forward: ForwardReader;
  /** whether the search's time budget is spent */
  readonly timeUp: () => boolean;
  /** told when a synonym's phrase check stopped there: the search is degraded */
  readonly onCut: () => void;
}

/** Whether a word can be indexed: longer ones are neither stored nor derived from. */
export function indexable(word: string): boolean {
  return Buffer.byteLength(word) <= MAX_WORD_BYTES;
}

/**
 * Typos a word term may have: an n-gram's concatenation takes n − 1 fewer than a word of its
 * length (a 2-gram of 9 characters or more 1, a 3-gram none), as milli's `make_ngram`.
 */
export function termTypoBudget(term: WordTerm, settings: IndexSettings): number {
  const budget = typoBudget(term.word, settings);
  return term.ngram === undefined ? budget : Math.max(0, budget - (term.ngram.length - 1));
}

/** Typos a query word may have (ranking.md §4). */
export function typoBudget(word: string, settings: IndexSettings): number {
  const typo = settings.typoTolerance;
  if (!typo.enabled || !indexable(word) || typoExemptWords(settings).has(word)) return 0;
  const length = [...word].length;
  if (length < typo.minWordSizeForTypos.oneTypo) return 0;
  return length < typo.minWordSizeForTypos.twoTypos ? 1 : 2;
}

/** A token of numbers and ASCII punctuation only (Rust's `is_numeric`, `is_ascii_punctuation`). */
const NUMBER_TOKEN = /^[\p{N}!-/:-@[-`{-~]+$/u;

/**
 * Whether the index holds `word` as an exact word, which only the query's own word and its
 * prefixes reach, never a typo or an n-gram: with `disableOnNumbers`, a number (ranking.md §4;
 * v1.50 files such words apart at indexing, the query word keeps its typo budget).
 */
function exactWord(word: string, settings: IndexSettings): boolean {
  return settings.typoTolerance.disableOnNumbers && NUMBER_TOKEN.test(word);
}

/** Keeps the entries of `posting` having a field in `mask`, restricting their masks. */
function restrict(posting: Posting, mask: number): Posting {
  if (mask === 0xffffffff || posting.docids.length === 0) return posting;
  const keep: number[] = [];
  for (let i = 0; i < posting.docids.length; i++) if ((posting.masks[i]! & mask) !== 0) keep.push(i);
  if (keep.length === posting.docids.length) return posting;
  // plain loops: a typed array's `from` with a mapping function costs ~120 ns an element here
  const docids = new Uint32Array(keep.length);
  const masks = new Uint32Array(keep.length);
  const infos = new Uint32Array(keep.length);
  for (let k = 0; k < keep.length; k++) {
    const i = keep[k]!;
    docids[k] = posting.docids[i]!;
    masks[k] = (posting.masks[i]! & mask) >>> 0;
    infos[k] = posting.infos[i]!;
  }
  return { id: posting.id, docids, masks, infos };
}

function wordPosting(options: ResolveOptions, word: string): Posting {
  let posting = options.postings.get(word);
  if (posting === undefined) {
    posting = indexable(word) ? readPosting(wordPostings(options.env), word) : EMPTY_POSTING;
    options.postings.set(word, posting);
  }
  return posting;
}

function prefixPosting(options: ResolveOptions, prefix: string): Posting {
  let posting = options.prefixes.get(prefix);
  if (posting === undefined) {
    posting = readPosting(prefixPostings(options.env), prefix);
    options.prefixes.set(prefix, posting);
  }
  return posting;
}

/** Resolves every term, running the typo kernel once for all of them. */
export function resolveTerms(terms: readonly QueryTerm[], prefixSearch: boolean, options: ResolveOptions): ResolvedTerm[] {
  const { settings, dictionary } = options;
  const { words } = dictionary;
  const typoQueries: TypoQuery[] = [];
  const typoOwner: number[] = [];
  terms.forEach((term, index) => {
    if (term.kind !== 'word') return;
    const budget = termTypoBudget(term, settings);
    if (budget === 0 || words.length === 0) return;
    const flags = TypoFlag.FirstChar | TypoFlag.SkipExact | (term.prefix && prefixSearch ? TypoFlag.Prefix : 0);
    let from = 0;
    let to = words.length;
    if (budget === 1) {
      // one typo never changes the first letter: only that letter's words can match
      const first = String.fromCodePoint(term.word.codePointAt(0)!);
      [from, to] = prefixRange(words, first);
    }
    typoQueries.push({ word: term.word, maxTypos: budget, flags, from, to });
    typoOwner.push(index);
  });
  const typoWords: Map<number, [number, number][]> = new Map(); // term → [word index, typos]
  if (typoQueries.length > 0) {
    const { count, records } = dictionary.matcher.match(typoQueries);
    const counts = typoQueries.map(() => [0, 0]);
    for (let r = 0; r < count; r++) {
      const query = records[r * 4]!;
      const distance = records[r * 4 + 3]!;
      const limit = distance === 1 ? MAX_ONE_TYPO : MAX_TWO_TYPOS;
      const seen = counts[query]!;
      for (let w = records[r * 4 + 1]!; w < records[r * 4 + 2]! && seen[distance - 1]! < limit; w++) {
        seen[distance - 1]!++;
        const owner = typoOwner[query]!;
        let list = typoWords.get(owner);
        if (list === undefined) typoWords.set(owner, (list = []));
        list.push([w, distance]);
      }
    }
  }

  const synonyms = synonymsOf(settings);
  return terms.map((term, index) => {
    if (term.kind === 'phrase') return resolvePhrase(term, index, options);
    if (!indexable(term.word)) return unmatched(term, index);
    const derivations: Derivation[] = [];
    const wordTypos = new Map<number, number>();
    let range: [number, number] | null = null;
    // an n-gram's words are derived ones, which exact attributes (disableOnAttributes) and exact
    // words (disableOnNumbers) never hold
    const wordMask = term.ngram === undefined ? options.allowedMask : (options.allowedMask & ~options.exactFieldsMask) >>> 0;
    const derived = term.ngram !== undefined;
    const exact = derived && exactWord(term.word, settings) ? EMPTY_POSTING : restrict(wordPosting(options, term.word), wordMask);
    if (exact.docids.length > 0) derivations.push({ typo: 0, exact: term.ngram === undefined, posting: exact, words: [term.word] });
    // the prefix posting holds the word's own documents: the term's documents need not merge them again
    let exactInPrefix = false;
    if (term.prefix && prefixSearch) {
      const [from, to] = prefixRange(words, term.word);
      if ([...term.word].length <= PREFIX_MAX_CHARS) {
        range = [from, to];
        const cached = restrict(prefixPosting(options, term.word), wordMask);
        exactInPrefix = cached.docids.length > 0;
        if (exactInPrefix) derivations.push({ typo: 0, exact: false, posting: cached });
      } else {
        for (let w = from; w < Math.min(to, from + MAX_PREFIX_WORDS); w++) {
          if (words[w] === term.word || (derived && exactWord(words[w]!, settings))) continue;
          const posting = restrict(wordPosting(options, words[w]!), wordMask);
          if (posting.docids.length > 0) derivations.push({ typo: 0, exact: false, posting });
        }
      }
    }
    for (const [w, typo] of typoWords.get(index) ?? []) {
      if (exactWord(words[w]!, settings)) continue;
      const posting = restrict(wordPosting(options, words[w]!), (options.allowedMask & ~options.exactFieldsMask) >>> 0);
      if (posting.docids.length === 0) continue;
      derivations.push({ typo, exact: false, posting, words: [words[w]!], typoWord: true });
      wordTypos.set(posting.id, typo);
    }
    // an n-gram also takes the synonyms of its words as a multi-word key (`san francisco` → `sf`)
    const keyed = term.ngram === undefined ? [] : (synonyms.get(synonymKey(term.ngram)) ?? []);
    for (const value of [...wordSynonyms(synonyms.get(term.word) ?? []), ...keyed]) {
      const posting = synonymPosting(value, options);
      if (posting.docids.length === 0) continue;
      const firstWord = value.length > 1 ? wordPosting(options, value[0]!).id : undefined;
      derivations.push({ typo: 0, exact: false, posting, words: value, phrase: true, ...(firstWord === undefined ? {} : { firstWord }) });
    }
    const split = splitPosting(term.word, options, term.ngram);
    if (split !== null) derivations.push({ typo: 1, exact: false, ...split, phrase: true, firstWord: wordPosting(options, split.words[0]!).id });
    const budget = termTypoBudget(term, settings);
    return {
      term,
      index,
      // a term without typos still counts 1 for its split words (milli's `max_typo_cost`)
      maxTypoCost: Math.max(1, budget),
      exactTypoCost: budget === 0 ? 1 : 0,
      derivations,
      wordTypos,
      prefixRange: range,
      phraseHits: null,
      docs: unionAll(derivations.filter((d) => !exactInPrefix || d.posting !== exact).map((d) => d.posting.docids)),
      wordCount: termWordCount(term),
      matchingWords: termWordCount(term),
      known: knownWord(words, term.word, term.prefix && prefixSearch),
    };
  });
}

/** Whether `words` (the dictionary's) hold `word`, or as a prefix, a word it starts. */
function knownWord(words: readonly string[], word: string, prefix: boolean): boolean {
  if (words[lowerBound(words, word)] === word) return true;
  const [from, to] = prefix ? prefixRange(words, word) : [0, 0];
  return to > from;
}

/** A word term that matches no document (its word is too long to be indexed). */
function unmatched(term: WordTerm, index: number): ResolvedTerm {
  return { term, index, maxTypoCost: 1, exactTypoCost: 1, derivations: [], wordTypos: new Map(), prefixRange: null, phraseHits: null, docs: EMPTY, wordCount: 1, matchingWords: 1, known: false };
}

/**
 * Documents holding the phrase (phrase.ts: its words, and their pairs by 3-word windows), each
 * with [mask, position] of its first word, which stands for the phrase in the field and position
 * rules as in milli: the searched fields holding that word, and its place nearest to the phrase's
 * query position (bucketed, as wordPosition compares them).
 */
function resolvePhrase(term: PhraseTerm, index: number, options: ResolveOptions, stop?: () => boolean): ResolvedTerm {
  const postings = term.words.map((word) => (word === null ? null : restrict(wordPosting(options, word), options.allowedMask)));
  const present = postings.filter((p): p is Posting => p !== null);
  let docs = present.length === 0 || present.some((p) => p.docids.length === 0) ? EMPTY : present[0]!.docids;
  for (const posting of present.slice(1)) docs = intersect(docs, posting.docids);
  const hits = new Map<number, [number, number, number]>();
  const matched: number[] = [];
  if (docs.length > 0) {
    const pairs = phrasePairs(term.words);
    const ids = postings.map((p) => p?.id ?? 0);
    const first = postings.findIndex((p) => p !== null);
    const byAttribute = options.settings.proximityPrecision === 'byAttribute';
    // each word's places in the document being read: views of its record, read once per document
    // (copying them per word and document was most of a common phrase's time)
    let tokens: ForwardTokens | null = null;
    const views: (Uint32Array | undefined)[] = ids.map(() => undefined);
    const placesAt = (offset: number): Uint32Array => (views[offset] ??= placesOfWord(tokens!, ids[offset]!));
    for (let d = 0; d < docs.length; d++) {
      if (stop !== undefined && (d & (STOP_CHECK_DOCS - 1)) === 0 && stop()) break;
      const docid = docs[d]!;
      tokens = options.forward.read(docid);
      if (tokens === null) continue;
      views.fill(undefined);
      if (!phraseMet(pairs, placesAt, byAttribute)) continue;
      let mask = 0;
      let best = -1;
      let bestDistance = Infinity;
      const firstPlaces = placesAt(first);
      for (let k = 0; k < firstPlaces.length; k++) {
        const place = firstPlaces[k]!;
        const bit = fieldBit(place >>> 16);
        if ((bit & options.allowedMask) === 0) continue;
        mask = (mask | bit) >>> 0;
        const distance = Math.abs(bucketedPosition(place & 0xffff) - term.position);
        if (distance < bestDistance || (distance === bestDistance && (place & 0xffff) < (best & 0xffff))) {
          best = place;
          bestDistance = distance;
        }
      }
      if (mask === 0) continue;
      hits.set(docid, [mask, best & 0xffff, best]);
      matched.push(docid);
    }
  }
  return {
    term,
    index,
    maxTypoCost: 0,
    exactTypoCost: 0,
    derivations: [],
    wordTypos: new Map(),
    prefixRange: null,
    phraseHits: hits,
    docs: Uint32Array.from(matched),
    wordCount: 1,
    matchingWords: present.length,
    known: true,
  };
}

/** The synonyms milli keeps for one query word: at most 50 phrases of at most 100 words in all. */
function wordSynonyms(values: readonly (readonly string[])[]): (readonly string[])[] {
  const kept: (readonly string[])[] = [];
  let words = 0;
  for (const value of values.slice(0, MAX_SYNONYM_PHRASES)) {
    if (words + value.length > MAX_SYNONYM_WORDS) continue;
    words += value.length;
    kept.push(value);
  }
  return kept;
}

/** A synonym value's documents: its word's, or those holding its words as a phrase. */
function synonymPosting(value: readonly string[], options: ResolveOptions): Posting {
  return value.length === 1 ? restrict(wordPosting(options, value[0]!), options.allowedMask) : synonymPhrasePosting(value, options);
}

/** Documents a phrase check reads between two looks at the search's clock (a power of two). */
const STOP_CHECK_DOCS = 64;

/**
 * A multi-word synonym value's documents, kept between searches when every field is searched.
 * Its phrase check reads the forward record of every document holding all its words, and v1.50
 * does not bound a multi-word key's values: once the search's time budget is spent, the check
 * stops, the documents left unchecked do not match the value, the search is degraded, and the
 * partial posting is not kept (the next search goes on with the phrases left).
 */
function synonymPhrasePosting(words: readonly string[], options: ResolveOptions): Posting {
  const key = options.allowedMask === 0xffffffff ? phraseKey(options.settings.proximityPrecision, words) : null;
  const kept = key === null ? undefined : options.phrases.get(key);
  if (kept !== undefined) return kept;
  let cut = false;
  const posting = phrasePosting(words, options, () => (cut ||= options.timeUp()));
  if (cut) options.onCut();
  else if (key !== null) options.phrases.set(key, posting);
  return posting;
}

/** A multi-word value as a posting of the documents holding it as a phrase (checked until `stop`). */
function phrasePosting(words: readonly string[], options: ResolveOptions, stop?: () => boolean): Posting {
  const hits = resolvePhrase({ kind: 'phrase', words, position: 0 }, -1, options, stop).phraseHits!;
  const docids = Uint32Array.from([...hits.keys()].sort((a, b) => a - b));
  const masks = new Uint32Array(docids.length);
  const infos = new Uint32Array(docids.length);
  for (let k = 0; k < docids.length; k++) {
    const hit = hits.get(docids[k]!)!;
    masks[k] = hit[0];
    infos[k] = hit[1];
  }
  return { id: 0, docids, masks, infos };
}

/** Documents to check for adjacency at most, per split candidate (forward records are read). */
const MAX_SPLIT_CHECK = 1000;

/**
 * The split-word derivation (`sunflower` → `sun flower`, 1 typo): the two-part split whose words
 * share the most documents, matched as a phrase; null when no split of indexed words exists, or
 * when an n-gram's best split is back into its own words (`own`: those are terms already).
 */
function splitPosting(word: string, options: ResolveOptions, own?: readonly string[]): FoundSplit {
  // kept between searches when nothing but the index decides it: every field searched, and the
  // proximity precision the phrase check uses
  const key = options.allowedMask === 0xffffffff ? splitKey(options.settings.proximityPrecision, word, own) : null;
  if (key !== null) {
    const kept = options.splits.get(key);
    if (kept !== undefined) return kept;
  }
  const split = findSplit(word, options, own);
  if (key !== null) options.splits.set(key, split);
  return split;
}

/** The split of `word` as splitPosting describes it, looked for in the index. */
function findSplit(word: string, options: ResolveOptions, own?: readonly string[]): FoundSplit {
  const { words } = options.dictionary;
  const chars = [...word];
  const known = (part: string) => {
    const at = lowerBound(words, part);
    return at < words.length && words[at] === part;
  };
  const splits: [string, string][] = [];
  for (let i = 1; i < chars.length; i++) {
    const left = chars.slice(0, i).join('');
    const right = chars.slice(i).join('');
    if (known(left) && known(right)) splits.push([left, right]);
  }
  const isOwn = ([left, right]: [string, string]) => own !== undefined && own.length === 2 && left === own[0] && right === own[1];
  // an n-gram split only into its own words has no split of its own, whatever the counts
  if (splits.every(isOwn)) return null;
  let best: [string, string] | null = null;
  let bestCount = 0;
  for (const [left, right] of splits) {
    const count = intersect(wordPosting(options, left).docids, wordPosting(options, right).docids).length;
    if (count > bestCount) {
      best = [left, right];
      bestCount = count;
    }
  }
  if (best === null || bestCount > MAX_SPLIT_CHECK) return null;
  if (isOwn(best)) return null;
  const posting = phrasePosting(best, options);
  return posting.docids.length === 0 ? null : { posting, words: best };
}

/** Documents holding a negative word (exact) or a negative phrase. */
export function negativeDocs(negativeWords: readonly string[], negativePhrases: readonly (string | null)[][], options: ResolveOptions): DocSet {
  const sets = negativeWords.map((word) => wordPosting(options, word).docids);
  for (const words of negativePhrases) {
    const phrase: PhraseTerm = { kind: 'phrase', words, position: 0 };
    sets.push(resolvePhrase(phrase, -1, { ...options, allowedMask: 0xffffffff }).docs);
  }
  return unionAll(sets);
}

/** Scratch of `featuresOf`: the (candidate, posting entry) index pairs one derivation matches. */
let pairs = new Uint32Array(0);
/** Candidate slots: docid → its index + 1 in the candidates (0: none), set while `termFeatures` runs. */
let slots = new Uint32Array(0);
/** Slots are used up to this docid (a sparse docid space would cost more to map than to gallop). */
const MAX_SLOTS = 1 << 24;
/**
 * A derivation is matched to the candidates through the slots, one lookup per posting entry, unless
 * its posting is this many times longer than the candidates: then galloping over it costs less.
 */
const SLOT_RATIO = 4;

/**
 * The per-document features of each term over `candidates` (ascending docids), in arrays of the
 * ranking's scratch (scratch.ts): called inside `withScratch`, valid until it returns.
 */
export function termFeatures(terms: readonly ResolvedTerm[], candidates: DocSet, every: EveryLevel = LOWEST_LEVEL): TermFeatures[] {
  const n = candidates.length;
  const top = n === 0 ? 0 : candidates[n - 1]! + 1;
  if (terms.length === 0) return [];
  if (top > MAX_SLOTS) return terms.map((term) => featuresOf(term, candidates, null, every));
  if (slots.length < top) slots = new Uint32Array(Math.max(top, 2 * slots.length));
  for (let i = 0; i < n; i++) slots[candidates[i]!] = i + 1;
  try {
    return terms.map((term) => featuresOf(term, candidates, slots, every));
  } finally {
    for (let i = 0; i < n; i++) slots[candidates[i]!] = 0;
  }
}

/** Which features take every typo level of a document's derivations, not its lowest only. */
export interface EveryLevel {
  /** the field mask (attributeRank without a typo rule before it) */
  readonly mask: boolean;
  /** the lowest position (wordPosition without a typo rule before it) */
  readonly position: boolean;
}

const LOWEST_LEVEL: EveryLevel = { mask: false, position: false };

/** One term's features; `slotOf`: the candidates' slots, null to gallop instead. */
function featuresOf(term: ResolvedTerm, candidates: DocSet, slotOf: Uint32Array | null, every: EveryLevel): TermFeatures {
  const n = candidates.length;
  // from the ranking's scratch: 8 bytes per candidate and term of every search, freed each time,
  // were most of a search's typed arrays
  const mask = scratchUint32(n);
  const position = scratchUint16(n, INFO_POSITION);
  const typo = scratchUint8(n, NO_MATCH);
  const flags = scratchUint8(n);
  if (term.phraseHits !== null) {
    for (let i = 0; i < n; i++) {
      const hit = term.phraseHits.get(candidates[i]!);
      if (hit === undefined) continue;
      typo[i] = 0;
      mask[i] = hit[0];
      position[i] = hit[1];
      flags[i] = HAS_EXACT;
    }
    return { typo, mask, position, flags };
  }
  const columns = { typo, mask, position, flags };
  for (const { typo: level, exact, posting } of term.derivations) {
    const { docids, masks, infos } = posting;
    if (slotOf !== null && docids.length <= SLOT_RATIO * n) {
      // each entry matched and taken in one pass (staging the matched pairs cost a quarter more)
      for (let j = 0; j < docids.length; j++) {
        const slot = slotOf[docids[j]!];
        if (slot === undefined || slot === 0) continue;
        takeEntry(columns, slot - 1, level, exact, masks[j]!, infos[j]!, every);
      }
      continue;
    }
    // matched (candidate, posting) index pairs of one derivation, reused across derivations and terms
    if (pairs.length < 2 * n) pairs = new Uint32Array(Math.max(2 * n, 2 * pairs.length));
    const at = pairs.subarray(0, n);
    const from = pairs.subarray(n, 2 * n);
    const count = commonIndices(candidates, docids, at, from);
    for (let k = 0; k < count; k++) takeEntry(columns, at[k]!, level, exact, masks[from[k]!]!, infos[from[k]!]!, every);
  }
  return columns;
}

/** Candidate `i`'s features with one posting entry (its field mask and info) of a derivation at `level`. */
function takeEntry(columns: TermFeatures, i: number, level: number, exact: boolean, entryMask: number, info: number, every: EveryLevel): void {
  const { typo, mask, position, flags } = columns;
  const pos = info & INFO_POSITION;
  if (level < typo[i]!) {
    typo[i] = level;
    mask[i] = every.mask ? (mask[i]! | entryMask) >>> 0 : entryMask;
    if (!every.position || pos < position[i]!) position[i] = pos;
  } else {
    if (level === typo[i] || every.mask) mask[i] = (mask[i]! | entryMask) >>> 0;
    if ((level === typo[i] || every.position) && pos < position[i]!) position[i] = pos;
  }
  if (exact) flags[i] = flags[i]! | HAS_EXACT | ((info & INFO_WHOLE_FIELD) !== 0 ? EXACT_WHOLE_FIELD : 0) | (pos === 0 ? EXACT_AT_START : 0);
}

/**
 * Writes the index pairs of every a[i] === b[j] to `as` (i) and `bs` (j), ascending, and returns
 * their count; walks the smaller array and gallops in the other. `as` and `bs` need room for
 * the smaller array's length.
 */
function commonIndices(a: Uint32Array, b: Uint32Array, as: Uint32Array, bs: Uint32Array): number {
  let count = 0;
  if (a.length <= b.length) {
    let j = 0;
    for (let i = 0; i < a.length && j < b.length; i++) {
      if (b[j]! < a[i]!) j = gallop(b, a[i]!, j);
      if (j < b.length && b[j] === a[i]) {
        as[count] = i;
        bs[count++] = j;
      }
    }
  } else {
    let i = 0;
    for (let j = 0; j < b.length && i < a.length; j++) {
      if (a[i]! < b[j]!) i = gallop(a, b[j]!, i);
      if (i < a.length && a[i] === b[j]) {
        as[count] = i;
        bs[count++] = j;
      }
    }
  }
  return count;
}

/** First index ≥ from whose value is ≥ value. */
function gallop(set: Uint32Array, value: number, from: number): number {
  let lo = from;
  let step = 1;
  let hi = from + 1;
  while (hi < set.length && set[hi]! < value) {
    lo = hi;
    step *= 2;
    hi = from + step;
  }
  hi = Math.min(hi, set.length);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (set[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Which query terms each word id belongs to, for reading forward records: `zero[id]` has bit t
 * when the word is a 0-typo word of term t (its exact or prefix-derived words), `typos` lists
 * the typo words as term << 2 | typos. Built once per query, only when positions are needed, in
 * the ranking's scratch (scratch.ts): valid while the ranking runs.
 */
export interface TermWordIndex {
  readonly zero: Uint16Array;
  readonly typos: Map<number, number[]>;
}

export function termWordIndex(terms: readonly ResolvedTerm[], dictionary: Dictionary): TermWordIndex {
  let limit = dictionary.idLimit;
  for (const term of terms) for (const d of term.derivations) limit = Math.max(limit, d.posting.id + 1);
  const zero = scratchUint16(limit);
  const typos = new Map<number, number[]>();
  terms.forEach((term, t) => {
    const bit = 1 << t;
    for (const d of term.derivations) if (d.typo === 0 && d.posting.id !== 0) zero[d.posting.id] = zero[d.posting.id]! | bit;
    if (term.prefixRange !== null) {
      const [from, to] = term.prefixRange;
      for (let w = from; w < to; w++) zero[dictionary.ids[w]!] = zero[dictionary.ids[w]!]! | bit;
    }
    for (const [id, typo] of term.wordTypos) {
      const list = typos.get(id) ?? [];
      list.push((t << 2) | typo);
      typos.set(id, list);
    }
  });
  return { zero, typos };
}
