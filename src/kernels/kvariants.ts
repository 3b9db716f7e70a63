/**
 * charabia's ChineseNormalizer table as a lookup: an ideograph's kVariants destination (Z,
 * simplified, semantic, old and wrong variants to one form). Shared by the tests' reference
 * tokenizer and facet search (facet-normalize.ts); built at the first lookup, since most
 * processes never normalise Chinese text in TypeScript.
 */
import { KVARIANT_PAIRS } from './kvariants-data.js';

let variants: ReadonlyMap<string, string> | undefined;

function table(): ReadonlyMap<string, string> {
  if (variants !== undefined) return variants;
  const chars = [...KVARIANT_PAIRS];
  const map = new Map<string, string>();
  for (let i = 0; i < chars.length; i += 2) map.set(chars[i]!, chars[i + 1]!);
  return (variants = map);
}

/** `ch` (one code point) as ChineseNormalizer writes it. */
export function kvariantOf(ch: string): string {
  return table().get(ch) ?? ch;
}
