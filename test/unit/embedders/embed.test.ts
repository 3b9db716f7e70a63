// The embedding service per source (rest, openAi, ollama, userProvided, composite, huggingFace):
// a query embedded by embedQuery, documents by embedDocuments in chunks, settings-time
// preparation (dimension inference, composite agreement), with v1.50's error codes and words.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { embedDocuments, embedQuery, prepareChangedEmbedders, prepareEmbedder } from '../../../src/embedders/embed.js';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100k from 'js-tiktoken/ranks/cl100k_base';
import { EmbedderRequestStats } from '../../../src/embedders/request-stats.js';
import { setEmbedderRuntime } from '../../../src/embedders/runtime.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { allEmbeddings, fakeEmbedding, loopbackRuntime, mockEmbedder, type MockEmbedder } from './mock-embedder.js';

let server: MockEmbedder | undefined;
beforeEach(() => setEmbedderRuntime(loopbackRuntime()));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function apiError(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('no failure');
}

const batchServer = () =>
  mockEmbedder((req) => ({ json: { data: (req.body.input as string[]).map((t) => ({ embedding: fakeEmbedding(t) })) } }));

/** one text a request */
const single = (url: string) => ({ source: 'rest', url, request: { q: '{{text}}' }, response: { embedding: '{{embedding}}' } });

const rest = (url: string, extra: Record<string, unknown> = {}) => ({
  source: 'rest',
  url,
  request: { input: ['{{text}}', '{{..}}'] },
  response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] },
  ...extra,
});

/** A REST embedder with fragments, one embedding per request: `{"input": <fragment>}` → `{"e": [...]}`. */
const fragmentRest = (url: string, extra: Record<string, unknown> = {}) => ({
  source: 'rest',
  url,
  dimensions: 3,
  request: { input: '{{fragment}}' },
  response: { e: '{{embedding}}' },
  indexingFragments: { basic: { value: '{{ doc.name }} is a dog' } },
  searchFragments: {
    justBreed: { value: "It's a {{ media.breed }}" },
    justName: { value: '{{ media.name }} is a dog' },
    query: { value: 'Some pre-prompt for query {{ q }}' },
  },
  ...extra,
});

describe('embedQuery with search fragments', () => {
  const embedOne = () => mockEmbedder((req) => ({ json: { e: fakeEmbedding(JSON.stringify(req.body.input)) } }));

  it('embeds the one search fragment that renders: from media, or from q alone', async () => {
    server = await embedOne();
    const embedders = { f: fragmentRest(server.url) };
    await embedQuery(embedders, 'f', { q: null, media: { breed: 'labrador' } });
    await embedQuery(embedders, 'f', 'bulldog');
    expect(server.received.map((r) => r.body.input)).toEqual(["It's a labrador", 'Some pre-prompt for query bulldog']);
  });

  it('refuses a query that matches two search fragments, or none, naming them and the query', async () => {
    const embedders = { f: fragmentRest('http://127.0.0.1:1/e') };
    expect(await apiError(embedQuery(embedders, 'f', { q: null, media: { name: 'dustin', breed: 'labrador' } }))).toEqual({
      code: 'vector_embedding_error',
      message:
        'Error while generating embeddings: user error: Query matches multiple search fragments.\n  - Note: First matched fragment `justBreed`.\n  - Note: Second matched fragment `justName`.\n  - Note: {"q":null,"media":{"name":"dustin","breed":"labrador"}}',
    });
    expect(await apiError(embedQuery(embedders, 'f', { q: null, media: { ticker: 'GME' } }))).toEqual({
      code: 'vector_embedding_error',
      message: 'Error while generating embeddings: user error: Query matches no search fragment.\n  - Note: {"q":null,"media":{"ticker":"GME"}}',
    });
  });

  it('refuses media for an embedder without search fragments, or not REST', async () => {
    const media = { q: 'x', media: { a: 1 } };
    expect((await apiError(embedQuery({ r: rest('http://127.0.0.1:1/e') }, 'r', media))).message).toBe(
      "Error while generating embeddings: user error: `media` requested, and the configuration has source `rest`, but the configuration doesn't have `searchFragments`.",
    );
    expect((await apiError(embedQuery({ m: { source: 'userProvided', dimensions: 2 } }, 'm', media))).message).toBe(
      "Error while generating embeddings: user error: `media` requested but the configuration doesn't have source `rest`",
    );
  });
});

describe('embedDocuments', () => {
  it('sends 10 texts per request in batch mode and keeps their order', async () => {
    server = await batchServer();
    const texts = Array.from({ length: 25 }, (_, i) => `text number ${i}`);
    const stats = new EmbedderRequestStats();
    const out = await allEmbeddings(embedDocuments, 'rest', rest(server.url, { dimensions: 3 }), texts, stats);
    expect(out.map((e) => Array.from(e))).toEqual(texts.map(fakeEmbedding));
    expect(server.received.map((r) => r.body.input.length).sort()).toEqual([10, 10, 5]);
    expect(stats.view()).toEqual({ total: 3, failed: 0 });
  });

  it('sends one text per request without the repeat marker', async () => {
    server = await mockEmbedder((req) => ({ json: { embedding: fakeEmbedding(req.body.input) } }));
    await allEmbeddings(embedDocuments, 'rest', { source: 'rest', url: server.url, request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' } }, ['a', 'b', 'c']);
    expect(server.received).toHaveLength(3);
  });

  it("keeps v1.50's 40 requests in flight at once, and no more", async () => {
    // each answer waits until 40 requests are in flight (or 2 s): one text a request, 80 of them
    let inFlight = 0;
    let most = 0;
    const waiting: (() => void)[] = [];
    server = await mockEmbedder((req) => {
      most = Math.max(most, ++inFlight);
      const after = new Promise<void>((resolve) => {
        waiting.push(resolve);
        setTimeout(resolve, 2_000);
      }).then(() => inFlight--);
      if (inFlight >= 40) for (const resolve of waiting.splice(0)) resolve();
      return { json: { embedding: fakeEmbedding(req.body.q) }, after };
    });
    const texts = Array.from({ length: 80 }, (_, i) => `text ${i}`);
    const out = await allEmbeddings(embedDocuments, 'rest', single(server.url), texts);
    expect(out.map((e) => Array.from(e))).toEqual(texts.map(fakeEmbedding));
    expect(most).toBe(40);
  });

  it('hands each run over in text order as answered, and starts a request only within 2 × 40 requests of what the consumer took', async () => {
    // every 40th text is answered late: the ones after it are answered before it
    server = await mockEmbedder((req) => ({ json: { embedding: fakeEmbedding(req.body.q) }, delayMs: Number(req.body.q.split(' ')[1]) % 40 === 0 ? 30 : 0 }));
    const texts = Array.from({ length: 200 }, (_, i) => `text ${i}`);
    const handed: number[] = [];
    let allow: () => void = () => {};
    const consumer = new Promise<void>((resolve) => (allow = resolve));
    const done = embedDocuments('rest', single(server.url), texts, {
      take: (from, embeddings) => {
        expect(embeddings.map((e) => Array.from(e!))).toEqual(texts.slice(from, from + embeddings.length).map(fakeEmbedding));
        handed.push(from, from + embeddings.length);
      },
      // the consumer takes nothing until allowed
      taken: () => consumer,
    });
    while (handed.at(-1) !== 80) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.received).toHaveLength(80);
    allow();
    await done;
    expect(server.received).toHaveLength(200);
    // consecutive runs, from the first text to the last
    expect(handed[0]).toBe(0);
    expect(handed.at(-1)).toBe(200);
    for (let i = 1; i + 1 < handed.length; i += 2) expect(handed[i + 1]).toBe(handed[i]);
  });

  it('fails the batch with the embedder named', async () => {
    server = await mockEmbedder(() => ({ json: { data: [{ embedding: [1, 2] }] } }));
    expect(await apiError(allEmbeddings(embedDocuments, 'rest', rest(server.url, { dimensions: 3 }), ['a']))).toEqual({
      code: 'vector_embedding_error',
      message: 'While embedding documents for embedder `rest`: runtime error: was expecting embeddings of dimension `3`, got embeddings of dimensions `2`',
    });
  });
});

describe('embedQuery', () => {
  it('answers a repeated query from the per-embedder cache when --experimental-embedding-cache-entries allows, least recent out first', async () => {
    setEmbedderRuntime(loopbackRuntime({ queryCacheEntries: 2 }));
    server = await batchServer();
    // a configuration of its own, so no other test's cache entries are shared
    const embedders = { rest: rest(server.url, { dimensions: 3, headers: { 'x-test': 'cache' } }) };
    for (const text of ['one', 'two', 'one', 'three', 'two']) expect(Array.from(await embedQuery(embedders, 'rest', text))).toEqual(fakeEmbedding(text));
    // `one` and `two` are embedded once each; `three` pushes out `two`, which is embedded again
    expect(server.received).toHaveLength(4);
  });

  it('embeds every query without a cache', async () => {
    server = await batchServer();
    const embedders = { rest: rest(server.url, { dimensions: 3 }) };
    for (const text of ['one', 'one']) await embedQuery(embedders, 'rest', text);
    expect(server.received).toHaveLength(2);
  });

  it('embeds with the named embedder and refuses an unknown name', async () => {
    server = await batchServer();
    const embedders = { rest: rest(server.url, { dimensions: 3 }) };
    expect(Array.from(await embedQuery(embedders, 'rest', 'Captain'))).toEqual(fakeEmbedding('Captain'));
    expect(await apiError(embedQuery(embedders, 'nope', 'x'))).toEqual({ code: 'invalid_search_embedder', message: 'Cannot find embedder with name `nope`.' });
  });

  it('refuses to embed for a userProvided embedder', async () => {
    expect(await apiError(embedQuery({ manual: { source: 'userProvided', dimensions: 3 } }, 'manual', 'Captain'))).toEqual({
      code: 'vector_embedding_error',
      message:
        'Error while generating embeddings: user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - `Captain`',
    });
  });

  it("uses a composite's search embedder for queries and its indexing embedder for documents", async () => {
    const search = await mockEmbedder(() => ({ json: { embedding: [1, 0, 0] } }));
    server = await mockEmbedder(() => ({ json: { embedding: [0, 1, 0] } }));
    const single = (url: string) => ({ source: 'rest', url, request: { q: '{{text}}' }, response: { embedding: '{{embedding}}' }, dimensions: 3 });
    const composite = { source: 'composite', searchEmbedder: single(search.url), indexingEmbedder: single(server.url) };
    expect(Array.from(await embedQuery({ c: composite }, 'c', 'q'))).toEqual([1, 0, 0]);
    expect(Array.from((await allEmbeddings(embedDocuments, 'c', composite, ['d']))[0]!)).toEqual([0, 1, 0]);
    await search.close();
  });

  it('answers a timeout when its deadline cuts the request short', async () => {
    server = await mockEmbedder(() => ({ json: { data: [{ embedding: [1] }] }, delayMs: 1_000 }));
    expect(await apiError(embedQuery({ rest: rest(server.url) }, 'rest', 'q', AbortSignal.timeout(100)))).toEqual({
      code: 'vector_embedding_error',
      message: 'Error while generating embeddings: runtime error: could not reach embedding server:\n  - timeout: global',
    });
  });

  it('gives up when its signal aborts while waiting to retry, with the last failure', async () => {
    const controller = new AbortController();
    // the 4th attempt is followed by a wait of 0.5 to 1 s: the abort lands in it
    server = await mockEmbedder((_req, n) => {
      if (n === 4) setTimeout(() => controller.abort(), 50);
      return { status: 500, text: 'no' };
    });
    setEmbedderRuntime(loopbackRuntime({ maxRetryDelayMs: 60_000 }));
    const started = Date.now();
    const error = await apiError(embedQuery({ rest: rest(server.url) }, 'rest', 'q', controller.signal));
    expect(error).toEqual({
      code: 'vector_embedding_error',
      message: 'Error while generating embeddings: runtime error: received internal error HTTP 500 from embedding server\n  - server replied with `no`',
    });
    expect(server.received).toHaveLength(4);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('openAi and ollama shapes', () => {
  it('sends the OpenAI request with the model, lowered dimensions and the key', async () => {
    server = await mockEmbedder((req) => ({ json: { data: (req.body.input as string[]).map(() => ({ embedding: [1, 2] })) } }));
    const settings = { source: 'openAi', url: server.url, apiKey: 'sk-test', model: 'text-embedding-3-small', dimensions: 2 };
    await allEmbeddings(embedDocuments, 'openai', settings, ['a', 'b']);
    expect(server.received[0]!.body).toEqual({ model: 'text-embedding-3-small', input: ['a', 'b'], dimensions: 2 });
    expect(server.received[0]!.headers.authorization).toBe('Bearer sk-test');
  });

  it('re-sends texts one by one after an OpenAI 400', async () => {
    server = await mockEmbedder((req) =>
      req.body.input.length > 1 ? { status: 400, text: 'too long' } : { json: { data: [{ embedding: fakeEmbedding(req.body.input[0]).slice(0, 2) }] } },
    );
    const out = await allEmbeddings(embedDocuments, 'openai', { source: 'openAi', url: server.url, dimensions: 2 }, ['ab', 'c']);
    expect(out.map((e) => Array.from(e))).toEqual([[2, 97], [1, 99]]);
    expect(server.received.map((r) => r.body.input.length)).toEqual([2, 1, 1]);
  });

  it('sends a text of 8,191 cl100k tokens or more as its first 8,191 tokens after an OpenAI 400, even alone', async () => {
    // the mock takes strings of up to 1,000 characters, or one tokenized input
    server = await mockEmbedder((req) => {
      const input = req.body.input as unknown[];
      if (input.every((item) => typeof item === 'number')) return { json: { data: [{ embedding: [input.length, input[0] as number] }] } };
      if (input.some((item) => (item as string).length > 1_000)) return { status: 400, text: 'maximum context length is 8192 tokens' };
      return { json: { data: input.map((item) => ({ embedding: [(item as string).length, 0] })) } };
    });
    const tiktoken = new Tiktoken(cl100k);
    const long = 'hello world '.repeat(5_000); // 10,000 tokens
    const out = await allEmbeddings(embedDocuments, 'openai', { source: 'openAi', url: server.url, dimensions: 2 }, ['short', long]);
    const [hello] = tiktoken.encode('hello');
    expect(out.map((e) => Array.from(e))).toEqual([[5, 0], [8_191, hello]]);
    expect(server.received.map((r) => r.body.input.length)).toEqual([2, 1, 8_191]);
    expect(server.received[2]!.body.input).toEqual(tiktoken.encode(long).slice(0, 8_191));
    // a batch of one long text takes the same way
    const alone = await allEmbeddings(embedDocuments, 'openai', { source: 'openAi', url: server.url, dimensions: 2 }, [long]);
    expect(Array.from(alone[0]!)).toEqual([8_191, hello]);
    // a run of 100,000 letters (quadratic to merge whole) is cut into slices: its tokens come at once
    const run = await allEmbeddings(embedDocuments, 'openai', { source: 'openAi', url: server.url, dimensions: 2 }, ['x'.repeat(100_000)]);
    expect(Array.from(run[0]!)[0]).toBe(8_191);
    // below the limit a text is sent again as text, and its 400 is the batch's error
    expect((await apiError(allEmbeddings(embedDocuments, 'openai', { source: 'openAi', url: server.url, dimensions: 2 }, ['x'.repeat(2_000)]))).code).toBe('vector_embedding_error');
  });

  it("uses Ollama's two URL shapes and reports a missing model", async () => {
    server = await mockEmbedder((req) =>
      req.path === '/api/embed'
        ? { json: { embeddings: (req.body.input as string[]).map(fakeEmbedding) } }
        : req.body.model === 'missing'
          ? { status: 404, text: '{"error":"model \\"missing\\" not found, try pulling it first"}' }
          : { json: { embedding: fakeEmbedding(req.body.prompt) } },
    );
    await allEmbeddings(embedDocuments, 'o', { source: 'ollama', model: 'nomic', url: `${server.url}/api/embed`, dimensions: 3 }, ['a', 'b']);
    expect(server.received[0]!.body).toEqual({ model: 'nomic', input: ['a', 'b'] });
    await allEmbeddings(embedDocuments, 'o', { source: 'ollama', model: 'nomic', url: `${server.url}/api/embeddings`, dimensions: 3 }, ['a']);
    expect(server.received[1]!.body).toEqual({ model: 'nomic', prompt: 'a' });
    expect((await apiError(prepareEmbedder({ source: 'ollama', model: 'missing', url: `${server.url}/api/embeddings` }))).message).toBe(
      'Error while generating embeddings: runtime error: could not determine model dimensions:\n  - test embedding failed with user error: model not found. Meilisearch will not automatically download models from the Ollama library, please pull the model manually\n  - server replied with `{"error":"model \\"missing\\" not found, try pulling it first"}`',
    );
  });

  it('refuses an Ollama URL with another path', async () => {
    expect(await apiError(prepareEmbedder({ source: 'ollama', model: 'm', url: 'http://localhost:11434/api/embedd' }))).toEqual({
      code: 'vector_embedding_error',
      message:
        'Error while generating embeddings: user error: unsupported Ollama URL.\n  - For `ollama` sources, the URL must end with `/api/embed` or `/api/embeddings`\n  - Got `http://localhost:11434/api/embedd`',
    });
  });
});

describe('prepareEmbedder', () => {
  it('infers the dimensions of a REST embedder from a test embedding of "test"', async () => {
    server = await batchServer();
    expect(await prepareEmbedder(rest(server.url))).toBe(3);
    expect(server.received[0]!.body.input).toEqual(['test']);
    expect(await prepareEmbedder({ source: 'userProvided', dimensions: 7 })).toBe(7);
  });

  it('sends rendered fragments where the request holds {{fragment}}, batched with {{..}}', async () => {
    server = await mockEmbedder((req) => ({ json: { data: (req.body.input as unknown[]).map((v) => ({ embedding: fakeEmbedding(JSON.stringify(v)) })) } }));
    const settings = fragmentRest(server.url, { request: { input: ['{{fragment}}', '{{..}}'] }, response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] } });
    const inputs = [{ image: 'a.png' }, 'kefir is a dog'];
    const vectors = await allEmbeddings(embedDocuments, 'f', settings, inputs);
    expect(server.received.map((r) => r.body.input)).toEqual([inputs]);
    expect(vectors.map((v) => Array.from(v))).toEqual(inputs.map((v) => fakeEmbedding(JSON.stringify(v))));
  });

  it('refuses to infer the dimensions of an embedder with fragments', async () => {
    const { dimensions: _omitted, ...settings } = fragmentRest('http://127.0.0.1:1/e');
    expect(await apiError(prepareEmbedder(settings))).toEqual({
      code: 'vector_embedding_error',
      message:
        "Error while generating embeddings: user error: cannot infer `dimensions` for an embedder using `indexingFragments`.\n  - Note: Specify `dimensions` explicitly or don't use `indexingFragments`.",
    });
  });

  it('fails a Hugging Face model at once, without a network', async () => {
    const error = await apiError(prepareEmbedder({ source: 'huggingFace' }));
    expect(error.code).toBe('vector_embedding_error');
    expect(error.message).toMatch(/^Error while generating embeddings: error: fetching file from HG_HUB failed:\n {2}- request error: /);
  });

  it("refuses a composite whose embedders disagree on dimensions or values", async () => {
    const search = await mockEmbedder(() => ({ json: { embedding: [1, 0] } }));
    server = await mockEmbedder(() => ({ json: { embedding: [0, 1] } }));
    const single = (url: string, dimensions?: number) => ({ source: 'rest', url, request: { q: '{{text}}' }, response: { embedding: '{{embedding}}' }, ...(dimensions ? { dimensions } : {}) });
    expect((await apiError(prepareEmbedder({ source: 'composite', searchEmbedder: single(search.url, 2), indexingEmbedder: single(server.url, 3) }))).message).toBe(
      "Error while generating embeddings: user error: error while generating test embeddings.\n  - the dimensions of embeddings produced at search time and at indexing time don't match.\n  - Search time dimensions: 2\n  - Indexing time dimensions: 3\n  - Note: Dimensions of embeddings produced by both embedders are required to match.",
    );
    expect((await apiError(prepareEmbedder({ source: 'composite', searchEmbedder: single(search.url), indexingEmbedder: single(server.url) }))).message).toBe(
      'Error while generating embeddings: user error: error while generating test embeddings.\n  - the embeddings produced at search time and indexing time are not similar enough.\n  - angular distance 0.50\n  - Meilisearch requires a maximum distance of 0.01.\n  - Note: check that both embedders produce similar embeddings.',
    );
    expect(await prepareEmbedder({ source: 'composite', searchEmbedder: single(server.url), indexingEmbedder: single(server.url) })).toBe(2);
    await search.close();
  });
});

describe('prepareChangedEmbedders', () => {
  it('probes only the added or changed embedders that need it', async () => {
    server = await batchServer();
    const probed = rest(server.url);
    await prepareChangedEmbedders({ same: probed }, { same: probed, sized: rest(server.url, { dimensions: 3 }), manual: { source: 'userProvided', dimensions: 2 } });
    expect(server.received).toHaveLength(0);
    await prepareChangedEmbedders({}, { added: probed });
    expect(server.received).toHaveLength(1);
  });
});
