// Documents' `_vectors` through the real server: hidden unless `retrieveVectors` is true, then shown
// in Meilisearch's shapes on the document routes, search and multi-search; malformed `_vectors`
// failing the batch; `retrieveVectors` parameter errors.
import { Meilisearch, type DocumentQuery, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let client: Meilisearch;

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
});
afterAll(async () => {
  await server.dispose();
});

/** The client's `getDocument` forwards every query parameter, though its type only names `fields`. */
const withVectors = { fields: undefined, retrieveVectors: true } as DocumentQuery;

const f32 = (...values: number[]) => values.map((x) => Math.fround(x));

async function wait(taskUid: number) {
  return client.tasks.waitForTask(taskUid, { interval: 10, timeout: 10_000 });
}

/** An index with a userProvided embedder `manual` (3 dimensions) and documents in every form. */
async function indexWithVectors(): Promise<Index> {
  const index = client.index(uniqueUid('vectors'));
  await wait((await index.updateSettings({ embedders: { manual: { source: 'userProvided', dimensions: 3 } } })).taskUid);
  const added = await wait(
    (
      await index.addDocuments([
        { id: 0, name: 'kefir', _vectors: { manual: [0.1, 0.2, 0.3] } },
        { id: 1, name: 'echo', _vectors: { manual: [[1, 1, 1], [2, 2, 2]] } },
        { id: 2, name: 'billou', _vectors: { manual: { embeddings: [3, 3, 3], regenerate: true } } },
        { id: 3, name: 'intel', _vectors: { manual: null, other: [0.5, 0.25] } },
        { id: 4, name: 'max', _vectors: { manual: { regenerate: false } } },
      ])
    ).taskUid,
  );
  expect(added.status).toBe('succeeded');
  return index;
}

describe('documents routes', () => {
  it('never show `_vectors` without retrieveVectors, even when `fields` names it', async () => {
    const index = await indexWithVectors();
    expect(await index.getDocument(3)).toEqual({ id: 3, name: 'intel' });
    expect(await index.getDocument(3, { fields: ['_vectors', 'name'] })).toEqual({ name: 'intel' });
    const list = await index.getDocuments({ fields: ['id', '_vectors'] });
    expect(list.results.every((doc) => !('_vectors' in doc))).toBe(true);
    const fetched = await call(server, 'POST', `/indexes/${index.uid}/documents/fetch`, { ids: ['0'], retrieveVectors: false });
    expect(fetched.body.results).toEqual([{ id: 0, name: 'kefir' }]);
  });

  it('GET one shows every form normalised to `{embeddings, regenerate}` with f32 values', async () => {
    const index = await indexWithVectors();
    expect(await index.getDocument(0, withVectors)).toEqual({
      id: 0,
      name: 'kefir',
      _vectors: { manual: { embeddings: [f32(0.1, 0.2, 0.3)], regenerate: false } },
    });
    const raw = await call(server, 'GET', `/indexes/${index.uid}/documents/0?retrieveVectors=true`);
    expect(raw.text).toContain('"embeddings":[[0.10000000149011612,0.20000000298023224,0.30000001192092896]],"regenerate":false');
    expect((await index.getDocument(1, withVectors))._vectors).toEqual({ manual: { embeddings: [[1, 1, 1], [2, 2, 2]], regenerate: false } });
    expect((await index.getDocument(2, withVectors))._vectors).toEqual({ manual: { embeddings: [[3, 3, 3]], regenerate: true } });
    expect((await index.getDocument(4, withVectors))._vectors).toEqual({ manual: { embeddings: [], regenerate: false } });
  });

  it('shows names that are no configured embedder first and as stored, then the embedders', async () => {
    const index = await indexWithVectors();
    const raw = await call(server, 'GET', `/indexes/${index.uid}/documents/3?retrieveVectors=true`);
    expect(raw.text).toBe('{"id":3,"name":"intel","_vectors":{"other":[0.5,0.25],"manual":{"embeddings":[],"regenerate":false}}}');
  });

  it('shows the names that are no configured embedder only when `fields` reaches `_vectors` (v1.50 reads it with the fields)', async () => {
    const index = await indexWithVectors();
    const only = '{"id":3,"_vectors":{"manual":{"embeddings":[],"regenerate":false}}}';
    expect((await call(server, 'GET', `/indexes/${index.uid}/documents/3?fields=id&retrieveVectors=true`)).text).toBe(only);
    const listed = await call(server, 'POST', `/indexes/${index.uid}/documents/fetch`, { ids: ['3'], fields: ['id'], retrieveVectors: true });
    expect(JSON.stringify(listed.body.results)).toBe(`[${only}]`);
    const named = await call(server, 'GET', `/indexes/${index.uid}/documents/3?fields=id,_vectors&retrieveVectors=true`);
    expect(named.text).toBe('{"id":3,"_vectors":{"other":[0.5,0.25],"manual":{"embeddings":[],"regenerate":false}}}');
    const nested = await call(server, 'GET', `/indexes/${index.uid}/documents/3?fields=id,_vectors.other&retrieveVectors=true`);
    expect(nested.text).toBe('{"id":3,"_vectors":{"other":[0.5,0.25],"manual":{"embeddings":[],"regenerate":false}}}');
  });

  it('adds `_vectors` last whatever `fields` selects', async () => {
    const index = await indexWithVectors();
    const raw = await call(server, 'GET', `/indexes/${index.uid}/documents/0?fields=name&retrieveVectors=true`);
    expect(raw.body).toEqual({ name: 'kefir', _vectors: { manual: { embeddings: [f32(0.1, 0.2, 0.3)], regenerate: false } } });
    expect(Object.keys(raw.body)).toEqual(['name', '_vectors']);
  });

  it('moves the last field into the place of a stored `_vectors` it takes out, as v1.50 does (serde_json swap_remove)', async () => {
    const index = client.index(uniqueUid('vectors-order'));
    await wait((await index.addDocuments([{ id: 1, _vectors: { x: [1] } }], { primaryKey: 'id' })).taskUid);
    await wait((await index.addDocuments([{ id: 2, _vectors: { x: [1] }, a: 1, b: 2, c: 3 }])).taskUid);
    // `_vectors` (no configured embedder) keeps its field id, right after `id`
    expect((await call(server, 'GET', `/indexes/${index.uid}/documents/2`)).text).toBe('{"id":2,"c":3,"a":1,"b":2}');
    expect((await call(server, 'GET', `/indexes/${index.uid}/documents/2?retrieveVectors=true`)).text).toBe('{"id":2,"c":3,"a":1,"b":2,"_vectors":{"x":[1]}}');
    expect((await call(server, 'GET', `/indexes/${index.uid}/documents/2?fields=id,a,b`)).text).toBe('{"id":2,"a":1,"b":2}');
    const hits = async (retrieveVectors: boolean) => (await call(server, 'POST', `/indexes/${index.uid}/search`, { retrieveVectors })).body.hits;
    // a search reads `_vectors` only to retrieve it
    expect(Object.keys((await hits(false))[1])).toEqual(['id', 'a', 'b', 'c']);
    expect(Object.keys((await hits(true))[1])).toEqual(['id', 'c', 'a', 'b', '_vectors']);
  });

  it('GET list and POST fetch show the embedder for every document, with `[]` when it has none', async () => {
    const index = await indexWithVectors();
    await wait((await index.addDocuments([{ id: 5, name: 'late', _vectors: { manual: null } }])).taskUid);
    const list = await index.getDocuments({ retrieveVectors: true, limit: 10 });
    expect(list.results.map((doc) => doc._vectors.manual.embeddings.length)).toEqual([1, 2, 1, 0, 0, 0]);
    const fetched = await index.getDocuments({ filter: [], ids: ['1', '5'], retrieveVectors: true, fields: ['id'] });
    expect(fetched.results).toEqual([
      { id: 1, _vectors: { manual: { embeddings: [[1, 1, 1], [2, 2, 2]], regenerate: false } } },
      { id: 5, _vectors: { manual: { embeddings: [], regenerate: false } } },
    ]);
  });

  it('gives an empty `_vectors` object to documents of an index without embedders', async () => {
    const index = client.index(uniqueUid('plain'));
    await wait((await index.addDocuments([{ id: 1, title: 'no vectors' }])).taskUid);
    expect(await index.getDocument(1, withVectors)).toEqual({ id: 1, title: 'no vectors', _vectors: {} });
  });
});

describe('updates', () => {
  it('PUT merges `_vectors` by name and keeps the embeddings of a partial update', async () => {
    const index = await indexWithVectors();
    await wait((await index.updateDocuments([{ id: 3, _vectors: { third: [7] } }, { id: 0, name: 'kefir II' }])).taskUid);
    expect((await index.getDocument(3, withVectors))._vectors).toEqual({ other: [0.5, 0.25], third: [7], manual: { embeddings: [], regenerate: false } });
    expect(await index.getDocument(0, withVectors)).toMatchObject({ name: 'kefir II', _vectors: { manual: { embeddings: [f32(0.1, 0.2, 0.3)] } } });
  });

  it('POST keeps the configured embedder a replacement omits or leaves `{"regenerate": false}`, and drops other names', async () => {
    const index = await indexWithVectors();
    const done = await wait(
      (
        await index.addDocuments([
          { id: 0, name: 'kefir' },
          { id: 1, _vectors: { manual: { regenerate: false } } },
          { id: 3, name: 'intel' },
        ])
      ).taskUid,
    );
    expect(done.status).toBe('succeeded');
    expect((await index.getDocument(0, withVectors))._vectors).toEqual({ manual: { embeddings: [f32(0.1, 0.2, 0.3)], regenerate: false } });
    expect((await index.getDocument(1, withVectors))._vectors).toEqual({ manual: { embeddings: [[1, 1, 1], [2, 2, 2]], regenerate: false } });
    expect((await index.getDocument(3, withVectors))._vectors).toEqual({ manual: { embeddings: [], regenerate: false } });
  });
});

describe('search', () => {
  it('adds `_vectors` to hits with retrieveVectors, whatever attributesToRetrieve says', async () => {
    const index = await indexWithVectors();
    expect((await index.search('kefir')).hits).toEqual([{ id: 0, name: 'kefir' }]);
    const { hits } = await index.search('kefir', { retrieveVectors: true, attributesToRetrieve: ['name'] });
    expect(hits).toEqual([{ name: 'kefir', _vectors: { manual: { embeddings: [f32(0.1, 0.2, 0.3)], regenerate: false } } }]);
    const get = await call(server, 'GET', `/indexes/${index.uid}/search?q=intel&retrieveVectors=true&showRankingScore=true`);
    expect(get.text).toContain('"_vectors":{"other":[0.5,0.25],"manual":{"embeddings":[],"regenerate":false}},"_rankingScore":');
  });

  it('shows `_vectors` only when displayed', async () => {
    const index = await indexWithVectors();
    await wait((await index.updateDisplayedAttributes(['id', 'name'])).taskUid);
    expect((await index.search('kefir', { retrieveVectors: true })).hits).toEqual([{ id: 0, name: 'kefir' }]);
    await wait((await index.updateDisplayedAttributes(['name', '_vectors'])).taskUid);
    expect((await index.search('kefir', { retrieveVectors: true })).hits).toEqual([
      { name: 'kefir', _vectors: { manual: { embeddings: [f32(0.1, 0.2, 0.3)], regenerate: false } } },
    ]);
  });

  it('multi-search queries retrieve vectors each on their own', async () => {
    const index = await indexWithVectors();
    const { results } = await client.multiSearch({
      queries: [
        { indexUid: index.uid, q: 'echo', retrieveVectors: true },
        { indexUid: index.uid, q: 'echo' },
      ],
    });
    expect(results[0]!.hits).toEqual([{ id: 1, name: 'echo', _vectors: { manual: { embeddings: [[1, 1, 1], [2, 2, 2]], regenerate: false } } }]);
    expect(results[1]!.hits).toEqual([{ id: 1, name: 'echo' }]);
  });
});

describe('indexing errors', () => {
  async function failure(documents: unknown): Promise<{ code: string; message: string }> {
    const index = await indexWithVectors();
    const task = await run(server, 'POST', `/indexes/${index.uid}/documents`, documents);
    expect(task.status).toBe('failed');
    expect(task.details).toEqual({ receivedDocuments: 1, indexedDocuments: 0 });
    expect(await index.getDocument(0)).toEqual({ id: 0, name: 'kefir' });
    return { code: task.error.code, message: task.error.message.replace(`Index \`${index.uid}\`: `, 'Index `doggo`: ') };
  }

  it('fails the batch on an object without `regenerate`', async () => {
    expect(await failure({ id: 0, name: 'kefir', _vectors: { manual: { embeddings: [0, 0, 0] } } })).toEqual({
      code: 'invalid_vectors_type',
      message:
        'Index `doggo`: Bad embedder configuration in the document with id: `0`. Missing field `._vectors.manual.regenerate`\n  - note: `._vectors.manual` must be an array of floats, an array of arrays of floats, or an object with field `regenerate`',
    });
  });

  it('fails the batch on a `regenerate` that is not a boolean', async () => {
    expect((await failure({ id: 0, _vectors: { manual: { regenerate: 'yes please' } } })).message).toBe(
      'Index `doggo`: Bad embedder configuration in the document with id: `0`. Could not parse `._vectors.manual.regenerate`: invalid type: string "yes please", expected a boolean at line 1 column 26',
    );
  });

  it('fails the batch on embeddings that are not numbers', async () => {
    expect(await failure({ id: 0, _vectors: { manual: { regenerate: false, embeddings: [0.1, [0.2, 0.3]] } } })).toEqual({
      code: 'invalid_vectors_type',
      message:
        'Index `doggo`: Bad embedder configuration in the document with id: `0`. Invalid value type at `._vectors.manual.embeddings[1]`: expected a number, but found an array: `[0.2,0.3]`',
    });
  });

  it('fails the batch on embeddings of the wrong dimensions', async () => {
    expect(await failure({ id: 0, _vectors: { manual: [1, 2] } })).toEqual({
      code: 'invalid_vector_dimensions',
      message: 'Index `doggo`: Invalid vector dimensions in document with id `0` in `._vectors.manual`.\n  - note: embedding #0 has dimensions 2\n  - note: embedder `manual` requires 3',
    });
  });

  it('fails the batch on a `_vectors` that is not an object', async () => {
    expect(await failure({ id: 0, _vectors: 'x' })).toEqual({
      code: 'invalid_vectors_type',
      message:
        'Index `doggo`: The `_vectors` field in the document with id: `0` is not an object. Was expecting an object with a key for each embedder with manually provided vectors, but instead got `"x"`',
    });
  });
});

describe('retrieveVectors parameter errors', () => {
  const boolean = (raw: string) => `Invalid value in parameter \`retrieveVectors\`: could not parse \`${raw}\` as a boolean, expected either \`true\` or \`false\``;

  it('refuses a query-string value that is not exactly true or false', async () => {
    const index = await indexWithVectors();
    for (const [path, code] of [
      [`/indexes/${index.uid}/documents?retrieveVectors=tamo`, 'invalid_document_retrieve_vectors'],
      [`/indexes/${index.uid}/documents/0?retrieveVectors=tamo`, 'invalid_document_retrieve_vectors'],
      [`/indexes/${index.uid}/search?retrieveVectors=tamo`, 'invalid_search_retrieve_vectors'],
    ] as const) {
      const reply = await call(server, 'GET', path);
      expect(reply.status, path).toBe(400);
      expect(reply.body).toMatchObject({ code, message: boolean('tamo'), type: 'invalid_request' });
    }
    const empty = await call(server, 'GET', `/indexes/${index.uid}/search?retrieveVectors=`);
    expect(empty.body).toMatchObject({ code: 'invalid_search_retrieve_vectors', message: boolean('') });
  });

  it('refuses a JSON value that is not a boolean', async () => {
    const index = await indexWithVectors();
    const fetched = await call(server, 'POST', `/indexes/${index.uid}/documents/fetch`, { retrieveVectors: 'tamo' });
    expect(fetched.status).toBe(400);
    expect(fetched.body).toMatchObject({
      code: 'invalid_document_retrieve_vectors',
      message: 'Invalid value type at `.retrieveVectors`: expected a boolean, but found a string: `"tamo"`',
    });
    const searched = await call(server, 'POST', `/indexes/${index.uid}/search`, { retrieveVectors: [true] });
    expect(searched.body).toMatchObject({
      code: 'invalid_search_retrieve_vectors',
      message: 'Invalid value type at `.retrieveVectors`: expected a boolean, but found an array: `[true]`',
    });
    const multi = await call(server, 'POST', '/multi-search', { queries: [{ indexUid: index.uid, retrieveVectors: 1 }] });
    expect(multi.body).toMatchObject({ code: 'invalid_search_retrieve_vectors' });
    expect(multi.body.message).toMatch(/^Invalid value type at `\.queries\[0\]\.retrieveVectors`: expected a boolean, but found a positive integer: `1`/);
  });
});
