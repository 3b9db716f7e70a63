// The writer thread's blocking embedding calls (src/workers/embedding-channel.ts), with a real
// client thread running the built module (dist/, `npx tsc -p tsconfig.json` first) and this
// thread serving through a mock embedding server: answers handed over a run at a time while later
// requests are in flight, errors (the embedder's failure, the batch's), request counts, a
// cancelation and the answer deadline.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { setEmbedderRuntime } from '../../../src/embedders/runtime.js';
import { serveEmbedding, type EmbeddingEnds } from '../../../src/workers/embedding-channel.js';
import { fakeEmbedding, loopbackRuntime, mockEmbedder, type MockEmbedder } from '../embedders/mock-embedder.js';

const CHANNEL = new URL('../../../dist/src/workers/embedding-channel.js', import.meta.url).href;
const CLIENT = `
  const { workerData, parentPort } = require('node:worker_threads');
  import(workerData.channel).then(({ EmbeddingClient }) => {
    const client = new EmbeddingClient(workerData.ends, workerData.interrupt, 'interrupted');
    const started = Date.now();
    const embeddings = [];
    try {
      client.embed('rest', workerData.settings, workerData.texts, (from, run) => {
        embeddings.splice(from, run.length, ...run);
        parentPort.postMessage({ took: from + run.length });
      });
      parentPort.postMessage({ embeddings: embeddings.map((e) => Array.from(e)), ms: Date.now() - started });
    } catch (error) {
      parentPort.postMessage({ error: { code: error.code, message: error.message }, failure: error.constructor.name, ms: Date.now() - started });
    }
  });`;

interface Outcome {
  embeddings?: number[][];
  error?: { code?: string; message: string };
  /** the class the writer caught: an EmbedderFailure fails the batch, not one document */
  failure?: string;
  ms: number;
}

/** Runs the writer's side in a thread; `took` hears how many texts' embeddings it took after each run. */
function runClient(ends: EmbeddingEnds, interrupt: Int32Array, settings: unknown, texts: string[], took?: (count: number) => void): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(CLIENT, { eval: true, workerData: { channel: CHANNEL, ends, interrupt, settings, texts }, transferList: [ends.port] });
    worker.on('message', (message: Outcome | { took: number }) => {
      if ('took' in message) {
        took?.(message.took);
        return;
      }
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

let server: MockEmbedder;
beforeEach(() => setEmbedderRuntime(loopbackRuntime()));
afterEach(async () => server.close());

const rest = (url: string) => ({ source: 'rest', url, request: { input: ['{{text}}', '{{..}}'] }, response: { data: [{ embedding: '{{embedding}}' }, '{{..}}'] } });
const single = (url: string) => ({ source: 'rest', url, request: { q: '{{text}}' }, response: { embedding: '{{embedding}}' } });
const interruptFlag = () => new Int32Array(new SharedArrayBuffer(4));

describe('the embedding channel', () => {
  it("answers the blocked writer with the main thread's embeddings and counts the requests", async () => {
    server = await mockEmbedder((req) => ({ json: { data: (req.body.input as string[]).map((t) => ({ embedding: fakeEmbedding(t) })) } }));
    const service = serveEmbedding(new AbortController().signal);
    const texts = Array.from({ length: 12 }, (_, i) => `doc ${i}`);
    const outcome = await runClient(service.ends, interruptFlag(), rest(server.url), texts);
    service.close();
    expect(outcome.embeddings).toEqual(texts.map(fakeEmbedding));
    expect(service.stats.view()).toEqual({ total: 2, failed: 0 });
  });

  it('hands the writer each run of embeddings as it is answered, while the last request is still in flight', async () => {
    // one text a request: the last one is answered once the writer took all the others, or after 3 s
    let releasedBy = '';
    let release: (by: string) => void = () => {};
    const held = new Promise<void>((resolve) => (release = (by) => ((releasedBy ||= by), resolve())));
    const timer = setTimeout(() => release('the timer'), 3_000);
    server = await mockEmbedder((req) => ({ json: { embedding: fakeEmbedding(req.body.q) }, ...(req.body.q === 'last' ? { after: held } : {}) }));
    const service = serveEmbedding(new AbortController().signal);
    const texts = [...Array.from({ length: 30 }, (_, i) => `doc ${i}`), 'last'];
    const outcome = await runClient(service.ends, interruptFlag(), single(server.url), texts, (count) => {
      if (count === texts.length - 1) release('the writer');
    });
    clearTimeout(timer);
    service.close();
    expect(outcome.embeddings).toEqual(texts.map(fakeEmbedding));
    expect(releasedBy).toBe('the writer');
  });

  it("throws the embedding error in the writer with its code, as the embedder's failure", async () => {
    server = await mockEmbedder(() => ({ status: 401, text: 'nope' }));
    const service = serveEmbedding(new AbortController().signal);
    const outcome = await runClient(service.ends, interruptFlag(), rest(server.url), ['a']);
    service.close();
    expect(outcome.error).toEqual({
      code: 'vector_embedding_error',
      message:
        'While embedding documents for embedder `rest`: user error: could not authenticate against embedding server\n  - server replied with `nope`\n  - Hint: Check the `apiKey` parameter in the embedder configuration',
    });
    expect(outcome.failure).toBe('EmbedderFailure');
  });

  it('stops waiting as soon as the write is canceled', async () => {
    server = await mockEmbedder(() => ({ json: { data: [{ embedding: [1] }] }, delayMs: 5_000 }));
    const canceled = new AbortController();
    const service = serveEmbedding(canceled.signal);
    const interrupt = interruptFlag();
    setTimeout(() => {
      Atomics.store(interrupt, 0, 1);
      canceled.abort();
    }, 150);
    const outcome = await runClient(service.ends, interrupt, rest(server.url), ['a']);
    service.close();
    expect(outcome.error?.message).toBe('interrupted');
    expect(outcome.ms).toBeLessThan(2_000);
  });

  it("gives up after its answer deadline when no answer comes, as the embedder's failure", async () => {
    server = await mockEmbedder(() => ({ json: { data: [{ embedding: [1] }] }, delayMs: 5_000 }));
    const service = serveEmbedding(new AbortController().signal);
    const outcome = await runClient({ ...service.ends, answerMs: 300 }, interruptFlag(), rest(server.url), ['a']);
    service.close();
    expect(outcome.error?.code).toBe('vector_embedding_error');
    expect(outcome.failure).toBe('EmbedderFailure');
    expect(outcome.ms).toBeLessThan(2_000);
  });
});
