/**
 * Foreign keys through the real server (experimental `foreignKeys`): `_foreign(...)` filters
 * resolved across indexes and the document join of hits, with the documents, expectations and
 * errors of v1.50's tests (crates/meilisearch/tests/search/document_join.rs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let authors: string;
let books: string;
let plain: string;

const AUTHORS = [
  { id: 'a1', name: 'Alice', birthday: '1990-01-01', popularity: 2.0 },
  { id: 'a2', name: 'Bob', birthday: '1958-06-15', popularity: 4.5 },
  { id: 'a3', name: 'Charlie', birthday: '1940-05-05', popularity: 4.8 },
  { id: 'a4', name: 'Diana', birthday: '1985-03-20', popularity: 3.2 },
  { id: 'a5', name: 'Ethan', birthday: '1972-11-30', popularity: 3.9 },
];
const BOOKS = [
  { id: 'b1', title: 'Rust in action', author: 'a1', related_authors: ['a2', 'a3'], genres: ['tech', 'programming'] },
  { id: 'b2', title: 'Captain Marvel story', author: 'a2', related_authors: ['a3', 'a4'], genres: ['action', 'fiction'] },
  { id: 'b3', title: 'The Great Gatsby', author: 'a3', related_authors: ['a4', 'a5'], genres: ['action', 'classic'] },
  { id: 'b4', title: 'To Kill a Mockingbird', author: 'a4', related_authors: ['a5', 'a9'], genres: ['classic', 'drama'] },
];

async function ok(method: string, path: string, body?: unknown): Promise<void> {
  const task = await run(server, method, path, body);
  expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
}

beforeAll(async () => {
  server = await startServer();
  expect((await call(server, 'PATCH', '/experimental-features', { foreignKeys: true })).status).toBe(200);
  [authors, books, plain] = [uniqueUid('authors'), uniqueUid('books'), uniqueUid('plain')];
  await ok('POST', '/indexes', { uid: authors, primaryKey: 'id' });
  await ok('PATCH', `/indexes/${authors}/settings`, { filterableAttributes: ['id', 'birthday', 'popularity'], displayedAttributes: ['id', 'name'] });
  await ok('POST', `/indexes/${authors}/documents`, AUTHORS);
  await ok('POST', '/indexes', { uid: books, primaryKey: 'id' });
  await ok('PATCH', `/indexes/${books}/settings`, {
    foreignKeys: [
      { foreignIndexUid: authors, fieldName: 'author' },
      { foreignIndexUid: authors, fieldName: 'related_authors' },
    ],
    filterableAttributes: ['id', 'genres', 'author', 'related_authors'],
  });
  await ok('POST', `/indexes/${books}/documents`, BOOKS);
  await ok('POST', `/indexes/${plain}/documents`, BOOKS);
});
afterAll(async () => {
  await server?.dispose();
});

async function search(uid: string, body: unknown) {
  return call(server, 'POST', `/indexes/${uid}/search`, body);
}

const titles = (hits: any[]) => hits.map((hit) => hit.title);

describe('_foreign filters', () => {
  it('match the documents whose foreign key names a matching foreign document', async () => {
    const reply = await search(books, { filter: 'genres = action AND _foreign(author, birthday STARTS WITH "1958-" AND popularity >= 3.5)', attributesToRetrieve: ['title'] });
    expect(reply.status, reply.text).toBe(200);
    expect(titles(reply.body.hits)).toEqual(['Captain Marvel story']);
    const either = await search(books, {
      filter: 'genres = classic AND (_foreign(author, birthday STARTS WITH "198") OR _foreign(related_authors, birthday STARTS WITH "198"))',
      attributesToRetrieve: ['title'],
    });
    expect(titles(either.body.hits)).toEqual(['The Great Gatsby', 'To Kill a Mockingbird']);
  });

  it('work in the document list, facet search and federated search too', async () => {
    const listed = await call(server, 'POST', `/indexes/${books}/documents/fetch`, { filter: '_foreign(author, popularity > 4)', fields: ['id'] });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.results).toEqual([{ id: 'b2' }, { id: 'b3' }]);
    const federated = await call(server, 'POST', '/multi-search', { federation: {}, queries: [{ indexUid: books, filter: '_foreign(author, id = a4)', attributesToRetrieve: ['title'] }] });
    expect(federated.status, federated.text).toBe(200);
    expect(titles(federated.body.hits)).toEqual(['To Kill a Mockingbird']);
    await ok('PATCH', `/indexes/${books}/settings`, { filterableAttributes: ['id', { attributePatterns: ['genres'], features: { facetSearch: true, filter: { equality: true, comparison: false } } }, 'author', 'related_authors'] });
    const facets = await call(server, 'POST', `/indexes/${books}/facet-search`, { facetName: 'genres', filter: '_foreign(author, id = a3)' });
    expect(facets.status, facets.text).toBe(200);
    expect(facets.body.facetHits).toEqual([
      { value: 'action', count: 1 },
      { value: 'classic', count: 1 },
    ]);
  });

  it('answer v1.50 errors', async () => {
    expectError(await search(books, { filter: '_foreign(title, id = a1)' }), 400, 'invalid_search_filter', `Index \`${books}\`: Field \`title\` is not a foreign key`);
    expectError(await search(plain, { filter: '_foreign(author, id = a1)' }), 400, 'invalid_search_filter', `Index \`${plain}\`: Field \`author\` is not a foreign key`);
    expectError(
      await search(books, { filter: '_foreign(author, id = a1 AND _foreign(related_authors, id = a2))' }),
      400,
      'invalid_search_filter',
      `Index \`${books}\`: Nested foreign filters are not supported`,
    );
    expectError(
      await search(books, { filter: '_foreign(author, name = "Bob")' }),
      400,
      'invalid_document_filter',
      `Index \`${authors}\`: Attribute \`name\` is not filterable. Available filterable attribute patterns are: \`birthday\`, \`id\`, \`popularity\`.\n18:22 _foreign(author, name = "Bob")`,
    );
    // federated: resolved for every query before any is searched, without the query's prefix
    const federated = await call(server, 'POST', '/multi-search', { federation: {}, queries: [{ indexUid: books, filter: '_foreign(title, id = a1)' }] });
    expectError(federated, 400, 'invalid_search_filter', `Index \`${books}\`: Field \`title\` is not a foreign key`);
    const multi = await call(server, 'POST', '/multi-search', { queries: [{ indexUid: books, filter: '_foreign(title, id = a1)' }] });
    expectError(multi, 400, 'invalid_search_filter', `Inside \`.queries[0]\`: Index \`${books}\`: Field \`title\` is not a foreign key`);
    const deletion = await call(server, 'POST', `/indexes/${books}/documents/delete`, { filter: '_foreign(author, id = a1)' });
    expectError(deletion, 400, 'invalid_document_filter', 'Filter condition `_foreign` is not supported for this endpoint.\n10:16 _foreign(author, id = a1)');
  });

  it('refuse a source field that is not filterable, at the rewritten IN', async () => {
    const other = uniqueUid('unfilterable');
    await ok('PATCH', `/indexes/${other}/settings`, { foreignKeys: [{ foreignIndexUid: authors, fieldName: 'author' }] });
    await ok('POST', `/indexes/${other}/documents`, BOOKS);
    expectError(
      await search(other, { filter: '_foreign(author, id = a1)' }),
      400,
      'invalid_search_filter',
      `Index \`${other}\`: Attribute \`author\` is not filterable. This index does not have configured filterable attributes.\n2:8 "author" IN ["a1"]`,
    );
  });

  it('refuse more than 100 foreign documents', async () => {
    const many = uniqueUid('many');
    const source = uniqueUid('source');
    await ok('PATCH', `/indexes/${many}/settings`, { filterableAttributes: ['kind'] });
    await ok('POST', `/indexes/${many}/documents`, Array.from({ length: 101 }, (_, i) => ({ id: i, kind: 'x' })));
    await ok('PATCH', `/indexes/${source}/settings`, { foreignKeys: [{ foreignIndexUid: many, fieldName: 'ref' }], filterableAttributes: ['ref'] });
    await ok('POST', `/indexes/${source}/documents`, [{ id: 1, ref: 3 }]);
    expectError(
      await search(source, { filter: '_foreign(ref, kind = x)' }),
      400,
      'invalid_search_filter',
      `Index \`${many}\`: Foreign filter is retrieving too many documents, foreign filters can't retrieve more than 100 documents per index`,
    );
    const fine = await search(source, { filter: '_foreign(ref, kind = x AND id < 50)' });
    expect(fine.status, fine.text).toBe(400); // `id` is not filterable in the foreign index
    expect(fine.body.code).toBe('invalid_document_filter');
  });
});

describe('document join', () => {
  it('replaces foreign ids with the foreign documents, in hits and _formatted, only while the feature is on', async () => {
    const params = { q: 'Rust', attributesToRetrieve: ['title', 'author', 'related_authors'], attributesToHighlight: ['title'] };
    const joined = await search(books, params);
    expect(joined.body.hits).toEqual([
      {
        title: 'Rust in action',
        author: { id: 'a1', name: 'Alice' },
        related_authors: [
          { id: 'a2', name: 'Bob' },
          { id: 'a3', name: 'Charlie' },
        ],
        _formatted: {
          title: '<em>Rust</em> in action',
          author: { id: 'a1', name: 'Alice' },
          related_authors: [
            { id: 'a2', name: 'Bob' },
            { id: 'a3', name: 'Charlie' },
          ],
        },
      },
    ]);
    // an id no foreign document has becomes {}
    const missing = await search(books, { q: 'Mockingbird', attributesToRetrieve: ['related_authors'] });
    expect(missing.body.hits).toEqual([{ related_authors: [{ id: 'a5', name: 'Ethan' }, {}] }]);
    const federated = await call(server, 'POST', '/multi-search', { federation: {}, queries: [{ indexUid: books, q: 'Rust', attributesToRetrieve: ['author'] }] });
    expect(federated.body.hits[0].author).toEqual({ id: 'a1', name: 'Alice' });

    await call(server, 'PATCH', '/experimental-features', { foreignKeys: false });
    try {
      const raw = await search(books, params);
      expect(raw.body.hits[0]).toMatchObject({ author: 'a1', related_authors: ['a2', 'a3'], _formatted: { author: 'a1' } });
      expectError(
        await search(books, { filter: 'genres = action AND _foreign(author, birthday STARTS WITH "1958-" AND popularity >= 3.5)' }),
        400,
        'feature_not_enabled',
        'using a foreign filter requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873\n30:36 _foreign(author, birthday STARTS WITH "1958-" AND popularity >= 3.5)',
      );
    } finally {
      await call(server, 'PATCH', '/experimental-features', { foreignKeys: true });
    }
  });
});
