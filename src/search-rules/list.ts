/**
 * `POST /dynamic-search-rules`: the rules, filtered by `active` and by a `query` searched in their
 * `description` and `conditions.query.words`, as v1.50 searches its internal rules index: words
 * as the default tokenizer cuts them, no typo, no prefix, the last query words dropped first until
 * rules match (`matchingStrategy: last`). Results come by how many leading query words they hold
 * (v1.50 ranks equal counts further by proximity and attribute, which Quarry does not), then most
 * recently updated first (v1.50 sorts by `lastUpdatedAt` descending, as text: rules without a date
 * last), then by internal id; without a query word, by date and internal id. `total` counts them all.
 */
import { materializeTokens, tokenizeBatch } from '../kernels/tokenizer.js';
import type { JsonObject } from '../types/task.js';
import { ruleView, type SearchRule } from './rule.js';
import type { SearchRuleStore } from './store.js';

/** milli reads the first 10 terms of a query */
const MAX_QUERY_TERMS = 10;

export interface RuleListQuery {
  offset: number;
  limit: number;
  query?: string | null;
  active?: boolean | null;
}

export interface RuleListPage {
  results: JsonObject[];
  offset: number;
  limit: number;
  total: number;
}

function words(text: string): string[] {
  return materializeTokens(tokenizeBatch([text]), [text])
    .filter((token) => token.kind === 'word')
    .map((token) => token.normalized);
}

/** How many of `terms`, from the first, the rule's searchable text holds. */
function leadingMatches(rule: SearchRule, terms: readonly string[]): number {
  const held = new Set([...words(rule.conditions.query?.words ?? ''), ...words(rule.description ?? '')]);
  let count = 0;
  while (count < terms.length && held.has(terms[count]!)) count++;
  return count;
}

/** `lastUpdatedAt` descending as v1.50's sort reads it: the facet string (lowercased), rules without one after. */
function byDateDescending(a: SearchRule, b: SearchRule): number {
  const [x, y] = [a.lastUpdatedAt?.toLowerCase() ?? null, b.lastUpdatedAt?.toLowerCase() ?? null];
  if (x === y) return 0;
  if (x === null || y === null) return x === null ? 1 : -1;
  return x < y ? 1 : -1;
}

export function listRules(store: Pick<SearchRuleStore, 'all'>, request: RuleListQuery): RuleListPage {
  // stable sorts over the rules by internal id
  let rules = [...store.all()].sort(byDateDescending);
  if (typeof request.active === 'boolean') rules = rules.filter((rule) => rule.active === request.active);
  const terms = words(request.query ?? '').slice(0, MAX_QUERY_TERMS);
  if (terms.length > 0) {
    rules = rules
      .map((rule) => ({ rule, matched: leadingMatches(rule, terms) }))
      .filter(({ matched }) => matched > 0)
      .sort((a, b) => b.matched - a.matched)
      .map(({ rule }) => rule);
  }
  return {
    results: rules.slice(request.offset, request.offset + request.limit).map(ruleView),
    offset: request.offset,
    limit: request.limit,
    total: rules.length,
  };
}
