// Port of milli's crates/milli/tests/search/query_criteria.rs and distinct.rs (v1.50): the query
// `hello world america` on milli's test set (test/helpers/milli-test-set.ts) under each ranking
// rule alone, the old default rules, every order of the rules after `words`, and distinct
// attributes with pages and offsets. As there, the expected order is worked out from each
// document's expected rank under each rule: sorted rule by rule, ties kept in insertion order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { search, seed, succeed } from '../../helpers/meili-datasets.js';
import { MILLI_TEST_SET, type MilliTestDocument } from '../../helpers/milli-test-set.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const UID = 'milli';
const QUERY = 'hello world america';
const DEFAULT_RULES = ['words', 'typo', 'proximity', 'attribute', 'exactness'];

/** The rank a document has under `rule` (null: the rule does not order this dataset). */
function rankUnder(rule: string, sort: readonly string[]): ((doc: MilliTestDocument) => number) | null {
  switch (rule) {
    case 'words':
      return (d) => d.word_rank;
    case 'typo':
      return (d) => d.typo_rank;
    case 'proximity':
      return (d) => d.proximity_rank;
    case 'attribute':
      return (d) => d.attribute_rank;
    case 'exactness':
      return (d) => d.exact_rank;
    case 'asc_desc_rank:asc':
      return (d) => d.asc_desc_rank;
    case 'asc_desc_rank:desc':
      return (d) => -d.asc_desc_rank;
    case 'sort':
      if (sort[0] === 'tag:asc') return (d) => d.sort_by_rank;
      if (sort[0] === 'tag:desc') return (d) => -d.sort_by_rank;
      return null;
    default:
      return null;
  }
}

/** milli's `expected_order`: the ids sorted group by group under each rule in turn. */
function expectedOrder(rules: readonly string[], strategy: 'last' | 'all', sort: readonly string[] = []): string[] {
  let groups: MilliTestDocument[][] = [MILLI_TEST_SET];
  for (const rule of rules) {
    const rank = rankUnder(rule, sort);
    if (rank === null) continue;
    groups = groups.flatMap((group) => {
      const sorted = [...group].sort((a, b) => rank(a) - rank(b));
      const split: MilliTestDocument[][] = [];
      for (const doc of sorted) {
        const last = split.at(-1);
        if (last !== undefined && rank(last[0]!) === rank(doc)) last.push(doc);
        else split.push([doc]);
      }
      return split;
    });
  }
  const order = groups.flat();
  return (strategy === 'all' ? order.filter((d) => d.word_rank === 0) : order).map((d) => d.id);
}

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await seed(server, UID, MILLI_TEST_SET, {
    filterableAttributes: ['title', 'tag', 'asc_desc_rank', '_geo', 'opt1', 'opt1.opt2', 'tag_in'],
    sortableAttributes: ['tag', 'asc_desc_rank'],
    synonyms: { hello: ['good morning'], world: ['earth'], america: ['the united states'] },
    searchableAttributes: ['title', 'description'],
  });
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

async function ids(settings: Record<string, unknown>, body: Record<string, unknown>): Promise<{ ids: string[]; total: number }> {
  await succeed(server, 'PATCH', `/indexes/${UID}/settings`, settings);
  const answer = await search(server, UID, { q: QUERY, attributesToRetrieve: ['id'], ...body });
  return { ids: answer.hits.map((hit: { id: string }) => hit.id), total: answer.totalHits ?? answer.estimatedTotalHits };
}

describe('query_criteria.rs', () => {
  const cases: [string, string[], 'last' | 'all', string[]][] = [
    ['none', [], 'all', []],
    ['words', ['words'], 'last', []],
    ['attribute', ['attribute'], 'all', []],
    ['typo', ['typo'], 'all', []],
    ['exactness', ['exactness'], 'all', []],
    ['proximity', ['proximity'], 'all', []],
    ['asc', ['asc_desc_rank:asc'], 'all', []],
    ['desc', ['asc_desc_rank:desc'], 'all', []],
    ['asc_unexisting_field', ['unexisting_field:asc'], 'all', []],
    ['desc_unexisting_field', ['unexisting_field:desc'], 'all', []],
    ['empty_sort_by', ['sort'], 'all', []],
    ['sort_by_asc', ['sort'], 'all', ['tag:asc']],
    ['sort_by_desc', ['sort'], 'all', ['tag:desc']],
    ['default_criteria_order', DEFAULT_RULES, 'last', []],
  ];
  for (const [name, rankingRules, matchingStrategy, sort] of cases) {
    it(`${name}: ${rankingRules.join(', ') || 'no rule'}`, async () => {
      const answer = await ids({ rankingRules }, { limit: 17, matchingStrategy, ...(sort.length > 0 ? { sort } : {}) });
      expect(answer.ids).toEqual(expectedOrder(rankingRules, matchingStrategy, sort));
    });
  }

  it('criteria_mixup: every order of the rules after words', async () => {
    const permutations = (rules: string[]): string[][] => (rules.length <= 1 ? [rules] : rules.flatMap((rule, k) => permutations([...rules.slice(0, k), ...rules.slice(k + 1)]).map((rest) => [rule, ...rest])));
    for (const rest of permutations(['attribute', 'asc_desc_rank:desc', 'exactness', 'proximity', 'typo'])) {
      const rankingRules = ['words', ...rest];
      const answer = await ids({ rankingRules }, { limit: 17, matchingStrategy: 'last' });
      expect(answer.ids, rankingRules.join(', ')).toEqual(expectedOrder(rankingRules, 'last'));
    }
  }, 120_000);
});

describe('distinct.rs', () => {
  // name, distinct attribute, exhaustive (page and hitsPerPage), limit, offset, rules, distinct values
  const cases: [string, 'tag' | 'asc_desc_rank', boolean, number, number, string[], number][] = [
    ['exhaustive_distinct_string_default_criteria', 'tag', true, 1, 0, DEFAULT_RULES, 3],
    ['exhaustive_distinct_number_default_criteria', 'asc_desc_rank', true, 1, 0, DEFAULT_RULES, 7],
    ['exhaustive_distinct_number_weird_order_criteria', 'asc_desc_rank', true, 0, 0, ['attribute_rank:desc', 'exactness_rank:desc', 'exactness', 'typo'], 7],
    ['distinct_string_default_criteria', 'tag', false, 17, 0, DEFAULT_RULES, 3],
    ['distinct_number_default_criteria', 'asc_desc_rank', false, 17, 0, DEFAULT_RULES, 7],
    ['distinct_string_criterion_words', 'tag', false, 17, 0, ['words'], 3],
    ['distinct_number_criterion_words', 'asc_desc_rank', false, 17, 0, ['words'], 7],
    ['distinct_string_criterion_words_typo', 'tag', false, 17, 0, ['words', 'typo'], 3],
    ['distinct_number_criterion_words_typo', 'asc_desc_rank', false, 17, 0, ['words', 'typo'], 7],
    ['distinct_string_criterion_words_proximity', 'tag', false, 17, 0, ['words', 'proximity'], 3],
    ['distinct_number_criterion_words_proximity', 'asc_desc_rank', false, 17, 0, ['words', 'proximity'], 7],
    ['distinct_string_criterion_words_attribute', 'tag', false, 17, 0, ['words', 'attribute'], 3],
    ['distinct_number_criterion_words_attribute', 'asc_desc_rank', false, 17, 0, ['words', 'attribute'], 7],
    ['distinct_string_criterion_words_exactness', 'tag', false, 17, 0, ['words', 'exactness'], 3],
    ['distinct_number_criterion_words_exactness', 'asc_desc_rank', false, 17, 0, ['words', 'exactness'], 7],
    ['distinct_string_limit_and_offset', 'tag', false, 17, 1, [], 3],
    ['exhaustive_distinct_string_limit_and_offset', 'tag', true, 1, 2, [], 3],
    ['distinct_number_limit_and_offset', 'asc_desc_rank', false, 17, 2, [], 7],
    ['exhaustive_distinct_number_limit_and_offset', 'asc_desc_rank', true, 2, 4, [], 7],
  ];
  for (const [name, distinctAttribute, exhaustive, limit, offset, rankingRules, total] of cases) {
    it(name, async () => {
      const window = exhaustive ? (limit === 0 ? { hitsPerPage: 0 } : { hitsPerPage: limit, page: offset / limit + 1 }) : { limit, offset };
      const answer = await ids({ rankingRules, distinctAttribute }, { matchingStrategy: 'last', ...window });
      const seen = new Set<unknown>();
      const distinct = expectedOrder(rankingRules, 'last').filter((id) => {
        const value = MILLI_TEST_SET.find((d) => d.id === id)![distinctAttribute];
        if (seen.has(value)) return false;
        seen.add(value);
        return true;
      });
      expect(answer.ids).toEqual(distinct.slice(offset, offset + limit));
      expect(answer.total).toBe(total);
    });
  }
});
