import { describe, expect, it } from 'vitest';
import { LocationTable, renderLocation } from '../../../src/validation/location.js';

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

  /** Every location `firstIn` visits, in visiting order (the test never answers, so the walk goes on). */
  function visits(value: unknown, path: (string | number)[] = []): [string, string, unknown][] {
    const seen: [string, string, unknown][] = [];
    table.firstIn(value, path, (declared, target, at) => {
      seen.push([declared, renderLocation(at), target]);
      return undefined;
    });
    return seen;
  }

  it('visits matched locations children first, in payload order', () => {
    const body = { remotes: { b: { url: 'u2' }, main: { url: 'u1' } }, queries: [{ limit: 1 }, {}, { limit: 3 }], uid: 'x' };
    expect(visits(body)).toEqual([
      ['any remote url', '.remotes.b.url', 'u2'],
      ['any remote url', '.remotes.main.url', 'u1'],
      ['main remote url', '.remotes.main.url', 'u1'],
      ['query limit', '.queries[0].limit', 1],
      ['any query', '.queries[0]', { limit: 1 }],
      ['any query', '.queries[1]', {}],
      ['query limit', '.queries[2].limit', 3],
      ['any query', '.queries[2]', { limit: 3 }],
      ['bare name', '.uid', 'x'],
      ['root', '', body],
    ]);
  });

  it('walks a branch from its own location, and stops at the first answer', () => {
    expect(visits([{ limit: 7 }], ['queries'])).toEqual([
      ['query limit', '.queries[0].limit', 7],
      ['any query', '.queries[0]', { limit: 7 }],
    ]);
    const first = table.firstIn({ queries: [{ limit: 1 }, { limit: 2 }] }, [], (declared, target) =>
      declared === 'query limit' ? target : undefined,
    );
    expect(first).toBe(1);
  });

  it('rejects malformed patterns when built', () => {
    expect(() => new LocationTable({ '.a..b': 1 })).toThrow(/invalid location pattern/);
    expect(() => new LocationTable({ '.a[0]': 1 })).toThrow(/invalid location pattern/);
  });
});
