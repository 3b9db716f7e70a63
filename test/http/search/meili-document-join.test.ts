// Port of Meilisearch's crates/meilisearch/tests/search/document_join.rs: the experimental
// `foreignKeys` feature — hydration of foreign-key fields (hits and `_formatted`) in search,
// multi-search and federated search only while the feature is on, `_foreign(field, filter)` filters
// combined with local conditions, the feature-not-enabled error once it is off, and the errors of
// `_foreign` filters (not a foreign key, no foreign keys, nested, inner filter error on the foreign
// index, non-filterable source field).
//
// Each Rust case runs on a fresh server; here one server is shared, so every case turns the
// feature on first and uses indexes of its own. Index uids are uuids the snapshots redact as
// `[uuid]`; the real uid is expected in their place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, uniqueUid, type Reply } from '../../helpers/api.js';
import { expectJson, stableResponse, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.dispose();
});

/** Documents for the "authors" (foreign) index. */
const AUTHORS = [
  { id: 'a1', name: 'Alice' },
  { id: 'a2', name: 'Bob' },
  { id: 'a3', name: 'Charlie' },
  { id: 'a4', name: 'Diana' },
  { id: 'a5', name: 'Ethan' },
  { id: 'a6', name: 'Fiona' },
  { id: 'a7', name: 'George' },
  { id: 'a8', name: 'Hannah' },
  { id: 'a9', name: 'Isaac' },
  { id: 'a10', name: 'Julia' },
  { id: 'a11', name: 'Kevin' },
  { id: 'a12', name: 'Liam' },
  { id: 'a13', name: 'Mia' },
];

/** Documents for the "books" (main) index: `author` and `related_authors` refer to authors. */
const BOOKS = [
  { id: 'b1', title: 'Rust in action', author: 'a1', related_authors: ['a2', 'a3'] },
  { id: 'b2', title: 'Captain Marvel story', author: 'a2', related_authors: ['a3', 'a4'] },
  { id: 'b3', title: 'The Great Gatsby', author: 'a3', related_authors: ['a4', 'a5'] },
  { id: 'b4', title: 'To Kill a Mockingbird', author: 'a4', related_authors: ['a5', 'a6'] },
  { id: 'b5', title: '1984', author: 'a5', related_authors: ['a6', 'a7'] },
  { id: 'b6', title: 'The Catcher in the Rye', author: 'a6', related_authors: ['a7', 'a8'] },
  { id: 'b7', title: 'The Lord of the Rings', author: 'a7', related_authors: ['a8', 'a9'] },
  { id: 'b8', title: 'The Hobbit', author: 'a8', related_authors: ['a9', 'a10'] },
  { id: 'b9', title: 'The Little Prince', author: 'a9', related_authors: ['a10', 'a11'] },
  { id: 'b10', title: 'The Alchemist', author: 'a10', related_authors: ['a11', 'a12'] },
];

/** Same authors with `birthday` and `popularity`; only a2 is born in 1958 with popularity >= 3.5. */
const AUTHORS_WITH_PROFILE = [
  { id: 'a1', name: 'Alice', birthday: '1990-01-01', popularity: 2.0 },
  { id: 'a2', name: 'Bob', birthday: '1958-06-15', popularity: 4.5 },
  { id: 'a3', name: 'Charlie', birthday: '1940-05-05', popularity: 4.8 },
  { id: 'a4', name: 'Diana', birthday: '1985-03-20', popularity: 3.2 },
  { id: 'a5', name: 'Ethan', birthday: '1972-11-30', popularity: 3.9 },
  { id: 'a6', name: 'Fiona', birthday: '1988-07-14', popularity: 2.8 },
  { id: 'a7', name: 'George', birthday: '1961-04-02', popularity: 3.0 },
  { id: 'a8', name: 'Hannah', birthday: '1995-09-09', popularity: 4.1 },
  { id: 'a9', name: 'Isaac', birthday: '1977-12-25', popularity: 3.6 },
  { id: 'a10', name: 'Julia', birthday: '1982-06-01', popularity: 4.0 },
  { id: 'a11', name: 'Kevin', birthday: '1999-02-18', popularity: 2.5 },
  { id: 'a12', name: 'Liam', birthday: '2001-10-10', popularity: 3.1 },
  { id: 'a13', name: 'Mia', birthday: '2003-08-08', popularity: 2.2 },
];

/** Same books with a `genres` array for local filters. */
const BOOKS_WITH_GENRES = [
  { id: 'b1', title: 'Rust in action', author: 'a1', related_authors: ['a2', 'a3'], genres: ['tech', 'programming'] },
  { id: 'b2', title: 'Captain Marvel story', author: 'a2', related_authors: ['a3', 'a4'], genres: ['action', 'fiction'] },
  { id: 'b3', title: 'The Great Gatsby', author: 'a3', related_authors: ['a4', 'a5'], genres: ['action', 'classic'] },
  { id: 'b4', title: 'To Kill a Mockingbird', author: 'a4', related_authors: ['a5', 'a6'], genres: ['classic', 'drama'] },
  { id: 'b5', title: '1984', author: 'a5', related_authors: ['a6', 'a7'], genres: ['dystopia', 'fiction'] },
  { id: 'b6', title: 'The Catcher in the Rye', author: 'a6', related_authors: ['a7', 'a8'], genres: ['action', 'fiction'] },
  { id: 'b7', title: 'The Lord of the Rings', author: 'a7', related_authors: ['a8', 'a9'], genres: ['fantasy', 'adventure'] },
  { id: 'b8', title: 'The Hobbit', author: 'a8', related_authors: ['a9', 'a10'], genres: ['fantasy'] },
  { id: 'b9', title: 'The Little Prince', author: 'a9', related_authors: ['a10', 'a11'], genres: ['fiction'] },
  { id: 'b10', title: 'The Alchemist', author: 'a10', related_authors: ['a11', 'a12'], genres: ['fiction'] },
];

async function setFeatures(foreignKeys: boolean): Promise<void> {
  const reply = await call(server, 'PATCH', '/experimental-features', { foreignKeys });
  expect(reply.status, reply.text).toBe(200);
}

const foreignKeys = (authors: string) => [
  { foreignIndexUid: authors, fieldName: 'author' },
  { foreignIndexUid: authors, fieldName: 'related_authors' },
];

/** setup_indexes_with_foreign_key: books.author and books.related_authors → authors. */
async function setupWithForeignKey(): Promise<[string, string]> {
  const [authors, books] = [uniqueUid('authors'), uniqueUid('books')];
  await succeed(server, 'POST', '/indexes', { uid: authors, primaryKey: 'id' });
  await succeed(server, 'POST', `/indexes/${authors}/documents`, AUTHORS);
  await succeed(server, 'POST', '/indexes', { uid: books, primaryKey: 'id' });
  await succeed(server, 'PATCH', `/indexes/${books}/settings`, { foreignKeys: foreignKeys(authors) });
  await succeed(server, 'POST', `/indexes/${books}/documents`, BOOKS);
  return [authors, books];
}

/** setup_indexes_with_foreign_key_and_filterable_profile. */
async function setupWithFilterableProfile(): Promise<[string, string]> {
  const [authors, books] = [uniqueUid('authors'), uniqueUid('books')];
  await succeed(server, 'POST', '/indexes', { uid: authors, primaryKey: 'id' });
  await succeed(server, 'POST', `/indexes/${authors}/documents`, AUTHORS_WITH_PROFILE);
  await succeed(server, 'PATCH', `/indexes/${authors}/settings`, { filterableAttributes: ['id', 'birthday', 'popularity'] });
  await succeed(server, 'POST', '/indexes', { uid: books, primaryKey: 'id' });
  await succeed(server, 'PATCH', `/indexes/${books}/settings`, {
    foreignKeys: foreignKeys(authors),
    filterableAttributes: ['id', 'genres', 'author', 'related_authors'],
  });
  await succeed(server, 'POST', `/indexes/${books}/documents`, BOOKS_WITH_GENRES);
  return [authors, books];
}

/** setup_indexes_without_foreign_keys: the same documents, no `foreignKeys` on books. */
async function setupWithoutForeignKeys(): Promise<[string, string]> {
  const [authors, books] = [uniqueUid('authors'), uniqueUid('books')];
  await succeed(server, 'POST', '/indexes', { uid: authors, primaryKey: 'id' });
  await succeed(server, 'POST', `/indexes/${authors}/documents`, AUTHORS);
  await succeed(server, 'POST', '/indexes', { uid: books, primaryKey: 'id' });
  await succeed(server, 'POST', `/indexes/${books}/documents`, BOOKS);
  return [authors, books];
}

/** setup_indexes_foreign_key_foreign_author_filterable_id_only. */
async function setupForeignAuthorFilterableIdOnly(): Promise<[string, string]> {
  const [authors, books] = [uniqueUid('authors'), uniqueUid('books')];
  await succeed(server, 'POST', '/indexes', { uid: authors, primaryKey: 'id' });
  await succeed(server, 'POST', `/indexes/${authors}/documents`, AUTHORS_WITH_PROFILE);
  await succeed(server, 'PATCH', `/indexes/${authors}/settings`, { filterableAttributes: ['id'] });
  await succeed(server, 'POST', '/indexes', { uid: books, primaryKey: 'id' });
  await succeed(server, 'PATCH', `/indexes/${books}/settings`, {
    foreignKeys: foreignKeys(authors),
    filterableAttributes: ['id', 'genres', 'author', 'related_authors', 'title'],
  });
  await succeed(server, 'POST', `/indexes/${books}/documents`, BOOKS_WITH_GENRES);
  return [authors, books];
}

const searchPost = (uid: string, body: unknown) => call(server, 'POST', `/indexes/${uid}/search`, body);
const multiSearch = (body: unknown) => call(server, 'POST', '/multi-search', body);

function expectOk(reply: Reply): void {
  expect(reply.status, reply.text).toBe(200);
}

/** The `results` of a multi-search with processingTimeMs, requestUid and indexUid redacted as the Rust test does. */
function redactedResults(reply: Reply, indexUid: string): unknown[] {
  return reply.body.results.map((result: any) => {
    expect(result.indexUid).toBe(indexUid);
    expect(typeof result.processingTimeMs).toBe('number');
    expect(typeof result.requestUid).toBe('string');
    return { ...stableResponse(result), indexUid: '[index]' };
  });
}

/** Federated hits with `_federation` redacted as the Rust test does (its position kept). */
function redactedFederatedHits(reply: Reply): unknown[] {
  return reply.body.hits.map((hit: any) => {
    expect(hit._federation).toBeTypeOf('object');
    return Object.fromEntries(Object.entries(hit).map(([key, value]) => [key, key === '_federation' ? '[federation]' : value]));
  });
}

const ALICE = { id: 'a1', name: 'Alice' };
const BOB = { id: 'a2', name: 'Bob' };
const CHARLIE = { id: 'a3', name: 'Charlie' };
const DIANA = { id: 'a4', name: 'Diana' };

const profile = (id: string) => AUTHORS_WITH_PROFILE.find((author) => author.id === id)!;

const FOREIGN_FILTER_DISABLED = (prefix: string) =>
  `${prefix}using a foreign filter requires enabling the \`foreign_keys\` experimental feature. See https://github.com/orgs/meilisearch/discussions/873\n30:36 _foreign(author, birthday STARTS WITH "1958-" AND popularity >= 3.5)`;

const ACTION_1958_FILTER = 'genres = action AND _foreign(author, birthday STARTS WITH "1958-" AND popularity >= 3.5)';
const CLASSIC_198X_FILTER = 'genres = classic AND (_foreign(author, birthday STARTS WITH "198") OR _foreign(related_authors, birthday STARTS WITH "198"))';
const PROFILE_ATTRIBUTES = ['title', 'author', 'related_authors', 'genres'];

const CAPTAIN_MARVEL_WITH_PROFILES = {
  title: 'Captain Marvel story',
  author: profile('a2'),
  related_authors: [profile('a3'), profile('a4')],
  genres: ['action', 'fiction'],
};

describe('hydration of foreign keys', () => {
  it('search_hydration_with_attributes_to_highlight: hits and _formatted hold the foreign documents only while the feature is on', async () => {
    await setFeatures(true);
    const [, books] = await setupWithForeignKey();
    const params = { q: 'Rust', attributesToRetrieve: ['title', 'author', 'related_authors'], attributesToHighlight: ['title'] };

    const joined = await searchPost(books, params);
    expectOk(joined);
    expectJson(joined.body.hits, [
      {
        title: 'Rust in action',
        author: ALICE,
        related_authors: [BOB, CHARLIE],
        _formatted: { title: '<em>Rust</em> in action', author: ALICE, related_authors: [BOB, CHARLIE] },
      },
    ]);

    await setFeatures(false);
    const raw = await searchPost(books, params);
    expectOk(raw);
    expectJson(raw.body.hits, [
      {
        title: 'Rust in action',
        author: 'a1',
        related_authors: ['a2', 'a3'],
        _formatted: { title: '<em>Rust</em> in action', author: 'a1', related_authors: ['a2', 'a3'] },
      },
    ]);
  });

  it('multi_search_hydration_with_attributes_to_highlight: multi-search results are hydrated only while the feature is on', async () => {
    await setFeatures(true);
    const [, books] = await setupWithForeignKey();
    const params = {
      queries: [{ indexUid: books, q: 'Rust', attributesToRetrieve: ['title', 'author', 'related_authors'], attributesToHighlight: ['title'] }],
    };
    const result = (hits: unknown[]) => ({
      indexUid: '[index]',
      hits,
      query: 'Rust',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });

    const joined = await multiSearch(params);
    expectOk(joined);
    expectJson(redactedResults(joined, books), [
      result([
        {
          title: 'Rust in action',
          author: ALICE,
          related_authors: [BOB, CHARLIE],
          _formatted: { title: '<em>Rust</em> in action', author: ALICE, related_authors: [BOB, CHARLIE] },
        },
      ]),
    ]);

    await setFeatures(false);
    const raw = await multiSearch(params);
    expectOk(raw);
    expectJson(redactedResults(raw, books), [
      result([
        {
          title: 'Rust in action',
          author: 'a1',
          related_authors: ['a2', 'a3'],
          _formatted: { title: '<em>Rust</em> in action', author: 'a1', related_authors: ['a2', 'a3'] },
        },
      ]),
    ]);
  });

  it('federated_search_hydration_with_attributes_to_highlight: federated hits are hydrated only while the feature is on', async () => {
    await setFeatures(true);
    const [, books] = await setupWithForeignKey();
    const params = {
      federation: {},
      queries: [{ indexUid: books, q: 'Captain', attributesToRetrieve: ['title', 'author', 'related_authors'], attributesToHighlight: ['title'] }],
    };

    const joined = await multiSearch(params);
    expectOk(joined);
    expectJson(redactedFederatedHits(joined), [
      {
        title: 'Captain Marvel story',
        author: BOB,
        related_authors: [CHARLIE, DIANA],
        _federation: '[federation]',
        _formatted: { title: '<em>Captain</em> Marvel story', author: BOB, related_authors: [CHARLIE, DIANA] },
      },
    ]);

    await setFeatures(false);
    const raw = await multiSearch(params);
    expectOk(raw);
    expectJson(redactedFederatedHits(raw), [
      {
        title: 'Captain Marvel story',
        author: 'a2',
        related_authors: ['a3', 'a4'],
        _federation: '[federation]',
        _formatted: { title: '<em>Captain</em> Marvel story', author: 'a2', related_authors: ['a3', 'a4'] },
      },
    ]);
  });
});

describe('_foreign filters on the author profile', () => {
  it('search_with_foreign_filter_on_author_profile: a local condition AND a foreign filter narrow the hits; refused once the feature is off', async () => {
    await setFeatures(true);
    const [, books] = await setupWithFilterableProfile();
    const params = { q: '', filter: ACTION_1958_FILTER, attributesToRetrieve: PROFILE_ATTRIBUTES };

    const reply = await searchPost(books, params);
    expectOk(reply);
    expectJson(reply.body.hits, [CAPTAIN_MARVEL_WITH_PROFILES]);

    await setFeatures(false);
    expectError(await searchPost(books, params), 400, 'feature_not_enabled', FOREIGN_FILTER_DISABLED(''));
  });

  it('federated_search_with_foreign_filter_on_author_profile: federated queries with foreign filters merge their hits; refused once the feature is off', async () => {
    await setFeatures(true);
    const [, books] = await setupWithFilterableProfile();
    const params = {
      federation: {},
      queries: [
        { indexUid: books, q: '', filter: ACTION_1958_FILTER, attributesToRetrieve: PROFILE_ATTRIBUTES },
        { indexUid: books, q: '', filter: CLASSIC_198X_FILTER, attributesToRetrieve: PROFILE_ATTRIBUTES },
      ],
    };

    const reply = await multiSearch(params);
    expectOk(reply);
    expectJson(redactedFederatedHits(reply), [
      { ...CAPTAIN_MARVEL_WITH_PROFILES, _federation: '[federation]' },
      {
        title: 'The Great Gatsby',
        author: profile('a3'),
        related_authors: [profile('a4'), profile('a5')],
        genres: ['action', 'classic'],
        _federation: '[federation]',
      },
      {
        title: 'To Kill a Mockingbird',
        author: profile('a4'),
        related_authors: [profile('a5'), profile('a6')],
        genres: ['classic', 'drama'],
        _federation: '[federation]',
      },
    ]);

    await setFeatures(false);
    expectError(await multiSearch(params), 400, 'feature_not_enabled', FOREIGN_FILTER_DISABLED('Inside `.queries[0]`: '));
  });

  it('multi_search_with_foreign_filter_on_author_profile: a multi-search query with a foreign filter; refused once the feature is off', async () => {
    await setFeatures(true);
    const [, books] = await setupWithFilterableProfile();
    const params = { queries: [{ indexUid: books, q: '', filter: ACTION_1958_FILTER, attributesToRetrieve: PROFILE_ATTRIBUTES }] };

    const reply = await multiSearch(params);
    expectOk(reply);
    expectJson(redactedResults(reply, books), [
      {
        indexUid: '[index]',
        hits: [CAPTAIN_MARVEL_WITH_PROFILES],
        query: '',
        processingTimeMs: '[duration]',
        limit: 20,
        offset: 0,
        estimatedTotalHits: 1,
        requestUid: '[uuid]',
      },
    ]);

    await setFeatures(false);
    expectError(await multiSearch(params), 400, 'feature_not_enabled', FOREIGN_FILTER_DISABLED('Inside `.queries[0]`: '));
  });
});

describe('_foreign filter errors', () => {
  /** The search alone, then the same query in a federated multi-search. */
  async function bothWays(books: string, filter: string) {
    const single = await searchPost(books, { q: '', filter });
    const federated = await multiSearch({ queries: [{ indexUid: books, q: '', filter }], federation: {} });
    return [single, federated] as const;
  }

  it('foreign_filter_rejects_field_not_in_foreign_keys: a field that is not a foreign key is refused', async () => {
    await setFeatures(true);
    const [, books] = await setupWithForeignKey();
    const [single, federated] = await bothWays(books, '_foreign(title, id = a1)');
    expectError(single, 400, 'invalid_search_filter', `Index \`${books}\`: Field \`title\` is not a foreign key`);
    expectError(federated, 400, 'invalid_search_filter', `Index \`${books}\`: Field \`title\` is not a foreign key`);
  });

  it('foreign_filter_rejects_when_index_has_no_foreign_keys_configured: an index without foreign keys refuses _foreign', async () => {
    await setFeatures(true);
    const [, books] = await setupWithoutForeignKeys();
    const [single, federated] = await bothWays(books, '_foreign(author, id = a1)');
    expectError(single, 400, 'invalid_search_filter', `Index \`${books}\`: Field \`author\` is not a foreign key`);
    expectError(federated, 400, 'invalid_search_filter', `Index \`${books}\`: Field \`author\` is not a foreign key`);
  });

  it('foreign_filter_rejects_nested_foreign: a _foreign inside a _foreign is refused', async () => {
    await setFeatures(true);
    const [, books] = await setupWithForeignKey();
    const [single, federated] = await bothWays(books, '_foreign(author, id = a1 AND _foreign(related_authors, id = a2))');
    expectError(single, 400, 'invalid_search_filter', `Index \`${books}\`: Nested foreign filters are not supported`);
    expectError(federated, 400, 'invalid_search_filter', `Index \`${books}\`: Nested foreign filters are not supported`);
  });

  it('foreign_filter_propagates_inner_filter_error_on_foreign_index: the foreign index’s filter error is answered, with the outer filter’s position', async () => {
    await setFeatures(true);
    const [authors, books] = await setupForeignAuthorFilterableIdOnly();
    const [single, federated] = await bothWays(books, '_foreign(author, birthday = "1958-06-15")');
    const message = `Index \`${authors}\`: Attribute \`birthday\` is not filterable. Available filterable attribute patterns are: \`id\`.\n18:26 _foreign(author, birthday = "1958-06-15")`;
    expectError(single, 400, 'invalid_document_filter', message);
    expectError(federated, 400, 'invalid_document_filter', message);
  });

  it('foreign_filter_on_non_filterable_attribute: a foreign key that is not filterable is refused at the rewritten IN', async () => {
    await setFeatures(true);
    const [authors, books] = await setupWithoutForeignKeys();
    await succeed(server, 'PATCH', `/indexes/${authors}/settings`, { filterableAttributes: ['id'] });
    await succeed(server, 'PATCH', `/indexes/${books}/settings`, { foreignKeys: [{ foreignIndexUid: authors, fieldName: 'author' }] });
    const [single, federated] = await bothWays(books, '_foreign(author, id = a1)');
    const message = `Index \`${books}\`: Attribute \`author\` is not filterable. This index does not have configured filterable attributes.\n2:8 "author" IN ["a1"]`;
    expectError(single, 400, 'invalid_search_filter', message);
    expectError(federated, 400, 'invalid_search_filter', `Inside \`.queries[0]\`: ${message}`);
  });
});
