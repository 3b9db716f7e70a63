/**
 * The limits of applying dynamic search rules to one search (milli's `DsrFuel`), read as v1.50
 * reads them from the environment at start-up (`MEILI_EXPERIMENTAL_DSR_FUEL_*`, also
 * `QUARRY_EXPERIMENTAL_DSR_FUEL_*`): how many query words count (u8, 10), how many applying rules
 * are read (u32, 1,000), how many pins a search keeps (u32, 100), and how many word combinations
 * the `words` conditions may try (u32, 4,096). A value Rust's integer parser refuses stops the
 * start with its message, as v1.50's does.
 */
import { parseRustUnsigned } from '../types/rust-int.js';

export interface RuleLimits {
  readonly maxCountedWords: number;
  readonly maxActiveRules: number;
  readonly maxPinActions: number;
  readonly wordFuel: number;
}

export const DEFAULT_RULE_LIMITS: RuleLimits = { maxCountedWords: 10, maxActiveRules: 1000, maxPinActions: 100, wordFuel: 4096 };

/** The limits the environment sets; throws Rust's parse error for a value that is no integer of its type. */
export function ruleLimitsFromEnv(env: NodeJS.ProcessEnv): RuleLimits {
  const read = (name: string, max: number, fallback: number): number => {
    const text = env[`QUARRY_EXPERIMENTAL_DSR_FUEL_${name}`] ?? env[`MEILI_EXPERIMENTAL_DSR_FUEL_${name}`];
    return text === undefined ? fallback : parseRustUnsigned(text, BigInt(max));
  };
  return {
    maxCountedWords: read('MAX_COUNTED_WORDS', 0xff, DEFAULT_RULE_LIMITS.maxCountedWords),
    maxActiveRules: read('MAX_ACTIVE_RULES', 0xffffffff, DEFAULT_RULE_LIMITS.maxActiveRules),
    maxPinActions: read('MAX_PIN_ACTIONS', 0xffffffff, DEFAULT_RULE_LIMITS.maxPinActions),
    wordFuel: read('WORD_FUEL', 0xffffffff, DEFAULT_RULE_LIMITS.wordFuel),
  };
}
