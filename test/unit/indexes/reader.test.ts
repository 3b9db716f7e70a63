// Index lookups and reads as the HTTP routes get them, over a real index environment.
import { describe, expect, it } from 'vitest';
import { searchFixtures } from '../search/fixture.js';
import { apiErrorOf } from '../validation/expect-api-error.js';
import type { IndexReader } from '../../../src/indexes/reader.js';

const openFixture = searchFixtures();

function reader() {
  // the fixture's reader is the IndexReader the routes use, more than the search layer's view of it
  return openFixture({ movies: { settings: { filterableAttributes: ['genre'] }, docs: [{ id: 1, title: 'Batman', genre: 'action' }] } }).ctx.indexReader as IndexReader;
}

describe('IndexReader', () => {
  it('validates the uid before looking it up', () => {
    const indexes = reader();
    expect(apiErrorOf(() => indexes.record('not valid!')).code).toBe('invalid_index_uid');
    expect(apiErrorOf(() => indexes.record('nowhere'))).toEqual({ code: 'index_not_found', message: 'Index `nowhere` not found.' });
    expect(indexes.get('not valid!')).toBeUndefined();
    expect(indexes.record('movies').uid).toBe('movies');
  });

  it('reads the stored settings as the one object searches share, not decoded again per read', () => {
    const indexes = reader();
    const settings = indexes.settings('movies');
    expect(settings.filterableAttributes).toEqual(['genre']);
    expect(indexes.settings('movies')).toBe(settings);
  });

  it('lists the fields sorted by name with what the settings make of them', () => {
    const fields = reader().fields('movies');
    expect(fields.map((field) => field.name)).toEqual(['genre', 'id', 'title']);
    expect(fields[0]!.filterable.enabled).toBe(true);
    expect(fields[2]!.filterable.enabled).toBe(false);
  });
});
