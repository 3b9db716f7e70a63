import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let client: Meilisearch;
let counter = 0;
const uniqueIndex = () => `edit_${process.pid}_${counter++}`;

async function send(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as Record<string, any>) };
}

const task = (uid: number) => client.tasks.waitForTask(uid, { interval: 20, timeout: 20_000 });

async function indexWith(documents: Record<string, unknown>[]): Promise<string> {
  const uid = uniqueIndex();
  const done = await task((await client.index(uid).addDocuments(documents, { primaryKey: 'id' })).taskUid);
  expect(done.status).toBe('succeeded');
  return uid;
}

async function edit(uid: string, body: Record<string, unknown>) {
  const enqueued = await send('POST', `/indexes/${uid}/documents/edit`, body);
  expect(enqueued.status, JSON.stringify(enqueued.body)).toBe(202);
  return task(enqueued.body!.taskUid as number);
}

const documents = async (uid: string) => (await client.index(uid).getDocuments({ limit: 100 })).results;

const error = (message: string, code: string) => ({ message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` });

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
});
afterAll(async () => {
  await server.dispose();
});

describe('feature gate', () => {
  it('refuses the route while editDocumentsByFunction is off', async () => {
    const res = await send('POST', '/indexes/movies/documents/edit', { function: 'doc.a = 1' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      error(
        'Using the documents edit route requires enabling the `edit documents by function` experimental feature. See https://github.com/orgs/meilisearch/discussions/762',
        'feature_not_enabled',
      ),
    );
  });

  it('checks the body shape before the feature flag', async () => {
    const res = await send('POST', '/indexes/movies/documents/edit', {});
    expect(res.body).toEqual(error('Missing field `function`', 'missing_document_edition_function'));
  });
});

describe('with the feature on', () => {
  beforeAll(async () => {
    const res = await send('PATCH', '/experimental-features', { editDocumentsByFunction: true });
    expect(res.body!.editDocumentsByFunction).toBe(true);
  });

  it('takes customMetadata from the query string and refuses other parameters (v1.50 CustomMetadataQuery)', async () => {
    const uid = await indexWith([{ id: 1, title: 'a' }]);
    const enqueued = await send('POST', `/indexes/${uid}/documents/edit?customMetadata=abc`, { function: 'doc.title = "b"' });
    expect(enqueued.status).toBe(202);
    expect(enqueued.body!.customMetadata).toBe('abc');
    expect((await task(enqueued.body!.taskUid as number)).customMetadata).toBe('abc');
    const unknown = await send('POST', `/indexes/${uid}/documents/edit?foo=1`, { function: 'doc.title = "b"' });
    expect(unknown).toMatchObject({ status: 400, body: error('Unknown parameter `foo`: expected one of `customMetadata`', 'bad_request') });
  });

  it('edits the documents a `_vectors` filter selects, read from the vector store', async () => {
    // vector filters are behind the multimodal feature in v1.50
    expect((await send('PATCH', '/experimental-features', { multimodal: true })).status).toBe(200);
    const uid = uniqueIndex();
    const settings = await task((await client.index(uid).updateSettings({ embedders: { manual: { source: 'userProvided', dimensions: 2 } } })).taskUid);
    expect(settings.status).toBe('succeeded');
    const added = await task(
      (
        await client.index(uid).addDocuments(
          [
            { id: 1, title: 'with', _vectors: { manual: [1, 0] } },
            { id: 2, title: 'without', _vectors: { manual: null } },
          ],
          { primaryKey: 'id' },
        )
      ).taskUid,
    );
    expect(added.status).toBe('succeeded');
    const edited = await edit(uid, { function: 'doc.title = "edited"', filter: '_vectors.manual EXISTS' });
    expect(edited.status, JSON.stringify(edited.error)).toBe('succeeded');
    expect(await documents(uid)).toEqual([
      { id: 1, title: 'edited' },
      { id: 2, title: 'without' },
    ]);
  });

  it("replaces, checks and opts out a userProvided embedder's vectors as the edition writes them (v1.50 indexes them as a replacement's)", async () => {
    const uid = uniqueIndex();
    const settings = await task((await client.index(uid).updateSettings({ embedders: { e: { source: 'userProvided', dimensions: 2 } } })).taskUid);
    expect(settings.status).toBe('succeeded');
    const docs = [
      { id: 1, _vectors: { e: [1, 0] } },
      { id: 2, _vectors: { e: [1, 0] } },
    ];
    expect((await task((await client.index(uid).addDocuments(docs, { primaryKey: 'id' })).taskUid)).status).toBe('succeeded');
    const vectors = async () => (await client.index(uid).getDocuments({ retrieveVectors: true })).results.map((doc) => [doc.id, doc._vectors.e.embeddings]);

    // an edition that leaves `_vectors` alone keeps the stored embeddings
    expect((await edit(uid, { function: 'doc.x = 1' })).status).toBe('succeeded');
    expect((await edit(uid, { function: 'if doc.id == 1 { doc._vectors = #{e: [0.0, 1.0]} }' })).status).toBe('succeeded');
    expect(await vectors()).toEqual([
      [1, [[0, 1]]],
      [2, [[1, 0]]],
    ]);
    const hits = await client.index(uid).search(null, { vector: [0, 1], hybrid: { embedder: 'e', semanticRatio: 1 }, showRankingScore: true });
    expect(hits.hits.map((hit) => [hit.id, hit._rankingScore])).toEqual([
      [1, 1],
      [2, 0.5],
    ]);

    const wrong = await edit(uid, { function: 'doc._vectors = #{e: [1.0, 2.0, 3.0]}' });
    expect(wrong.error).toEqual(
      error(
        `Index \`${uid}\`: Invalid vector dimensions in document with id \`1\` in \`._vectors.e\`.\n  - note: embedding #0 has dimensions 3\n  - note: embedder \`e\` requires 2`,
        'invalid_vector_dimensions',
      ),
    );
    expect((await edit(uid, { function: 'if doc.id == 2 { doc._vectors = #{e: ()} }' })).status).toBe('succeeded');
    expect(await vectors()).toEqual([
      [1, [[0, 1]]],
      [2, []],
    ]);
  });

  describe('request errors', () => {
    it.each([
      [{}, error('Missing field `function`', 'missing_document_edition_function')],
      [{ function: 1 }, error('Invalid value type at `.function`: expected a string, but found a positive integer: `1`', 'invalid_document_edition_function_filter')],
      [{ function: 'doc.a = 1', doggo: 1 }, error('Unknown field `doggo`: expected one of `filter`, `context`, `function`', 'bad_request')],
      [{ function: 'doc.a = 1 doc.b = 2' }, error("Expecting ';' to terminate this statement (line 1, position 11)", 'bad_request')],
      [{ function: 'doc.a = ' }, error('Script is incomplete (line 1, position 9)', 'bad_request')],
      [{ function: 'doc.a = 1', filter: '' }, error('Sending an empty filter is forbidden.', 'invalid_document_filter')],
      [{ function: 'doc.a = 1', filter: [] }, error('Sending an empty filter is forbidden.', 'invalid_document_filter')],
      [
        { function: 'doc.a = 1', filter: 'id >' },
        error('Index `movies`: Was expecting a value but instead got nothing.\n5:5 id >', 'invalid_document_filter'),
      ],
      [
        { function: 'doc.a = 1', filter: true },
        error('Index `movies`: Invalid syntax for the filter parameter: `expected String, Array, found: true`.', 'invalid_document_filter'),
      ],
      [{ function: 'doc.a = 1', context: [1] }, error('The context must be an object', 'invalid_document_edition_context')],
      [{ function: 'doc.a = 1', context: 'x' }, error('The context must be an object', 'invalid_document_edition_context')],
    ])('%j is refused', async (body, expected) => {
      const res = await send('POST', '/indexes/movies/documents/edit', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
    });

    it('validates the index uid', async () => {
      const res = await send('POST', '/indexes/bad%20uid/documents/edit', { function: 'doc.a = 1' });
      expect(res.status).toBe(400);
      expect(res.body!.code).toBe('invalid_index_uid');
    });

    it('gates CONTAINS in the filter behind its own feature', async () => {
      const res = await send('POST', '/indexes/movies/documents/edit', { function: 'doc.a = 1', filter: 'title CONTAINS a' });
      expect(res.status).toBe(400);
      expect(res.body!.code).toBe('feature_not_enabled');
    });

    it('names the index when it refuses a foreign filter', async () => {
      const res = await send('POST', '/indexes/movies/documents/edit', { function: 'doc.a = 1', filter: '_foreign(author, id = a1)' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        error(
          'Index `movies`: using a foreign filter requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873\n10:16 _foreign(author, id = a1)',
          'feature_not_enabled',
        ),
      );
    });
  });

  describe('editions', () => {
    it('edits every document, answering a documentEdition task with its details', async () => {
      const uid = await indexWith([
        { id: 1, title: 'carol', year: 2015 },
        { id: 2, title: 'alien', year: 1979 },
      ]);
      const fn = 'doc.title = doc.title.to_upper(); doc.decade = doc.year / 10 * 10;';
      const enqueued = await send('POST', `/indexes/${uid}/documents/edit`, { function: fn });
      expect(enqueued.status).toBe(202);
      expect(enqueued.body).toMatchObject({ indexUid: uid, status: 'enqueued', type: 'documentEdition' });
      const done = await task(enqueued.body!.taskUid as number);
      expect(done.status).toBe('succeeded');
      expect(done.details).toEqual({ editedDocuments: 2, deletedDocuments: 2, originalFilter: null, context: null, function: fn });
      expect(await documents(uid)).toEqual([
        { id: 1, title: 'CAROL', year: 2015, decade: 2010 },
        { id: 2, title: 'ALIEN', year: 1979, decade: 1970 },
      ]);
    });

    it('deletes documents set to (), replaces edited ones and removes fields', async () => {
      const uid = await indexWith([1, 2, 3, 4].map((id) => ({ id, title: `t${id}`, overview: 'long' })));
      const done = await edit(uid, { function: 'if doc.id % 2 == 0 { doc = (); } else { doc.remove("overview"); }' });
      expect(done.status).toBe('succeeded');
      expect(done.details).toMatchObject({ editedDocuments: 4, deletedDocuments: 4 });
      expect(await documents(uid)).toEqual([
        { id: 1, title: 't1' },
        { id: 3, title: 't3' },
      ]);
      const stats = await send('GET', `/indexes/${uid}/stats`);
      expect(stats.body).toMatchObject({ numberOfDocuments: 2, fieldDistribution: { id: 2, title: 2 } });
    });

    it('reads the context as a constant and shows it in the details', async () => {
      const uid = await indexWith([{ id: 'a', price: 10 }]);
      const done = await edit(uid, { function: 'doc.price = doc.price * context.ratio; doc.tag = context["tag"];', context: { ratio: 1.5, tag: 'x' } });
      expect(done.details).toMatchObject({ context: { ratio: 1.5, tag: 'x' } });
      expect(await documents(uid)).toEqual([{ id: 'a', price: 15, tag: 'x' }]);
    });

    it('runs 1000 nested script calls, as Rhai allows', async () => {
      const uid = await indexWith([{ id: 1, n: 999 }]);
      const fn = 'fn depth(n) { if n == 0 { return 0; } depth(n - 1) + 1 } doc.depth = depth(doc.n);';
      expect((await edit(uid, { function: fn })).status).toBe('succeeded');
      expect(await documents(uid)).toEqual([{ id: 1, n: 999, depth: 999 }]);
    });

    it('succeeds with zero counts on an empty index', async () => {
      const uid = uniqueIndex();
      await task((await client.createIndex(uid)).taskUid);
      const done = await edit(uid, { function: 'doc = ()' });
      expect(done.status).toBe('succeeded');
      expect(done.details).toMatchObject({ editedDocuments: 0, deletedDocuments: 0 });
    });

    it('works through the meilisearch client', async () => {
      const uid = await indexWith([{ id: 1, name: 'ada' }]);
      const enqueued = await client.index(uid).updateDocumentsByFunction({ function: 'doc.name = `${doc.name} ${context.last}`', context: { last: 'lovelace' } });
      const done = await task(enqueued.taskUid);
      expect(done.type).toBe('documentEdition');
      expect(done.status).toBe('succeeded');
      expect(await client.index(uid).getDocument(1)).toEqual({ id: 1, name: 'ada lovelace' });
    });
  });

  describe('cancelation', () => {
    it('stops a running edition at once, changing nothing', async () => {
      const uid = await indexWith(Array.from({ length: 300 }, (_, id) => ({ id, n: 0 })));
      // Tens of milliseconds of work per document (under the operation limit): the whole edition
      // would take many seconds.
      const fn = 'let s = 0; for i in 0..150000 { s += i; } doc.n = s;';
      const enqueued = await send('POST', `/indexes/${uid}/documents/edit`, { function: fn });
      const taskUid = enqueued.body!.taskUid as number;
      for (let status = ''; status !== 'processing'; status = (await send('GET', `/tasks/${taskUid}`)).body!.status) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const started = Date.now();
      await task((await send('POST', `/tasks/cancel?uids=${taskUid}`)).body!.taskUid as number);
      const done = await task(taskUid);
      expect(done.status).toBe('canceled');
      // Far below the edition's own duration, even on a loaded machine.
      expect(Date.now() - started).toBeLessThan(5000);
      expect((await documents(uid)).every((d) => d.n === 0)).toBe(true);
    });
  });

  describe('filters', () => {
    it('edits only the documents matching the filter and records it as originalFilter', async () => {
      const uid = await indexWith([1, 2, 3, 4].map((id) => ({ id, seen: false })));
      const settings = await send('PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['id'] });
      expect((await task(settings.body!.taskUid as number)).status).toBe('succeeded');
      const done = await edit(uid, { function: 'doc.seen = true', filter: 'id > 2' });
      expect(done.status).toBe('succeeded');
      expect(done.details).toMatchObject({ editedDocuments: 2, deletedDocuments: 2, originalFilter: '"id > 2"' });
      expect((await documents(uid)).map((d) => d.seen)).toEqual([false, false, true, true]);
    });

    it('fails the task on an attribute that is not filterable', async () => {
      const uid = await indexWith([{ id: 1 }]);
      const done = await edit(uid, { function: 'doc.a = 1', filter: 'genre = horror' });
      expect(done.status).toBe('failed');
      expect(done.error).toEqual(
        error(`Index \`${uid}\`: Attribute \`genre\` is not filterable. This index does not have configured filterable attributes.\n1:6 genre = horror`, 'invalid_document_filter'),
      );
    });
  });

  describe('task failures', () => {
    const failure = async (fn: string, docs: Record<string, unknown>[] = [{ id: 1, title: 'a' }, { id: 2, title: 'b' }]) => {
      const uid = await indexWith(docs);
      const done = await edit(uid, { function: fn });
      expect(done.status).toBe('failed');
      expect(done.details).toEqual({ editedDocuments: 0, deletedDocuments: null, originalFilter: null, context: null, function: fn });
      // A failed edition changes nothing.
      expect(await documents(uid)).toEqual(docs);
      expect(done.error).not.toBeNull();
      return { uid, error: done.error! };
    };

    it('fails on a runtime error with the Rhai message', async () => {
      const { uid, error: e } = await failure('doc.title = doc.title + 1; if doc.id == 2 { doc.x = doc.title.foo(); }');
      expect(e).toEqual(
        error(
          `Index \`${uid}\`: Document edition runtime error encountered while running the function: Function not found: foo (&str | ImmutableString | String) (line 1, position 63)`,
          'edit_documents_by_function_error',
        ),
      );
    });

    it('fails a runaway function on the operations limit', async () => {
      const { uid, error: e } = await failure('loop { doc.n = 1; }');
      expect(e.message).toMatch(new RegExp(`^Index \`${uid}\`: Document edition runtime error encountered while running the function: Too many operations \\(line 1, position \\d+\\)$`));
      expect(e.code).toBe('edit_documents_by_function_error');
    });

    it('fails when the primary key changes', async () => {
      const { uid, error: e } = await failure('doc.id = 10;');
      expect(e).toEqual(error(`Index \`${uid}\`: Document editions cannot modify a document's primary key`, 'edit_documents_by_function_error'));
    });

    it('fails when the primary key becomes a float, as v1.50 reads the id of the document written', async () => {
      const { uid, error: e } = await failure('doc.id = 1.0;');
      expect(e).toEqual(
        error(
          `Index \`${uid}\`: Document identifier \`1.0\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
          'invalid_document_id',
        ),
      );
    });

    it('tells a whole number from the same float, as serde_json does: 7 made 7.0 is written, an id made 1.0 alone fails', async () => {
      const uid = await indexWith([{ id: 1, n: 7 }]);
      const floated = await edit(uid, { function: 'doc.id = 1.0;' });
      expect(floated.error).toEqual(
        error(
          `Index \`${uid}\`: Document identifier \`1.0\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
          'invalid_document_id',
        ),
      );
      expect((await edit(uid, { function: 'doc.n = 7.0;' })).status).toBe('succeeded');
      const raw = async () => (await (await fetch(`${server.url}/indexes/${uid}/documents/1`)).text());
      expect(await raw()).toBe('{"id":1,"n":7.0}');
      expect((await edit(uid, { function: 'doc.n = 7;' })).status).toBe('succeeded');
      expect(await raw()).toBe('{"id":1,"n":7}');
    });

    it('fails when doc is no longer an object', async () => {
      const { uid, error: e } = await failure('doc = "x";');
      expect(e).toEqual(error(`Index \`${uid}\`: Document editions must keep documents as objects`, 'edit_documents_by_function_error'));
    });

    it('fails when the edited document nests deeper than a payload\'s document may', async () => {
      // the document's braces and 128 maps: 129 levels
      const { uid, error: e } = await failure('let x = 1; for i in 0..128 { x = #{ a: x }; } doc.f = x;');
      expect(e).toEqual(error(`Index \`${uid}\`: Document editions cannot nest a document deeper than 128 levels`, 'edit_documents_by_function_error'));
    });

    it('fails when the edited document gives a field a path longer than a payload\'s document may', async () => {
      // a key of 16,384 characters, made by doubling: 2^14
      const { uid, error: e } = await failure('let k = "k"; for i in 0..14 { k += k; } doc[k] = 1;');
      expect(e).toEqual(error(`Index \`${uid}\`: Document editions cannot give a field a path longer than 16383 bytes`, 'edit_documents_by_function_error'));
    });

    it('fails when the edited document loses its primary key', async () => {
      const { uid, error: e } = await failure('doc.remove("id");');
      expect(e.code).toBe('missing_document_id');
      expect(e.message).toMatch(new RegExp(`^Index \`${uid}\`: Document doesn't have a \`id\` attribute`));
    });

    it('fails when the function defines more than 30 functions, which the route does not check', async () => {
      const fn = Array.from({ length: 31 }, (_, i) => `fn f${i}() { ${i} }`).join('\n');
      const { uid, error: e } = await failure(fn);
      expect(e).toEqual(
        error(
          `Index \`${uid}\`: Document edition runtime error encountered while compiling the function: Number of functions defined exceeds maximum limit (line 31, position 1)`,
          'edit_documents_by_function_error',
        ),
      );
    });

    it('fails with index_not_found on a missing index, without creating it', async () => {
      const uid = uniqueIndex();
      const done = await edit(uid, { function: 'doc.a = 1' });
      expect(done.status).toBe('failed');
      expect(done.error).toEqual({ message: `Index \`${uid}\` not found.`, code: 'index_not_found', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#index_not_found' });
      expect((await send('GET', `/indexes/${uid}`)).status).toBe(404);
    });
  });
});
