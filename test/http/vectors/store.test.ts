// The vector store through the real server: user-provided vectors added, updated and deleted as
// documents, the batch failure of documents without vectors, an embedder's removal writing its
// vectors back into the documents, binary quantization turned on, and the index stats counting
// embeddings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const f32 = (...values: number[]) => values.map((x) => Math.fround(x));

async function indexWithManual(dimensions = 3): Promise<string> {
  const uid = uniqueUid('vectors');
  const task = await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { source: 'userProvided', dimensions } } });
  expect(task.status).toBe('succeeded');
  return uid;
}

async function vectorsOf(uid: string, id: string | number): Promise<unknown> {
  const reply = await call(server, 'GET', `/indexes/${uid}/documents/${id}?retrieveVectors=true`);
  expect(reply.status).toBe(200);
  return reply.body._vectors;
}

describe('documents with user-provided vectors', () => {
  it('stores, replaces and deletes them with their documents, and counts them in the stats', async () => {
    const uid = await indexWithManual();
    const added = await run(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 0, name: 'kefir', _vectors: { manual: [0.1, 0.2, 0.3] } },
      { id: 1, name: 'echo', _vectors: { manual: [[1, 1, 1], [2, 2, 2]] } },
      { id: 2, name: 'intel', _vectors: { manual: null } },
    ]);
    expect(added.status).toBe('succeeded');
    expect(await vectorsOf(uid, 1)).toEqual({ manual: { embeddings: [f32(1, 1, 1), f32(2, 2, 2)], regenerate: false } });
    let stats = (await call(server, 'GET', `/indexes/${uid}/stats`)).body;
    expect(stats).toMatchObject({ numberOfDocuments: 3, numberOfEmbeddings: 3, numberOfEmbeddedDocuments: 2 });
    expect(stats.fieldDistribution).toEqual({ id: 3, name: 3 });

    await run(server, 'PUT', `/indexes/${uid}/documents`, [{ id: 0, name: 'kefir II' }]);
    expect(await vectorsOf(uid, 0)).toEqual({ manual: { embeddings: [f32(0.1, 0.2, 0.3)], regenerate: false } });
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, name: 'echo', _vectors: { manual: [3, 3, 3] } }]);
    await run(server, 'DELETE', `/indexes/${uid}/documents/0`);
    expect(await vectorsOf(uid, 1)).toEqual({ manual: { embeddings: [f32(3, 3, 3)], regenerate: false } });
    stats = (await call(server, 'GET', `/stats`)).body.indexes[uid];
    expect(stats).toMatchObject({ numberOfDocuments: 2, numberOfEmbeddings: 1, numberOfEmbeddedDocuments: 1 });
  });

  it('fails the batch when documents give a userProvided embedder no vectors', async () => {
    const uid = await indexWithManual();
    const task = await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 40, name: 'kefir' }, { id: 41, name: 'intel' }, { id: 42, name: 'max' }, { id: 43, name: 'venus' }, { id: 44, name: 'eva' }]);
    expect(task.status).toBe('failed');
    expect(task.error).toEqual({
      message: `Index \`${uid}\`: While embedding documents for embedder \`manual\`: no vectors provided for document \`40\` and at least 4 other document(s)\n- Note: \`manual\` has \`source: userProvided\`, so documents must provide embeddings as an array in \`_vectors.manual\`.\n- Hint: opt-out for a document with \`_vectors.manual: null\``,
      code: 'vector_embedding_error',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#vector_embedding_error',
    });
    const typo = await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 42, name: 'kefir', _vector: { manaul: [0, 0, 0] } }]);
    expect(typo.error.message).toBe(
      `Index \`${uid}\`: While embedding documents for embedder \`manual\`: no vectors provided for document \`42\`\n- Note: \`manual\` has \`source: userProvided\`, so documents must provide embeddings as an array in \`_vectors.manual\`.\n- Hint: try replacing \`_vector\` by \`_vectors\` in 1 document(s).`,
    );
    const misnamed = await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 42, name: 'kefir', _vectors: { manaul: [0, 0, 0] } }]);
    expect(misnamed.error.message).toMatch(/- Hint: try replacing `_vectors\.manaul` by `_vectors\.manual` in 1 document\(s\)\.$/);
    expect((await call(server, 'GET', `/indexes/${uid}/stats`)).body.numberOfDocuments).toBe(0);
  });
});

describe('embedder settings', () => {
  it('writes user-provided vectors back into the documents when the embedder is removed', async () => {
    const uid = await indexWithManual();
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 0, name: 'kefir', _vectors: { manual: [0.1, 0.2, 0.3] } }]);
    const removed = await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: null } });
    expect(removed.status).toBe('succeeded');
    const doc = (await call(server, 'GET', `/indexes/${uid}/documents/0?retrieveVectors=true`)).body;
    expect(doc).toEqual({ id: 0, name: 'kefir', _vectors: { manual: { regenerate: false, embeddings: [f32(0.1, 0.2, 0.3)] } } });
    expect((await call(server, 'GET', `/indexes/${uid}/stats`)).body).toMatchObject({ numberOfEmbeddings: 0, numberOfEmbeddedDocuments: 0 });
    // added again, the embedder takes them back from the documents
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { source: 'userProvided', dimensions: 3 } } });
    expect(await vectorsOf(uid, 0)).toEqual({ manual: { embeddings: [f32(0.1, 0.2, 0.3)], regenerate: false } });
    expect((await call(server, 'GET', `/indexes/${uid}/stats`)).body).toMatchObject({ numberOfEmbeddings: 1, numberOfEmbeddedDocuments: 1 });
  });

  it('writes back a document sent with regenerate false and no vectors, so adding the embedder again succeeds', async () => {
    const uid = await indexWithManual();
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, _vectors: { manual: [1, 1, 1] } }, { id: 2, _vectors: { manual: { regenerate: false } } }]);
    expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: null } })).status).toBe('succeeded');
    expect((await call(server, 'GET', `/indexes/${uid}/documents/2?retrieveVectors=true`)).body).toEqual({ id: 2, _vectors: { manual: { regenerate: false, embeddings: [] } } });
    const added = await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { source: 'userProvided', dimensions: 3 } } });
    expect(added.status, JSON.stringify(added.error)).toBe('succeeded');
    expect(await vectorsOf(uid, 2)).toEqual({ manual: { embeddings: [], regenerate: false } });
  });

  it('takes embedders named `__proto__`, `constructor` and `toString` as any other: settings, details, vectors and search', async () => {
    for (const name of ['__proto__', 'constructor', 'toString']) {
      const uid = uniqueUid('vectors');
      const embedders = { [name]: { source: 'userProvided', dimensions: 2 } };
      const task = await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders });
      expect(task.status).toBe('succeeded');
      expect(task.details).toEqual({ embedders });
      expect((await call(server, 'GET', `/indexes/${uid}/settings/embedders`)).body).toEqual(embedders);
      const added = await run(server, 'POST', `/indexes/${uid}/documents`, [
        { id: 0, _vectors: { [name]: [1, 0] } },
        { id: 1, _vectors: { [name]: [0, 1] } },
      ]);
      expect(added.status).toBe('succeeded');
      expect(await vectorsOf(uid, 0)).toEqual({ [name]: { embeddings: [[1, 0]], regenerate: false } });
      const search = await call(server, 'POST', `/indexes/${uid}/search`, { vector: [0, 1], hybrid: { embedder: name } });
      expect(search.body.hits.map((hit: { id: number }) => hit.id)).toEqual([1, 0]);
    }
  });

  it('quantizes the stored vectors when binaryQuantized is turned on', async () => {
    const uid = await indexWithManual();
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 0, _vectors: { manual: [0.5, -0.2, 0] } }]);
    const quantized = await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { binaryQuantized: true } } });
    expect(quantized.status).toBe('succeeded');
    expect(await vectorsOf(uid, 0)).toEqual({ manual: { embeddings: [[1, 0, 0]], regenerate: false } });
  });
});
