// `_shard` filters over an index whose documents are recorded in shards (v1.50's
// `evaluate_shard_operator`): =, !=, IN and their NOT forms select by shard without a filterable
// rule; other operators and unknown shards are refused with v1.50's messages and
// `invalid_search_filter`, whatever the route's filter code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/errors/api-error.js';
import { evaluateFilter } from '../../../../src/engine/filter/evaluate.js';
import { parseFilter } from '../../../../src/engine/filter-parser/index.js';
import { writeShardDocids } from '../../../../src/engine/shards/shard-docids.js';
import { vectorFilter } from '../../../../src/engine/vectors/index.js';
import { fromSorted, EMPTY } from '../../../../src/engine/docset.js';
import { TestIndex } from '../facets/fixture.js';

let index: TestIndex;
beforeAll(() => {
  index = TestIndex.create({ filterableAttributes: ['genre'] });
  index.write([1, 2, 3, 4, 5].map((id) => ({ id, genre: id % 2 === 0 ? 'even' : 'odd' })));
  const docid = (id: number) => index.store.lookup(String(id))!.docid;
  // 5 is unsharded (indexed before the network had a leader)
  index.env.root.transactionSync(() =>
    writeShardDocids(
      index.env,
      new Map([
        ['s0', fromSorted([docid(1), docid(2)].sort((a, b) => a - b))],
        ['s1', fromSorted([docid(3), docid(4)].sort((a, b) => a - b))],
        ['empty', EMPTY],
      ]),
    ),
  );
});
afterAll(async () => {
  await index.close();
});

const ids = (filter: unknown) => (index.filter(filter) as number[]).sort();

describe('_shard filters', () => {
  it.each([
    ['_shard = s0', [1, 2]],
    ['_shard = "s1"', [3, 4]],
    ['_shard != s0', [3, 4, 5]],
    ['_shard IN [s0, s1]', [1, 2, 3, 4]],
    ['_shard NOT IN [s0, empty]', [3, 4, 5]],
    ['NOT _shard = s1', [1, 2, 5]],
    ['_shard = empty', []],
    ['_shard = s1 AND genre = even', [4]],
    ['genre = odd OR _shard = s0', [1, 2, 3, 5]],
  ])('%s', (filter, expected) => {
    expect(ids(filter)).toEqual(expected);
  });

  it('refuses a shard the index does not know, as v1.50 words it', () => {
    expect(index.filterError('_shard = ghost')).toBe('Shard `ghost` does not exist');
    expect(index.filterError('_shard != ghost')).toBe('Shard `ghost` does not exist');
    expect(index.filterError('_shard IN [s0, ghost]')).toBe('Shard `ghost` does not exist');
  });

  it.each([
    ['_shard > s0', '>'],
    ['_shard >= s0', '>='],
    ['_shard < s0', '<'],
    ['_shard <= s0', '<='],
    ['_shard s0 TO s1', 'TO'],
    ['_shard EXISTS', 'EXISTS'],
    ['_shard NOT EXISTS', 'EXISTS'],
    ['_shard IS NULL', 'IS NULL'],
    ['_shard IS EMPTY', 'IS EMPTY'],
    ['_shard CONTAINS s', 'CONTAINS'],
    ['_shard STARTS WITH s', 'STARTS WITH'],
  ])('refuses %s with v1.50’s message', (filter, operator) => {
    expect(index.filterError(filter)).toBe(
      `Filter operator \`${operator} is not allowed for the special attribute \`_shard\`.\n  - Note: allowed operators: =, !=, IN. \n  - Note: other operators are not allowed for the special attribute \`_shard\`.`,
    );
  });

  it('answers invalid_search_filter even for a documents route', () => {
    const ast = parseFilter('_shard = ghost', { code: 'invalid_document_filter' })!;
    try {
      evaluateFilter(index.env, index.settings, ast, { code: 'invalid_document_filter', vectors: vectorFilter(index.env, index.settings) });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).code).toBe('invalid_search_filter');
    }
  });
});
