// Port of Meilisearch's crates/meilisearch/tests/vector/openai.rs: the `openAi` embedder against a
// stand-in OpenAI server (test/helpers/openai-mock.ts, answering OpenAI's recorded embeddings for
// the test's texts): documents embedded through the document template and searched semantically
// with each model (text-embedding-3-large, its 512 dimensions, -3-small, ada-002), a text over the
// model's context length sent as its first tokens, a bad or missing API key failing the task with
// OpenAI's answer quoted, bad models and dimensions refused, a server failing 3 calls in 4 retried,
// and a query embedding slower than `searchCutoffMs` answering the keyword results.
//
// Each Rust case runs on a fresh server with index `doggo`; here one server is shared and each
// case has its own index, whose uid stands where the snapshots say `doggo`.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, uniqueUid, waitTask } from '../../helpers/api.js';
import { expectJson } from '../../helpers/meili-datasets.js';
import { LONG_TEXT, openAiMock, type ModelDimensions, type OpenAiMock } from '../../helpers/openai-mock.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const mocks: OpenAiMock[] = [];
beforeAll(async () => {
  server = await startServer({ args: ['--experimental-allowed-ip-networks', 'any'] });
});
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.close()));
});
afterAll(async () => {
  await server?.dispose();
});

const DOGGO_TEMPLATE = `{%- if doc.gender == "F" -%}Une chienne nommée {{doc.name}}, née en {{doc.birthyear}}
        {%- else -%}
        Un chien nommé {{doc.name}}, né en {{doc.birthyear}}
        {%- endif %}, de race {{doc.breed}}.`;

const DOGS = [
  { id: 0, name: 'kefir', gender: 'M', birthyear: 2023, breed: 'Patou' },
  { id: 1, name: 'Intel', gender: 'M', birthyear: 2011, breed: 'Beagle' },
  { id: 2, name: 'Vénus', gender: 'F', birthyear: 2003, breed: 'Jack Russel Terrier' },
  { id: 3, name: 'Max', gender: 'M', birthyear: 1995, breed: 'Labrador Retriever' },
];

const DIMENSIONS: Record<ModelDimensions, number> = { large: 3072, large_512: 512, small: 1536, ada: 1536 };

async function mock(template: string, model: ModelDimensions, options: { fallible?: boolean; slow?: boolean } = {}): Promise<OpenAiMock> {
  const created = await openAiMock(template, model, options);
  mocks.push(created);
  return created;
}

/** PATCH settings, 202, and the finished task. */
async function settings(uid: string, body: unknown): Promise<any> {
  const reply = await call(server, 'PATCH', `/indexes/${uid}/settings`, body);
  expect(reply.status, reply.text).toBe(202);
  return waitTask(server, reply.body.taskUid, 60_000);
}

/** Adds `documents`: the task succeeds, with the counts of the snapshot. */
async function addDocuments(uid: string, documents: unknown[]): Promise<void> {
  const reply = await call(server, 'POST', `/indexes/${uid}/documents`, documents);
  expect(reply.status, reply.text).toBe(202);
  const task = await waitTask(server, reply.body.taskUid, 60_000);
  expect(task).toMatchObject({ indexUid: uid, status: 'succeeded', type: 'documentAdditionOrUpdate', details: { receivedDocuments: documents.length, indexedDocuments: documents.length }, error: null });
}

/** The hits' ids of a purely semantic search for `q`. */
async function semanticIds(uid: string, q: string): Promise<number[]> {
  const reply = await call(server, 'POST', `/indexes/${uid}/search`, { q, hybrid: { semanticRatio: 1.0, embedder: 'default' } });
  expect(reply.status, reply.text).toBe(200);
  for (const hit of reply.body.hits) expect(hit).toStrictEqual(DOGS[hit.id]);
  return reply.body.hits.map((hit: { id: number }) => hit.id);
}

/**
 * The shared body of `it_works`, `smaller_dimensions`, `small_embedding_model`,
 * `legacy_embedding_model` and `it_still_works`: the dogs embedded with `model`, each with one
 * generated embedding, then the three searches' orders.
 */
async function embedsAndSearches(model: ModelDimensions, orders: [number[], number[], number[]], options: { fallible?: boolean } = {}): Promise<void> {
  const { setting } = await mock(DOGGO_TEMPLATE, model, options);
  const uid = uniqueUid('doggo');
  expect((await settings(uid, { embedders: { default: setting } })).status).toBe('succeeded');
  await addDocuments(uid, DOGS);
  const documents = await call(server, 'GET', `/indexes/${uid}/documents?retrieveVectors=true`);
  expect(documents.status).toBe(200);
  expect(documents.body).toMatchObject({ offset: 0, limit: 20, total: 4 });
  documents.body.results.forEach((document: any, i: number) => {
    const { _vectors, ...fields } = document;
    expectJson(fields, DOGS[i]);
    expect(Object.keys(_vectors.default)).toEqual(['embeddings', 'regenerate']);
    expect(_vectors.default.regenerate).toBe(true);
    expect(_vectors.default.embeddings.map((embedding: number[]) => embedding.length)).toEqual([DIMENSIONS[model]]);
  });
  expect(await semanticIds(uid, 'chien de chasse')).toEqual(orders[0]);
  expect(await semanticIds(uid, 'petit chien')).toEqual(orders[1]);
  expect(await semanticIds(uid, 'grand chien de berger des montagnes')).toEqual(orders[2]);
}

/** The failed settings task of `bad_api_key`, OpenAI's answer quoted in its error. */
function authFailure(uid: string, details: Record<string, unknown>, answer: string) {
  return {
    indexUid: uid,
    status: 'failed',
    type: 'settingsUpdate',
    canceledBy: null,
    details: { embedders: { default: details } },
    error: {
      message: `Index \`${uid}\`: While embedding documents for embedder \`default\`: user error: could not authenticate against OpenAI server\n  - server replied with \`${answer}\`\n  - Hint: Check the \`apiKey\` parameter in the embedder configuration, and the \`MEILI_OPENAI_API_KEY\` and \`OPENAI_API_KEY\` environment variables`,
      code: 'vector_embedding_error',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#vector_embedding_error',
    },
  };
}

describe('the openAi embedder (vector/openai.rs)', () => {
  it('it_works: documents embedded with text-embedding-3-large rank by meaning', async () => {
    await embedsAndSearches('large', [
      [1, 0, 3, 2],
      [1, 2, 0, 3],
      [0, 1, 3, 2],
    ]);
  });

  it('smaller_dimensions: text-embedding-3-large asked for 512 dimensions', async () => {
    await embedsAndSearches('large_512', [
      [1, 0, 2, 3],
      [2, 0, 1, 3],
      [0, 3, 1, 2],
    ]);
  });

  it('small_embedding_model: text-embedding-3-small', async () => {
    await embedsAndSearches('small', [
      [3, 1, 2, 0],
      [0, 1, 3, 2],
      [3, 0, 1, 2],
    ]);
  });

  it('legacy_embedding_model: text-embedding-ada-002', async () => {
    await embedsAndSearches('ada', [
      [2, 3, 1, 0],
      [2, 3, 1, 0],
      [3, 2, 1, 0],
    ]);
  });

  it('it_still_works: a server answering 503 to 3 calls in 4 is retried until it answers', async () => {
    await embedsAndSearches(
      'large',
      [
        [1, 0, 3, 2],
        [1, 2, 0, 3],
        [0, 1, 3, 2],
      ],
      { fallible: true },
    );
  });

  it('tokenize_long_text: a text over the context length is embedded from its first tokens', async () => {
    const { setting } = await mock('{{doc.text}}', 'large');
    const uid = uniqueUid('doggo');
    expect((await settings(uid, { embedders: { default: setting } })).status).toBe('succeeded');
    await addDocuments(uid, [{ id: 0, text: LONG_TEXT }]);
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, {
      q: 'grand chien de berger des montagnes',
      showRankingScore: true,
      attributesToRetrieve: ['id'],
      hybrid: { semanticRatio: 1.0, embedder: 'default' },
    });
    expect(reply.status, reply.text).toBe(200);
    expectJson(reply.body.hits, [{ id: 0, _rankingScore: 0.07944583892822266 }]);
  });

  it('bad_api_key: a wrong or missing key fails the task with OpenAI’s 401 quoted; a key not a string is refused', async () => {
    const { setting } = await mock(DOGGO_TEMPLATE, 'large');
    const uid = uniqueUid('doggo');
    await addDocuments(uid, DOGS);
    const shown = { source: 'openAi', model: 'text-embedding-3-large' };
    const rest = { documentTemplate: DOGGO_TEMPLATE, documentTemplateMaxBytes: 8000000, url: setting.url };

    const wrong = await settings(uid, { embedders: { default: { ...setting, apiKey: 'doggo' } } });
    expectJson(
      { ...wrong, uid: 0, batchUid: 0, duration: 0, enqueuedAt: 0, startedAt: 0, finishedAt: 0 },
      {
        uid: 0,
        batchUid: 0,
        ...authFailure(
          uid,
          { ...shown, apiKey: 'XXX...', ...rest },
          '{"error":{"message":"Incorrect API key provided: Bearer doggo. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}',
        ),
        duration: 0,
        enqueuedAt: 0,
        startedAt: 0,
        finishedAt: 0,
      },
    );

    const { apiKey: _key, ...keyless } = setting;
    const missing = await settings(uid, { embedders: { default: keyless } });
    expect(missing).toMatchObject(
      authFailure(
        uid,
        { ...shown, ...rest },
        `{"error":{"message":"You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":null}}`,
      ),
    );
    expect(Object.keys(missing.details.embedders.default)).toEqual(['source', 'model', 'documentTemplate', 'documentTemplateMaxBytes', 'url']);

    const notString = await call(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: { ...keyless, apiKey: 42 } } });
    expectError(notString, 400, 'invalid_settings_embedders', 'Invalid value type at `.embedders.default.apiKey`: expected a string, but found a positive integer: `42`');
  });

  it('bad_model: an unknown or non-string model is refused', async () => {
    const { setting } = await mock(DOGGO_TEMPLATE, 'large');
    const uid = uniqueUid('doggo');
    await addDocuments(uid, DOGS);
    expectError(
      await call(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: { ...setting, model: 'doggo' } } }),
      400,
      'invalid_settings_embedders',
      '`.embedders.default.model`: Invalid model `doggo` for OpenAI. Supported models: ["text-embedding-ada-002", "text-embedding-3-small", "text-embedding-3-large"]',
    );
    expectError(
      await call(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: { ...setting, model: 42 } } }),
      400,
      'invalid_settings_embedders',
      'Invalid value type at `.embedders.default.model`: expected a string, but found a positive integer: `42`',
    );
  });

  it('bad_dimensions: zero, negative and past the model’s dimensions are refused', async () => {
    const { setting } = await mock(DOGGO_TEMPLATE, 'large');
    const uid = uniqueUid('doggo');
    await addDocuments(uid, DOGS);
    const patch = (dimensions: number) => call(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: { ...setting, dimensions } } });
    expectError(await patch(0), 400, 'invalid_settings_embedders', '`.embedders.default.dimensions`: `dimensions` cannot be zero');
    expectError(await patch(-42), 400, 'invalid_settings_embedders', 'Invalid value type at `.embedders.default.dimensions`: expected a positive integer, but found a negative integer: `-42`');
    expectError(
      await patch(42_000_000),
      400,
      'invalid_settings_embedders',
      '`.embedders.default.dimensions`: Model `text-embedding-3-large` does not support overriding its dimensions to a value higher than 3072. Found 42000000',
    );
  });

  it('timeout: a query embedding slower than searchCutoffMs answers the keyword results alone', async () => {
    const { setting } = await mock(DOGGO_TEMPLATE, 'large', { fallible: true, slow: true });
    const uid = uniqueUid('doggo');
    expect((await settings(uid, { embedders: { default: setting }, searchCutoffMs: 500 })).status).toBe('succeeded');
    await addDocuments(uid, DOGS.slice(0, 1));
    const documents = await call(server, 'GET', `/indexes/${uid}/documents?retrieveVectors=true`);
    expect(documents.body.total).toBe(1);
    expect(documents.body.results[0]._vectors.default.regenerate).toBe(true);
    expect(documents.body.results[0]._vectors.default.embeddings).toHaveLength(1);
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'grand chien de berger des montagnes', hybrid: { semanticRatio: 0.99, embedder: 'default' } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.semanticHitCount).toBe(0);
    expect(reply.body.hits).toEqual([]);
  });
});
