/**
 * Which rules apply to a search, and the pins they ask for, in v1.50's order (milli
 * `dynamic_search_rules.rs`, `resolve_pins`):
 * 1. active rules only;
 * 2. `conditions.time`: out when `start` is after the search's start, or `end` before it;
 * 3. `conditions.query.isEmpty`: out when it disagrees with the query having no word;
 * 4. `conditions.query.words`: the text's words (default tokenizer and normaliser) must all be
 *    among the query's words, each matched by a different query word (a phrase is one query word,
 *    its words joined by spaces): of the query's distinct words only the first ten in byte order
 *    count, a rule with more words than that is out, so is one naming a word twice; a rule of
 *    more than 30 words is never checked
 *    (v1.50 counts words per field up to 30 only), and one whose text holds no word always passes;
 * 5. by ascending `precedence`, then the rules without one, internal id breaking ties; at most
 *    1,000 rules; their actions in order, those whose `selector.indexUid` names another index left out.
 * The search keeps the pinned documents that exist and pass its filters, each document once (its
 * first pin wins), at most 100 (search/pins.ts).
 */
import { materializeTokens, tokenizeBatch } from '../kernels/tokenizer.js';
import { instantOfRfc3339 } from '../types/dates.js';
import type { SearchRule } from './rule.js';

const MAX_COUNTED_WORDS = 30;
const MAX_QUERY_WORDS = 10;
const MAX_ACTIVE_RULES = 1000;

/** A document a rule pins: its external id and its position in the results (0 = first). */
export interface RulePin {
  readonly id: string;
  readonly position: number;
}

const ruleWords = new WeakMap<SearchRule, string[]>();

/** The words of a rule's `conditions.query.words`, as the internal rules index would hold them. */
function wordsOf(rule: SearchRule, text: string): string[] {
  let words = ruleWords.get(rule);
  if (words === undefined) {
    words = materializeTokens(tokenizeBatch([text]), [text])
      .filter((token) => token.kind === 'word')
      .map((token) => token.normalized);
    ruleWords.set(rule, words);
  }
  return words;
}

function wordsMatch(rule: SearchRule, text: string, queryWords: ReadonlySet<string>): boolean {
  const words = wordsOf(rule, text);
  if (words.length > MAX_COUNTED_WORDS || words.length === 0) return true;
  if (words.length > queryWords.size) return false;
  return new Set(words).size === words.length && words.every((word) => queryWords.has(word));
}

function applies(rule: SearchRule, now: bigint, queryWords: ReadonlySet<string>, queryIsEmpty: boolean): boolean {
  if (!rule.active) return false;
  const { time, query } = rule.conditions;
  if (time?.start !== undefined && instantOfRfc3339(time.start) > now) return false;
  if (time?.end !== undefined && instantOfRfc3339(time.end) < now) return false;
  if (query?.isEmpty !== undefined && query.isEmpty !== queryIsEmpty) return false;
  if (query?.words !== undefined && !wordsMatch(rule, query.words, queryWords)) return false;
  return true;
}

/**
 * The pins of the rules that apply to a search of index `indexUid` started at `now` (ns), whose
 * query has the normalised words `queryWords` (empty for a placeholder search), in rule order.
 */
export function rulePins(rules: readonly SearchRule[], indexUid: string, now: bigint, queryWords: readonly string[]): RulePin[] {
  const counted = new Set([...new Set(queryWords)].sort(byBytes).slice(0, MAX_QUERY_WORDS));
  const active = rules.filter((rule) => applies(rule, now, counted, queryWords.length === 0));
  const ranked = [
    ...active.filter((rule) => rule.precedence !== undefined).sort((a, b) => a.precedence! - b.precedence!),
    ...active.filter((rule) => rule.precedence === undefined),
  ].slice(0, MAX_ACTIVE_RULES);
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
