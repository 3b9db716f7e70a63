import { describe, expect, it } from 'vitest';
import { LocationTable, renderLocation } from '../../../../src/http/validation/location.js';

describe('renderLocation', () => {
  it('prints keys with dots and indexes in brackets, the root as empty', () => {
    expect(renderLocation([])).toBe('');
    expect(renderLocation(['queries', 0, 'indexUid'])).toBe('.queries[0].indexUid');
    expect(renderLocation(['matrix', 1, 2])).toBe('.matrix[1][2]');
  });
});

describe('LocationTable', () => {
  const table = new LocationTable({
    '': 'root',
    uid: 'bare name',
    '.queries[]': 'any query',
    '.queries[].limit': 'query limit',
    '.remotes.*.url': 'any remote url',
    '.remotes.main.url': 'main remote url',
  });

  it('reads a bare name as a top-level field', () => {
    expect(table.get(['uid'])).toBe('bare name');
  });

  it('matches `[]` against indexes only and `*` against keys only', () => {
    expect(table.get(['queries', 3, 'limit'])).toBe('query limit');
    expect(table.get(['queries', 'x', 'limit'])).toBeUndefined();
    expect(table.get(['remotes', 'kefir', 'url'])).toBe('any remote url');
    expect(table.get(['remotes', 0, 'url'])).toBeUndefined();
  });

  it('prefers literal keys over `*`', () => {
    expect(table.get(['remotes', 'main', 'url'])).toBe('main remote url');
  });

  it('falls back to the nearest enclosing location', () => {
    expect(table.nearest(['queries', 0, 'q'])).toBe('any query');
    expect(table.nearest(['doggo', 'deep'])).toBe('root');
    expect(new LocationTable({}).nearest(['a'])).toBeUndefined();
  });

  it('finds every concrete location a pattern matches in a value', () => {
    const found = [...table.matchesIn({ queries: [{ limit: 1 }, {}, { limit: 3 }] })]
      .filter((m) => m.value === 'query limit')
      .map((m) => [m.path, m.target]);
    expect(found).toEqual([
      [['queries', 0, 'limit'], 1],
      [['queries', 2, 'limit'], 3],
    ]);
  });

  it('rejects malformed patterns when built', () => {
    expect(() => new LocationTable({ '.a..b': 1 })).toThrow(/invalid location pattern/);
    expect(() => new LocationTable({ '.a[0]': 1 })).toThrow(/invalid location pattern/);
  });
});
