// Port of Meilisearch's crates/meilisearch/tests/vector/mod.rs (its own cases; the huggingface,
// openai, ollama, rest, settings, fragments and binary_quantized modules it declares are separate
// files): userProvided embeddings added, replaced, opted out with `null` and deleted with their
// document; the failed tasks for wrong dimensions and every malformed `_vectors` value; the
// "no vectors provided" errors with their `_vector` / embedder-name typo hints; clearing documents
// empties the vector store; a document opted out after having an embedding (issue #4588); and a
// custom sort ranking rule breaking the ties of equal vector similarity.
// The Rust tests run each case on a new server with the index `doggo`; here each case has its own
// index on one server (the index uid is then in the messages where `doggo` was), and the
// user_provided_vectors_error case its own server with --max-indexing-threads 1, as in Rust.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, stable, uniqueUid, waitTask } from '../../helpers/api.js';
import { expectJson, finishedTask, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const MANUAL = { source: 'userProvided', dimensions: 3 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `index.get_all_documents` with `retrieveVectors: true`. */
async function allDocumentsWithVectors(srv: TestServer, uid: string): Promise<any> {
  const reply = await call(srv, 'GET', `/indexes/${uid}/documents?retrieveVectors=true`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

/** A search answer with processingTimeMs and requestUid checked by shape and redacted, as the snapshots do. */
function redacted(body: Record<string, unknown>): Record<string, unknown> {
  expect(typeof body.processingTimeMs).toBe('number');
  expect(body.requestUid).toMatch(UUID);
  return { ...body, processingTimeMs: '[duration]', requestUid: '[uuid]' };
}

/** Adds `documents` (202) and returns the finished task, its uid and times redacted. */
async function addDocuments(srv: TestServer, uid: string, documents: unknown): Promise<any> {
  const reply = await call(srv, 'POST', `/indexes/${uid}/documents`, documents);
  expect(reply.status, reply.text).toBe(202);
  return { ...stable(await waitTask(srv, reply.body.taskUid)), uid: '[uid]' };
}

/** The failed documentAdditionOrUpdate task the snapshots show, for `received` documents. */
function failedAddition(uid: string, received: number, code: string, message: string): Record<string, unknown> {
  return finishedTask({
    uid: '[uid]',
    indexUid: uid,
    status: 'failed',
    type: 'documentAdditionOrUpdate',
    details: { receivedDocuments: received, indexedDocuments: 0 },
    error: { message: `Index \`${uid}\`: ${message}`, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` },
  });
}

/** `generate_default_user_provided_documents`: the `manual` embedder and five documents with its embeddings in each accepted form. */
async function defaultUserProvidedDocuments(srv: TestServer): Promise<string> {
  const uid = uniqueUid('doggo');
  const reply = await call(srv, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: MANUAL } });
  expect(reply.status, reply.text).toBe(202);
  await waitTask(srv, reply.body.taskUid);
  await succeed(srv, 'POST', `/indexes/${uid}/documents`, [
    { id: 0, name: 'kefir', _vectors: { manual: [0, 0, 0] } },
    { id: 1, name: 'echo', _vectors: { manual: [1, 1, 1] } },
    { id: 2, name: 'billou', _vectors: { manual: [[2, 2, 2], [2, 2, 3]] } },
    { id: 3, name: 'intel', _vectors: { manual: { regenerate: false, embeddings: [3, 3, 3] } } },
    { id: 4, name: 'max', _vectors: { manual: { regenerate: false, embeddings: [[4, 4, 4], [4, 4, 5]] } } },
  ]);
  return uid;
}

const withVectors = (id: number, name: string, embeddings: number[][], extra: Record<string, unknown> = {}) => ({
  id,
  name,
  ...extra,
  _vectors: { manual: { embeddings, regenerate: false } },
});

describe('add_remove_user_provided', () => {
  it('stores, replaces, opts out (null) and deletes userProvided embeddings', async () => {
    const uid = uniqueUid('doggo');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: MANUAL } });

    await succeed(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 0, name: 'kefir', _vectors: { manual: [0, 0, 0] } },
      { id: 1, name: 'echo', _vectors: { manual: [1, 1, 1] } },
    ]);
    expectJson(await allDocumentsWithVectors(server, uid), {
      results: [withVectors(0, 'kefir', [[0, 0, 0]]), withVectors(1, 'echo', [[1, 1, 1]])],
      offset: 0,
      limit: 20,
      total: 2,
    });

    await succeed(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 0, name: 'kefir', _vectors: { manual: [10, 10, 10] } },
      { id: 1, name: 'echo', _vectors: { manual: null } },
    ]);
    expectJson(await allDocumentsWithVectors(server, uid), {
      results: [withVectors(0, 'kefir', [[10, 10, 10]]), withVectors(1, 'echo', [])],
      offset: 0,
      limit: 20,
      total: 2,
    });

    await succeed(server, 'DELETE', `/indexes/${uid}/documents/0`);
    expectJson(await allDocumentsWithVectors(server, uid), { results: [withVectors(1, 'echo', [])], offset: 0, limit: 20, total: 1 });
  });
});

describe('user_provide_mismatched_embedding_dimension', () => {
  it('fails the addition of an embedding of the wrong dimensions, alone or first of several', async () => {
    const uid = uniqueUid('doggo');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: MANUAL } });
    const message =
      'Invalid vector dimensions in document with id `0` in `._vectors.manual`.\n  - note: embedding #0 has dimensions 2\n  - note: embedder `manual` requires 3';

    expectJson(
      await addDocuments(server, uid, [{ id: 0, name: 'kefir', _vectors: { manual: [0, 0] } }]),
      failedAddition(uid, 1, 'invalid_vector_dimensions', message),
    );
    expectJson(
      await addDocuments(server, uid, [{ id: 0, name: 'kefir', _vectors: { manual: [[0, 0], [1, 1], [2, 2]] } }]),
      failedAddition(uid, 1, 'invalid_vector_dimensions', message),
    );
  });
});

describe('user_provided_embeddings_error', () => {
  const MISSING_REGENERATE =
    'Bad embedder configuration in the document with id: `0`. Missing field `._vectors.manual.regenerate`\n  - note: `._vectors.manual` must be an array of floats, an array of arrays of floats, or an object with field `regenerate`';
  const bad = (detail: string) => `Bad embedder configuration in the document with id: \`0\`. ${detail}`;
  let uid: string;

  beforeAll(async () => {
    uid = await defaultUserProvidedDocuments(server);
  }, 60_000);

  // in the Rust test's order, on the same index
  it('refuses, in order: a missing regenerate, an empty object, a non-boolean regenerate, bad embeddings types; accepts the valid forms', async () => {
    const fails = async (manual: unknown, message: string) =>
      expectJson(await addDocuments(server, uid, { id: 0, name: 'kefir', _vectors: { manual } }), failedAddition(uid, 1, 'invalid_vectors_type', message));

    // First case, we forget to specify the `regenerate`
    await fails({ embeddings: [0, 0, 0] }, MISSING_REGENERATE);
    // Second case, we don't specify anything
    await fails({}, MISSING_REGENERATE);
    // Third case, we specify something wrong in place of regenerate
    await fails(
      { regenerate: 'yes please' },
      bad('Could not parse `._vectors.manual.regenerate`: invalid type: string "yes please", expected a boolean at line 1 column 26'),
    );
    await fails({ embeddings: true, regenerate: true }, bad('Invalid value type at `._vectors.manual.embeddings`: expected null or an array, but found a boolean: `true`'));
    await fails({ embeddings: [true], regenerate: true }, bad('Invalid value type at `._vectors.manual.embeddings[0]`: expected a number or an array, but found a boolean: `true`'));
    await fails({ embeddings: [[true]], regenerate: false }, bad('Invalid value type at `._vectors.manual.embeddings[0][0]`: expected a number, but found a boolean: `true`'));

    expect((await addDocuments(server, uid, { id: 0, name: 'kefir', _vectors: { manual: { embeddings: [23, 0.1, -12], regenerate: true } } })).status).toBe('succeeded');
    expect((await addDocuments(server, uid, { id: 0, name: 'kefir', _vectors: { manual: { regenerate: false } } })).status).toBe('succeeded');

    await fails({ regenerate: false, embeddings: [0.1, [0.2, 0.3]] }, bad('Invalid value type at `._vectors.manual.embeddings[1]`: expected a number, but found an array: `[0.2,0.3]`'));
    await fails({ regenerate: false, embeddings: [[0.1, 0.2], 0.3] }, bad('Invalid value type at `._vectors.manual.embeddings[1]`: expected an array, but found a number: `0.3`'));
    await fails({ regenerate: false, embeddings: [[0.1, true], 0.3] }, bad('Invalid value type at `._vectors.manual.embeddings[0][1]`: expected a number, but found a boolean: `true`'));
  });
});

describe('user_provided_vectors_error', () => {
  // "If we have more than one indexing thread the error messages below may become inconsistent"
  let single: TestServer;
  let uid: string;

  beforeAll(async () => {
    single = await startServer({ args: ['--max-indexing-threads', '1'] });
    uid = await defaultUserProvidedDocuments(single);
  }, 60_000);
  afterAll(async () => {
    await single?.dispose();
  });

  const NOTE = "- Note: `manual` has `source: userProvided`, so documents must provide embeddings as an array in `_vectors.manual`.";

  it('names the first document without vectors and counts the others, with the opt-out hint', async () => {
    const documents = [
      { id: 40, name: 'kefir' },
      { id: 41, name: 'intel' },
      { id: 42, name: 'max' },
      { id: 43, name: 'venus' },
      { id: 44, name: 'eva' },
    ];
    expectJson(
      await addDocuments(single, uid, documents),
      failedAddition(
        uid,
        5,
        'vector_embedding_error',
        `While embedding documents for embedder \`manual\`: no vectors provided for document \`40\` and at least 4 other document(s)\n${NOTE}\n- Hint: opt-out for a document with \`_vectors.manual: null\``,
      ),
    );
  });

  it('hints at replacing `_vector` by `_vectors`', async () => {
    expectJson(
      await addDocuments(single, uid, { id: 42, name: 'kefir', _vector: { manaul: [0, 0, 0] } }),
      failedAddition(
        uid,
        1,
        'vector_embedding_error',
        `While embedding documents for embedder \`manual\`: no vectors provided for document \`42\`\n${NOTE}\n- Hint: try replacing \`_vector\` by \`_vectors\` in 1 document(s).`,
      ),
    );
  });

  it('hints at the embedder name a `_vectors` key misspells', async () => {
    expectJson(
      await addDocuments(single, uid, { id: 42, name: 'kefir', _vectors: { manaul: [0, 0, 0] } }),
      failedAddition(
        uid,
        1,
        'vector_embedding_error',
        `While embedding documents for embedder \`manual\`: no vectors provided for document \`42\`\n${NOTE}\n- Hint: try replacing \`_vectors.manaul\` by \`_vectors.manual\` in 1 document(s).`,
      ),
    );
  });
});

describe('clear_documents', () => {
  it('empties the documents and the vector store', async () => {
    const uid = await defaultUserProvidedDocuments(server);
    await succeed(server, 'DELETE', `/indexes/${uid}/documents`);

    expectJson(await allDocumentsWithVectors(server, uid), { results: [], offset: 0, limit: 20, total: 0 });

    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { vector: [1, 1, 1], hybrid: { embedder: 'manual' } });
    expectJson(redacted(reply.body), {
      hits: [],
      query: '',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 0,
      requestUid: '[uuid]',
      semanticHitCount: 0,
    });
  });
});

describe('add_remove_one_vector_4588', () => {
  it('keeps a document opted out after having had an embedding, still found by a semantic search', async () => {
    const uid = uniqueUid('doggo');
    const settingsTask = await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: MANUAL } });
    expectJson(
      { ...stable(settingsTask), uid: '[uid]' },
      finishedTask({ uid: '[uid]', indexUid: uid, status: 'succeeded', type: 'settingsUpdate', details: { embedders: { manual: { source: 'userProvided', dimensions: 3 } } } }),
    );

    const added = finishedTask({
      uid: '[uid]',
      indexUid: uid,
      status: 'succeeded',
      type: 'documentAdditionOrUpdate',
      details: { receivedDocuments: 1, indexedDocuments: 1 },
    });
    // document-added
    expectJson(await addDocuments(server, uid, [{ id: 0, name: 'kefir', _vectors: { manual: [0, 0, 0] } }]), added);
    // document-deleted
    expectJson(await addDocuments(server, uid, [{ id: 0, name: 'kefir', _vectors: { manual: null } }]), added);

    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { vector: [1, 1, 1], hybrid: { semanticRatio: 1.0, embedder: 'manual' } });
    expectJson(redacted(reply.body), {
      hits: [{ id: 0, name: 'kefir' }],
      query: '',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
      semanticHitCount: 1,
    });

    expectJson(await allDocumentsWithVectors(server, uid), { results: [withVectors(0, 'kefir', [])], offset: 0, limit: 20, total: 1 });
  });
});

describe('eq_with_sort', () => {
  it('breaks the ties of equal similarity with the `value:asc` ranking rule', async () => {
    const uid = uniqueUid('doggo');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      sortableAttributes: ['value'],
      rankingRules: ['words', 'value:asc'],
      embedders: { manual: MANUAL },
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 0, name: 'first with highest value', value: 1000, _vectors: { manual: [1, 1, 1] } },
      { id: 1, name: 'second with intermediate value', value: 499, _vectors: { manual: [1, 1, 1] } },
      { id: 2, name: 'third with other vec value', value: 200, _vectors: { manual: [-1, 1, -1] } },
      { id: 3, name: 'fourth with lowest value', value: 1, _vectors: { manual: [1, 1, 1] } },
    ]);

    expectJson(await allDocumentsWithVectors(server, uid), {
      results: [
        withVectors(0, 'first with highest value', [[1, 1, 1]], { value: 1000 }),
        withVectors(1, 'second with intermediate value', [[1, 1, 1]], { value: 499 }),
        withVectors(2, 'third with other vec value', [[-1, 1, -1]], { value: 200 }),
        withVectors(3, 'fourth with lowest value', [[1, 1, 1]], { value: 1 }),
      ],
      offset: 0,
      limit: 20,
      total: 4,
    });

    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { vector: [1, 1, 1], hybrid: { embedder: 'manual' } });
    expect(reply.status, reply.text).toBe(200);
    expectJson(redacted(reply.body), {
      hits: [
        { id: 3, name: 'fourth with lowest value', value: 1 },
        { id: 1, name: 'second with intermediate value', value: 499 },
        { id: 0, name: 'first with highest value', value: 1000 },
        { id: 2, name: 'third with other vec value', value: 200 },
      ],
      query: '',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 4,
      requestUid: '[uuid]',
      semanticHitCount: 4,
    });
  });
});
