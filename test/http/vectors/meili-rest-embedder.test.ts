// Port of Meilisearch's crates/meilisearch/tests/vector/rest.rs: the REST embedder — the request and
// response templates' validation (placeholders, `{{..}}` repeats), bad settings, embedding through
// servers that answer one embedding, an array of them, a bare array, or need a custom header; the
// errors a server's bad request, bad response, 401 or 404 turn into; re-embedding when the searchable
// attributes change the default template's text; the batch's last embedder error while it retries.
//
// The wiremock servers are loopback mocks (test/helpers/meili-rest-mock.ts) and Quarry runs with
// `--experimental-allowed-ip-networks any`. Each Rust test has a new server with an index `doggo`;
// here one server holds an index per test, its uid written back as `doggo` where answers name it
// (`indexUid`, `Index \`doggo\`:`). Tasks are compared as the Rust harness redacts them (`[uid]`,
// `[batch_uid]`, dates, duration, `.details.embedders.*.url` as `[url]`). `last_error_stats` gets a
// server of its own: its mock never answers, which would hold up every later task.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, uniqueUid, waitTask, type Reply } from '../../helpers/api.js';
import { expectJson } from '../../helpers/meili-datasets.js';
import {
  createFaultyMockRaw,
  createMock,
  createMockDefaultTemplate,
  createMockMultiple,
  createMockRaw,
  createMockRawWithCustomHeader,
  createMockSingleResponseInArray,
  redactedTask,
  type MockEmbedder,
} from '../../helpers/meili-rest-mock.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const mocks: MockEmbedder[] = [];
const ARGS = ['--experimental-allowed-ip-networks', 'any'];

beforeAll(async () => {
  server = await startServer({ args: ARGS });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
  for (const mock of mocks) await mock.close();
});

async function track<T extends { mock: MockEmbedder }>(created: Promise<T>): Promise<T> {
  const value = await created;
  mocks.push(value.mock);
  return value;
}

const err = (code: string, message: string) => ({ message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` });
const embeddingError = (message: string) => err('vector_embedding_error', message);

/** PATCH the index's settings (not waited). */
const patchSettings = (uid: string, settings: unknown): Promise<Reply> => call(server, 'PATCH', `/indexes/${uid}/settings`, settings);

/** A synchronous settings refusal, as the snapshot gives it. */
async function expectRefused(uid: string, settings: unknown, code: string, message: string): Promise<void> {
  const reply = await patchSettings(uid, settings);
  expect(reply.status, reply.text).toBe(400);
  expectJson(reply.body, err(code, message));
}

/** Enqueues with a 202 and waits; the finished task. */
async function enqueued(reply: Reply, srv: TestServer = server): Promise<any> {
  expect(reply.status, reply.text).toBe(202);
  return waitTask(srv, reply.body.taskUid);
}


/** The snapshot of a finished task on `doggo`. */
function taskSnapshot(status: string, type: string, details: unknown, error: unknown = null) {
  return {
    uid: '[uid]',
    batchUid: '[batch_uid]',
    indexUid: 'doggo',
    status,
    type,
    canceledBy: null,
    details,
    error,
    duration: '[duration]',
    enqueuedAt: '[date]',
    startedAt: '[date]',
    finishedAt: '[date]',
  };
}

const THREE_DOCUMENTS = [
  { id: 0, name: 'kefir' },
  { id: 1, name: 'echo', _vectors: { rest: [1, 1, 1] } },
  { id: 2, name: 'intel' },
];

/** `GET documents?retrieveVectors=true` after THREE_DOCUMENTS on any of the kefir/intel mocks. */
const THREE_DOCUMENTS_WITH_VECTORS = {
  results: [
    { id: 0, name: 'kefir', _vectors: { rest: { embeddings: [[0, 0, 0]], regenerate: true } } },
    { id: 1, name: 'echo', _vectors: { rest: { embeddings: [[1, 1, 1]], regenerate: false } } },
    { id: 2, name: 'intel', _vectors: { rest: { embeddings: [[1, 1, 1]], regenerate: true } } },
  ],
  offset: 0,
  limit: 20,
  total: 3,
};

/** The common body of add_vector_and_user_provided, server_returns_multiple, server_single_input_returns_in_array and server_raw. */
async function embedsThreeDocuments(setting: unknown): Promise<void> {
  const uid = uniqueUid('doggo');
  const settings = await enqueued(await patchSettings(uid, { embedders: { rest: setting } }));
  expect(settings.status, JSON.stringify(settings.error)).toBe('succeeded');
  const added = await enqueued(await call(server, 'POST', `/indexes/${uid}/documents`, THREE_DOCUMENTS));
  expectJson(redactedTask(added, uid, 'doggo'), taskSnapshot('succeeded', 'documentAdditionOrUpdate', { receivedDocuments: 3, indexedDocuments: 3 }));
  const documents = await call(server, 'GET', `/indexes/${uid}/documents?retrieveVectors=true`);
  expect(documents.status, documents.text).toBe(200);
  expectJson(documents.body, THREE_DOCUMENTS_WITH_VECTORS);
}

const DOC_TEMPLATE_NOTE = '\n  - Note: this template is using a document template, and so expects to contain the placeholder "{{text}}" rather than "{{fragment}}"';

it('dummy_testing_the_mock: the mock answers kefir and intel with their embeddings', async () => {
  const { mock } = await track(createMock());
  const post = async (text: string) => (await fetch(mock.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(text) })).text();
  expect(await post('kefir')).toBe('{"data":[0.0,0.0,0.0]}');
  expect(await post('intel')).toBe('{"data":[1.0,1.0,1.0]}');
  expect(await post('kefir')).toBe('{"data":[0.0,0.0,0.0]}');
  expect(await post('kefir')).toBe('{"data":[0.0,0.0,0.0]}');
  expect(await post('intel')).toBe('{"data":[1.0,1.0,1.0]}');
});

it('bad_request: each malformed `request` template is refused with where and why', async () => {
  const { mock } = await track(createMock());
  const uid = uniqueUid('doggo');
  const rest = (request: unknown) => ({ embedders: { rest: { source: 'rest', url: mock.url, request, response: '{{embedding}}' } } });
  const refused = (request: unknown, message: string) => expectRefused(uid, rest(request), 'vector_embedding_error', `Error while generating embeddings: user error: ${message}${DOC_TEMPLATE_NOTE}`);

  // No placeholder string appear in the template
  await refused('54', 'in `request`: "{{text}}" not found');
  // A repeat string appears inside a repeated value
  await refused({ input: [{ input: ['{{text}}', '{{..}}'] }, '{{..}}'] }, 'in `request.input.input`: "{{..}}" appears nested inside of a value that is itself repeated');
  // A repeat string appears outside of an array
  await refused({ input: { input: '{{text}}', repeat: '{{..}}' } }, 'in `request.input.repeat`: "{{..}}" appears outside of an array');
  // A repeat string appears in an array, but not in the second position
  await refused({ input: ['{{..}}', '{{text}}'] }, 'in `request.input`: "{{..}}" expected at position #1, but found at position #0');
  await refused({ input: ['{{text}}', '42', '{{..}}'] }, 'in `request.input`: "{{..}}" expected at position #1, but found at position #2');
  // A repeated value lacks a placeholder
  await refused({ input: ['42', '{{..}}'] }, 'in `request.input[0]`: Expected "{{text}}" inside of the repeated value');
  // Multiple repeat strings appear in the template
  await refused({ input: ['{{text}}', '{{..}}'], data: ['42', '{{..}}'] }, 'in `request.data`: Found "{{..}}", but it was already present in `request.input`');
  // Multiple placeholder strings appear in the template
  await refused({ input: '{{text}}', data: '{{text}}' }, 'in `request.data`: Found "{{text}}", but it was already present in `request.input`');
  await refused(
    { repeated: [{ input: '{{text}}', data: [42, '{{text}}'] }, '{{..}}'] },
    'in `request.repeated.data[1]`: Found "{{text}}", but it was already present in `request.repeated.input`',
  );
  // A placeholder appears both inside a repeated value and outside of it
  await refused(
    { input: ['{{text}}', '{{..}}'], data: '{{text}}' },
    'in `request.data`: Found "{{text}}", but it was already present in `request.input[0]` (repeated)',
  );
});

it('bad_response: each malformed `response` template is refused with where and why', async () => {
  const { mock } = await track(createMock());
  const uid = uniqueUid('doggo');
  const refused = (response: unknown, message: string, request: unknown = '{{text}}') =>
    expectRefused(
      uid,
      { embedders: { rest: { source: 'rest', url: mock.url, response, request } } },
      'vector_embedding_error',
      `Error while generating embeddings: user error: ${message}`,
    );

  // No placeholder string appear in the template
  await refused('42', 'in `response`: "{{embedding}}" not found');
  // A repeat string appears inside a repeated value
  await refused({ output: [{ output: ['{{embedding}}', '{{..}}'] }, '{{..}}'] }, 'in `response.output.output`: "{{..}}" appears nested inside of a value that is itself repeated');
  // A repeat string appears outside of an array
  await refused({ output: { output: '{{embedding}}', repeat: '{{..}}' } }, 'in `response.output.repeat`: "{{..}}" appears outside of an array');
  // A repeat string appears in an array, but not in the second position
  await refused({ output: ['{{..}}', '{{embedding}}'] }, 'in `response.output`: "{{..}}" expected at position #1, but found at position #0');
  await refused({ output: ['{{embedding}}', '42', '{{..}}'] }, 'in `response.output`: "{{..}}" expected at position #1, but found at position #2');
  // A repeated value lacks a placeholder
  await refused({ output: ['42', '{{..}}'] }, 'in `response.output[0]`: Expected "{{embedding}}" inside of the repeated value');
  // Multiple repeat strings appear in the template
  await refused({ output: ['{{embedding}}', '{{..}}'], data: ['42', '{{..}}'] }, 'in `response.data`: Found "{{..}}", but it was already present in `response.output`');
  // Multiple placeholder strings appear in the template
  await refused(
    { output: [{ type: 'data', data: '{{embedding}}' }], data: '{{embedding}}' },
    'in `response.data`: Found "{{embedding}}", but it was already present in `response.output[0].data`',
  );
  await refused(
    { repeated: [{ output: '{{embedding}}', data: [42, '{{embedding}}'] }, '{{..}}'] },
    'in `response.repeated.data[1]`: Found "{{embedding}}", but it was already present in `response.repeated.output`',
  );
  // A placeholder appears both inside a repeated value and outside of it
  await refused(
    { output: ['{{embedding}}', '{{..}}'], data: '{{embedding}}' },
    'in `response.data`: Found "{{embedding}}", but it was already present in `response.output[0]` (repeated)',
  );
  // request sends a single text but response expects multiple embeddings
  await refused({ data: ['{{embedding}}', '{{..}}'] }, 'in `response`: `response` has multiple embeddings, but `request` has only one text to embed');
  // request sends multiple texts but response expects a single embedding
  await refused(
    { data: '{{embedding}}' },
    'in `response`: `response` has a single embedding, but `request` has multiple texts to embed',
    { data: ['{{text}}', '{{..}}'] },
  );
});

it('bad_settings: missing or invalid fields, a response that does not parse, a wrong dimension', async () => {
  const { mock } = await track(createMock());
  const uid = uniqueUid('doggo');

  await expectRefused(
    uid,
    { embedders: { rest: { source: 'rest', request: 42, response: 42 } } },
    'vector_embedding_error',
    `Error while generating embeddings: user error: in \`request\`: "{{text}}" not found${DOC_TEMPLATE_NOTE}`,
  );
  await expectRefused(
    uid,
    { embedders: { rest: { source: 'rest', url: 'kefir', request: 42, response: 42 } } },
    'invalid_settings_embedders',
    '`.embedders.rest.url`: could not parse `kefir`: relative URL without a base',
  );
  await expectRefused(
    uid,
    { embedders: { rest: { source: 'rest', url: mock.url, response: '{{text}}' } } },
    'invalid_settings_embedders',
    '`.embedders.rest`: Missing field `request` (note: this field is mandatory for source `rest`)',
  );
  await expectRefused(
    uid,
    { embedders: { rest: { source: 'rest', url: mock.url, request: '{{text}}' } } },
    'invalid_settings_embedders',
    '`.embedders.rest`: Missing field `response` (note: this field is mandatory for source `rest`)',
  );
  await expectRefused(
    uid,
    { embedders: { rest: { source: 'rest', url: mock.url, request: '{{text}}', response: 42 } } },
    'vector_embedding_error',
    'Error while generating embeddings: user error: in `response`: "{{embedding}}" not found',
  );

  const failed = await enqueued(await patchSettings(uid, { embedders: { rest: { source: 'rest', url: mock.url, request: '{{text}}', response: '{{embedding}}' } } }));
  expectJson(
    redactedTask(failed, uid, 'doggo'),
    taskSnapshot(
      'failed',
      'settingsUpdate',
      { embedders: { rest: { source: 'rest', url: '[url]', request: '{{text}}', response: '{{embedding}}' } } },
      embeddingError(
        'Index `doggo`: Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with runtime error: error extracting embeddings from the response:\n  - in `response`, while extracting a single "{{embedding}}", expected `response` to be an array of numbers, but failed to parse server response:\n  - invalid type: map, expected a sequence',
      ),
    ),
  );

  // Validate an embedder with a bad dimension of 2 instead of 3
  const settings = await enqueued(
    await patchSettings(uid, {
      embedders: { rest: { source: 'rest', url: mock.url, request: '{{text}}', response: { data: '{{embedding}}' }, dimensions: 2, documentTemplate: '{{doc.name}}' } },
    }),
  );
  expect(settings.status).toBe('succeeded');
  const added = await enqueued(await call(server, 'POST', `/indexes/${uid}/documents`, { id: 1, name: 'kefir' }));
  expectJson(
    redactedTask(added, uid, 'doggo'),
    taskSnapshot(
      'failed',
      'documentAdditionOrUpdate',
      { receivedDocuments: 1, indexedDocuments: 0 },
      embeddingError('Index `doggo`: While embedding documents for embedder `rest`: runtime error: was expecting embeddings of dimension `2`, got embeddings of dimensions `3`'),
    ),
  );
});

it('add_vector_and_user_provided: embedded documents and a user-provided vector side by side', async () => {
  const { setting } = await track(createMock());
  await embedsThreeDocuments(setting);
});

it('server_returns_bad_request: a 400 from the server fails the dimension probe, then the embedding', async () => {
  const { mock } = await track(createMockMultiple());
  const uid = uniqueUid('doggo');

  const failed = await enqueued(await patchSettings(uid, { embedders: { rest: { source: 'rest', url: mock.url, request: '{{text}}', response: '{{embedding}}' } } }));
  expectJson(
    redactedTask(failed, uid, 'doggo'),
    taskSnapshot(
      'failed',
      'settingsUpdate',
      { embedders: { rest: { source: 'rest', url: '[url]', request: '{{text}}', response: '{{embedding}}' } } },
      embeddingError(
        'Index `doggo`: Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with user error: sent a bad request to embedding server\n  - Hint: check that the `request` in the embedder configuration matches the remote server\'s API\n  - server replied with `{"error":"Invalid request: invalid type: string \\"test\\", expected struct MultipleRequest at line 1 column 6"}`',
      ),
    ),
  );

  const settings = await enqueued(
    await patchSettings(uid, {
      searchableAttributes: ['name', 'missing_field'],
      embedders: { rest: { source: 'rest', url: mock.url, request: '{{text}}', response: '{{embedding}}', dimensions: 3 } },
    }),
  );
  expectJson(
    redactedTask(settings, uid, 'doggo'),
    taskSnapshot('succeeded', 'settingsUpdate', {
      searchableAttributes: ['name', 'missing_field'],
      embedders: { rest: { source: 'rest', dimensions: 3, url: '[url]', request: '{{text}}', response: '{{embedding}}' } },
    }),
  );

  const added = await enqueued(await call(server, 'POST', `/indexes/${uid}/documents`, { id: 1, name: 'kefir' }));
  expectJson(
    redactedTask(added, uid, 'doggo'),
    taskSnapshot(
      'failed',
      'documentAdditionOrUpdate',
      { receivedDocuments: 1, indexedDocuments: 0 },
      embeddingError(
        'Index `doggo`: While embedding documents for embedder `rest`: user error: sent a bad request to embedding server\n  - Hint: check that the `request` in the embedder configuration matches the remote server\'s API\n  - server replied with `{"error":"Invalid request: invalid type: string \\"name: kefir\\\\n\\", expected struct MultipleRequest at line 1 column 15"}`',
      ),
    ),
  );
});

it("server_returns_bad_response: responses that do not match the `response` template's shape", async () => {
  const { mock } = await track(createMockMultiple());
  const uid = uniqueUid('doggo');
  const PREFIX =
    'Index `doggo`: Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with runtime error: error extracting embeddings from the response:\n  - ';
  const failsWith = async (request: unknown, response: unknown, message: string) => {
    const task = await enqueued(await patchSettings(uid, { embedders: { rest: { source: 'rest', url: mock.url, request, response } } }));
    expectJson(
      redactedTask(task, uid, 'doggo'),
      taskSnapshot('failed', 'settingsUpdate', { embedders: { rest: { source: 'rest', url: '[url]', request, response } } }, embeddingError(PREFIX + message)),
    );
  };

  await failsWith(
    { input: ['{{text}}', '{{..}}'] },
    ['{{embedding}}', '{{..}}'],
    'in `response`, while extracting the array of "{{embedding}}"s, configuration expects `response` to be an array with at least 1 item(s) but server sent an object with 1 field(s)',
  );
  await failsWith(
    { input: ['{{text}}', '{{..}}'] },
    { output: ['{{embedding}}', '{{..}}'] },
    'in `response`, while extracting item #0 from the array of "{{embedding}}"s, expected `response` to be an array of numbers, but failed to parse server response:\n  - invalid type: map, expected a sequence',
  );
  await failsWith(
    { input: ['{{text}}'] },
    { output: '{{embedding}}' },
    'in `response.output`, while extracting a single "{{embedding}}", expected `output` to be an array of numbers, but failed to parse server response:\n  - invalid type: map, expected f32',
  );
  await failsWith(
    { input: ['{{text}}', '{{..}}'] },
    { output: [{ embedding: { data: '{{embedding}}' } }, '{{..}}'] },
    'in `response.embedding`, while extracting item #0 from the array of "{{embedding}}"s, configuration expects `embedding` to be an object with key `data` but server sent an array of size 3',
  );
  await failsWith(
    { input: ['{{text}}'] },
    { output: [{ embeddings: { data: '{{embedding}}' } }] },
    'in `response.output[0]`, while extracting a single "{{embedding}}", configuration expects key "embeddings", which is missing in response\n  - Hint: item #0 inside `output` has key `embedding`, did you mean `response.output[0].embedding` in embedder configuration?',
  );
});

it('server_returns_multiple: texts batched in one request, embeddings read from an array of objects', async () => {
  const { setting } = await track(createMockMultiple());
  await embedsThreeDocuments(setting);
});

it('server_single_input_returns_in_array: one text in, its embedding inside a one-item array', async () => {
  const { setting } = await track(createMockSingleResponseInArray());
  await embedsThreeDocuments(setting);
});

it('server_raw: a bare JSON string in, a bare array of numbers out', async () => {
  const { setting } = await track(createMockRaw());
  await embedsThreeDocuments(setting);
});

it('server_custom_header: a 401 without or with a wrong header, success with the configured header', async () => {
  const { mock, setting } = await track(createMockRawWithCustomHeader());
  const uid = uniqueUid('doggo');
  const AUTH_PREFIX =
    'Index `doggo`: Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with user error: could not authenticate against embedding server\n  - server replied with ';
  const AUTH_HINT = '\n  - Hint: Check the `apiKey` parameter in the embedder configuration';

  const missing = await enqueued(await patchSettings(uid, { embedders: { rest: { source: 'rest', url: mock.url, request: '{{text}}', response: '{{embedding}}' } } }));
  expectJson(
    redactedTask(missing, uid, 'doggo'),
    taskSnapshot(
      'failed',
      'settingsUpdate',
      { embedders: { rest: { source: 'rest', url: '[url]', request: '{{text}}', response: '{{embedding}}' } } },
      embeddingError(`${AUTH_PREFIX}\`{"error":"missing header 'my-nonstandard-auth'"}\`${AUTH_HINT}`),
    ),
  );

  const wrong = await enqueued(
    await patchSettings(uid, {
      embedders: { rest: { source: 'rest', url: mock.url, request: '{{text}}', response: '{{embedding}}', headers: { 'my-nonstandard-auth': 'Balrog' } } },
    }),
  );
  expectJson(
    redactedTask(wrong, uid, 'doggo'),
    taskSnapshot(
      'failed',
      'settingsUpdate',
      { embedders: { rest: { source: 'rest', url: '[url]', request: '{{text}}', response: '{{embedding}}', headers: { 'my-nonstandard-auth': 'Balrog' } } } },
      embeddingError(`${AUTH_PREFIX}\`{"error":"thou shall not pass, Balrog"}\`${AUTH_HINT}`),
    ),
  );

  const ok = await enqueued(await patchSettings(uid, { embedders: { rest: setting } }));
  expectJson(
    redactedTask(ok, uid, 'doggo'),
    taskSnapshot('succeeded', 'settingsUpdate', {
      embedders: {
        rest: {
          source: 'rest',
          documentTemplate: '{{doc.name}}',
          url: '[url]',
          request: '{{text}}',
          response: '{{embedding}}',
          headers: { 'my-nonstandard-auth': 'bearer of the ring' },
        },
      },
    }),
  );
});

it("searchable_reindex: a searchable-attributes change re-renders the default template and re-embeds (the mock's 404 shows the text)", async () => {
  const { setting } = await track(createMockDefaultTemplate());
  const uid = uniqueUid('doggo');

  const settings = await enqueued(await patchSettings(uid, { searchableAttributes: ['name', 'missing_field'], embedders: { rest: setting } }));
  expectJson(
    redactedTask(settings, uid, 'doggo'),
    taskSnapshot('succeeded', 'settingsUpdate', {
      searchableAttributes: ['name', 'missing_field'],
      embedders: { rest: { source: 'rest', dimensions: 3, url: '[url]', request: '{{text}}', response: { data: '{{embedding}}' } } },
    }),
  );

  const added = await enqueued(await call(server, 'POST', `/indexes/${uid}/documents`, { id: 1, name: 'kefir', breed: 'patou' }));
  expectJson(redactedTask(added, uid, 'doggo'), taskSnapshot('succeeded', 'documentAdditionOrUpdate', { receivedDocuments: 1, indexedDocuments: 1 }));

  // triggers reindexing with the new searchable attribute; the mock does not know the new text
  const reindex = await enqueued(await patchSettings(uid, { searchableAttributes: ['breed'] }));
  expectJson(
    redactedTask(reindex, uid, 'doggo'),
    taskSnapshot(
      'failed',
      'settingsUpdate',
      { searchableAttributes: ['breed'] },
      embeddingError(
        'Index `doggo`: While embedding documents for embedder `rest`: error: received unexpected HTTP 404 from embedding server\n  - server replied with `{"error":"text not found","text":"breed: patou\\n"}`',
      ),
    ),
  );
});

describe('on a server of its own', () => {
  let own: TestServer;
  afterAll(async () => {
    await own?.dispose();
  });

  it("last_error_stats: the processing batch's stats show the embedder's last error while it retries", async () => {
    let hung!: () => void;
    const hanging = new Promise<void>((resolve) => (hung = resolve));
    const { setting } = await track(createFaultyMockRaw(() => hung()));
    own = await startServer({ args: ARGS });

    const settings = await enqueued(await call(own, 'PATCH', '/indexes/doggo/settings', { embedders: { rest: setting } }), own);
    expect(settings.status, JSON.stringify(settings.error)).toBe('succeeded');
    const added = await call(own, 'POST', '/indexes/doggo/documents', [
      { id: 0, name: 'will_return_500' },
      { id: 1, name: 'will_error' },
      { id: 2, name: 'must_error' },
    ]);
    expect(added.status, added.text).toBe(202);

    // The task will eventually fail, so do not wait for it: wait for the mock's signal
    await hanging;

    const batches = await call(own, 'GET', '/batches?indexUids=doggo');
    expect(batches.status, batches.text).toBe(200);
    const batch = batches.body.results[0];
    const ignored = {
      ...batch,
      progress: '[ignored]',
      startedAt: '[ignored]',
      stats: {
        ...batch.stats,
        progressTrace: '[ignored]',
        embedderRequests: { ...batch.stats?.embedderRequests, total: '[ignored]', failed: '[ignored]' },
      },
    };
    expectJson(ignored, {
      uid: 1,
      progress: '[ignored]',
      details: { receivedDocuments: 3, indexedDocuments: null },
      stats: {
        totalNbTasks: 1,
        status: { processing: 1 },
        types: { documentAdditionOrUpdate: 1 },
        indexUids: { doggo: 1 },
        progressTrace: '[ignored]',
        embedderRequests: {
          total: '[ignored]',
          failed: '[ignored]',
          lastError: 'runtime error: received internal error HTTP 500 from embedding server\n  - server replied with `Service Unavailable`',
        },
      },
      duration: null,
      startedAt: '[ignored]',
      finishedAt: null,
      batchStrategy: 'batched all enqueued tasks',
    });
  }, 60_000);
});
