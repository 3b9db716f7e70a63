// The document list and the single document through the service, on a real index.
import { describe, expect, it } from 'vitest';
import { getDocument, listDocuments } from '../../../src/search/documents.js';
import { apiErrorOf } from '../http/validation/expect-api-error.js';
import { searchFixtures } from './fixture.js';

const openFixture = searchFixtures();

function open() {
  return openFixture({
    movies: {
      settings: { displayedAttributes: ['title'], filterableAttributes: ['genre'], sortableAttributes: ['year'] },
      docs: [
        { id: 1, title: 'Batman', genre: 'action', year: 1989 },
        { id: 2, title: 'Dune', genre: 'scifi', year: 2021 },
        { id: 3, title: 'Heat', genre: 'action', year: 1995 },
      ],
    },
  });
}

describe('listDocuments', () => {
  it('lists every document in id order, every field whatever displayedAttributes says', () => {
    expect(listDocuments(open().ctx, 'movies', { limit: 2 })).toEqual({
      results: [
        { id: 1, title: 'Batman', genre: 'action', year: 1989 },
        { id: 2, title: 'Dune', genre: 'scifi', year: 2021 },
      ],
      offset: 0,
      limit: 2,
      total: 3,
    });
  });

  it('filters, sorts and projects, counting the filtered documents', () => {
    const listed = listDocuments(open().ctx, 'movies', { filter: 'genre = action', sort: ['year:desc'], fields: ['title'] });
    expect(listed).toEqual({ results: [{ title: 'Heat' }, { title: 'Batman' }], offset: 0, limit: 20, total: 2 });
  });

  it('reads only the listed ids, skipping unknown ones', () => {
    expect(listDocuments(open().ctx, 'movies', { ids: [3, '1', 'nope'], fields: ['id'] }).results).toEqual([{ id: 1 }, { id: 3 }]);
  });

  it('checks ids, then sort syntax, before the index', () => {
    const f = open();
    expect(apiErrorOf(() => listDocuments(f.ctx, 'nowhere', { ids: ['a b'] })).code).toBe('invalid_document_ids');
    expect(apiErrorOf(() => listDocuments(f.ctx, 'nowhere', { sort: ['year:up'] })).code).toBe('invalid_document_sort');
    expect(apiErrorOf(() => listDocuments(f.ctx, 'nowhere', {})).code).toBe('index_not_found');
    expect(apiErrorOf(() => listDocuments(f.ctx, 'movies', { sort: ['title:asc'] })).code).toBe('invalid_document_sort');
  });
});

describe('getDocument', () => {
  it('answers the document with the asked fields, or document_not_found', () => {
    const f = open();
    expect(getDocument(f.ctx, 'movies', '2', ['title', 'year'], undefined)).toEqual({ title: 'Dune', year: 2021 });
    expect(getDocument(f.ctx, 'movies', '2', null, undefined)).toEqual({ id: 2, title: 'Dune', genre: 'scifi', year: 2021 });
    expect(apiErrorOf(() => getDocument(f.ctx, 'movies', '9', null, undefined))).toEqual({ code: 'document_not_found', message: 'Document `9` not found.' });
  });
});
