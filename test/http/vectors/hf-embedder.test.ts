// A huggingFace embedder over HTTP, on a tiny model in a temporary hub cache given by HF_HOME:
// the settings task loads it, documents are embedded with their template (again when the pooling
// changes), a semantic and a hybrid search rank by its embeddings; a model the cache lacks is
// fetched by the settings task from the hub HF_ENDPOINT names (a mock on loopback, allowed by
// `--experimental-allowed-ip-networks`), and refused under the default IP policy; a model the hub
// does not have, or that has no ONNX weights, fails the settings task.
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';
import { startMockHub, type MockHub } from '../../fixtures/hf/mock-hub.js';
import { meanOf, rowOf, tinyModelFiles, tinyModelSha, writeTinyModel } from '../../fixtures/hf/tiny-model.js';

let server: TestServer;
let home: string;
let hub: MockHub;

beforeAll(async () => {
  hub = await startMockHub({ 'org/on-hub': { sha: tinyModelSha({ model: 'org/on-hub' }), files: tinyModelFiles() } });
  home = tempDir('quarry-hf-home-');
  writeTinyModel(path.join(home, 'hub'));
  writeTinyModel(path.join(home, 'hub'), { model: 'quarry/safetensors', weights: 'safetensors' });
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'], env: { HF_HOME: home, HF_ENDPOINT: hub.url } });
});
afterAll(async () => {
  await server.dispose();
  await hub.close();
  rmSync(home, { recursive: true, force: true });
});

const hf = { source: 'huggingFace', model: 'quarry/tiny-bert', documentTemplate: '{{ doc.text }}' };
const DOCS = [
  { id: 1, text: 'a truck', kind: 'vehicle' },
  { id: 2, text: 'the dog', kind: 'animal' },
  { id: 3, text: 'bread pizza', kind: 'food' },
];

describe('a cached Hugging Face model', () => {
  beforeAll(async () => {
    const settings = await run(server, 'PATCH', '/indexes/things/settings', { embedders: { hf }, filterableAttributes: ['kind'] });
    expect(settings.status, JSON.stringify(settings.error)).toBe('succeeded');
    const added = await run(server, 'POST', '/indexes/things/documents', DOCS);
    expect(added.status, JSON.stringify(added.error)).toBe('succeeded');
  });

  it('shows the settings with their defaults', async () => {
    const reply = await call(server, 'GET', '/indexes/things/settings/embedders');
    expect(reply.body).toEqual({ hf: { source: 'huggingFace', model: 'quarry/tiny-bert', pooling: 'useModel', documentTemplate: '{{ doc.text }}', documentTemplateMaxBytes: 400 } });
  });

  it('embeds documents from their template: the mean of their tokens', async () => {
    const doc = await call(server, 'GET', '/indexes/things/documents/2?retrieveVectors=true');
    const [embedding] = doc.body._vectors.hf.embeddings as number[][];
    expect(doc.body._vectors.hf.regenerate).toBe(true);
    meanOf(['[CLS]', 'the', 'dog', '[SEP]']).forEach((v, i) => expect(embedding![i]).toBeCloseTo(v, 6));
  });

  it('answers a semantic search with the closest document first', async () => {
    const reply = await call(server, 'POST', '/indexes/things/search', { q: 'puppy', hybrid: { embedder: 'hf', semanticRatio: 1 } });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.hits.map((h: { id: number }) => h.id)).toEqual([2, 1, 3]);
    expect(reply.body.semanticHitCount).toBe(3);
  });

  it('answers a hybrid search, filtered, with the query embedded by the model', async () => {
    const reply = await call(server, 'POST', '/indexes/things/search', { q: 'car', hybrid: { embedder: 'hf', semanticRatio: 0.9 }, filter: 'kind != food', showRankingScore: true });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.hits[0].id).toBe(1);
    expect(reply.body.hits.map((h: { id: number }) => h.id)).not.toContain(3);
  });
});

describe('a changed pooling', () => {
  it('re-embeds the documents with the new pooling', async () => {
    expect((await run(server, 'POST', '/indexes/pooled/documents', DOCS)).status).toBe('succeeded');
    expect((await run(server, 'PATCH', '/indexes/pooled/settings', { embedders: { hf } })).status).toBe('succeeded');
    const changed = await run(server, 'PATCH', '/indexes/pooled/settings', { embedders: { hf: { pooling: 'forceCls' } } });
    expect(changed.status, JSON.stringify(changed.error)).toBe('succeeded');
    const doc = await call(server, 'GET', '/indexes/pooled/documents/3?retrieveVectors=true');
    expect(doc.body._vectors.hf.embeddings).toEqual([rowOf('[CLS]')]);
  });
});

describe('a Hugging Face model the cache lacks', () => {
  it('is fetched from the hub by the settings task into HF_HOME, and embeds the documents', async () => {
    const settings = await run(server, 'PATCH', '/indexes/fetched/settings', { embedders: { hf: { ...hf, model: 'org/on-hub' } } });
    expect(settings.status, JSON.stringify(settings.error)).toBe('succeeded');
    expect(existsSync(path.join(home, 'hub', 'models--org--on-hub', 'snapshots', tinyModelSha({ model: 'org/on-hub' }), 'onnx', 'model.onnx'))).toBe(true);
    expect((await run(server, 'POST', '/indexes/fetched/documents', DOCS)).status).toBe('succeeded');
    const doc = await call(server, 'GET', '/indexes/fetched/documents/2?retrieveVectors=true');
    meanOf(['[CLS]', 'the', 'dog', '[SEP]']).forEach((v, i) => expect(doc.body._vectors.hf.embeddings[0][i]).toBeCloseTo(v, 6));
  });

  it('is not fetched from a hub on loopback under the default IP policy', async () => {
    const guarded = await startServer({ env: { HF_HOME: tempDir('quarry-hf-home-'), HF_ENDPOINT: hub.url } });
    try {
      const before = hub.requests.length;
      const task = await run(guarded, 'PATCH', '/indexes/guarded/settings', { embedders: { hf: { source: 'huggingFace', model: 'org/on-hub' } } });
      expect(task.error?.message).toBe('Index `guarded`: Error while generating embeddings: error: fetching file from HG_HUB failed:\n  - request error: bad uri: Rejected URI');
      expect(hub.requests.length).toBe(before);
    } finally {
      await guarded.dispose();
    }
  });
});

describe('a Hugging Face model that cannot be used', () => {
  it('fails the settings task when the hub does not have the model', async () => {
    const task = await run(server, 'PATCH', '/indexes/absent/settings', { embedders: { hf: { source: 'huggingFace', model: 'quarry/absent' } } });
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('vector_embedding_error');
    expect(task.error.message).toBe('Index `absent`: Error while generating embeddings: error: fetching file from HG_HUB failed:\n  - request error: http status: 401');
  });

  it('fails the settings task when the model has no ONNX weights', async () => {
    const task = await run(server, 'PATCH', '/indexes/weights/settings', { embedders: { hf: { source: 'huggingFace', model: 'quarry/safetensors' } } });
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('vector_embedding_error');
    expect(task.error.message).toMatch(/^Index `weights`: Error while generating embeddings: runtime error: could not build weights from Safetensor weights:\n {2}- this server runs models from ONNX weights only/);
  });
});
