// A mock embedding server on loopback for the embedder tests: records each request's body and
// headers, answers with what the test's handler returns (status, JSON body or raw text).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutgoingClient } from '../../../src/outgoing/client.js';
import { IpPolicy } from '../../../src/outgoing/ip-policy.js';
import { STRICT_FAILURE_MODES } from '../../../src/embedders/failure-modes.js';
import type { EmbedderRuntime } from '../../../src/embedders/runtime.js';
import type { embedDocuments } from '../../../src/embedders/embed.js';
import type { EmbedderRequestStats } from '../../../src/embedders/request-stats.js';
import type { EmbedderSettings } from '../../../src/types/settings.js';

export interface Received {
  body: any;
  headers: http.IncomingHttpHeaders;
  /** name, value, name, value… as sent (node's `headers` cannot hold one named `__proto__`) */
  rawHeaders: string[];
  path: string;
}

/** `after`: the answer waits for it (then for `delayMs`, if any) */
export type Answer = { status?: number; json?: unknown; text?: string; delayMs?: number; after?: Promise<unknown> };

export interface MockEmbedder {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function mockEmbedder(handler: (req: Received, n: number) => Answer): Promise<MockEmbedder> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const entry = { body: text === '' ? undefined : JSON.parse(text), headers: req.headers, rawHeaders: req.rawHeaders, path: req.url ?? '' };
      received.push(entry);
      const answer = handler(entry, received.length);
      const send = () => {
        res.statusCode = answer.status ?? 200;
        res.setHeader('content-type', 'application/json');
        res.end(answer.text ?? JSON.stringify(answer.json ?? null));
      };
      const delayed = () => (answer.delayMs === undefined ? send() : setTimeout(send, answer.delayMs));
      if (answer.after === undefined) delayed();
      else void answer.after.then(delayed);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A runtime whose client may reach loopback (as the server with `--experimental-allowed-ip-networks 127.0.0.0/8`). */
export function loopbackRuntime(overrides: Partial<EmbedderRuntime> = {}): EmbedderRuntime {
  return {
    client: new OutgoingClient(IpPolicy.fromNetworks(['127.0.0.0/8'])),
    timeoutMs: 2_000,
    maxRetryDelayMs: 5,
    openAiApiKey: undefined,
    ollamaUrl: undefined,
    queryCacheEntries: 0,
    failureModes: STRICT_FAILURE_MODES,
    huggingFaceHub: { cache: '/nonexistent/quarry-test-hf-hub', endpoint: 'https://huggingface.co' },
    ...overrides,
  };
}

/** A fake embedding of `text`: its length, its first char code and 1. */
export function fakeEmbedding(text: string): number[] {
  return [text.length, text.charCodeAt(0) || 0, 1];
}

/** Every embedding `embedDocuments` (this build's, or dist's: `embed`) hands over, in text order (none is null: no failure is ignored). */
export async function allEmbeddings(
  embed: typeof embedDocuments,
  name: string,
  settings: EmbedderSettings,
  texts: readonly unknown[],
  stats?: EmbedderRequestStats,
): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  await embed(name, settings, texts, { ...(stats === undefined ? {} : { stats }), take: (from, embeddings) => out.splice(from, embeddings.length, ...(embeddings as Float32Array[])) });
  return out;
}
