// The search kind of a query (src/search/vector-query.ts), row by row of search.md §6: when the
// embedder is looked up and the vector's length checked, and when the search stays a keyword one.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import type { SearchQuery } from '../../../src/search/query.js';
import { searchKind } from '../../../src/search/vector-query.js';
import { searchFixtures } from './fixture.js';

const openFixture = searchFixtures();

/** The search kind of queries on an empty index with a 2-d userProvided embedder `default` (one index per test). */
function kinds(): (query: SearchQuery) => ReturnType<typeof searchKind> {
  const f = openFixture({ films: { settings: { embedders: { default: { source: 'userProvided', dimensions: 2 } } }, docs: [] } });
  const index = f.index('films');
  return (query) => searchKind(query, index.env, index.settings);
}

function errorOf(kindOf: ReturnType<typeof kinds>, query: SearchQuery): { code: string; message: string } {
  try {
    kindOf(query);
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return { code: (err as ApiError).code, message: (err as ApiError).message };
  }
  throw new Error('expected an ApiError');
}

describe('searchKind', () => {
  it('is a keyword search without hybrid, at ratio 0, and for a placeholder without vector, whatever the embedder', () => {
    const kindOf = kinds();
    expect(kindOf({ q: 'batman' })).toEqual({ kind: 'keyword' });
    expect(kindOf({ q: 'batman', vector: [1, 2, 3], hybrid: { embedder: 'nope', semanticRatio: 0 } })).toEqual({ kind: 'keyword' });
    expect(kindOf({ q: '  ', hybrid: { embedder: 'nope', semanticRatio: 0.7 } })).toEqual({ kind: 'keyword' });
  });

  it('is semantic at ratio 1, or without q, and hybrid with q otherwise (0.5 by default)', () => {
    const kindOf = kinds();
    expect(kindOf({ q: 'batman', hybrid: { embedder: 'default', semanticRatio: 1 } })).toEqual({ kind: 'semantic', embedder: 'default' });
    expect(kindOf({ vector: [1, 0], hybrid: { embedder: 'default', semanticRatio: 0.2 } })).toEqual({ kind: 'semantic', embedder: 'default' });
    expect(kindOf({ q: 'batman', hybrid: { embedder: 'default' } })).toEqual({ kind: 'hybrid', embedder: 'default', semanticRatio: 0.5 });
  });

  it('takes the ratio as an f32, as Meilisearch: 0.9999999999 is semantic only', () => {
    expect(kinds()({ q: 'batman', hybrid: { embedder: 'default', semanticRatio: 0.9999999999 } }).kind).toBe('semantic');
  });

  it('refuses an unknown embedder and a vector of other dimensions once the search is semantic or hybrid', () => {
    const kindOf = kinds();
    expect(errorOf(kindOf, { q: 'batman', hybrid: { embedder: 'nope' } })).toEqual({ code: 'invalid_search_embedder', message: 'Cannot find embedder with name `nope`.' });
    expect(errorOf(kindOf, { vector: [1, 2, 3], hybrid: { embedder: 'default' } })).toEqual({
      code: 'invalid_vector_dimensions',
      message: 'Invalid vector dimensions: expected: `2`, found: `3`.',
    });
  });
});
