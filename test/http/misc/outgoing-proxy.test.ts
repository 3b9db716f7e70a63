/**
 * Outgoing requests through the proxy the environment names, as v1.50's clients take it: webhooks
 * and embedders (ureq) through a CONNECT tunnel, a remote search (reqwest) sent whole to the proxy,
 * both with the proxy URL's credentials; a host NO_PROXY names reached straight; the IP policy on
 * the proxy's address for ureq (not on the URL's, which only the proxy resolves) and on the URL's
 * IP literal for reqwest. The hosts `*.test` resolve nowhere: only the proxy reaches them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, waitTask } from '../../helpers/api.js';
import { startHttpProxy, type MockProxy } from '../../helpers/http-proxy.js';
import { startRecordingReceiver, type Hit } from '../../helpers/recording-receiver.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const CREDENTIALS = Buffer.from('user:pass').toString('base64');
let proxy: MockProxy;
let receiver: Awaited<ReturnType<typeof startRecordingReceiver>>;
const received: Hit[] = [];
let remote: TestServer; // a remote reached through the proxy
const servers: TestServer[] = [];

beforeAll(async () => {
  proxy = await startHttpProxy();
  receiver = await startRecordingReceiver((hit, res) => {
    received.push(hit);
    res.writeHead(200, { 'content-type': 'application/json' }).end(hit.path === '/embed' ? JSON.stringify({ data: [1, 0, 0] }) : '{}');
  });
  remote = await startServer();
  await call(remote, 'PATCH', '/experimental-features', { network: true });
  await run(remote, 'POST', '/indexes/books/documents', [{ id: 1, title: 'Carol' }]);
});
afterAll(async () => {
  await Promise.all([remote, ...servers].map((server) => server.dispose()));
  await Promise.all([proxy.close(), receiver.close()]);
});

/** A server whose environment names the mock proxy (with credentials) and NO_PROXY=127.0.0.1. */
async function proxiedServer(args: string[] = []): Promise<TestServer> {
  const env = { HTTP_PROXY: proxy.url.replace('//', '//user:pass@'), NO_PROXY: '127.0.0.1' };
  const server = await startServer({ args, env });
  servers.push(server);
  return server;
}

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

const arrived = (path: string) => received.some((hit) => hit.path === path);
const hitsFor = (target: string) => proxy.hits.filter((hit) => hit.target.includes(target));

/** Registers a webhook to `url`, then has a task finish so that it is called. */
async function webhookTo(server: TestServer, url: string): Promise<void> {
  expect((await call(server, 'POST', '/webhooks', { url })).status).toBe(201);
  await run(server, 'POST', '/indexes', { uid: `i${Date.now()}` });
}

describe('outgoing requests through HTTP_PROXY', () => {
  let allowed: TestServer; // the loopback proxy allowed by the IP policy
  beforeAll(async () => {
    allowed = await proxiedServer(['--experimental-allowed-ip-networks', '127.0.0.0/8']);
  });

  it('sends a webhook through a CONNECT tunnel, with the proxy URL credentials', async () => {
    await webhookTo(allowed, `http://receiver.test:${receiver.port}/tunnelled`);
    await until(() => arrived('/tunnelled'));
    expect(received.filter((hit) => hit.path === '/tunnelled')).toHaveLength(1);
    // ureq's words: `basic`, lower case
    expect(hitsFor(`receiver.test:${receiver.port}`)).toEqual([{ kind: 'connect', target: `receiver.test:${receiver.port}`, authorization: `basic ${CREDENTIALS}` }]);
  });

  it('goes straight to a host NO_PROXY names, through the proxy to another', async () => {
    await webhookTo(allowed, `http://127.0.0.1:${receiver.port}/direct`);
    await webhookTo(allowed, `http://localhost:${receiver.port}/by-name`);
    await until(() => arrived('/direct') && arrived('/by-name'));
    expect(received.filter((hit) => hit.path === '/direct' || hit.path === '/by-name').length).toBeGreaterThanOrEqual(2);
    expect(hitsFor(`127.0.0.1:${receiver.port}`)).toEqual([]);
    expect(hitsFor(`localhost:${receiver.port}`).length).toBeGreaterThanOrEqual(1);
  });

  it("sends an embedder's requests through the proxy", async () => {
    const embedder = { source: 'rest', url: `http://embedder.test:${receiver.port}/embed`, dimensions: 3, request: '{{text}}', response: { data: '{{embedding}}' } };
    const settings = await call(allowed, 'PATCH', '/indexes/dogs/settings', { embedders: { rest: embedder } });
    expect(await waitTask(allowed, settings.body.taskUid)).toMatchObject({ status: 'succeeded' });
    expect(await run(allowed, 'POST', '/indexes/dogs/documents', [{ id: 1, name: 'kefir' }])).toMatchObject({ status: 'succeeded' });
    expect(arrived('/embed')).toBe(true);
    expect(hitsFor(`embedder.test:${receiver.port}`)[0]).toEqual({ kind: 'connect', target: `embedder.test:${receiver.port}`, authorization: `basic ${CREDENTIALS}` });
  });

  it('sends a remote search whole to the proxy; a non-global IP literal is refused before it', async () => {
    await call(allowed, 'PATCH', '/experimental-features', { network: true });
    const remoteUrl = `http://remote.test:${new URL(remote.url).port}`;
    await call(allowed, 'PATCH', '/network', { self: 'ms0', remotes: { ms0: { url: allowed.url }, ms1: { url: remoteUrl }, ms2: { url: 'http://10.0.0.1:7700' } } });
    const reply = await call(allowed, 'POST', '/multi-search', {
      federation: {},
      queries: [
        { indexUid: 'books', q: 'carol', federationOptions: { remote: 'ms1' } },
        { indexUid: 'books', q: 'carol', federationOptions: { remote: 'ms2' } },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body.hits.map((hit: { id: number }) => hit.id)).toEqual([1]);
    // reqwest's words: `Basic`; the URL whole (absolute form)
    expect(hitsFor('remote.test')).toEqual([{ kind: 'forward', target: `${remoteUrl}/multi-search`, authorization: `Basic ${CREDENTIALS}` }]);
    expect(JSON.stringify(reply.body.remoteErrors.ms2)).toContain('Rejected IP');
    expect(hitsFor('10.0.0.1')).toEqual([]);
  });

  it("checks a webhook's proxy against the IP policy, not its URL, which only the proxy resolves", async () => {
    await webhookTo(allowed, `http://10.0.0.1:${receiver.port}/unchecked`);
    await until(() => arrived('/unchecked'));
    expect(hitsFor(`10.0.0.1:${receiver.port}`)).toHaveLength(1);

    const refused = await proxiedServer(['--task-webhook-url', `http://receiver.test:${receiver.port}/refused`]);
    await run(refused, 'POST', '/indexes', { uid: 'refused' });
    await until(() => refused.output().includes('Rejected URI'));
    expect(refused.output()).toContain('bad uri: Rejected URI');
    expect(refused.output()).toContain(' address="127.0.0.1"');
    expect(arrived('/refused')).toBe(false);
  });
});
