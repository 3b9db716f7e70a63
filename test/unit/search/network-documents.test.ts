// Document lists of several instances merged as v1.50 merges them (network.md §7.3): by the
// documents' weighted score values, ties and unsorted lists in partition order, `_federation`
// stripped; a document without its score values fails the read. And the score values a listed
// document carries for the instance merging (document-score-values.ts). A single document read
// here, holding long strings, is answered in pieces.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { parseSortCriterion } from '../../../src/engine/facets/sort.js';
import { normalizeFacet } from '../../../src/engine/facets/values.js';
import { documentScoreValues } from '../../../src/search/document-score-values.js';
import { documentRequest, isDocumentsResponse, mergeDocumentLists } from '../../../src/search/network-documents.js';
import { parseJson } from '../../../src/types/json-text.js';
import { StreamedJson } from '../../../src/types/streamed-json.js';
import { searchFixtures } from './fixture.js';

const openFixture = searchFixtures();

const sorted = (id: number, value: number | string | null, asc = true) => ({ id, _federation: { weightedScoreValues: [{ sort: { asc, value } }] } });
const unsorted = (id: number) => ({ id, _federation: { weightedScoreValues: [] } });

describe('mergeDocumentLists', () => {
  it('orders documents by their sort values, ties in partition order, and strips _federation', () => {
    const merged = mergeDocumentLists([
      { position: 1, documents: [sorted(2, 1990), sorted(4, 2010)] },
      { position: 0, documents: [sorted(1, 1990), sorted(3, 2000), sorted(5, null)] },
    ]);
    expect(merged).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }]);
  });

  it('concatenates unsorted lists in partition order', () => {
    const merged = mergeDocumentLists([
      { position: 2, documents: [unsorted(9)] },
      { position: 0, documents: [unsorted(3), unsorted(1)] },
      { position: 1, documents: [unsorted(2)] },
    ]);
    expect(merged.map(({ id }) => id)).toEqual([3, 1, 2, 9]);
  });

  it('fails the read with remote_bad_response when a document lacks its score values', () => {
    const hint = '\n  - hint: check that the remote instance is a Meilisearch instance running the same version';
    const failure = (document: object): { code: string; message: string } | null => {
      try {
        mergeDocumentLists([{ position: 0, documents: [unsorted(1), document] }]);
      } catch (err) {
        if (err instanceof ApiError) return { code: err.code, message: err.message };
        throw err;
      }
      return null;
    };
    expect(failure({ id: 2 })).toEqual({ code: 'remote_bad_response', message: `remote hit does not contain \`._federation\`${hint}` });
    expect(failure({ id: 2, _federation: [1] })).toEqual({ code: 'remote_bad_response', message: `remote hit contains an unexpected value at path \`._federation\`: expected map, received \`[1]\`${hint}` });
    expect(failure({ id: 2, _federation: {} })).toEqual({ code: 'remote_bad_response', message: `remote hit does not contain \`._federation.weightedScoreValues\`${hint}` });
    expect(failure({ id: 2, _federation: { weightedScoreValues: [{ nope: 1 }] } })?.code).toBe('remote_bad_response');
  });
});

describe('isDocumentsResponse', () => {
  it('accepts a document list and nothing else', () => {
    expect(isDocumentsResponse({ results: [{ id: 1 }], offset: 0, limit: 20, total: 1 })).toBe(true);
    expect(isDocumentsResponse({ results: [], offset: 0, limit: 20 })).toBe(false);
    expect(isDocumentsResponse({ results: [1], offset: 0, limit: 20, total: 1 })).toBe(false);
    expect(isDocumentsResponse({ hits: [], processingTimeMs: 1 })).toBe(false);
  });
});

describe('documentScoreValues', () => {
  const sort = (...texts: string[]) => texts.map((text) => parseSortCriterion(text, 'invalid_document_sort'));

  it('gives nothing without a sort', () => {
    expect(documentScoreValues({ id: 1, year: 2000 }, null)).toEqual([]);
  });

  it('gives each field criterion the best value the document holds: numbers before strings, strings normalised as facets', () => {
    const doc = { id: 1, year: [2001, 1999, 'later'], title: 'Émile', nested: { rank: 3 } };
    expect(documentScoreValues(doc, sort('year:asc', 'year:desc', 'title:asc', 'nested.rank:desc', 'missing:asc'))).toEqual([
      { sort: { asc: true, value: 1999 } },
      { sort: { asc: false, value: 2001 } },
      { sort: { asc: true, value: normalizeFacet('Émile') } },
      { sort: { asc: false, value: 3 } },
      { sort: { asc: true, value: null } },
    ]);
    expect(documentScoreValues({ id: 1, tags: ['b', 'a'] }, sort('tags:desc'))).toEqual([{ sort: { asc: false, value: 'b' } }]);
  });

  it('gives a _geoPoint criterion the distance to the document, null without _geo', () => {
    const [value] = documentScoreValues({ id: 1, _geo: { lat: 48.8566, lng: 2.3522 } }, sort('_geoPoint(48.8566, 2.3522):asc'));
    expect(value).toEqual({ geoSort: { asc: true, distance: 0 } });
    const [far] = documentScoreValues({ id: 1, _geo: { lat: 0, lng: 1 } }, sort('_geoPoint(0, 0):desc'));
    expect((far as { geoSort: { distance: number } }).geoSort.distance).toBeCloseTo(111_195, -1);
    expect(documentScoreValues({ id: 1 }, sort('_geoPoint(0, 0):asc'))).toEqual([{ geoSort: { asc: true, distance: null } }]);
  });
});

describe('documentRequest', () => {
  it('answers a document holding a mebibyte of strings as JSON pieces that read as the document, a short one whole', async () => {
    const long = { id: 1, text: '😀 word '.repeat(150_000), tags: ['a'] };
    const f = openFixture({ long: { docs: [long, { id: 2, text: 'short' }] } });
    const answer = await documentRequest(f.ctx, 'long', '1', null, undefined, undefined);
    expect(answer).toBeInstanceOf(StreamedJson);
    expect(parseJson(await (answer as StreamedJson).text())).toEqual(long);
    expect(await documentRequest(f.ctx, 'long', '1', ['id', 'tags'], undefined, undefined)).toEqual({ id: 1, tags: ['a'] });
    expect(await documentRequest(f.ctx, 'long', '2', null, undefined, undefined)).toEqual({ id: 2, text: 'short' });
  });
});
