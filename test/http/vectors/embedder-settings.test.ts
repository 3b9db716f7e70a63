// The embedder settings v1.50 refuses (crates/meilisearch/tests/vector/settings.rs, rest.rs,
// ollama.rs, openai.rs), over HTTP: at the route (400, no task) and in the task (failed with
// the index prefix); then a REST embedder on a mock server at loopback embedding documents, and
// the same URL refused without `--experimental-allowed-ip-networks`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';
import { fakeEmbedding, mockEmbedder, type MockEmbedder } from '../../unit/embedders/mock-embedder.js';

let server: TestServer;
let embedder: MockEmbedder;
const error = (code: string, message: string) => ({ message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` });

beforeAll(async () => {
  embedder = await mockEmbedder((req) => ({ json: { data: (req.body.input as string[]).map((t) => ({ embedding: fakeEmbedding(t) })) } }));
  // no hub answers (a closed port): a Hugging Face model is fetched from none, and into no real cache
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'], env: { HF_HOME: tempDir('quarry-hf-home-'), HF_ENDPOINT: 'http://127.0.0.1:1' } });
});
afterAll(async () => {
  await server.dispose();
  await embedder.close();
});

const patch = (index: string, embedders: unknown) => call(server, 'PATCH', `/indexes/${index}/settings`, { embedders });

async function refused(embedders: unknown, code: string, message: string) {
  const reply = await patch('doggo', embedders);
  expect(reply.status, reply.text).toBe(400);
  expect(reply.body).toEqual(error(code, message));
}

describe('refused at the route', () => {
  it('requires model for ollama and dimensions for userProvided', async () => {
    await refused({ o: { source: 'ollama' } }, 'invalid_settings_embedders', '`.embedders.o`: Missing field `model` (note: this field is mandatory for source `ollama`)');
    await refused(
      { manual: { source: 'userProvided' } },
      'invalid_settings_embedders',
      '`.embedders.manual`: Missing field `dimensions` (note: this field is mandatory for source `userProvided`)',
    );
  });

  it('refuses more dimensions than Quarry stores (65,536), and takes that many', async () => {
    await refused(
      { manual: { source: 'userProvided', dimensions: 65_537 } },
      'invalid_settings_embedders',
      '`.embedders.manual.dimensions`: Quarry stores vectors of at most 65536 dimensions. Found 65537',
    );
    expect((await run(server, 'PATCH', '/indexes/widest/settings', { embedders: { manual: { source: 'userProvided', dimensions: 65_536 } } })).status).toBe('succeeded');
  });

  it('refuses a zero byte limit next to a template, and an unparsable template', async () => {
    await refused(
      { x: { documentTemplate: '{{ doc.a }}', documentTemplateMaxBytes: 0 } },
      'invalid_settings_embedders',
      '`.embedders.x.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero',
    );
    const reply = await patch('doggo', { x: { documentTemplate: '{{ doc.a' } });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('invalid_settings_embedders');
    expect(reply.body.message).toMatch(/^`\.embedders\.x\.documentTemplate`: Invalid template: user error: cannot parse template: liquid: /);
  });

  it('refuses REST templates without their placeholders', async () => {
    await refused(
      { rest: { source: 'rest', url: embedder.url, request: { input: 'x' }, response: { e: '{{embedding}}' } } },
      'vector_embedding_error',
      'Error while generating embeddings: user error: in `request`: "{{text}}" not found\n  - Note: this template is using a document template, and so expects to contain the placeholder "{{text}}" rather than "{{fragment}}"',
    );
    await refused(
      { rest: { source: 'rest', url: embedder.url, request: { input: '{{text}}' }, response: { e: 'x' } } },
      'vector_embedding_error',
      'Error while generating embeddings: user error: in `response`: "{{embedding}}" not found',
    );
  });

  it('refuses a distribution out of range', async () => {
    await refused(
      { x: { source: 'userProvided', dimensions: 2, distribution: { mean: 0.5, sigma: 1.5 } } },
      'invalid_settings_embedders',
      'Invalid value at `.embedders.x.distribution`: the distribution sigma must be in the range ]0, 1], got 1.5',
    );
  });
});

describe('refused in the task', () => {
  it('fails an ollama embedder whose URL is not an embedding route', async () => {
    const task = await run(server, 'PATCH', '/indexes/ollama/settings', { embedders: { o: { source: 'ollama', model: 'm', url: 'http://localhost:11434/api/embedd' } } });
    expect(task.status).toBe('failed');
    expect(task.error).toEqual(
      error(
        'vector_embedding_error',
        'Index `ollama`: Error while generating embeddings: user error: unsupported Ollama URL.\n  - For `ollama` sources, the URL must end with `/api/embed` or `/api/embeddings`\n  - Got `http://localhost:11434/api/embedd`',
      ),
    );
  });

  it('fails turning binary quantization off', async () => {
    expect((await run(server, 'PATCH', '/indexes/bq/settings', { embedders: { m: { source: 'userProvided', dimensions: 2, binaryQuantized: true } } })).status).toBe('succeeded');
    const task = await run(server, 'PATCH', '/indexes/bq/settings', { embedders: { m: { binaryQuantized: false } } });
    expect(task.status).toBe('failed');
    expect(task.error.message).toBe(
      'Index `bq`: `.embedders.m.binaryQuantized`: Cannot disable the binary quantization.\n - Note: Binary quantization is a lossy operation that cannot be reverted.\n - Hint: Add a new embedder that is non-quantized and regenerate the vectors.',
    );
  });
});

describe("a userProvided embedder's dimensions (Quarry's check)", () => {
  it('may change while no document holds its vectors, or with a clear in the same batch', async () => {
    expect((await run(server, 'PATCH', '/indexes/dims-free/settings', { embedders: { m: { source: 'userProvided', dimensions: 3 } } })).status).toBe('succeeded');
    expect((await run(server, 'POST', '/indexes/dims-free/documents', [{ id: 1, _vectors: { m: null } }])).status).toBe('succeeded');
    expect((await run(server, 'PATCH', '/indexes/dims-free/settings', { embedders: { m: { dimensions: 2 } } })).status).toBe('succeeded');
  });

  it('fails to change while documents hold its vectors, the settings and the vectors kept', async () => {
    expect((await run(server, 'PATCH', '/indexes/dims/settings', { embedders: { m: { source: 'userProvided', dimensions: 3 } } })).status).toBe('succeeded');
    const docs = [
      { id: 1, _vectors: { m: [1, 0, 0] } },
      { id: 2, _vectors: { m: [0, 1, 0] } },
    ];
    expect((await run(server, 'POST', '/indexes/dims/documents', docs)).status).toBe('succeeded');
    const task = await run(server, 'PATCH', '/indexes/dims/settings', { embedders: { m: { dimensions: 2 } } });
    expect(task.status).toBe('failed');
    expect(task.error).toEqual(
      error(
        'invalid_settings_embedders',
        'Index `dims`: `.embedders.m.dimensions`: Cannot change the dimensions of a `userProvided` embedder from 3 to 2 while documents hold its vectors.\n - Note: 2 documents hold vectors of 3 dimensions, which come from the documents themselves.\n - Hint: Add a new embedder for the vectors of 2 dimensions, or clear the documents\' vectors first.',
      ),
    );
    expect((await call(server, 'GET', '/indexes/dims/settings/embedders')).body.m.dimensions).toBe(3);
    // searches and writes still agree on 3
    const found = await call(server, 'POST', '/indexes/dims/search', { vector: [1, 0, 0], hybrid: { embedder: 'm', semanticRatio: 1 } });
    expect(found.status, found.text).toBe(200);
    expect((await run(server, 'POST', '/indexes/dims/documents', [{ id: 3, _vectors: { m: [0, 0, 1] } }])).status).toBe('succeeded');
  });
});

describe('shown', () => {
  it('writes the distribution as v1.50 writes its f32s: sigma 1 as 1.0', async () => {
    const set = await run(server, 'PATCH', '/indexes/shown/settings', { embedders: { manual: { source: 'userProvided', dimensions: 2, distribution: { mean: 0.5, sigma: 1 } } } });
    expect(set.status).toBe('succeeded');
    expect((await call(server, 'GET', '/indexes/shown/settings/embedders')).text).toContain('"distribution":{"mean":0.5,"sigma":1.0}');
  });
});

describe('built when the settings change', () => {
  it('infers the dimensions of a REST embedder with a test embedding of "test"', async () => {
    const before = embedder.received.length;
    const rest = { source: 'rest', url: embedder.url, request: { input: ['{{text}}', '{{..}}'] }, response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] } };
    expect((await run(server, 'PATCH', '/indexes/probed/settings', { embedders: { rest } })).status).toBe('succeeded');
    expect(embedder.received.slice(before).map((r) => r.body.input)).toEqual([['test']]);
  });

  it('fails a REST embedder whose test embedding has more dimensions than Quarry stores', async () => {
    const wide = await mockEmbedder(() => ({ json: { data: [{ embedding: Array<number>(65_537).fill(0.5) }] } }));
    try {
      const rest = { source: 'rest', url: wide.url, request: { input: ['{{text}}', '{{..}}'] }, response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] } };
      const task = await run(server, 'PATCH', '/indexes/too-wide/settings', { embedders: { rest } });
      expect(task.status).toBe('failed');
      expect(task.error.code).toBe('vector_embedding_error');
      expect(task.error.message).toContain('could not determine model dimensions:\n  - test embedding failed with');
      expect(task.error.message).toContain('an embedding of 65537 dimensions: Quarry stores vectors of at most 65536 dimensions');
    } finally {
      await wide.close();
    }
  });

  it('fails a Hugging Face model that cannot be loaded, without hanging', async () => {
    const task = await run(server, 'PATCH', '/indexes/hf/settings', { embedders: { hf: { source: 'huggingFace' } } });
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('vector_embedding_error');
    expect(task.error.message).toBe('Index `hf`: Error while generating embeddings: error: fetching file from HG_HUB failed:\n  - request error: io: Connection refused (os error 111)');
  });
});

describe('a REST embedder at loopback', () => {
  it('embeds documents through the mock server, rendering their template', async () => {
    const rest = {
      source: 'rest',
      url: embedder.url,
      dimensions: 3,
      documentTemplate: 'a dog named {{ doc.name }}',
      request: { input: ['{{text}}', '{{..}}'] },
      response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] },
    };
    expect((await run(server, 'PATCH', '/indexes/dogs/settings', { embedders: { rest } })).status).toBe('succeeded');
    const added = await run(server, 'POST', '/indexes/dogs/documents', [{ id: 1, name: 'kefir' }, { id: 2, name: 'intel' }]);
    expect(added.status, JSON.stringify(added.error)).toBe('succeeded');
    const texts = embedder.received.flatMap((r) => r.body.input as string[]);
    expect(texts).toEqual(expect.arrayContaining(['a dog named kefir', 'a dog named intel']));
    const doc = await call(server, 'GET', '/indexes/dogs/documents/1?retrieveVectors=true');
    expect(doc.body._vectors.rest).toEqual({ embeddings: [fakeEmbedding('a dog named kefir')], regenerate: true });
  });
});

describe('without --experimental-allowed-ip-networks', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startServer({ env: { MEILI_EXPERIMENTAL_REST_EMBEDDER_MAX_RETRY_DURATION_SECONDS: '0' } });
  });
  afterAll(async () => guarded.dispose());

  it('fails a settings change that must probe the refused embedder', async () => {
    const rest = { source: 'rest', url: embedder.url, request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' } };
    const task = await run(guarded, 'PATCH', '/indexes/probe/settings', { embedders: { rest } });
    expect(task.status).toBe('failed');
    expect(task.error).toEqual(
      error(
        'vector_embedding_error',
        'Index `probe`: Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with runtime error: could not reach embedding server:\n  - bad uri: Rejected URI',
      ),
    );
  });

  it('refuses to reach the loopback embedder and fails the batch', async () => {
    const before = embedder.received.length;
    const rest = { source: 'rest', url: embedder.url, dimensions: 3, request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' } };
    expect((await run(guarded, 'PATCH', '/indexes/dogs/settings', { embedders: { rest } })).status).toBe('succeeded');
    const task = await run(guarded, 'POST', '/indexes/dogs/documents', [{ id: 1, name: 'kefir' }]);
    expect(task.status).toBe('failed');
    expect(task.error).toEqual(
      error('vector_embedding_error', 'Index `dogs`: While embedding documents for embedder `rest`: runtime error: could not reach embedding server:\n  - bad uri: Rejected URI'),
    );
    expect(embedder.received.length).toBe(before);
  });
});
