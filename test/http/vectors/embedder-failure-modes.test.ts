// v1.50's MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES (milli's EmbedderFailureModes): with
// `ignore_embedder_failures`, a request of documents the embedder fails is logged and skipped and
// the batch succeeds; with `ignore_document_template_failures`, a document whose template does
// not render gets no embedding (and loses the one it had). Without them both fail the batch, and
// an unknown mode refuses the start. A REST embedder on loopback embeds one text per request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { mockEmbedder, type MockEmbedder } from '../../unit/embedders/mock-embedder.js';

const ARGS = ['--experimental-allowed-ip-networks', 'any'];
const VARIABLE = 'MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES';

let mock: MockEmbedder;
beforeAll(async () => {
  // a text starting with `bad` is refused (a 400 is not retried); any other text embeds as its length three times
  mock = await mockEmbedder((req) => (String(req.body).startsWith('bad') ? { status: 400, json: { error: 'no' } } : { json: { data: [String(req.body).length, 1, 1] } }));
});
afterAll(() => mock.close());

const embedder = (documentTemplate: string) => ({ source: 'rest', url: mock.url, dimensions: 3, request: '{{text}}', response: { data: '{{embedding}}' }, documentTemplate });

/** A server with `modes` (undefined: the variable unset) and index `dogs` using the mock with `template`. */
async function serverWith(modes: string | undefined, template: string): Promise<TestServer> {
  const server = await startServer({ args: ARGS, env: modes === undefined ? {} : { [VARIABLE]: modes } });
  const settings = await call(server, 'PATCH', '/indexes/dogs/settings', { embedders: { rest: embedder(template) } });
  expect(await waitTask(server, settings.body.taskUid)).toMatchObject({ status: 'succeeded' });
  return server;
}

async function add(server: TestServer, documents: unknown[]): Promise<any> {
  return waitTask(server, (await call(server, 'POST', '/indexes/dogs/documents', documents)).body.taskUid);
}

/** Each document's `rest` embeddings, by id. */
async function embeddings(server: TestServer): Promise<Record<string, unknown>> {
  const { body } = await call(server, 'POST', '/indexes/dogs/documents/fetch', { retrieveVectors: true });
  return Object.fromEntries(body.results.map((doc: any) => [doc.id, doc._vectors?.rest?.embeddings ?? null]));
}

describe('MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES', () => {
  it('fails a batch whose embedder request fails, without the variable', async () => {
    const server = await serverWith(undefined, '{{doc.name}}');
    try {
      const task = await add(server, [{ id: 1, name: 'kefir' }, { id: 2, name: 'bad' }]);
      expect(task).toMatchObject({ status: 'failed', error: { code: 'vector_embedding_error' } });
    } finally {
      await server.dispose();
    }
  });

  it('with ignore_embedder_failures, skips the failed request: its document has no embedding, the others have theirs', async () => {
    const server = await serverWith(' ignore_embedder_failures ,', '{{doc.name}}');
    try {
      const task = await add(server, [{ id: 1, name: 'kefir' }, { id: 2, name: 'bad' }, { id: 3, name: 'intel' }]);
      expect(task).toMatchObject({ status: 'succeeded', details: { receivedDocuments: 3, indexedDocuments: 3 } });
      expect(await embeddings(server)).toEqual({ 1: [[5, 1, 1]], 2: [], 3: [[5, 1, 1]] });
      expect(server.output()).toContain('ignored error embedding batch of documents due to failure policy');
      // a template failure still fails the batch
      expect(await add(server, [{ id: 4, title: 'no name' }])).toMatchObject({ status: 'failed', error: { code: 'invalid_document_fields' } });
    } finally {
      await server.dispose();
    }
  });

  it('with ignore_embedder_failures, leaves the fragments whose requests failed as they were stored', async () => {
    const server = await startServer({ args: ARGS, env: { [VARIABLE]: 'ignore_embedder_failures' } });
    try {
      await call(server, 'PATCH', '/experimental-features', { multimodal: true });
      const fragments = { source: 'rest', url: mock.url, dimensions: 3, request: '{{fragment}}', response: { data: '{{embedding}}' }, indexingFragments: { a: { value: '{{ doc.name }} a' }, b: { value: '{{ doc.name }}' } }, searchFragments: { q: { value: '{{ q }}' } } };
      const settings = await call(server, 'PATCH', '/indexes/dogs/settings', { embedders: { rest: fragments } });
      expect(await waitTask(server, settings.body.taskUid)).toMatchObject({ status: 'succeeded' });
      expect(await add(server, [{ id: 1, name: 'kefir' }])).toMatchObject({ status: 'succeeded' });
      expect(await embeddings(server)).toEqual({ 1: [[7, 1, 1], [5, 1, 1]] });
      // both requests fail: the document keeps its two vectors; a new one gets none
      expect(await add(server, [{ id: 1, name: 'badkefir' }, { id: 2, name: 'bad' }])).toMatchObject({ status: 'succeeded' });
      expect(await embeddings(server)).toEqual({ 1: [[7, 1, 1], [5, 1, 1]], 2: [] });
      // and they are asked again when the document changes
      expect(await add(server, [{ id: 1, name: 'echo' }])).toMatchObject({ status: 'succeeded' });
      expect(await embeddings(server)).toEqual({ 1: [[6, 1, 1], [4, 1, 1]], 2: [] });
    } finally {
      await server.dispose();
    }
  });

  it('with ignore_document_template_failures, leaves a document its template cannot render without an embedding', async () => {
    const server = await serverWith('ignore_document_template_failures', '{{doc.name}}');
    try {
      const first = await add(server, [{ id: 1, name: 'kefir' }, { id: 2, name: 'intel' }]);
      expect(first).toMatchObject({ status: 'succeeded' });
      // document 2 loses its name, so its template no longer renders: its embedding goes
      const second = await add(server, [{ id: 2, title: 'no name' }, { id: 3, title: 'never named' }]);
      expect(second).toMatchObject({ status: 'succeeded', details: { receivedDocuments: 2, indexedDocuments: 2 } });
      expect(await embeddings(server)).toEqual({ 1: [[5, 1, 1]], 2: [], 3: [] });
      // an embedder failure still fails the batch
      expect(await add(server, [{ id: 4, name: 'bad' }])).toMatchObject({ status: 'failed', error: { code: 'vector_embedding_error' } });
    } finally {
      await server.dispose();
    }
  });

  it('refuses to start with a mode v1.50 does not know', async () => {
    await expect(startServer({ args: ARGS, env: { [VARIABLE]: 'ignore_embedder_failures,ignore_everything' } })).rejects.toThrow(
      /Unrecognized segment value for `MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES`: ignore_everything/,
    );
  });
});
