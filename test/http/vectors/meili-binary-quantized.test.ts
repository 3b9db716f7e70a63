// Port of Meilisearch's crates/meilisearch/tests/vector/binary_quantized.rs: the `binaryQuantized`
// flag of a userProvided embedder — how the settings show it (absent, false, true), documents
// quantized to 0/1 per dimension whether they come before or after the flag is set, the refusal to
// turn it off again (a failed settings task), clearing the documents of a quantized index (documents
// and vector store both empty), and removing a quantized embedder.
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

async function embedderSettings(uid: string): Promise<unknown> {
  const reply = await call(server, 'GET', `/indexes/${uid}/settings`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.embedders.manual;
}

/** `index.get_all_documents` with `retrieveVectors: true`. */
async function allDocumentsWithVectors(uid: string): Promise<any> {
  const reply = await call(server, 'GET', `/indexes/${uid}/documents?retrieveVectors=true`);
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
}

/** A search answer with processingTimeMs and requestUid checked by shape and redacted, as the snapshots do. */
function redacted(body: Record<string, unknown>): Record<string, unknown> {
  expect(typeof body.processingTimeMs).toBe('number');
  expect(body.requestUid).toMatch(UUID);
  return { ...body, processingTimeMs: '[duration]', requestUid: '[uuid]' };
}

const QUANTIZED = {
  results: [
    { id: 0, name: 'kefir', _vectors: { manual: { embeddings: [[0.0, 0.0, 1.0]], regenerate: false } } },
    { id: 1, name: 'echo', _vectors: { manual: { embeddings: [[1.0, 1.0, 0.0]], regenerate: false } } },
  ],
  offset: 0,
  limit: 20,
  total: 2,
};

const KEFIR_AND_ECHO = [
  { id: 0, name: 'kefir', _vectors: { manual: [-1.2, -2.3, 3.2] } },
  { id: 1, name: 'echo', _vectors: { manual: [2.5, 1.5, -130] } },
];

describe('retrieve_binary_quantize_status_in_the_settings', () => {
  it('shows binaryQuantized only once it was given, with the value given', async () => {
    const uid = uniqueUid();
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: MANUAL } });
    expect(JSON.stringify(await embedderSettings(uid))).toBe('{"source":"userProvided","dimensions":3}');

    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { ...MANUAL, binaryQuantized: false } } });
    expect(JSON.stringify(await embedderSettings(uid))).toBe('{"source":"userProvided","dimensions":3,"binaryQuantized":false}');

    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { ...MANUAL, binaryQuantized: true } } });
    expect(JSON.stringify(await embedderSettings(uid))).toBe('{"source":"userProvided","dimensions":3,"binaryQuantized":true}');
  });
});

describe('binary_quantize_before_sending_documents', () => {
  it('quantizes the embeddings of documents added after the flag is set', async () => {
    const uid = uniqueUid();
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { ...MANUAL, binaryQuantized: true } } });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, KEFIR_AND_ECHO);
    expectJson(await allDocumentsWithVectors(uid), QUANTIZED);
  });
});

describe('binary_quantize_after_sending_documents', () => {
  it('quantizes the embeddings already stored when the flag is set', async () => {
    const uid = uniqueUid();
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: MANUAL } });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, KEFIR_AND_ECHO);
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { ...MANUAL, binaryQuantized: true } } });
    expectJson(await allDocumentsWithVectors(uid), QUANTIZED);
  });
});

describe('try_to_disable_binary_quantization', () => {
  it('fails the settings task that sets binaryQuantized back to false', async () => {
    const uid = uniqueUid();
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { ...MANUAL, binaryQuantized: true } } });
    const reply = await call(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { ...MANUAL, binaryQuantized: false } } });
    expect(reply.status, reply.text).toBe(202);
    const task = stable(await waitTask(server, reply.body.taskUid));
    expectJson(
      { ...task, uid: '[uid]' },
      finishedTask({
        uid: '[uid]',
        indexUid: uid,
        status: 'failed',
        type: 'settingsUpdate',
        details: { embedders: { manual: { source: 'userProvided', dimensions: 3, binaryQuantized: false } } },
        error: {
          message: `Index \`${uid}\`: \`.embedders.manual.binaryQuantized\`: Cannot disable the binary quantization.\n - Note: Binary quantization is a lossy operation that cannot be reverted.\n - Hint: Add a new embedder that is non-quantized and regenerate the vectors.`,
          code: 'invalid_settings_embedders',
          type: 'invalid_request',
          link: 'https://docs.meilisearch.com/errors#invalid_settings_embedders',
        },
      }),
    );
  });
});

describe('binary_quantize_clear_documents', () => {
  it('empties the documents and the vector store of a quantized index', async () => {
    // generate_default_user_provided_documents
    const uid = uniqueUid('doggo');
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: MANUAL } });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 0, name: 'kefir', _vectors: { manual: [0, 0, 0] } },
      { id: 1, name: 'echo', _vectors: { manual: [1, 1, 1] } },
      { id: 2, name: 'billou', _vectors: { manual: [[2, 2, 2], [2, 2, 3]] } },
      { id: 3, name: 'intel', _vectors: { manual: { regenerate: false, embeddings: [3, 3, 3] } } },
      { id: 4, name: 'max', _vectors: { manual: { regenerate: false, embeddings: [[4, 4, 4], [4, 4, 5]] } } },
    ]);

    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { binaryQuantized: true } } });
    await succeed(server, 'DELETE', `/indexes/${uid}/documents`);

    expectJson(await allDocumentsWithVectors(uid), { results: [], offset: 0, limit: 20, total: 0 });

    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { hybrid: { embedder: 'manual' }, vector: [1, 1, 1] });
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

describe('remove_binary_quantized_embedder', () => {
  it('removes a quantized embedder (set to null) successfully', async () => {
    const uid = uniqueUid('doggo');
    // 1. documents with `_vectors` before any embedder exists
    await succeed(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 0, name: 'kefir', _vectors: { default: [1.0, 2.0, 3.0] } },
      { id: 1, name: 'echo', _vectors: { default: [-1.0, 0.5, -2.0] } },
    ]);
    // 2. a userProvided embedder with binaryQuantized
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: { source: 'userProvided', dimensions: 3, binaryQuantized: true } } });
    // 3. removed by setting it to null
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: null } });
  });
});
