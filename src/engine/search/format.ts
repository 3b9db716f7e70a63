/**
 * Highlighting, cropping and match positions of hits (search.md §8.2–§8.6): `_formatted` and
 * `_matchesPosition` for a page of hits, given the query's matching words. Pure apart from ONE
 * tokenizer kernel call per page, over every value of every hit that is formatted or (with
 * `showMatchesPosition`) displayed, so field text is split and normalised exactly as at indexing
 * (without stop-word classification, with the index's custom tokens, as Meilisearch's formatter).
 *
 * Offsets are UTF-8 byte offsets (the tokenizer's and `_matchesPosition`'s unit); text is cut on
 * a Buffer of the value so multi-byte characters are never split. The tags and crop markers a
 * request adds are bounded (`MarkupBudget`): past it the search is refused.
 */
import type { CustomTokens, TokenizerSettings } from '../../kernels/custom-tokens.js';
import { langOfLocales } from '../../kernels/languages.js';
import { charNormalizedBytes } from '../../kernels/char-map.js';
import { getKernels } from '../../kernels/module.js';
import { TOKEN_RECORD_U32, TokenField, TokenKind, tokenizeInArena } from '../../kernels/tokenizer.js';
import { utf8Length } from '../../kernels/utf8.js';
import { ApiError } from '../../errors/api-error.js';
import { MAX_FACET_WALK_NS, type FacetWalkBudget } from '../facets/distribution.js';
import { sortedKeys } from '../../types/bytes.js';
import { isJsonNumber, isJsonObject } from '../../types/json-text.js';
import { ownRecord, setField } from '../../types/own-record.js';
import { ryu } from '../../types/ryu.js';
import { isFloatMember, withFloatsOf } from '../../types/wire-floats.js';
import { U64_MAX } from '../../types/rust-int.js';
import type { LocalizedAttributesRule } from '../../types/settings.js';
import { projectValue } from '../documents/project.js';
import { langOfField } from '../localized-fields.js';
import { tokenizerRules } from '../settings-derived.js';
import { termEnd } from './query.js';
import { scratchInt32, scratchUint32, scratchUint8, withScratch } from './scratch.js';
import { indexable, type ResolvedTerm } from './terms.js';

/** What one query term matches in field text. */
export interface MatchTerm {
  /** query positions [first, last] the term covers (crop scoring counts distinct terms, order) */
  readonly ids: readonly [number, number];
  /** normalised token sequences matched whole: single words and consecutive words (phrases) */
  readonly sequences: readonly (readonly string[])[];
  /**
   * for the prefix term: its word and typo words, which match the tokens they start on as many
   * characters as the query word has, as in milli's matcher (`J. K.` → typo word `j. r. r.`
   * highlights `J. R.`); synonyms and splits stay in `sequences`, matched whole
   */
  readonly prefix: { readonly words: readonly string[]; readonly chars: number } | null;
}

/** The matching words of resolved query terms (search.md §8.3). */
export function matchingWords(terms: readonly ResolvedTerm[], prefixSearch: boolean): MatchTerm[] {
  return terms.map(({ term, derivations, known }) => {
    if (term.kind === 'phrase') {
      // the formatter's tokenizer has no stop words, so a phrase with a stop-word hole never matches
      const sequences = term.words.includes(null) ? [] : [term.words as string[]];
      return { ids: [term.position, termEnd(term)], sequences, prefix: null };
    }
    const ids: [number, number] = [term.position, term.position];
    // milli matches nothing for a word too long to be indexed, not even itself
    if (!indexable(term.word)) return { ids, sequences: [], prefix: null };
    // the word itself only when the index holds it (or, a prefix, words it starts), as milli's matcher
    const own = known ? [term.word] : [];
    const sequences: string[][] = own.length === 0 ? [] : [own];
    for (const d of derivations) if (d.words !== undefined && !sequences.some((s) => sameWords(s, d.words!))) sequences.push([...d.words]);
    if (!term.prefix || !prefixSearch) return { ids, sequences, prefix: null };
    const words = [...own, ...derivations.filter((d) => d.typoWord).map((d) => d.words![0]!)];
    const prefixed = new Set(words);
    return { ids, sequences: sequences.filter((s) => s.length > 1 || !prefixed.has(s[0]!)), prefix: { words, chars: [...term.word].length } };
  });
}

function sameWords(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((word, i) => word === b[i]);
}

export interface FormatOptions {
  /** the index's field names: `_formatted` exists iff a displayed one is highlighted or cropped */
  readonly fields: readonly string[];
  /** settings.displayedAttributes */
  readonly displayed: readonly string[];
  /** attributesToRetrieve (null or containing `*` = every displayed attribute) */
  readonly retrieve: readonly string[] | null;
  readonly attributesToHighlight: readonly string[] | null;
  readonly attributesToCrop: readonly string[] | null;
  readonly cropLength: number;
  readonly cropMarker: string;
  readonly highlightPreTag: string;
  readonly highlightPostTag: string;
  readonly showMatchesPosition: boolean;
  /** the index's separatorTokens, nonSeparatorTokens and dictionary (the index settings have them) */
  readonly tokenizer?: TokenizerSettings;
  /** the search's `locales` (stored codes; empty: detected), else (null) each field's `localizedAttributes` locales */
  readonly locales?: readonly string[] | null;
  readonly localizedAttributes?: readonly LocalizedAttributesRule[] | null;
  /** what the request's pages may still add in tags and markers; none: a budget of this page's own */
  readonly markup?: MarkupBudget;
}

/**
 * What one request's hits may add beyond their documents' own values. `left`: the highlight tags
 * and crop markers, in UTF-16 code units: each tag or marker is the caller's string, so their size
 * is the product of its length and the matches (a 100 KB `highlightPreTag` over a movies page of
 * 1,000 hits ran 26 s, then failed past V8's longest string). `vectors`: the vector components
 * `retrieveVectors` reads into them (search/hits.ts; 50 queries of 2,000 hits of 4,096 dimensions
 * exhausted the heap). `facetWalkNs`: what its facet distributions may spend walking fields too
 * big for a value column (facets/distribution.ts). One budget spans a multi-search's or a
 * federation's pages.
 */
export interface MarkupBudget extends FacetWalkBudget {
  left: number;
  vectors: number;
}

/** 64 Mi code units: some 7 million default tag pairs. */
const MAX_MARKUP = 64 * 1024 * 1024;

/** 16 Mi components: 4,096 hits of 4,096 dimensions, some 200 MB of answer. */
export const MAX_RETRIEVED_COMPONENTS = 16 * 1024 * 1024;

export function markupBudget(): MarkupBudget {
  return { left: MAX_MARKUP, vectors: MAX_RETRIEVED_COMPONENTS, facetWalkNs: MAX_FACET_WALK_NS };
}

/** Charges `units` to the budget; refuses the search, naming its longest tag or marker, once it is spent. */
function chargeMarkup(budget: MarkupBudget, units: number, options: FormatOptions): void {
  budget.left -= units;
  if (budget.left >= 0) return;
  const { highlightPreTag: pre, highlightPostTag: post, cropMarker } = options;
  const [code, name] =
    cropMarker.length > Math.max(pre.length, post.length)
      ? (['invalid_search_crop_marker', 'cropMarker'] as const)
      : pre.length >= post.length
        ? (['invalid_search_highlight_pre_tag', 'highlightPreTag'] as const)
        : (['invalid_search_highlight_post_tag', 'highlightPostTag'] as const);
  throw new ApiError(
    code,
    `Invalid value at \`.${name}\`: the highlight tags and crop markers of this request's hits would take more than ${MAX_MARKUP} characters. Ask for fewer hits, or fewer attributes to highlight or crop, or use a shorter \`${name}\`.`,
  );
}

export interface MatchPosition {
  start: number;
  length: number;
  indices?: number[];
}

export interface FormattedHit {
  formatted?: Record<string, unknown>;
  matchesPosition?: Record<string, MatchPosition[]>;
}

type Json = Record<string, unknown>;

/** One match in a value: tokens [first, last], words [firstWord, lastWord], bytes highlighted. */
export interface Match {
  readonly firstToken: number;
  readonly lastToken: number;
  readonly firstWord: number;
  readonly lastWord: number;
  readonly start: number;
  readonly end: number;
  readonly term: number;
}

/** A page's tokens, one column per token field; each value's tokens are a run of them. */
interface PageTokens {
  readonly kind: Uint8Array;
  readonly start: Uint32Array;
  readonly end: Uint32Array;
  readonly wordIndex: Int32Array;
  /** per token, 1 + its word's place in `words`, or 0 for a token whose word is not decoded */
  readonly wordSlot: Int32Array;
  /** the decoded words, in token order */
  readonly words: string[];
}

/**
 * The tokens of one value, a run of its page's columns: one object per value instead of one per
 * token (a page holds thousands).
 */
class TextTokens {
  constructor(
    private readonly page: PageTokens,
    private readonly from: number,
    readonly length: number,
  ) {}

  kind(i: number): number {
    return this.page.kind[this.from + i]!;
  }

  /** UTF-8 byte offsets of the token in the value */
  start(i: number): number {
    return this.page.start[this.from + i]!;
  }

  end(i: number): number {
    return this.page.end[this.from + i]!;
  }

  /** the normalised word; '' for a separator, and for a word no query word starts as it does (withMatchableStarts) */
  word(i: number): string {
    const slot = this.page.wordSlot[this.from + i]!;
    return slot === 0 ? '' : this.page.words[slot - 1]!;
  }

  /** index among the value's word tokens; -1 for a separator */
  wordIndex(i: number): number {
    return this.page.wordIndex[this.from + i]!;
  }
}

/** Whether an attribute-list entry selects `path` (an entry on `a` covers `a.b` and vice versa). */
function covers(entry: string, path: string): boolean {
  return entry === '*' || entry === path || path.startsWith(`${entry}.`) || entry.startsWith(`${path}.`);
}

function selectsPath(entries: readonly string[], path: string): boolean {
  return entries.some((entry) => covers(entry, path));
}

/** The displayed part of a document, keeping stored key order (selectors without `*`) and its floats' marks. */
function project(doc: Json, selectors: readonly string[] | null): Json {
  if (selectors === null) return doc;
  const out: Json = {};
  for (const [key, value] of Object.entries(doc)) if (selectors.some((s) => covers(s, key))) setField(out, key, projectValue(value, key, selectors));
  return withFloatsOf(doc, out);
}

/** A number's text as v1.50 formats it: a float the document wrote (`9.0`) as ryu writes it. */
function numberText(holder: object | null, member: string | number, value: number | bigint): string {
  return holder !== null && typeof value === 'number' && isFloatMember(holder, member) ? ryu(value) : String(value);
}

/** Crop rules: `attr` or `attr:N` (a non-numeric N keeps the default length for `attr`). */
function cropRules(entries: readonly string[], cropLength: number): [string, number][] {
  return entries.map((entry) => {
    const colon = entry.lastIndexOf(':');
    if (colon === -1) return [entry, cropLength];
    // Rust's `usize` parse: an optional `+`, digits, within 64 bits; anything else takes `cropLength`
    const length = entry.slice(colon + 1);
    return [entry.slice(0, colon), /^\+?[0-9]+$/.test(length) && BigInt(length) <= U64_MAX ? Number(length) : cropLength];
  });
}

/** Calls `visit` on every string/number leaf with its dotted path and array indices; `holder[member]` is `value`. */
function walk(value: unknown, path: string, indices: number[], visit: (path: string, indices: number[], text: string) => void, holder: object | null = null, member: string | number = ''): void {
  if (typeof value === 'string') visit(path, indices, value);
  else if (isJsonNumber(value)) visit(path, indices, numberText(holder, member, value));
  else if (Array.isArray(value)) value.forEach((item, i) => walk(item, path, [...indices, i], visit, value, i));
  else if (isJsonObject(value)) for (const [key, inner] of Object.entries(value)) walk(inner, path === '' ? key : `${path}.${key}`, indices, visit, value, key);
}

/**
 * `_formatted` / `_matchesPosition` of each stored document of a page (displayed attributes
 * are selected here), tokenizing every value to match in one kernel call.
 */
export function formatHits(docs: readonly Json[], terms: readonly MatchTerm[], options: FormatOptions): FormattedHit[] {
  const markup = options.markup ?? markupBudget();
  const displayed = options.displayed.includes('*') ? null : options.displayed;
  const highlight = options.attributesToHighlight ?? [];
  const crop = cropRules(options.attributesToCrop ?? [], options.cropLength);
  const retrieve = options.retrieve === null || options.retrieve.includes('*') ? null : options.retrieve;
  const formatting = options.fields.some(
    (field) => (displayed === null || displayed.some((d) => covers(d, field))) && (selectsPath(highlight, field) || crop.some(([a]) => covers(a, field))),
  );
  const shown = docs.map((doc) => project(doc, displayed));

  // the union of retrieved, highlighted and cropped attributes (`*` = all displayed)
  const formatSelectors = retrieve === null || highlight.includes('*') || crop.some(([a]) => a === '*') ? null : [...retrieve, ...highlight, ...crop.map(([a]) => a)];
  const sources = shown.map((doc) => (formatting ? project(doc, formatSelectors) : null));
  // what each path gets, worked out once per page: every hit has the same paths
  const rules = new Map<string, { readonly highlight: boolean; readonly cropLength: number | undefined }>();
  const ruleOf = (path: string) => {
    let rule = rules.get(path);
    // the last crop entry naming the field (or `*`) sets its length, as v1.50 overwrites it entry by entry
    if (rule === undefined) rules.set(path, (rule = { highlight: selectsPath(highlight, path), cropLength: crop.findLast(([a]) => covers(a, path))?.[1] }));
    return rule;
  };
  const isFormatted = (path: string) => {
    const rule = ruleOf(path);
    return rule.highlight || rule.cropLength !== undefined;
  };

  // the values to match (string and number leaves), each once: those formatted, and every
  // displayed one when positions are asked for
  const texts: string[] = [];
  const langs: number[] = [];
  const searchLang = options.locales === null || options.locales === undefined ? null : langOfLocales(options.locales);
  // per hit, a value's position in `texts`: by path, and for a value inside arrays by path and
  // indices (after the path's last NUL, which no indices hold), apart from the others
  const index = shown.map(() => ({ plain: new Map<string, number>(), nested: new Map<string, number>() }));
  const mapOf = (hit: number, indices: number[]) => (indices.length === 0 ? index[hit]!.plain : index[hit]!.nested);
  const keyOf = (path: string, indices: number[]) => (indices.length === 0 ? path : `${path}\u0000${indices.join(',')}`);
  const leafOf = (hit: number, path: string, indices: number[]) => mapOf(hit, indices).get(keyOf(path, indices));
  const collect = (hit: number, onlyFormatted: boolean) => (path: string, indices: number[], text: string) => {
    const leaves = mapOf(hit, indices);
    const key = keyOf(path, indices);
    if (leaves.has(key) || (onlyFormatted && !isFormatted(path))) return;
    leaves.set(key, texts.length);
    texts.push(text);
    langs.push(searchLang ?? langOfField(options.localizedAttributes ?? null, path));
  };
  shown.forEach((doc, hit) => {
    if (options.showMatchesPosition) walk(doc, '', [], collect(hit, false));
    const source = sources[hit];
    if (source !== null && source !== undefined) walk(source, '', [], collect(hit, true));
  });

  // the token columns are scratch memory, kept from one page's formatting to the next: a 2 MB
  // value's columns were 12 MB of fresh pages, each page's first touch ~10 µs on this machine
  return withScratch(() => {
    const custom = options.tokenizer === undefined ? undefined : tokenizerRules(options.tokenizer);
    const tokens = withMatchableStarts(terms, (starts) => tokenizeTexts(texts, langs, custom, starts));
    const lookup = lookupOf(terms);
    const matches = texts.map((text, i) => findMatches(tokens[i]!, text, terms, lookup));

    return shown.map((doc, hit) => {
      const out: FormattedHit = {};
      const source = sources[hit];
      if (source !== null && source !== undefined) {
        out.formatted = rebuild(source, '', [], (path, indices, text) => {
          const rule = ruleOf(path);
          if (!rule.highlight && rule.cropLength === undefined) return text;
          const leaf = leafOf(hit, path, indices)!;
          return formatText(text, tokens[leaf]!, matches[leaf]!, terms, rule.highlight, rule.cropLength ?? 0, options, markup);
        }) as Json;
      }
      if (options.showMatchesPosition) {
        // keyed by field paths: a field named `__proto__` is a key like any other
        const positions = ownRecord<MatchPosition[]>();
        walk(doc, '', [], (path, indices) => {
          const leaf = leafOf(hit, path, indices)!;
          const found = matches[leaf]!;
          if (found.length === 0) return;
          // one value's matches per path: v1.50 inserts each matching value's under its path, so the
          // last value of an array that matches is the one shown (meilisearch#5658)
          // UTF-8 bytes of the original text (v1.50 sums the original byte lengths of the matched
          // characters): `pésti` spans 6; a prefix match spans its highlighted prefix only
          positions[path] = found.map((m) => (indices.length > 0 ? { start: m.start, length: m.end - m.start, indices } : { start: m.start, length: m.end - m.start }));
        });
        // v1.50's MatchesPosition is a BTreeMap: paths in byte order, not the document's
        out.matchesPosition = sortedKeys(positions);
      }
      return out;
    });
  });
}

/**
 * The document with each string/number leaf replaced by `format`'s string (numbers become strings,
 * a float as v1.50 writes it: `"9.0"`); `holder[member]` is `value`.
 */
function rebuild(value: unknown, path: string, indices: number[], format: (path: string, indices: number[], text: string) => string, holder: object | null = null, member: string | number = ''): unknown {
  if (typeof value === 'string') return format(path, indices, value);
  if (isJsonNumber(value)) return format(path, indices, numberText(holder, member, value));
  if (Array.isArray(value)) return value.map((item, i) => rebuild(item, path, [...indices, i], format, value, i));
  if (isJsonObject(value)) {
    const out: Json = {};
    for (const [key, inner] of Object.entries(value)) setField(out, key, rebuild(inner, path === '' ? key : `${path}.${key}`, indices, format, value, key));
    return out;
  }
  return value;
}

const decoder = new TextDecoder();

/**
 * Which token words may match a term, by their first UTF-8 bytes: a word matches a sequence's
 * word only when equal to it and a prefix only when it starts with it, so a word of two bytes or
 * more needs its first two bytes to be those of such a query word, or its first byte that of a
 * one-byte query word; a one-byte word needs the latter. The tables are this thread's, set for one
 * formatting and cleared after it (a fresh 64 KiB table would cost a small search more than it saves).
 */
interface MatchableStarts {
  /** first bytes of the one-byte query words */
  readonly single: Uint8Array;
  /** (first byte << 8 | second byte) of the longer ones */
  readonly pair: Uint8Array;
}

const STARTS: MatchableStarts = { single: new Uint8Array(256), pair: new Uint8Array(1 << 16) };

/** Runs `use` with the terms' words marked in STARTS, cleared again after it. */
function withMatchableStarts<T>(terms: readonly MatchTerm[], use: (starts: MatchableStarts) => T): T {
  const { single, pair } = STARTS;
  const marked: number[] = [];
  const add = (word: string) => {
    const bytes = Buffer.from(word);
    if (bytes.length === 1) single[bytes[0]!] = 1;
    else if (bytes.length > 1) marked.push((bytes[0]! << 8) | bytes[1]!);
  };
  for (const term of terms) {
    for (const sequence of term.sequences) sequence.forEach(add);
    term.prefix?.words.forEach(add);
  }
  for (const at of marked) pair[at] = 1;
  try {
    return use(STARTS);
  } finally {
    single.fill(0);
    for (const at of marked) pair[at] = 0;
  }
}

/**
 * Tokens of every text, from one kernel call. A page of highlighted hits holds thousands of
 * tokens: each record's fields are read in place, in the kernel's arena (no copy of the records:
 * a 4 MB value's were 50 MB of fresh pages, and this machine's page faults are dear), and each
 * word decoded from one Buffer over the normalised bytes (a view and a TextDecoder call per token
 * were a fifth of a highlighted search), and only a word whose first bytes may match
 * (`withMatchableStarts`): decoding and hashing every word of a page was a fifth of its formatting,
 * and words by their first byte alone a tenth of a 4 MB value's. The decoded words are kept in
 * token order, each token pointing at its own: a column of a string per token is a dictionary
 * past 100,000 tokens in V8. No kernel runs until the records are read.
 */
function tokenizeTexts(texts: readonly string[], langs: readonly number[], custom: CustomTokens | undefined, starts: MatchableStarts): TextTokens[] {
  if (texts.length === 0) return [];
  const kernels = getKernels();
  const batch = tokenizeInArena(texts, { custom, langs }, kernels);
  const { count } = batch;
  const records = kernels.arena.u32;
  const base = batch.records >>> 2;
  // each value's run of the columns, its tokens in the batch's order
  const runStart = new Uint32Array(texts.length + 1);
  for (let i = 0; i < count; i++) runStart[records[base + i * TOKEN_RECORD_U32 + TokenField.String]! + 1]!++;
  for (let leaf = 0; leaf < texts.length; leaf++) runStart[leaf + 1] = runStart[leaf + 1]! + runStart[leaf]!;
  const page: PageTokens = { kind: scratchUint8(count), start: scratchUint32(count), end: scratchUint32(count), wordIndex: scratchInt32(count), wordSlot: scratchInt32(count), words: [] };
  const { single, pair } = starts;
  const normalized = Buffer.from(kernels.arena.u8.buffer, batch.normalized, batch.normBytes);
  const next = runStart.slice(0, texts.length);
  const words = new Int32Array(texts.length);
  for (let i = 0; i < count; i++) {
    const r = base + i * TOKEN_RECORD_U32;
    const leaf = records[r + TokenField.String]!;
    const at = next[leaf]!++;
    const kind = records[r + TokenField.Kind]!;
    const start = records[r + TokenField.Start]!;
    page.kind[at] = kind;
    page.start[at] = start;
    page.end[at] = start + records[r + TokenField.Length]!;
    page.wordIndex[at] = kind === TokenKind.Word ? words[leaf]!++ : -1;
    if (kind !== TokenKind.Word) continue;
    // only the words a query word may match are decoded: most of a page's are none
    const normStart = records[r + TokenField.NormStart]!;
    const normLength = records[r + TokenField.NormLength]!;
    if (normLength === 0) continue;
    const first = normalized[normStart]!;
    if (single[first] === 1 || (normLength > 1 && pair[(first << 8) | normalized[normStart + 1]!] === 1)) page.wordSlot[at] = page.words.push(normalized.toString('utf8', normStart, normStart + normLength));
  }
  return texts.map((_, leaf) => new TextTokens(page, runStart[leaf]!, runStart[leaf + 1]! - runStart[leaf]!));
}

/**
 * Matches in text order: at each word token, multi-word sequences first (consumed whole), then
 * single words (whole token), then the prefix term (its first characters only).
 */
/** The terms' sequences indexed for matching: one-word ones by word (first term wins), the rest by first word. */
interface Lookup {
  readonly words: Map<string, number>;
  readonly multi: Map<string, { words: readonly string[]; term: number }[]>;
  /** each prefix word's length in characters */
  readonly prefixChars: Map<string, number>;
  /** per term, its prefix words by the first place each holds in the term's list, and their lengths ascending; null without */
  readonly prefixes: readonly ({ readonly first: Map<string, number>; readonly lengths: readonly number[] } | null)[];
}

/** The characters (code points) of `word`, without splitting it into an array. */
function codePoints(word: string): number {
  let count = 0;
  for (let i = 0; i < word.length; i++) {
    const unit = word.charCodeAt(i);
    // a high surrogate followed by a low one is one character
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < word.length) {
      const next = word.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

function lookupOf(terms: readonly MatchTerm[]): Lookup {
  const words = new Map<string, number>();
  const multi = new Map<string, { words: readonly string[]; term: number }[]>();
  const prefixChars = new Map<string, number>();
  const prefixes = terms.map((term) => {
    if (term.prefix === null) return null;
    const first = new Map<string, number>();
    term.prefix.words.forEach((word, w) => {
      if (!first.has(word)) first.set(word, w);
    });
    return { first, lengths: [...new Set(term.prefix.words.map((word) => word.length))].sort((a, b) => a - b) };
  });
  terms.forEach((term, t) => {
    for (const word of term.prefix?.words ?? []) prefixChars.set(word, codePoints(word));
    for (const sequence of term.sequences) {
      if (sequence.length === 1) {
        if (!words.has(sequence[0]!)) words.set(sequence[0]!, t);
      } else {
        const list = multi.get(sequence[0]!) ?? [];
        list.push({ words: sequence, term: t });
        multi.set(sequence[0]!, list);
      }
    }
  });
  return { words, multi, prefixChars, prefixes };
}

/**
 * The place in term `t`'s prefix words of the first that `word` starts with, or -1: one lookup
 * per distinct length of those words, not a test per word (a typo-tolerant prefix over a large
 * index has hundreds, and a 40 MB value millions of tokens to test).
 */
function firstPrefixOf(word: string, prefix: Lookup['prefixes'][number]): number {
  if (prefix === null) return -1;
  let found = -1;
  for (const length of prefix.lengths) {
    if (length > word.length) break;
    const at = prefix.first.get(length === word.length ? word : word.slice(0, length));
    if (at !== undefined && (found === -1 || at < found)) found = at;
  }
  return found;
}

function findMatches(tokens: TextTokens, text: string, terms: readonly MatchTerm[], lookup: Lookup): Match[] {
  const matches: Match[] = [];
  // the text's bytes only for a prefix match (most values have none): encoding every value of a
  // page was a tenth of its formatting
  let bytes: Buffer | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const word = tokens.word(i);
    // a word left undecoded matches no query word (withMatchableStarts), nor does a separator
    if (word === '') continue;
    const candidates = lookup.multi.get(word);
    const sequence = candidates === undefined ? null : matchSequence(tokens, i, candidates);
    if (sequence !== null) {
      const [last, term] = sequence;
      matches.push({ firstToken: i, lastToken: last, firstWord: tokens.wordIndex(i), lastWord: tokens.wordIndex(last), start: tokens.start(i), end: tokens.end(last), term });
      i = last;
      continue;
    }
    const whole = lookup.words.get(word);
    if (whole !== undefined) {
      matches.push({ firstToken: i, lastToken: i, firstWord: tokens.wordIndex(i), lastWord: tokens.wordIndex(i), start: tokens.start(i), end: tokens.end(i), term: whole });
      continue;
    }
    let prefixed = -1;
    let chars = 0;
    for (let t = 0; t < terms.length && prefixed === -1; t++) {
      const w = firstPrefixOf(word, lookup.prefixes[t]!);
      if (w === -1) continue;
      const prefix = terms[t]!.prefix!;
      prefixed = t;
      chars = Math.min(prefix.chars, lookup.prefixChars.get(prefix.words[w]!)!);
    }
    if (prefixed !== -1) {
      const start = tokens.start(i);
      const end = tokens.end(i);
      // the bytes of the word's first `chars` characters (at most the matching word's), which the
      // highlight covers in the original text; a token whose text is as long as its word (plain
      // text) matched to its end is highlighted whole without reading its text
      const covered = chars < word.length ? utf8Length(word.slice(0, codeUnitsOf(word, chars))) : utf8Length(word);
      let prefixEnd = end;
      if (covered < end - start) {
        bytes ??= Buffer.from(text);
        prefixEnd = start + originalBytesCovering(decoder.decode(bytes.subarray(start, end)), word, covered, chars);
      }
      matches.push({ firstToken: i, lastToken: i, firstWord: tokens.wordIndex(i), lastWord: tokens.wordIndex(i), start, end: prefixEnd, term: prefixed });
    }
  }
  return matches;
}

/** The UTF-16 units of the first `chars` characters of `word`. */
function codeUnitsOf(word: string, chars: number): number {
  let at = 0;
  for (let n = 0; n < chars && at < word.length; n++) at += word.codePointAt(at)! > 0xffff ? 2 : 1;
  return at;
}

/**
 * The UTF-8 bytes of `text`'s first characters that normalise into `covered` bytes of its word, as
 * milli's matcher counts a prefix match (charabia `Token::original_lengths`): characters are taken
 * while less than `covered` bytes are, so a mark normalisation drops inside the prefix counts, one
 * after it does not, and `ﬁ` (`fi`) counts once. A text whose character map cannot be rebuilt
 * (char-map.ts) is highlighted on its first `chars` characters.
 */
function originalBytesCovering(text: string, word: string, covered: number, chars: number): number {
  const lengths = charNormalizedBytes(text, word);
  let normalized = 0;
  let original = 0;
  let n = 0;
  for (const ch of text) {
    if (lengths === null ? n === chars : normalized >= covered) break;
    normalized += lengths?.[n] ?? 0;
    original += utf8Length(ch);
    n++;
  }
  return original;
}

/**
 * The longest multi-word sequence starting at token `i`, separators of any kind skipped: milli's
 * matcher drops every separator token, hard ones too, before matching a phrase's next word.
 */
function matchSequence(tokens: TextTokens, i: number, candidates: readonly { words: readonly string[]; term: number }[]): [number, number] | null {
  let best: [number, number] | null = null;
  let bestLength = 1;
  for (const { words, term } of candidates) {
    if (words.length <= bestLength) continue;
    let at = i;
    let ok = true;
    for (let k = 1; k < words.length && ok; k++) {
      at++;
      while (at < tokens.length && tokens.kind(at) !== TokenKind.Word) at++;
      ok = at < tokens.length && tokens.kind(at) === TokenKind.Word && tokens.word(at) === words[k];
    }
    if (ok) {
      best = [at, term];
      bestLength = words.length;
    }
  }
  return best;
}

function better(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/**
 * The best interval of consecutive matches spanning fewer than `cropLength` words, by crop score:
 * (distinct terms, −(words inside phrases + gaps capped at 7), words inside phrases + pairs in
 * query order). The window slides once over the matches, its score kept up to date as it moves
 * (distinct terms counted in and out, the sums read from prefix sums): scoring each window anew
 * made a 40,000-word value with a 20,000-word crop take 20 s.
 */
export function bestInterval(matches: readonly Match[], terms: readonly MatchTerm[], cropLength: number): [number, number] {
  const n = matches.length;
  // prefix sums: words inside each match (a phrase's own words, ordered and adjacent: gap 1
  // each), the capped gap to the previous match, and whether its term follows the previous one's
  const inside = new Float64Array(n + 1);
  const gaps = new Float64Array(n + 1);
  const ordered = new Float64Array(n + 1);
  for (let k = 0; k < n; k++) {
    const m = matches[k]!;
    const prev = k === 0 ? undefined : matches[k - 1]!;
    inside[k + 1] = inside[k]! + (m.lastWord - m.firstWord);
    gaps[k + 1] = gaps[k]! + (prev === undefined ? 0 : Math.min(m.firstWord - prev.lastWord, 7));
    ordered[k + 1] = ordered[k]! + (prev !== undefined && terms[m.term]!.ids[0] > terms[prev.term]!.ids[0] ? 1 : 0);
  }
  // the window's query positions, counted
  const counts = new Map<number, number>();
  let distinct = 0;
  const count = (m: Match, delta: 1 | -1) => {
    const [from, to] = terms[m.term]!.ids;
    for (let id = from; id <= to; id++) {
      const next = (counts.get(id) ?? 0) + delta;
      if (next === 0) distinct--;
      else if (next === 1 && delta === 1) distinct++;
      counts.set(id, next);
    }
  };
  let best: [number, number] = [0, 0];
  let bestScore: number[] | null = null;
  let first = 0;
  let last = 0;
  const consider = () => {
    const words = inside[last + 1]! - inside[first]!;
    const score = [distinct, -(words + gaps[last + 1]! - gaps[first + 1]!), words + ordered[last + 1]! - ordered[first + 1]!];
    if (bestScore === null || better(score, bestScore)) {
      bestScore = score;
      best = [first, last];
    }
  };
  count(matches[0]!, 1);
  for (let k = 1; k < n; k++) {
    const next = matches[k]!;
    if (next.lastWord - matches[first]!.firstWord >= cropLength) {
      consider();
      while (first < k && next.lastWord - matches[first]!.firstWord >= cropLength) count(matches[first++]!, -1);
    }
    last = k;
    count(next, 1);
  }
  consider();
  return best;
}

/** The byte window [start, end) of the crop (search.md §8.5). */
function cropWindow(tokens: TextTokens, matches: readonly Match[], terms: readonly MatchTerm[], cropLength: number, textEnd: number): [number, number] {
  let firstToken: number;
  let lastToken: number;
  let remaining: number;
  if (matches.length === 0) {
    firstToken = 0;
    while (firstToken < tokens.length && tokens.kind(firstToken) !== TokenKind.Word) firstToken++;
    if (firstToken === tokens.length) return [0, textEnd];
    lastToken = firstToken;
    remaining = cropLength - 1;
  } else {
    const [from, to] = bestInterval(matches, terms, cropLength);
    firstToken = matches[from]!.firstToken;
    lastToken = matches[to]!.lastToken;
    const span = matches[to]!.lastWord - matches[from]!.firstWord + 1;
    if (span > cropLength) {
      // a single match longer than the window: keep its first words
      let words = 0;
      for (lastToken = firstToken; lastToken < tokens.length; lastToken++) {
        if (tokens.kind(lastToken) === TokenKind.Word && ++words === cropLength) break;
      }
      remaining = 0;
    } else {
      remaining = cropLength - span;
    }
  }
  let before = firstToken - 1;
  let after = lastToken + 1;
  const isWord = (i: number) => tokens.kind(i) === TokenKind.Word;
  while (remaining > 0) {
    const hasBefore = before >= 0;
    const hasAfter = after < tokens.length;
    if (hasBefore && hasAfter) {
      if (!isWord(before) && !isWord(after)) {
        if (tokens.kind(before) === tokens.kind(after)) {
          before--;
          // no separator right before the trailing marker
          if (remaining > 1) after++;
        } else if (tokens.kind(before) === TokenKind.HardSeparator) {
          after++;
        } else {
          before--;
        }
      } else if (isWord(before) && !isWord(after)) {
        before--;
        remaining--;
      } else if (!isWord(before) && isWord(after)) {
        after++;
        remaining--;
      } else {
        before--;
        remaining--;
        if (remaining > 0) {
          after++;
          remaining--;
        }
      }
    } else if (hasBefore) {
      if (isWord(before)) remaining--;
      before--;
    } else if (hasAfter) {
      if (isWord(after)) remaining--;
      after++;
    } else {
      break;
    }
  }
  const start = before >= 0 ? tokens.end(before) : 0;
  const end = after < tokens.length ? tokens.start(after) : textEnd;
  return [start, end];
}

const SURROGATE = /[\ud800-\udfff]/;

/** One value highlighted and/or cropped. */
function formatText(
  text: string,
  tokens: TextTokens,
  matches: readonly Match[],
  terms: readonly MatchTerm[],
  highlight: boolean,
  cropLength: number,
  options: FormatOptions,
  markup: MarkupBudget,
): string {
  // nothing to cut or mark: the value as it is (one with surrogates takes the long way, whose
  // round trip through bytes replaces a lone one)
  if (cropLength === 0 && (!highlight || matches.length === 0) && !SURROGATE.test(text)) return text;
  const length = Buffer.byteLength(text);
  // an ASCII value's byte offsets are its string offsets: cut the string, not a copy of its bytes
  const bytes = length === text.length ? null : Buffer.from(text);
  const piece = (from: number, to: number) => (bytes === null ? text.slice(from, to) : bytes.subarray(from, to).toString());
  const [start, end] = cropLength > 0 ? cropWindow(tokens, matches, terms, cropLength, length) : [0, length];
  let out = '';
  let at = start;
  if (highlight) {
    for (const m of matches) {
      const from = Math.max(m.start, start);
      const to = Math.min(m.end, end);
      if (from >= to) continue;
      chargeMarkup(markup, options.highlightPreTag.length + options.highlightPostTag.length, options);
      out += piece(at, from) + options.highlightPreTag + piece(from, to) + options.highlightPostTag;
      at = to;
    }
  }
  out += piece(at, end);
  if (cropLength === 0) return out;
  chargeMarkup(markup, ((start > 0 ? 1 : 0) + (end < length ? 1 : 0)) * options.cropMarker.length, options);
  return (start > 0 ? options.cropMarker : '') + out + (end < length ? options.cropMarker : '');
}
