/**
 * What the proximity rule pairs (ranking.md §5), as place lists and kernel records.
 *
 * Each query term gets LISTS_PER_TERM place lists per document (and so does each n-gram term after
 * them, a node of the query's cuts, ngram-costs.ts):
 * - WORDS: its single-word derivations (exact word, prefix-derived words, typo words; an
 *   n-gram term's joined word);
 * - FIRST / LAST: the first and last words of its phrase-like derivations that the document
 *   holds (a quoted phrase, split words, synonyms — milli matches every synonym as a phrase),
 *   taken anywhere in the document, not only where the phrase is;
 * - PREFIX: when the term is a common prefix (the last query word, ≤ 4 bytes, ≥ 100 indexed words
 *   starting with it: v1.50's prefix proximity database), the words it starts; its WORDS list
 *   then holds no prefix-derived word, only the exact word (and typo words).
 * A pair of adjacent terms (a, b) is priced at the best of: a's WORDS with b's WORDS in both
 * orders, and forward only (reversed order earns nothing next to a phrase-like term or a
 * common prefix) a's WORDS or LAST with b's FIRST or PREFIX, and a's LAST with b's WORDS.
 *
 * Derivations taken: every typo level of a term, unless a typo rule ranks before proximity; then
 * only the document's own level per term, the one combination of a typo bucket's paths that a
 * document of the bucket matches (milli's query graph narrowed by the typo rule). A term an
 * exactWords bucket narrowed to its exact form takes only that (its word as is, or its phrase),
 * milli handing later rules only the paths that made the bucket. Proximity never
 * narrows what later rules see. Built once per query at the first proximity step; the lists of
 * the groups that reach it are gathered from their forward records (forward.ts) by the gather
 * kernel (../../kernels/record-arena.ts), where the proximity kernel prices them.
 */
import { has, type DocSet } from '../docset.js';
import { grownInt32 } from '../grown.js';
import { PAIR_FORWARD_ONLY, PAIR_JOIN, ProximityBuilder, proximityCosts } from '../../kernels/proximity.js';
import { GATHER_LISTS_PER_TERM, gatherTable, type GatherDocs, type GatherTable, type RecordArena } from '../../kernels/record-arena.js';
import { lowerBound, prefixRange, type Dictionary } from './dictionary.js';
import { SCRATCH_GROUP_BYTES, type ForwardReader } from './forward.js';
import { termEnd } from './query.js';
import { NO_MATCH, type ResolvedTerm, type TermFeatures } from './terms.js';

/** Place lists per query term in a proximity batch. */
export const LISTS_PER_TERM = GATHER_LISTS_PER_TERM;
const WORDS = 0;
const FIRST = 1;
const LAST = 2;
const PREFIX = 3;
/** v1.50's prefix proximity database: prefixes of at most this many bytes... */
const COMMON_PREFIX_MAX_BYTES = 4;
/** ...that start at least this many indexed words. */
const COMMON_PREFIX_MIN_WORDS = 100;
/** Every typo level a term's derivations can have (0, 1, 2 typos). */
const ALL_LEVELS = 0xff;
/** The level of a term's exact form (its word as is, or a quoted phrase's words): 0 typos, and
 * the only one left once an exactWords bucket narrowed the term. */
const EXACT = 3;

/** The records of a term pair: left list, right list, flags; the first opens the pair. */
const PAIR_LISTS: readonly (readonly [number, number, number])[] = [
  [WORDS, WORDS, 0],
  [WORDS, FIRST, PAIR_FORWARD_ONLY],
  [LAST, WORDS, PAIR_FORWARD_ONLY],
  [LAST, FIRST, PAIR_FORWARD_ONLY],
  [WORDS, PREFIX, PAIR_FORWARD_ONLY],
  [LAST, PREFIX, PAIR_FORWARD_ONLY],
];

export interface ProximityInput {
  /** the query terms, then any n-gram terms */
  readonly terms: readonly ResolvedTerm[];
  /** parallel to `terms`; null for an n-gram matching no candidate */
  readonly features: readonly (TermFeatures | null)[];
  readonly candidates: DocSet;
  readonly dictionary: Dictionary;
  readonly forward: Pick<ForwardReader, 'read' | 'openGroup' | 'closeGroup' | 'groupScratchBytes'>;
}

/** The kernel records of the kept terms' pairs, and how many term pairs they price. */
export interface PairRecords {
  readonly records: Uint32Array;
  readonly pairs: number;
}

/**
 * The word entries of the table being built (word id, list, typo level, phrase-like derivation),
 * in columns kept from one table to the next (tables are built synchronously, one at a time): a
 * prefix term adds an entry per word it starts, thousands, and JS arrays grown per search were a
 * share of its garbage. They keep the size of the largest table built (16 bytes per entry, at most
 * 4 per word of the largest dictionary).
 */
const staged = {
  count: 0,
  ids: new Int32Array(1024),
  list: new Int32Array(1024),
  level: new Int32Array(1024),
  phrase: new Int32Array(1024),
};

function stage(id: number, list: number, level: number, phrase: number): void {
  if (staged.count === staged.ids.length) {
    const length = 2 * staged.count;
    staged.ids = grownInt32(staged.ids, length);
    staged.list = grownInt32(staged.list, length);
    staged.level = grownInt32(staged.level, length);
    staged.phrase = grownInt32(staged.phrase, length);
  }
  const at = staged.count++;
  staged.ids[at] = id;
  staged.list[at] = list;
  staged.level[at] = level;
  staged.phrase[at] = phrase;
}

export class ProximityTerms {
  /** LISTS_PER_TERM lists per term */
  readonly lists: number;
  /** the entries' words, built on first need (a one-word query never needs them) */
  private table: GatherTable | undefined;
  /** phrase-like derivations: their term, typo level and documents */
  private readonly phrases: { term: number; level: number; docids: DocSet }[] = [];
  /** lists some word can fill */
  private readonly used: Uint8Array;

  /** `narrowed`: a typo rule ranks before proximity. */
  constructor(
    private readonly input: ProximityInput,
    private readonly narrowed: boolean,
  ) {
    const { terms } = input;
    this.lists = terms.length * LISTS_PER_TERM;
    this.used = new Uint8Array(this.lists);
  }

  /** The word entries of every term, built when a pair first needs them. */
  private entries(): GatherTable {
    if (this.table !== undefined) return this.table;
    staged.count = 0;
    this.input.terms.forEach((term, t) => this.addTerm(term, t));
    const { count, ids, list, level, phrase } = staged;
    return (this.table = gatherTable(this.input.terms.length, this.phrases.length, ids.subarray(0, count), list.subarray(0, count), level.subarray(0, count), phrase.subarray(0, count)));
  }

  private addTerm(term: ResolvedTerm, t: number): void {
    const base = t * LISTS_PER_TERM;
    const { words, ids } = this.input.dictionary;
    const idOf = (word: string): number | undefined => {
      const at = lowerBound(words, word);
      return words[at] === word ? ids[at] : undefined;
    };
    const addPhrase = (phraseWords: readonly (string | null)[], level: number, docids: DocSet | null) => {
      const present = phraseWords.filter((word): word is string => word !== null);
      const first = idOf(present[0]!);
      const last = idOf(present[present.length - 1]!);
      let phrase = -1;
      if (docids !== null) {
        phrase = this.phrases.length;
        this.phrases.push({ term: t, level, docids });
      }
      if (first !== undefined) this.add(first, base + FIRST, level, phrase);
      if (last !== undefined) this.add(last, base + LAST, level, phrase);
    };
    if (term.term.kind === 'phrase') {
      // a document matching the term holds the phrase
      addPhrase(term.term.words, EXACT, null);
      return;
    }
    const word = term.term.word;
    const prefixed = term.term.prefix && (term.prefixRange !== null || term.derivations.some((d) => d.words === undefined));
    let range: [number, number] | null = null;
    if (prefixed && Buffer.byteLength(word) <= COMMON_PREFIX_MAX_BYTES) {
      const [from, to] = prefixRange(words, word);
      if (to - from >= COMMON_PREFIX_MIN_WORDS) range = [from, to];
    }
    if (range !== null) {
      for (let w = range[0]; w < range[1]; w++) this.add(ids[w]!, base + PREFIX, 0, -1);
    } else if (term.prefixRange !== null) {
      for (let w = term.prefixRange[0]; w < term.prefixRange[1]; w++) this.add(ids[w]!, base + WORDS, 0, -1);
    }
    for (const d of term.derivations) {
      if (d.words === undefined) {
        // a prefix-derived word listed one by one (past the prefix cache's lengths)
        if (range === null && term.prefixRange === null) this.add(d.posting.id, base + WORDS, 0, -1);
      } else if (d.phrase === true || d.words.length > 1) {
        addPhrase(d.words, d.typo, d.posting.docids);
      } else {
        this.add(d.posting.id, base + WORDS, d.exact ? EXACT : d.typo, -1);
      }
    }
  }

  /** An entry: word `id`'s places go in `list` at typo `level`, under `phrase` (-1 for none). */
  private add(id: number, list: number, level: number, phrase: number): void {
    stage(id, list, level, phrase);
    this.used[list] = 1;
  }

  /**
   * The records pricing each adjacent pair of kept query terms (`kept` has one entry per query
   * term; no condition across a gap in the query).
   */
  records(kept: readonly boolean[]): PairRecords {
    const { terms } = this.input;
    const records: number[] = [];
    let pairs = 0;
    for (let a = 0; a + 1 < kept.length; a++) {
      const b = a + 1;
      if (!kept[a] || !kept[b] || termEnd(terms[a]!.term) + 1 !== terms[b]!.term.position) continue;
      pairs++;
      this.pushPair(records, a, b, 0);
    }
    return { records: Uint32Array.from(records), pairs };
  }

  /** The records pricing terms `a` then `b` (any two nodes), every cost raised by `offset`. */
  pairRecords(a: number, b: number, offset: number): Uint32Array {
    const records: number[] = [];
    this.pushPair(records, a, b, offset);
    return Uint32Array.from(records);
  }

  private pushPair(records: number[], a: number, b: number, offset: number): void {
    this.entries();
    PAIR_LISTS.forEach(([left, right, flags], k) => {
      const l = a * LISTS_PER_TERM + left;
      const r = b * LISTS_PER_TERM + right;
      // the first record opens the pair even when empty (a pair nothing can match costs 3)
      if (k === 0) records.push(l, r, flags, offset);
      else if (this.used[l] === 1 && this.used[r] === 1) records.push(l, r, flags | PAIR_JOIN, offset);
    });
  }

  /**
   * The place lists of the candidates `group` (indices into the candidates), gathered from their
   * forward records by the gather kernel (record-arena.ts), ready to be priced by pair records;
   * `exactOnly`: the terms an exactWords bucket narrowed to their exact form. When every record
   * lies in one arena (the budget may drop the arena between two reads), one gather call, and the
   * proximity kernel of that arena prices the lists where they lie; else each arena's records are
   * gathered in one call and copied into one batch in the group's order, as are the records past
   * the cache each time they reach SCRATCH_GROUP_BYTES (forward.ts). Valid until the next record
   * read or gather.
   */
  gatherGroup(group: ArrayLike<number>, exactOnly: ReadonlySet<number> | undefined, byAttribute: boolean): GroupPlaces {
    const { terms, features, candidates, forward } = this.input;
    const table = this.entries();
    const { narrowed, phrases } = this;
    const termCount = terms.length;
    const phraseCount = phrases.length;
    const typos = features.map((f) => f?.typo);
    const rows = groupRows(group.length, termCount, phraseCount);
    const { records, allowed, present } = rows;
    // the arenas the records of the piece being read lie in, each document's (-1: no record)
    const arenas: RecordArena[] = [];
    const tokens: number[] = [];
    if (pieceArenas.length < group.length) pieceArenas = new Int32Array(group.length);
    const arenaOf = pieceArenas;
    let pieceStart = 0;
    // the pieces read so far gathered and copied into the batch, which holds several pieces' lists
    let batched = false;
    const batchPiece = (end: number) => {
      if (!batched) builder.begin(this.lists);
      batched = true;
      // one gather per arena (records of the cache and of the scratch memory alternate in a group
      // bigger than the cache: a gather per run of them copied the table thousands of times)
      const outputs = arenas.map((arena, a) => arena.gather(table, arenaRows(a, pieceStart, end)));
      const next = arenas.map(() => 0);
      for (let g = pieceStart; g < end; ) {
        const a = arenaOf[g]!;
        let to = g + 1;
        while (to < end && arenaOf[to] === a) to++;
        if (a < 0) builder.addEmpty(to - g);
        else {
          builder.add(outputs[a]!.offsets, outputs[a]!.places, to - g, next[a]);
          next[a]! += to - g;
        }
        g = to;
      }
      arenas.length = 0;
      tokens.length = 0;
      pieceStart = end;
    };
    // the rows of the piece's documents whose records lie in arena `a`, in the group's order
    const arenaRows = (a: number, from: number, end: number): GatherDocs => {
      const out = compactRows(end - from, termCount, phraseCount);
      let n = 0;
      for (let g = from; g < end; g++) {
        if (arenaOf[g] !== a) continue;
        out.records[2 * n] = records[2 * g]!;
        out.records[2 * n + 1] = records[2 * g + 1]!;
        out.allowed.set(allowed.subarray(g * termCount, (g + 1) * termCount), n * termCount);
        out.present.set(present.subarray(g * phraseCount, (g + 1) * phraseCount), n * phraseCount);
        n++;
      }
      return { count: n, records: out.records.subarray(0, 2 * n), allowed: out.allowed.subarray(0, n * termCount), present: out.present.subarray(0, n * phraseCount), tokens: tokens[a]! };
    };
    forward.openGroup();
    try {
      for (let g = 0; g < group.length; g++) {
        const i = group[g]!;
        const docid = candidates[i]!;
        for (let t = 0; t < termCount; t++) {
          const typo = typos[t]?.[i] ?? NO_MATCH;
          let levels: number;
          if (typo === NO_MATCH) levels = 0;
          else if (exactOnly?.has(t) === true) levels = 1 << EXACT;
          else levels = narrowed ? (1 << typo) | (typo === 0 ? 1 << EXACT : 0) : ALL_LEVELS;
          allowed[g * termCount + t] = levels;
        }
        for (let k = 0; k < phraseCount; k++) {
          const p = phrases[k]!;
          present[g * phraseCount + k] = (allowed[g * termCount + p.term]! >> p.level) & 1 && has(p.docids, docid) ? 1 : 0;
        }
        const record = forward.read(docid);
        if (record === null) {
          records[2 * g] = 0;
          records[2 * g + 1] = 0;
          arenaOf[g] = -1;
        } else {
          let a = arenas.indexOf(record.arena);
          if (a < 0) {
            a = arenas.push(record.arena) - 1;
            tokens.push(0);
          }
          arenaOf[g] = a;
          records[2 * g] = record.idsAt;
          records[2 * g + 1] = record.nIds;
          tokens[a]! += record.placesEnd - record.placesAt;
        }
        // records past the cache are gathered by pieces, in the scratch memory cleared after each
        if (forward.groupScratchBytes >= SCRATCH_GROUP_BYTES && g + 1 < group.length) {
          batchPiece(g + 1);
          forward.openGroup();
        }
      }
      const only = arenas.length === 1 ? arenas[0]! : undefined;
      if (!batched && only !== undefined) {
        // every record in one arena: one gather over the whole group (a document without a record
        // has none to read), priced where the lists lie
        const whole = { count: group.length, records: records.subarray(0, 2 * group.length), allowed: allowed.subarray(0, group.length * termCount), present: present.subarray(0, group.length * phraseCount), tokens: tokens[0]! };
        const gathered = only.gather(table, whole);
        return { costs: (pairs) => only.proximity(gathered, pairs, byAttribute) };
      }
      batchPiece(group.length);
      return { costs: (pairs) => proximityCosts(builder.batch(pairs, byAttribute)) };
    } finally {
      forward.closeGroup();
    }
  }
}

/** Place lists of a group, priced per set of pair records (kernels/proximity.ts) by `costs`. */
export interface GroupPlaces {
  costs(pairs: Uint32Array): Uint32Array;
}

/**
 * The batch a group gathered in several arenas is copied into: one for every search of the
 * thread (searches run one at a time, and a group's costs are read before the next group is
 * gathered), grown once to the biggest group.
 */
const builder = new ProximityBuilder();

/** Per-document rows of a gather (records, allowed levels, phrases held), grown for the biggest group. */
type Rows = { records: Uint32Array; allowed: Uint8Array; present: Uint8Array };
let rowArrays: Rows = { records: new Uint32Array(0), allowed: new Uint8Array(0), present: new Uint8Array(0) };
/** The rows of one arena's documents of a piece, copied from the group's (`arenaRows`). */
let compactArrays: Rows = { records: new Uint32Array(0), allowed: new Uint8Array(0), present: new Uint8Array(0) };
/** Each document's arena in the piece being read. */
let pieceArenas = new Int32Array(0);

function grownRows(rows: Rows, docs: number, terms: number, phrases: number): Rows {
  const { records, allowed, present } = rows;
  if (records.length >= 2 * docs && allowed.length >= docs * terms && present.length >= docs * phrases) return rows;
  return {
    records: records.length < 2 * docs ? new Uint32Array(2 * docs) : records,
    allowed: allowed.length < docs * terms ? new Uint8Array(docs * terms) : allowed,
    present: present.length < docs * phrases ? new Uint8Array(docs * phrases) : present,
  };
}

function groupRows(docs: number, terms: number, phrases: number): Rows {
  return (rowArrays = grownRows(rowArrays, docs, terms, phrases));
}

function compactRows(docs: number, terms: number, phrases: number): Rows {
  return (compactArrays = grownRows(compactArrays, docs, terms, phrases));
}
