/**
 * `POST /dynamic-search-rules`: the rules, filtered by `active` and by a `query` searched in their
 * `description` and `conditions.query.words`, as v1.50 searches its internal rules index: words
 * as the default tokenizer cuts them, no typo, no prefix, the last query words dropped first until
 * rules match (`matchingStrategy: last`). Results come by how many leading query words they hold
 * (v1.50 ranks equal counts further by proximity, attribute and exactness, which Quarry does not),
 * then by internal id (v1.50's document ids); without a query word, by internal id alone.
 * `total` counts them all.
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

export function listRules(store: Pick<SearchRuleStore, 'all'>, request: RuleListQuery): RuleListPage {
  // the rules by internal id; the sort by matched words below is stable
  let rules = store.all();
  // a rule set to `active: null` is in neither facet value, as in v1.50
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
