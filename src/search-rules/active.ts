/**
 * Which rules apply to a search, and the pins they ask for, in v1.50's order (milli
 * `dynamic_search_rules.rs`, `resolve_pins` and `active_rules_for_query`):
 * 1. active rules only (`active: true`; a rule set to `active: null` never applies);
 * 2. `conditions.time`: out when `start` is after the search's start, or `end` before it;
 * 3. `conditions.query.isEmpty`: out when it disagrees with the query having no word;
 * 4. `conditions.query.words`: the text's words (default tokenizer and normaliser) must all be
 *    among the query's words, each matched by a different query word (a phrase is one query word,
 *    its words joined by spaces). Of the query's distinct words only the first
 *    `maxCountedWords` (10) in byte order count; a rule with more words than that is out, so is
 *    one naming a word twice; a rule of more than 30 words is never checked (v1.50 counts words
 *    per field up to 30 only), and one whose text holds no word passes. The check tries the
 *    combinations of query words, one unit of `wordFuel` each, plus one per word count; when the
 *    fuel runs out, every rule of the word count being checked is out;
 * 5. by ascending `precedence`, then the rules without one, internal id breaking ties; at most
 *    `maxActiveRules` rules; their actions in order, those whose `selector.indexUid` names another
 *    index left out.
 * The search keeps the pinned documents that exist and pass its filters, each document once (its
 * first pin wins), at most `maxPinActions` (search/pins.ts).
 */
import { materializeTokens, tokenizeBatch } from '../kernels/tokenizer.js';
import { instantOfRfc3339 } from '../types/dates.js';
import type { RuleLimits } from './limits.js';
import type { SearchRule } from './rule.js';

/** milli counts the words of a field up to this many */
const MAX_COUNTED_WORDS = 30;

/** A document a rule pins: its external id and its position in the results (0 = first). */
export interface RulePin {
  readonly id: string;
  readonly position: number;
}

const ruleWords = new WeakMap<SearchRule, string[]>();

/** The words of a rule's `conditions.query.words`, as the internal rules index would hold them. */
function wordsOf(rule: SearchRule): string[] {
  let words = ruleWords.get(rule);
  if (words === undefined) {
    const text = rule.conditions.query?.words ?? '';
    words = materializeTokens(tokenizeBatch([text]), [text])
      .filter((token) => token.kind === 'word')
      .map((token) => token.normalized);
    ruleWords.set(rule, words);
  }
  return words;
}

function passesTimeAndEmptiness(rule: SearchRule, now: bigint, queryIsEmpty: boolean): boolean {
  // v1.50 reads the rules whose `active` facet is `true`: not `false`, not `null`
  if (rule.active !== true) return false;
  const { time, query } = rule.conditions;
  if (time?.start !== undefined && instantOfRfc3339(time.start) > now) return false;
  if (time?.end !== undefined && instantOfRfc3339(time.end) < now) return false;
  if (query?.isEmpty !== undefined && query.isEmpty !== queryIsEmpty) return false;
  return true;
}

/** C(n, k), or `cap` when it is more (only whether the fuel lasts matters past it). */
function combinationCount(n: number, k: number, cap: number): number {
  if (k > n) return 0;
  // by the smaller side: the partial products C(n, i) then only grow, so one past `cap` stays past it
  const side = Math.min(k, n - k);
  let count = 1;
  for (let i = 0; i < side; i++) {
    count = (count * (n - i)) / (i + 1);
    if (count >= cap) return cap;
  }
  return count;
}

/**
 * Takes out of `active` the rules whose `words` condition the query's words do not meet (step 4).
 * milli tries each combination of `count` query words against the rules of `count` words, one
 * unit of fuel each (a rule meets when every word of the combination holds it), and when the
 * fuel runs out every rule of that count is out. A combination holds a rule exactly when its
 * words are the rule's, so a rule meets when its words are distinct and all among the counted
 * query words, and the fuel is spent by the number of combinations alone: one pass over the rules
 * (trying each combination against every rule held the thread 0.5–0.8 s for 20,000 rules; audit).
 */
function applyWordConditions(rules: readonly SearchRule[], active: Set<SearchRule>, queryWords: readonly string[], limits: RuleLimits): void {
  const worded = rules.filter((rule) => rule.conditions.query?.words !== undefined);
  if (worded.length === 0) return;
  const distinct = [...new Set(queryWords)].sort(byBytes);
  const counted = Math.min(distinct.length, MAX_COUNTED_WORDS, limits.maxCountedWords);
  const countOf = (rule: SearchRule) => wordsOf(rule).length;
  for (const rule of worded) if (countOf(rule) > counted && countOf(rule) <= MAX_COUNTED_WORDS) active.delete(rule);
  const countedWords = new Set(distinct.slice(0, counted));
  // the query words some active rule holds: milli's combinations are of those
  const held = new Set<string>();
  for (const rule of active) for (const word of wordsOf(rule)) if (countedWords.has(word)) held.add(word);
  const meets = (rule: SearchRule) => {
    const words = wordsOf(rule);
    return active.has(rule) && new Set(words).size === words.length && words.every((word) => countedWords.has(word));
  };
  const byCount = new Map<number, SearchRule[]>();
  for (const rule of worded) {
    const count = countOf(rule);
    if (count > counted) continue;
    const bucket = byCount.get(count);
    if (bucket === undefined) byCount.set(count, [rule]);
    else bucket.push(rule);
  }
  let fuel = limits.wordFuel;
  for (let count = 0; count <= counted; count++) {
    const bucket = byCount.get(count);
    if (bucket === undefined) continue;
    if (count >= 2) fuel = Math.max(0, fuel - combinationCount(held.size, count, fuel));
    // one more unit per word count, saturating: milli's `consume_word_combination`
    fuel = Math.max(0, fuel - 1);
    for (const rule of bucket) if (fuel === 0 || !meets(rule)) active.delete(rule);
  }
}

/**
 * The pins of the rules that apply to a search of index `indexUid` started at `now` (ns), whose
 * query has the normalised words `queryWords` (empty for a placeholder search), in rule order.
 */
export function rulePins(rules: readonly SearchRule[], indexUid: string, now: bigint, queryWords: readonly string[], limits: RuleLimits): RulePin[] {
  const active = new Set(rules.filter((rule) => passesTimeAndEmptiness(rule, now, queryWords.length === 0)));
  applyWordConditions(rules, active, queryWords, limits);
  const applying = rules.filter((rule) => active.has(rule));
  const ranked = [
    ...applying.filter((rule) => rule.precedence !== undefined).sort((a, b) => a.precedence! - b.precedence!),
    ...applying.filter((rule) => rule.precedence === undefined),
  ].slice(0, limits.maxActiveRules);
  return ranked.flatMap((rule) =>
    rule.actions
      .filter((action) => action.selector.indexUid === undefined || action.selector.indexUid === indexUid)
      .map((action) => ({ id: action.selector.id, position: action.action.position })),
  );
}

/** Rust's `str` order: by UTF-8 bytes. */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
