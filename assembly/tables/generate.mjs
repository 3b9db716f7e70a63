// Generates the tokenizer's static data from the charabia facts (charabia.mjs) and Node's own
// Unicode data (String.prototype.normalize('NFKD'), toLowerCase, \p{...} regexes):
//   assembly/unicode-tables.ts            binary tables the WASM kernel reads (committed)
//   src/kernels/charabia-data.ts            the facts themselves, for the TS code and reference (committed)
//   src/kernels/kvariants-data.ts           the Chinese ideograph variants, for the TS reference and facet search
// The variants come from kvariants.txt beside this file: charabia's
// dictionaries/txt/chinese/kVariants.tsv ("㨲 (U+3A32)<TAB>wrong!<TAB>㩍 (U+3A4D)" rows) reduced
// to the two code points of each row in hex, in the file's order, under one "@relation" line
// per run of rows of that relation.
// Run `node assembly/tables/generate.mjs` after editing charabia.mjs or moving to a Node release
// with a newer Unicode version; the kernel tests compare the kernel with the reference, which
// recomputes every fold at run time, so a stale table shows up as a failing test.
//
// Per code point the kernel needs one u32 of properties (layout below) found through a two-level
// trie, and, for the characters that do not normalise to themselves, a "fold": the code points
// charabia's lossy pipeline produces for it (NFKD, control characters dropped, lowercased, then
// CharacterConverter), each flagged when it is a nonspacing mark (removed in some scripts only).
// Hangul syllables are left to the kernel's arithmetic decomposition to keep the tables small.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CHARACTER_CONVERSIONS,
  CONTEXT_SEPARATORS,
  DEFAULT_SEPARATORS,
  HARD_SEPARATOR_DISTANCE,
  HIRAGANA_RANGE,
  KATAKANA_RANGE,
  WHATLANG_MANDARIN_RANGES,
  MARK_REMOVING_SCRIPTS,
  SCRIPTS,
  SCRIPT_RANGES,
} from './charabia.mjs';

const ROOT = new URL('../../', import.meta.url);
const MAX_CODE_POINT = 0x10ffff;
const TRIE_SHIFT = 7;
const BLOCK = 1 << TRIE_SHIFT;

const KIND_SOFT = 1;
const KIND_HARD = 2;

// Property bits; mirrored by name in assembly/unicode-tables.ts.
const PROP_SCRIPT_MASK = 0x1f;
const PROP_SEPARATOR = 1 << 5; // the code point alone is a DEFAULT_SEPARATORS entry
const PROP_LEMMA_SHIFT = 6; // 2 bits: separator kind of a token whose lemma is this code point's NFKD
const PROP_CONTROL = 1 << 8; // dropped by ControlCharNormalizer (Cc and not White_Space)
const PROP_MARK = 1 << 9; // nonspacing mark (Mn)
const PROP_FOLD = 1 << 10; // has a fold entry; its index is in the top 16 bits
const PROP_FOLD_SHIFT = 16;

const HANGUL_FIRST = 0xac00;
const HANGUL_COUNT = 11172;

const scriptId = new Map(SCRIPTS.map((name, id) => [name, id]));
const defaultSet = new Set(DEFAULT_SEPARATORS);
const contextSet = new Set(CONTEXT_SEPARATORS);

const isControl = (ch) => /\p{Cc}/u.test(ch) && !/\p{White_Space}/u.test(ch);
const isMark = (ch) => /\p{Mn}/u.test(ch);

function scriptOf(cp) {
  for (const [first, last, name] of SCRIPT_RANGES) if (cp >= first && cp <= last) return scriptId.get(name);
  return 0;
}

/** Classifier::normalize on a lemma that went through NFKD and ControlCharNormalizer. */
function separatorKind(lemma) {
  if (!defaultSet.has(lemma)) return 0;
  return contextSet.has(lemma) ? KIND_HARD : KIND_SOFT;
}

const lemmaOf = (text) => [...text.normalize('NFKD')].filter((ch) => !isControl(ch)).join('');

/** Per-character output of NFKD, control removal, to_lowercase (first two chars) and the converter. */
function foldOf(cp) {
  const out = [];
  for (const ch of String.fromCodePoint(cp).normalize('NFKD')) {
    if (isControl(ch)) continue;
    for (const lower of [...ch.toLowerCase()].slice(0, 2)) {
      const converted = CHARACTER_CONVERSIONS[lower] ?? lower;
      for (const c of converted) out.push(c.codePointAt(0));
    }
  }
  return out;
}

function checkFacts() {
  for (const sep of DEFAULT_SEPARATORS) {
    const n = [...sep].length;
    if (n !== 1 && sep !== '. ' && sep !== ', ' && sep !== '។ល។') {
      throw new Error(`unexpected multi-character separator ${JSON.stringify(sep)}`);
    }
  }
  for (let i = 0; i < HANGUL_COUNT; i++) {
    const cp = HANGUL_FIRST + i;
    const l = 0x1100 + Math.floor(i / 588);
    const v = 0x1161 + Math.floor((i % 588) / 28);
    const t = i % 28;
    const expected = String.fromCodePoint(l, v, ...(t ? [0x11a7 + t] : []));
    if (String.fromCodePoint(cp).normalize('NFKD') !== expected) {
      throw new Error(`Hangul U+${cp.toString(16)} does not decompose arithmetically`);
    }
  }
}

/** ChineseNormalizer's relations (kvariants.rs); charabia skips any other. */
const KVARIANT_RELATIONS = new Set(['wrong!', 'sem', 'simp', 'old', '=']);

/** kvariants.txt as [source, destination] pairs sorted by source; one destination per source. */
function readKVariants() {
  const text = readFileSync(fileURLToPath(new URL('kvariants.txt', import.meta.url)), 'utf8');
  const bySource = new Map();
  let relation;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('@')) {
      relation = line.slice(1);
      continue;
    }
    const match = /^([0-9A-F]{4,6}) ([0-9A-F]{4,6})$/.exec(line);
    if (match === null) throw new Error(`kvariants.txt: bad line ${JSON.stringify(line)}`);
    if (!KVARIANT_RELATIONS.has(relation)) continue;
    const [source, destination] = [parseInt(match[1], 16), parseInt(match[2], 16)];
    const seen = bySource.get(source);
    if (seen !== undefined && seen !== destination) throw new Error(`kvariants.txt: U+${match[1]} has two destinations`);
    bySource.set(source, destination);
  }
  return [...bySource].sort((a, b) => a[0] - b[0]);
}

function buildProperties() {
  const foldIndex = new Map();
  const foldEntries = [];
  const pool = [];
  const poolIndex = new Map();
  const props = new Uint32Array(MAX_CODE_POINT + 1);
  for (let cp = 0; cp <= MAX_CODE_POINT; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue; // never produced by the UTF-8 decoder
    const ch = String.fromCodePoint(cp);
    let p = scriptOf(cp);
    if (defaultSet.has(ch)) p |= PROP_SEPARATOR;
    p |= separatorKind(lemmaOf(ch)) << PROP_LEMMA_SHIFT;
    if (isControl(ch)) p |= PROP_CONTROL;
    if (isMark(ch)) p |= PROP_MARK;
    const isHangulSyllable = cp >= HANGUL_FIRST && cp < HANGUL_FIRST + HANGUL_COUNT;
    const fold = foldOf(cp);
    if (!isHangulSyllable && !(fold.length === 1 && fold[0] === cp)) {
      const key = fold.join(',');
      let index = foldIndex.get(key);
      if (index === undefined) {
        let offset = poolIndex.get(key);
        if (offset === undefined) {
          offset = pool.length;
          poolIndex.set(key, offset);
          for (const out of fold) pool.push((out | (isMark(String.fromCodePoint(out)) ? 0x80000000 : 0)) >>> 0);
        }
        index = foldEntries.length;
        foldIndex.set(key, index);
        foldEntries.push(((offset << 8) | fold.length) >>> 0);
      }
      p |= PROP_FOLD | (index << PROP_FOLD_SHIFT);
    }
    props[cp] = p >>> 0;
  }
  if (foldEntries.length >= 1 << 16) throw new Error('fold index overflows 16 bits');
  if (pool.length >= 1 << 24) throw new Error('fold pool overflows 24 bits');
  return { props, foldEntries, pool };
}

function buildTrie(props) {
  const index = [];
  const blocks = [];
  const seen = new Map();
  for (let start = 0; start <= MAX_CODE_POINT; start += BLOCK) {
    const block = props.subarray(start, start + BLOCK);
    const key = block.join(',');
    let id = seen.get(key);
    if (id === undefined) {
      id = blocks.length / BLOCK;
      seen.set(key, id);
      blocks.push(...block);
    }
    index.push(id);
  }
  // The kernel's ASCII fast path reads PROPS[cp] directly for cp < 0x80.
  if (index[0] !== 0 || BLOCK < 0x80) throw new Error('ASCII must be the first trie block');
  return { index, blocks };
}

function kindOf(sep) {
  const kind = separatorKind(lemmaOf(sep));
  if (kind === 0) throw new Error(`${JSON.stringify(sep)} is expected to classify as a separator`);
  return kind;
}

function formatArray(values, perLine) {
  const lines = [];
  for (let i = 0; i < values.length; i += perLine) lines.push('  ' + values.slice(i, i + perLine).join(','));
  return lines.join(',\n');
}

function writeAssemblyTables({ props, foldEntries, pool }, { index, blocks }, kvariants) {
  const markScripts = MARK_REMOVING_SCRIPTS.reduce((mask, name) => mask | (1 << scriptId.get(name)), 0);
  const text = `// GENERATED by assembly/tables/generate.mjs from assembly/tables/charabia.mjs and Node's Unicode
// ${process.versions.unicode} data. Do not edit; regenerate. Read only by assembly/tokenize.ts.
//
// PROPS_INDEX[cp >> TRIE_SHIFT] is a block number; PROPS[block * TRIE_BLOCK + (cp & TRIE_MASK)] is
// the code point's property word:
//   bits 0-4   charabia script id (0 = Other; see SCRIPT_*)
//   bit 5      PROP_SEPARATOR: the code point alone is one of charabia's DEFAULT_SEPARATORS
//   bits 6-7   kind (1 soft, 2 hard) of a token whose lemma is this code point's NFKD, 0 = word
//   bit 8      PROP_CONTROL: removed before classification (Cc that is not White_Space)
//   bit 9      PROP_MARK: nonspacing mark, removed in Latin/Greek/Hebrew/Thai/Arabic tokens
//   bit 10     PROP_FOLD: normalises to something other than itself; bits 16-31 index FOLD_ENTRIES
// FOLD_ENTRIES[i] = (offset << 8) | length into FOLD_POOL; FOLD_POOL holds output code points,
// bit 31 set on nonspacing marks. Hangul syllables have no entry: the kernel decomposes them.
// KVARIANTS holds KVARIANT_COUNT (source, destination) code point pairs sorted by source:
// ChineseNormalizer's kVariants table (charabia dictionaries/txt/chinese/kVariants.tsv).

export const TRIE_SHIFT: u32 = ${TRIE_SHIFT};
export const TRIE_MASK: u32 = ${BLOCK - 1};
export const PROP_SCRIPT_MASK: u32 = ${PROP_SCRIPT_MASK};
export const PROP_SEPARATOR: u32 = ${PROP_SEPARATOR};
export const PROP_LEMMA_SHIFT: u32 = ${PROP_LEMMA_SHIFT};
export const PROP_LEMMA_MASK: u32 = 3;
export const PROP_CONTROL: u32 = ${PROP_CONTROL};
export const PROP_MARK: u32 = ${PROP_MARK};
export const PROP_FOLD: u32 = ${PROP_FOLD};
export const PROP_FOLD_SHIFT: u32 = ${PROP_FOLD_SHIFT};
export const POOL_MARK: u32 = 0x80000000;
export const POOL_CODE_POINT_MASK: u32 = 0x1fffff;

export const SCRIPT_OTHER: u32 = 0;
export const SCRIPT_LATIN: u32 = ${scriptId.get('Latin')};
export const SCRIPT_GREEK: u32 = ${scriptId.get('Greek')};
export const SCRIPT_CJ: u32 = ${scriptId.get('Cj')};
/** Bit i set when script i loses its nonspacing marks. */
export const MARK_REMOVING_SCRIPTS: u32 = ${markScripts};

/** Kinds of the multi-character separators, as Classifier gives them after NFKD. */
export const KIND_DOT_SPACE: u32 = ${kindOf('. ')};
export const KIND_COMMA_SPACE: u32 = ${kindOf(', ')};
export const KIND_KHMER_LEK: u32 = ${kindOf('។ល។')};

/** milli's MAX_DISTANCE: the position gap a hard separator puts between two words. */
export const HARD_SEPARATOR_DISTANCE: u32 = ${HARD_SEPARATOR_DISTANCE};

/** whatlang's Hiragana and Katakana, counted against its Mandarin (MANDARIN_RANGES) to tell Japanese Cj text. */
export const HIRAGANA_FIRST: u32 = 0x${HIRAGANA_RANGE[0].toString(16)};
export const HIRAGANA_LAST: u32 = 0x${HIRAGANA_RANGE[1].toString(16)};
export const KATAKANA_FIRST: u32 = 0x${KATAKANA_RANGE[0].toString(16)};
export const KATAKANA_LAST: u32 = 0x${KATAKANA_RANGE[1].toString(16)};
export const MANDARIN_RANGE_COUNT: u32 = ${WHATLANG_MANDARIN_RANGES.length};

export const KVARIANT_COUNT: u32 = ${kvariants.length};

// @ts-ignore: decorator
@lazy export const PROPS_INDEX = memory.data<u16>([
${formatArray(index, 32)}
]);

// @ts-ignore: decorator
@lazy export const PROPS = memory.data<u32>([
${formatArray(Array.from(blocks, (v) => '0x' + v.toString(16)), 16)}
]);

// @ts-ignore: decorator
@lazy export const FOLD_ENTRIES = memory.data<u32>([
${formatArray(Array.from(foldEntries, (v) => '0x' + v.toString(16)), 16)}
]);

// @ts-ignore: decorator
@lazy export const FOLD_POOL = memory.data<u32>([
${formatArray(Array.from(pool, (v) => '0x' + v.toString(16)), 16)}
]);

// @ts-ignore: decorator
@lazy export const MANDARIN_RANGES = memory.data<u32>([
${formatArray(WHATLANG_MANDARIN_RANGES.flat().map((v) => '0x' + v.toString(16)), 16)}
]);

// @ts-ignore: decorator
@lazy export const KVARIANTS = memory.data<u32>([
${formatArray(kvariants.flat().map((v) => '0x' + v.toString(16)), 16)}
]);
`;
  writeFileSync(fileURLToPath(new URL('assembly/unicode-tables.ts', ROOT)), text);
  return { props: props.length, blocks: blocks.length / BLOCK, folds: foldEntries.length, pool: pool.length };
}

function writeReferenceData() {
  const json = (value) => JSON.stringify(value);
  const text = `/**
 * GENERATED by assembly/tables/generate.mjs from assembly/tables/charabia.mjs. Do not edit.
 *
 * The charabia facts as plain data (separator lists, script ranges, the character converter),
 * for the TS code that works from them rather than from the kernel's binary tables: the word
 * segmentation pre-pass (segmentation.ts), the custom-token compiler (custom-tokens.ts), the
 * Cj language choice (languages.ts) and the tests' reference tokenizer (reference/tokenizer.ts).
 * Unlike the kernel the reference gets NFKD, lowercasing and character classes from the running
 * Node at call time, so it also checks the generated kernel tables.
 */

/** Every string charabia cuts on (charabia/src/separators.rs DEFAULT_SEPARATORS). */
export const DEFAULT_SEPARATORS: readonly string[] = ${json(DEFAULT_SEPARATORS)};

/** The separators that end a phrase (charabia/src/separators.rs CONTEXT_SEPARATORS). */
export const CONTEXT_SEPARATORS: readonly string[] = ${json(CONTEXT_SEPARATORS)};

/** Script names by id; 0 is charabia's Script::Other. */
export const SCRIPTS: readonly string[] = ${json(SCRIPTS)};

/** [first, last, script id], tried in order (charabia Script::from(char)). */
export const SCRIPT_RANGES: readonly (readonly [number, number, number])[] = ${json(
    SCRIPT_RANGES.map(([first, last, name]) => [first, last, scriptId.get(name)]),
  )};

/** Script ids whose tokens lose their nonspacing marks (NonspacingMarkNormalizer). */
export const MARK_REMOVING_SCRIPTS: readonly number[] = ${json(MARK_REMOVING_SCRIPTS.map((name) => scriptId.get(name)))};

/** CharacterConverterNormalizer, applied to each lowercased character. */
export const CHARACTER_CONVERSIONS: Readonly<Record<string, string>> = ${json(CHARACTER_CONVERSIONS)};

/** milli's MAX_DISTANCE between two words separated by a hard separator. */
export const HARD_SEPARATOR_DISTANCE = ${HARD_SEPARATOR_DISTANCE};

/** whatlang's script ranges that decide between Mandarin and Japanese Cj text (charabia.mjs). */
export const WHATLANG_MANDARIN_RANGES: readonly (readonly [number, number])[] = ${json(WHATLANG_MANDARIN_RANGES)};
export const HIRAGANA_RANGE: readonly [number, number] = ${json(HIRAGANA_RANGE)};
export const KATAKANA_RANGE: readonly [number, number] = ${json(KATAKANA_RANGE)};
`;
  writeFileSync(fileURLToPath(new URL('src/kernels/charabia-data.ts', ROOT)), text);
}

/** Canonical singletons (CJK compatibility ideographs) are escaped so no editor normalises them. */
const literal = (cp) => {
  const ch = String.fromCodePoint(cp);
  return ch.normalize('NFC') === ch ? ch : `\\u{${cp.toString(16)}}`;
};

function writeReferenceVariants(kvariants) {
  const text = `/**
 * GENERATED by assembly/tables/generate.mjs from assembly/tables/kvariants.txt. Do not edit.
 *
 * ChineseNormalizer's kVariants table (charabia dictionaries/txt/chinese/kVariants.tsv): each
 * source ideograph followed by its destination, ${kvariants.length} pairs sorted by source.
 */
export const KVARIANT_PAIRS =
  '${kvariants.map(([source, destination]) => literal(source) + literal(destination)).join('')}';
`;
  writeFileSync(fileURLToPath(new URL('src/kernels/kvariants-data.ts', ROOT)), text);
}

checkFacts();
const properties = buildProperties();
const kvariants = readKVariants();
const sizes = writeAssemblyTables(properties, buildTrie(properties.props), kvariants);
writeReferenceData();
writeReferenceVariants(kvariants);
console.log(
  `unicode ${process.versions.unicode}: ${sizes.blocks} trie blocks of ${BLOCK}, ${sizes.folds} folds, ${sizes.pool} pooled code points, ${kvariants.length} kVariants`,
);
