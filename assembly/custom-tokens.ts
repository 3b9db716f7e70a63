// The index's custom tokens (separatorTokens, nonSeparatorTokens, dictionary) as the tokenizer
// kernel sees them: a read-only "rules" region the host builds once per settings
// (src/kernels/custom-tokens.ts) and copies into the arena with each batch. Nothing per token
// crosses the boundary; this file validates the region and answers the two questions
// assembly/tokenize.ts asks: "does a multi-character token start here?" and "how does this code
// point behave alone?".
//
// Layout (u32 little-endian unless noted; mirrored by src/kernels/custom-tokens.ts):
//   header     RULES_HEADER_U32:  pattern count, override count, pool byte count, 0
//   index      RULES_INDEX_U32:   per first byte 0..255, (first pattern, pattern count)
//   patterns   PATTERN_RECORD_U32 each: pool offset, byte length, kind, script
//              sorted by their bytes (a pattern before those it is a prefix of), so the
//              patterns sharing the text's first d bytes are one range, narrowed byte by byte
//              with binary searches: a match costs O(length × log patterns), whatever their count
//   overrides  OVERRIDE_RECORD_U32 each: code point, flags; sorted by code point
//   pool       the patterns' UTF-8 bytes
// Patterns are the tokens of two or more code points that charabia's Aho-Corasick automaton
// matches (dictionary words and allowed separators); single code points are matched through the
// property word, which the overrides patch: OVERRIDE_SEPARATOR says the code point alone is cut
// out as a token, bits OVERRIDE_KIND_SHIFT.. give the kind of a token whose lemma is its NFKD.
// A pattern's kind is the Classifier's verdict on its lemma; its script is the one non-Other
// script of its characters (SCRIPT_OTHER if none), since a match never spans script groups.
import {
  PROP_LEMMA_MASK,
  PROP_LEMMA_SHIFT,
  PROP_SEPARATOR,
  SCRIPT_OTHER,
} from './unicode-tables';

export const RULES_HEADER_U32: u32 = 4;
export const RULES_INDEX_U32: u32 = 512;
export const PATTERN_RECORD_U32: u32 = 4;
export const OVERRIDE_RECORD_U32: u32 = 2;
export const OVERRIDE_SEPARATOR: u32 = 1;
export const OVERRIDE_KIND_SHIFT: u32 = 1;

const KIND_MAX: u32 = 2;
const SCRIPT_MAX: u32 = 31;

let indexPtr: usize = 0;
let patternsPtr: usize = 0;
let poolPtr: usize = 0;
let overridesPtr: usize = 0;
let overrideCount: u32 = 0;
let overrideMin: u32 = 0;
let overrideMax: u32 = 0;

/** Byte length, kind and script of the pattern the last successful `matchAt` found. */
export let matchLength: u32 = 0;
export let matchKind: u32 = 0;
export let matchScript: u32 = 0;

/**
 * Checks the region at ptr (len bytes) and makes it current. Returns false, leaving nothing
 * current, when a count or record points outside the region or holds an impossible value.
 */
export function loadRules(ptr: usize, len: u32): bool {
  if (<u64>len < <u64>(RULES_HEADER_U32 + RULES_INDEX_U32) << 2) return false;
  const patternCount = load<u32>(ptr);
  const overrides = load<u32>(ptr, 4);
  const poolBytes = load<u32>(ptr, 8);
  const fixed = (<u64>RULES_HEADER_U32 + <u64>RULES_INDEX_U32 + <u64>patternCount * PATTERN_RECORD_U32 + <u64>overrides * OVERRIDE_RECORD_U32) << 2;
  if (fixed + <u64>poolBytes > <u64>len) return false;
  const index = ptr + (<usize>RULES_HEADER_U32 << 2);
  const patterns = index + (<usize>RULES_INDEX_U32 << 2);
  const overridesAt = patterns + <usize>patternCount * (<usize>PATTERN_RECORD_U32 << 2);
  const pool = overridesAt + <usize>overrides * (<usize>OVERRIDE_RECORD_U32 << 2);
  for (let b: u32 = 0; b < 256; b++) {
    const first = <u64>load<u32>(index + (<usize>b << 3));
    const count = <u64>load<u32>(index + (<usize>b << 3), 4);
    if (first + count > <u64>patternCount) return false;
  }
  for (let i: u32 = 0; i < patternCount; i++) {
    const at = patterns + <usize>i * (<usize>PATTERN_RECORD_U32 << 2);
    const length = load<u32>(at, 4);
    if (length == 0 || <u64>load<u32>(at) + <u64>length > <u64>poolBytes) return false;
    if (load<u32>(at, 8) > KIND_MAX || load<u32>(at, 12) > SCRIPT_MAX) return false;
  }
  for (let i: u32 = 0; i < overrides; i++) {
    if (load<u32>(overridesAt + (<usize>i << 3), 4) >> OVERRIDE_KIND_SHIFT > KIND_MAX) return false;
  }
  indexPtr = index;
  patternsPtr = patterns;
  poolPtr = pool;
  overridesPtr = overridesAt;
  overrideCount = overrides;
  overrideMin = overrides > 0 ? load<u32>(overridesAt) : 1;
  overrideMax = overrides > 0 ? load<u32>(overridesAt + (<usize>(overrides - 1) << 3)) : 0;
  return true;
}

/** Whether some pattern starts with byte b. */
// @ts-ignore: decorator
@inline export function startsPattern(b: u32): bool {
  return load<u32>(indexPtr + (<usize>b << 3), 4) != 0;
}

/** pr with an override's flags in place of its separator bit and lemma kind. */
// @ts-ignore: decorator
@inline function patch(pr: u32, flags: u32): u32 {
  const cleared = pr & ~(PROP_SEPARATOR | (PROP_LEMMA_MASK << PROP_LEMMA_SHIFT));
  const separator = (flags & OVERRIDE_SEPARATOR) != 0 ? PROP_SEPARATOR : 0;
  return cleared | separator | ((flags >> OVERRIDE_KIND_SHIFT) << PROP_LEMMA_SHIFT);
}

/** The property word of cp with its override, if it has one, applied. */
export function overrideProps(cp: u32, pr: u32): u32 {
  if (cp < overrideMin || cp > overrideMax) return pr;
  let lo: u32 = 0;
  let hi = overrideCount;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const at = overridesPtr + (<usize>mid << 3);
    const key = load<u32>(at);
    if (key == cp) return patch(pr, load<u32>(at, 4));
    if (key < cp) lo = mid + 1;
    else hi = mid;
  }
  return pr;
}

/** Applies the overrides of ASCII code points to `table`, a copy of the ASCII property words. */
export function overrideAscii(table: usize): void {
  for (let i: u32 = 0; i < overrideCount; i++) {
    const at = overridesPtr + (<usize>i << 3);
    const cp = load<u32>(at);
    if (cp >= 0x80) break;
    store<u32>(table + (<usize>cp << 2), patch(load<u32>(table + (<usize>cp << 2)), load<u32>(at, 4)));
  }
}

/** Byte d of pattern record `at`, or -1 past its end (a pattern sorts before those it starts). */
// @ts-ignore: decorator
@inline function patternByte(at: usize, d: usize): i32 {
  return d < <usize>load<u32>(at, 4) ? <i32>load<u8>(poolPtr + <usize>load<u32>(at) + d) : -1;
}

// @ts-ignore: decorator
@inline function recordAt(i: u32): usize {
  return patternsPtr + <usize>i * (<usize>PATTERN_RECORD_U32 << 2);
}

/** The first pattern of [lo, hi) whose byte d is at least c (patterns in byte order, sharing their first d bytes). */
function lowerBound(lo: u32, hi: u32, d: usize, c: i32): u32 {
  while (lo < hi) {
    const mid = lo + ((hi - lo) >> 1);
    if (patternByte(recordAt(mid), d) < c) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The longest pattern found at p (< end) that fits in the current script group, whose script is
 * `groupScript` (SCRIPT_OTHER while the string's first group has met no scripted character);
 * sets matchLength/matchKind/matchScript. Returns false when none does. [lo, hi) holds the
 * patterns that start with the text's first d bytes; the one of exactly d bytes, if any, leads
 * it and is a match.
 */
export function matchAt(p: usize, end: usize, groupScript: u32): bool {
  const b = <usize>load<u8>(p);
  let lo = load<u32>(indexPtr + (b << 3));
  let hi = lo + load<u32>(indexPtr + (b << 3), 4);
  const room = end - p;
  let found = false;
  for (let d: usize = 1; lo < hi; d++) {
    const at = recordAt(lo);
    if (<usize>load<u32>(at, 4) == d) {
      const script = load<u32>(at, 12);
      if (script == SCRIPT_OTHER || groupScript == SCRIPT_OTHER || script == groupScript) {
        found = true;
        matchLength = <u32>d;
        matchKind = load<u32>(at, 8);
        matchScript = script;
      }
      lo++;
    }
    if (d >= room) break;
    const c = <i32>load<u8>(p + d);
    lo = lowerBound(lo, hi, d, c);
    hi = lowerBound(lo, hi, d, c + 1);
  }
  return found;
}
