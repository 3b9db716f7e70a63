// The REST embedder against a mock server on loopback: batching of texts per request, v1.50's
// retries (5xx, 429, network) and give-ups (400, 401, template mismatch, dimensions), answers read
// up to what their embeddings may take, request counting for `embedderRequests`, timeouts, the
// IP policy refusing loopback by default, and a failed proxy tunnel retried as a network error in
// ureq's words.
import { afterEach, describe, expect, it } from 'vitest';
import { EmbedError } from '../../../src/embedders/embed-error.js';
import { EmbedderRequestStats } from '../../../src/embedders/request-stats.js';
import { parseRestTemplates, restEmbed, type RestOptions } from '../../../src/embedders/rest.js';
import { OutgoingClient } from '../../../src/outgoing/client.js';
import { IpPolicy } from '../../../src/outgoing/ip-policy.js';
import { ProxySettings } from '../../../src/outgoing/proxy-settings.js';
import { startHttpProxy } from '../../helpers/http-proxy.js';
import { fakeEmbedding, loopbackRuntime, mockEmbedder, type MockEmbedder } from './mock-embedder.js';

let server: MockEmbedder | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const BATCH = { request: { input: ['{{text}}', '{{..}}'], model: 'm' }, response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] } };
const SINGLE = { request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' } };

function options(url: string, shape: { request: unknown; response: unknown } = SINGLE, extra: Partial<RestOptions> = {}): RestOptions {
  return { url, request: shape.request, response: shape.response, configuration: 'user', ...extra };
}

async function failure(promise: Promise<unknown>): Promise<EmbedError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EmbedError) return error;
    throw error;
  }
  throw new Error('no failure');
}

describe('requests', () => {
  it('sends the texts in the repeated value, with the key, the headers and a JSON content type', async () => {
    server = await mockEmbedder((req) => ({ json: { data: (req.body.input as string[]).map((t) => ({ embedding: fakeEmbedding(t) })) } }));
    const opts = options(server.url, BATCH, { apiKey: 'secret', headers: { 'X-Extra': 'yes' } });
    const out = await restEmbed(opts, parseRestTemplates(opts.request, opts.response), ['kefir', 'intel'], { runtime: loopbackRuntime(), dimensions: 3 });
    expect(out.map((e) => Array.from(e))).toEqual([fakeEmbedding('kefir'), fakeEmbedding('intel')]);
    expect(server.received[0]!.body).toEqual({ input: ['kefir', 'intel'], model: 'm' });
    expect(server.received[0]!.headers).toMatchObject({ authorization: 'Bearer secret', 'x-extra': 'yes', 'content-type': 'application/json' });
  });

  it('sends a header named `__proto__` as any other', async () => {
    server = await mockEmbedder((req) => ({ json: { data: (req.body.input as string[]).map((t) => ({ embedding: fakeEmbedding(t) })) } }));
    const opts = options(server.url, BATCH, { headers: JSON.parse('{"__proto__": "pv", "X-A": "a"}') as Record<string, string> });
    await restEmbed(opts, parseRestTemplates(opts.request, opts.response), ['kefir'], { runtime: loopbackRuntime(), dimensions: 3 });
    expect(server.received[0]!.headers).toMatchObject({ 'x-a': 'a' });
    const raw = server.received[0]!.rawHeaders;
    expect(raw[raw.indexOf('__proto__') + 1]).toBe('pv');
  });

  it('retries a 5xx and counts every attempt and failure', async () => {
    server = await mockEmbedder((req, n) => (n <= 2 ? { status: 500, text: 'Service Unavailable' } : { json: { embedding: fakeEmbedding(req.body.input) } }));
    const stats = new EmbedderRequestStats();
    const opts = options(server.url);
    const out = await restEmbed(opts, parseRestTemplates(opts.request, opts.response), ['a'], { runtime: loopbackRuntime(), stats });
    expect(Array.from(out[0]!)).toEqual(fakeEmbedding('a'));
    expect(stats.view()).toEqual({
      total: 3,
      failed: 2,
      lastError: 'runtime error: received internal error HTTP 500 from embedding server\n  - server replied with `Service Unavailable`',
    });
  });

  it('gives up after 10 retries of a server that keeps failing', async () => {
    server = await mockEmbedder(() => ({ status: 503, text: 'down' }));
    const stats = new EmbedderRequestStats();
    const opts = options(server.url);
    const error = await failure(restEmbed(opts, parseRestTemplates(opts.request, opts.response), ['a'], { runtime: loopbackRuntime(), stats }));
    expect(error.message).toBe('runtime error: received internal error HTTP 503 from embedding server\n  - server replied with `down`');
    expect(server.received).toHaveLength(11);
    expect(stats.view()).toMatchObject({ total: 11, failed: 11 });
  });

  it('retries after a 429 and gives up at once on 400 and 401', async () => {
    server = await mockEmbedder((_req, n) => (n === 1 ? { status: 429, text: 'slow down' } : { json: { embedding: [1, 2] } }));
    const opts = options(server.url);
    const templates = parseRestTemplates(opts.request, opts.response);
    expect(await restEmbed(opts, templates, ['a'], { runtime: loopbackRuntime() })).toHaveLength(1);
    expect(server.received).toHaveLength(2);
    await server.close();

    server = await mockEmbedder(() => ({ status: 400, text: 'bad' }));
    const bad = await failure(restEmbed(options(server.url), templates, ['a'], { runtime: loopbackRuntime() }));
    expect(bad.message).toBe(
      "user error: sent a bad request to embedding server\n  - Hint: check that the `request` in the embedder configuration matches the remote server's API\n  - server replied with `bad`",
    );
    expect(server.received).toHaveLength(1);
    await server.close();

    server = await mockEmbedder(() => ({ status: 401, text: 'who are you' }));
    const unauthorized = await failure(restEmbed(options(server.url, SINGLE, { configuration: 'openAi' }), templates, ['a'], { runtime: loopbackRuntime() }));
    expect(unauthorized.message).toBe(
      'user error: could not authenticate against OpenAI server\n  - server replied with `who are you`\n  - Hint: Check the `apiKey` parameter in the embedder configuration, and the `MEILI_OPENAI_API_KEY` and `OPENAI_API_KEY` environment variables',
    );
    expect(server.received).toHaveLength(1);
  });

  it('retries an answer serde_json cannot read, a number past f64 included, and says why in its words', async () => {
    const answers = ['{"embedding": [1e999, 2]}', '<html>oops</html>', '{"embedding": [1, 2]'];
    server = await mockEmbedder((_req, n) => (n <= answers.length ? { text: answers[n - 1] } : { json: { embedding: [1, 2] } }));
    const stats = new EmbedderRequestStats();
    const opts = options(server.url);
    const out = await restEmbed(opts, parseRestTemplates(opts.request, opts.response), ['a'], { runtime: loopbackRuntime(), stats, dimensions: 2 });
    expect(Array.from(out[0]!)).toEqual([1, 2]);
    expect(server.received).toHaveLength(4);
    expect(stats.view()).toMatchObject({ total: 4, failed: 3, lastError: 'runtime error: error deserializing the response body as JSON:\n  - json: EOF while parsing an object at line 1 column 20' });
    await server.close();

    server = await mockEmbedder(() => ({ text: '{"embedding": [1e999, 2]}' }));
    const error = await failure(restEmbed(options(server.url), parseRestTemplates(opts.request, opts.response), ['a'], { runtime: loopbackRuntime(), dimensions: 2 }));
    expect(error.message).toBe('runtime error: error deserializing the response body as JSON:\n  - json: number out of range at line 1 column 20');
    expect(server.received).toHaveLength(11);
  });

  it('retries an answer whose status is no success, a redirect without Location included, as an unexpected status', async () => {
    server = await mockEmbedder((_req, n) => (n === 1 ? { status: 302, json: { embedding: [9, 9] } } : { json: { embedding: [1, 2] } }));
    const stats = new EmbedderRequestStats();
    const opts = options(server.url);
    const out = await restEmbed(opts, parseRestTemplates(opts.request, opts.response), ['a'], { runtime: loopbackRuntime(), stats, dimensions: 2 });
    expect(Array.from(out[0]!)).toEqual([1, 2]);
    expect(stats.view()).toEqual({ total: 2, failed: 1, lastError: 'error: received unexpected HTTP 302 from embedding server\n  - server replied with `{"embedding":[9,9]}`' });
  });

  it('refuses an answer of the wrong dimensions or count without retrying', async () => {
    server = await mockEmbedder(() => ({ json: { embedding: [1, 2, 3] } }));
    const opts = options(server.url);
    const templates = parseRestTemplates(opts.request, opts.response);
    const error = await failure(restEmbed(opts, templates, ['a'], { runtime: loopbackRuntime(), dimensions: 2 }));
    expect(error.message).toBe('runtime error: was expecting embeddings of dimension `2`, got embeddings of dimensions `3`');
    expect(server.received).toHaveLength(1);
    await server.close();

    server = await mockEmbedder(() => ({ json: { data: [{ embedding: [1] }] } }));
    const batch = options(server.url, BATCH);
    const count = await failure(restEmbed(batch, parseRestTemplates(batch.request, batch.response), ['a', 'b'], { runtime: loopbackRuntime() }));
    expect(count.message).toBe('runtime error: expected a response containing 2 embeddings, got only 1');
  });

  it('reads an answer up to what its embeddings may take (32 bytes a component, the request again and 1 MiB), and does not ask again past it', async () => {
    // two texts of 4 dimensions: 1 MiB + 256 bytes + the request's 31
    const answer = (padding: number) => ({ json: { data: [{ embedding: [1, 2, 3, 4] }, { embedding: [5, 6, 7, 8] }], padding: 'x'.repeat(padding) } });
    server = await mockEmbedder(() => answer(1024 * 1024 - 200));
    const opts = options(server.url, BATCH);
    const templates = parseRestTemplates(opts.request, opts.response);
    const out = await restEmbed(opts, templates, ['a', 'b'], { runtime: loopbackRuntime(), dimensions: 4 });
    expect(out.map((e) => Array.from(e))).toEqual([[1, 2, 3, 4], [5, 6, 7, 8]]);
    await server.close();

    server = await mockEmbedder(() => answer(1024 * 1024 + 1000));
    const error = await failure(restEmbed(options(server.url, BATCH), templates, ['a', 'b'], { runtime: loopbackRuntime(), dimensions: 4 }));
    expect(error.message).toBe(
      'runtime error: received an answer larger than the embeddings asked for could take from embedding server:\n  - the answer is larger than 1048863 bytes',
    );
    expect(server.received).toHaveLength(1);
  });

  it('times out a silent server, then retries it', async () => {
    server = await mockEmbedder((_req, n) => (n === 1 ? { json: { embedding: [9] }, delayMs: 5_000 } : { json: { embedding: [1] } }));
    const opts = options(server.url);
    const out = await restEmbed(opts, parseRestTemplates(opts.request, opts.response), ['a'], { runtime: loopbackRuntime({ timeoutMs: 500 }) });
    expect(Array.from(out[0]!)).toEqual([1]);
    expect(server.received).toHaveLength(2);
  });

  it('stops retrying once its signal aborts', async () => {
    server = await mockEmbedder(() => ({ status: 500, text: 'no' }));
    const opts = options(server.url);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('deadline')), 100);
    const started = Date.now();
    await expect(
      restEmbed(opts, parseRestTemplates(opts.request, opts.response), ['a'], { runtime: loopbackRuntime({ maxRetryDelayMs: 60_000 }), signal: controller.signal }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('the IP policy', () => {
  it('refuses a loopback URL without an allowed network, as a network error', async () => {
    server = await mockEmbedder(() => ({ json: { embedding: [1] } }));
    const opts = options(server.url);
    const runtime = loopbackRuntime({ client: new OutgoingClient(IpPolicy.fromNetworks([])), maxRetryDelayMs: 1 });
    const error = await failure(restEmbed(opts, parseRestTemplates(opts.request, opts.response), ['a'], { runtime }));
    expect(error.message).toBe('runtime error: could not reach embedding server:\n  - bad uri: Rejected URI');
    expect(server.received).toHaveLength(0);
  });
});

describe('through a proxy', () => {
  const through = (env: Record<string, string>) => loopbackRuntime({ client: new OutgoingClient(IpPolicy.fromNetworks(['127.0.0.0/8']), undefined, ProxySettings.fromEnv(env)), maxRetryDelayMs: 1 });

  it("reports a tunnel the proxy refuses in ureq's words, as a network error it retries", async () => {
    server = await mockEmbedder(() => ({ json: { embedding: [1] } }));
    const proxy = await startHttpProxy(() => 1); // port 1: nothing listens, the tunnel is refused
    const stats = new EmbedderRequestStats();
    const opts = options(server.url);
    const error = await failure(restEmbed(opts, parseRestTemplates(opts.request, opts.response), ['a'], { runtime: through({ HTTP_PROXY: proxy.url }), stats }));
    await proxy.close();
    expect(error.message).toBe('runtime error: could not reach embedding server:\n  - CONNECT proxy failed: proxy server did not respond');
    expect(stats.view()).toMatchObject({ total: 11, failed: 11 });
    expect(server.received).toHaveLength(0);
  });
});
