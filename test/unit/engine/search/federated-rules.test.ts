// The canonical ranking rules of a semantic federated query (src/engine/search/federated-rules.ts),
// as Meilisearch's `canonicalize_vector`: the first relevancy rule stands for the vector sort, later
// ones are removed, or cut with every rule after them once a field is sorted.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/errors/api-error.js';
import { QueryRankingRules } from '../../../../src/engine/search/federated-rules.js';

const DEFAULT_RULES = ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'];

function incompatibility(previous: QueryRankingRules, current: QueryRankingRules): string {
  try {
    current.assertCompatibleWith({ rules: previous, position: 0, uid: 'movies' }, 1, 'movies');
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return (err as ApiError).message;
  }
  throw new Error('expected the rules to be incompatible');
}

describe('QueryRankingRules of a vector search', () => {
  it('keeps one relevancy rule, so that it lines up with a keyword query', () => {
    const vector = new QueryRankingRules(DEFAULT_RULES, null, 'last', 'vector');
    const keyword = new QueryRankingRules(DEFAULT_RULES, null, 'last', 'keyword');
    expect(vector.constraintCount).toBe(1);
    expect(() => vector.assertCompatibleWith({ rules: keyword, position: 0, uid: 'movies' }, 1, 'movies')).not.toThrow();
  });

  it('notes the relevancy rules it removed after the vector rule', () => {
    const sorted = new QueryRankingRules(['sort', ...DEFAULT_RULES.filter((rule) => rule !== 'sort')], ['year:asc'], 'last', 'keyword');
    const vector = new QueryRankingRules(['sort', 'words', 'typo'], null, 'last', 'vector');
    const message = incompatibility(sorted, vector);
    expect(message).toContain('  - note: The ranking rules of query #1 were modified during canonicalization:\n');
    expect(message).toContain(
      '    2. Removed relevancy rule `typo` at position #2 in ranking rules because the query is a vector search and `vector` was already inserted at position #1 in ranking rules\n',
    );
  });

  it('truncates the rules at the next relevancy rule once a field is sorted after the vector rule', () => {
    const vector = new QueryRankingRules(['words', 'year:asc', 'typo', 'title:desc'], null, 'last', 'vector');
    // words, then year:asc; typo and everything after it are gone
    expect(vector.constraintCount).toBe(2);
    const descending = new QueryRankingRules(['words', 'year:desc'], null, 'last', 'keyword');
    expect(incompatibility(descending, vector)).toContain(
      '    1. Truncated relevancy rule `typo` at position #2 in ranking rules and later rules because the query is a vector search and `vector` was inserted at position #0 in ranking rules\n',
    );
  });
});
