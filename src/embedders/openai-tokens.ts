/**
 * The cl100k tokens of a text, as v1.50's OpenAI embedder counts them (tiktoken's
 * `encode_ordinary`: special-token text is ordinary text) when a request answered 400: a text of
 * OPENAI_MAX_TOKENS tokens or more is sent as its first OPENAI_MAX_TOKENS tokens (sources.ts).
 * The encoder (js-tiktoken's ranks, a few MB) loads on first use only.
 */
import type { Tiktoken } from 'js-tiktoken/lite';

/** The input limit of every OpenAI embedding model v1.50 knows. */
export const OPENAI_MAX_TOKENS = 8191;

let encoder: Promise<Tiktoken> | null = null;

async function load(): Promise<Tiktoken> {
  const [{ Tiktoken }, { default: ranks }] = await Promise.all([import('js-tiktoken/lite'), import('js-tiktoken/ranks/cl100k_base')]);
  return new Tiktoken(ranks);
}

export async function cl100kTokens(text: string): Promise<number[]> {
  encoder ??= load();
  // no special token is allowed, and none is refused: they are encoded as the text they are
  return (await encoder).encode(text, [], []);
}
