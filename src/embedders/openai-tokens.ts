/**
 * The first cl100k tokens of a text, as v1.50's OpenAI embedder counts them (tiktoken's
 * `encode_ordinary`: special-token text is ordinary text) when a request answered 400: a text of
 * OPENAI_MAX_TOKENS tokens or more is sent as its first OPENAI_MAX_TOKENS tokens (sources.ts).
 *
 * The work is bounded, as it runs on the thread that answers requests: a text of fewer bytes than
 * the limit is not encoded (a token is one byte at least); a longer one is encoded piece by piece
 * (cl100k's own split) only until the limit is reached; and a piece is encoded by slices of at
 * most MAX_PIECE_CHARS characters, since byte-pair merging is quadratic in a piece's length (one
 * run of 10,000 letters took 3.5 s whole). Pieces of natural text are far shorter, so the tokens
 * are tiktoken's; only a longer run of letters, digits, spaces or punctuation is cut.
 * The encoder (js-tiktoken's ranks, a few MB) loads on first use only.
 */
import type { Tiktoken } from 'js-tiktoken/lite';
import { unitEnd } from '../types/utf16.js';

/** The input limit of every OpenAI embedding model v1.50 knows. */
export const OPENAI_MAX_TOKENS = 8191;

/** The longest slice of a piece encoded at once: 64 characters cost ~0.2 ms. */
const MAX_PIECE_CHARS = 64;

let encoder: Promise<{ tiktoken: Tiktoken; pieces: RegExp }> | null = null;

async function load(): Promise<{ tiktoken: Tiktoken; pieces: RegExp }> {
  const [{ Tiktoken }, { default: ranks }] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]);
  return { tiktoken: new Tiktoken(ranks), pieces: new RegExp(ranks.pat_str, 'gu') };
}


/** The first `limit` tokens of `text`, or null when it has fewer. */
export async function firstTokens(text: string, limit: number): Promise<number[] | null> {
  if (Buffer.byteLength(text) < limit) return null;
  const { tiktoken, pieces } = await (encoder ??= load());
  const tokens: number[] = [];
  for (const [piece] of text.matchAll(pieces)) {
    for (let start = 0; start < piece.length; ) {
      // never between the halves of a surrogate pair
      const end = unitEnd(piece, start, MAX_PIECE_CHARS);
      // no special token is allowed, and none is refused: they are encoded as the text they are
      for (const token of tiktoken.encode(piece.slice(start, end), [], [])) tokens.push(token);
      if (tokens.length >= limit) return tokens.slice(0, limit);
      start = end;
    }
  }
  return null;
}
