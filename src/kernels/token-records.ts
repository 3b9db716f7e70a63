/**
 * The tokenizer kernel's input and output formats (tokenizer.ts wraps the kernel): UTF-8 batches
 * and packed token records. Their own module, so that segmentation.ts and custom-tokens.ts, which
 * the tokenizer calls, can read them without importing it.
 *
 * Record layout: TOKEN_RECORD_U32 u32 per token, in TokenField order: string index; byte offset
 * and byte length of the token in its string's UTF-8; word position within the string; kind
 * (TokenKind); byte offset and length of the normalised word in `normalized` (0 for separators).
 * Records come in text order, strings in batch order.
 */

/** u32 fields per token record. */
export const TOKEN_RECORD_U32 = 7;

/** Index of each field inside a record. */
export const TokenField = {
  String: 0,
  Start: 1,
  Length: 2,
  Position: 3,
  Kind: 4,
  NormStart: 5,
  NormLength: 6,
} as const;

/** Values of the Kind field. */
export const TokenKind = {
  Word: 0,
  SoftSeparator: 1,
  HardSeparator: 2,
} as const;

export type TokenKindValue = (typeof TokenKind)[keyof typeof TokenKind];

/** UTF-8 input: all strings' bytes, and per string an (offset, byte length) pair in `spans`. */
export interface Utf8Batch {
  readonly bytes: Uint8Array;
  readonly spans: Uint32Array;
}

/** The packed result of one batch. */
export interface TokenBatch {
  readonly count: number;
  /** count × TOKEN_RECORD_U32 fields. */
  readonly records: Uint32Array;
  /** UTF-8 of every normalised word, addressed by the NormStart/NormLength fields. */
  readonly normalized: Uint8Array;
}
