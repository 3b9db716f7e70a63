// The export list of the kernels module: every entry point the host may call, nothing else.
// Besides the entry points it exports the layout constants the host mirrors (record fields,
// arena slots, status codes) so test/kernels can check both sides agree.

/** Bumped whenever an export's signature or a record layout changes; checked by the host. */
export const ABI_VERSION: u32 = 12;

export { arenaBase, ARENA_ALIGN, RESULT_BLOCK_BYTES, RESULT_OUTPUT_BYTES, RESULT_RECORDS } from './arena';
export { ERR_BAD_RULES, ERR_BAD_SPAN, ERR_OUT_OF_CAPACITY } from './errors';
export { ERR_BAD_BREAKS } from './errors';
export {
  OVERRIDE_KIND_SHIFT,
  OVERRIDE_RECORD_U32,
  OVERRIDE_SEPARATOR,
  PATTERN_RECORD_U32,
  RULES_HEADER_U32,
  RULES_INDEX_U32,
} from './custom-tokens';
export {
  tokenize,
  FLAG_SEPARATORS,
  LANG_JAPANESE_ONLY,
  LANG_SWEDISH,
  LANG_MANDARIN_ONLY,
  KIND_HARD,
  KIND_SOFT,
  KIND_WORD,
  TOKEN_KIND,
  TOKEN_LENGTH,
  TOKEN_NORM_LENGTH,
  TOKEN_NORM_START,
  TOKEN_POSITION,
  TOKEN_RECORD_U32,
  TOKEN_START,
  TOKEN_STRING,
} from './tokenize';
export {
  typoMatch,
  FLAG_FIRST_CHAR,
  FLAG_PREFIX,
  FLAG_SKIP_EXACT,
  MATCH_RECORD_U32,
  MAX_TYPOS,
  QUERY_CHARS,
  QUERY_FLAGS,
  QUERY_FROM,
  QUERY_LENGTH,
  QUERY_MAX_TYPOS,
  QUERY_RECORD_U32,
  QUERY_TO,
} from './typo';
export { proximityCosts, FLAG_BY_ATTRIBUTE, PAIR_FORWARD_ONLY, PAIR_JOIN, PAIR_RECORD_U32 } from './proximity';
export { gatherPlaces, GATHER_ENTRY_U32, GATHER_HASH, GATHER_LISTS_PER_TERM } from './gather';
export { layRecord } from './record-layout';
export {
  groupPrefixes,
  PREFIX_SLOTS,
  P_CAPACITY,
  P_DOCS,
  P_DOC_STARTS,
  P_HEADER_U32,
  P_INFOS,
  P_MASKS,
  P_OUT_DOCIDS,
  P_OUT_INFOS,
  P_OUT_MASKS,
  P_PREFIXES,
  P_PREFIX_COUNTS,
  P_SCRATCH,
  P_STARTS,
  P_VOCABULARY,
  P_WORDS,
  P_WORD_PREFIXES,
} from './prefixes';
export {
  setDifference,
  setIntersect,
  setIntersectCount,
  setUnion,
  GALLOP_RATIO,
  SETOPS_OUT_SLACK,
  UNION_RECORD_U32,
} from './setops';
export {
  vectorAnyCloser,
  vectorDistances,
  vectorDistancesGather,
  vectorHamming,
  vectorHammingAnyCloser,
  vectorHammingGather,
  vectorNorm,
  DOT_SIMD_MIN,
  METRIC_COSINE,
  METRIC_DOT,
  METRIC_L2,
} from './vector';
export {
  extractWords,
  nonAsciiWords,
  HEADER_U32,
  H_COUNT,
  H_DOCS,
  H_DOC_INFOS,
  H_DOC_MASKS,
  H_DOC_PAIR_STARTS,
  H_DOC_TOKEN_STARTS,
  H_DOC_WORDS,
  H_DOC_WORD_STARTS,
  H_FIELDS,
  H_INPUT,
  H_INPUT_BYTES,
  H_NORM,
  H_NORM_BYTES,
  H_PAIRS,
  H_RECORDS,
  H_SCRATCH,
  H_STOP_BYTES,
  H_STOP_ENTRIES,
  H_STOP_MASK,
  H_STOP_SLOTS,
  H_STRINGS,
  H_STRING_DOCS,
  H_STRING_FIELDS,
  H_TABLE,
  H_TABLE_SLOTS,
  H_TOKEN_PLACES,
  H_TOKEN_SLOTS,
  H_WORD_BYTES,
  H_WORD_STARTS,
  INFO_WHOLE_FIELD,
  KIND_STOP,
  MAX_POSITION,
  MAX_WORD_BYTES,
  VALUE_GAP,
} from './extract';
export { compactObjectRun, jsonObjectLength, spacedJsonObject, JSON_LINE_MAX_DEPTH, JSON_OBJECT_INVALID, JSON_OBJECT_TRUNCATED } from './json-line';
