/**
 * Outgoing requests through the proxy the environment names, as v1.50's clients take it: webhooks
 * and embedders (ureq) through a CONNECT tunnel, a remote search (reqwest) sent whole to the proxy,
 * both with the proxy URL's credentials; a host NO_PROXY names reached straight; the IP policy on
 * the proxy's address for ureq (not on the URL's, which only the proxy resolves) and on the URL's
 * IP literal for reqwest; an https URL tunnelled by both (HTTPS_PROXY), TLS with its own host; an
 * https:// proxy spoken to over TLS; a SOCKS proxy for webhooks and embedders (ureq), not for
 * remote searches (reqwest), which fail as in v1.50.
 * The hosts `*.test` resolve nowhere: only the proxy reaches them.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, waitTask } from '../../helpers/api.js';
import { startHttpProxy, type MockProxy } from '../../helpers/http-proxy.js';
import { startSocksProxy } from '../../helpers/socks-proxy.js';
import { startRecordingReceiver, type Hit } from '../../helpers/recording-receiver.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const CREDENTIALS = Buffer.from('user:pass').toString('base64');
let proxy: MockProxy;
let receiver: Awaited<ReturnType<typeof startRecordingReceiver>>;
const received: Hit[] = [];
let remote: TestServer; // a remote reached through the proxy
const servers: TestServer[] = [];
const TLS = fileURLToPath(new URL('../../fixtures/tls/', import.meta.url));
// over TLS with a certificate for localhost: a webhook's path is recorded, any other request is carried to `remote`
let secure: HttpsServer;
let securePort: number;

beforeAll(async () => {
  proxy = await startHttpProxy();
  receiver = await startRecordingReceiver((hit, res) => {
    received.push(hit);
    res.writeHead(200, { 'content-type': 'application/json' }).end(hit.path === '/embed' ? JSON.stringify({ data: [1, 0, 0] }) : '{}');
  });
  remote = await startServer();
  await call(remote, 'PATCH', '/experimental-features', { network: true });
  await run(remote, 'POST', '/indexes/books/documents', [{ id: 1, title: 'Carol' }]);
  secure = createHttpsServer({ cert: readFileSync(`${TLS}server.pem`), key: readFileSync(`${TLS}server.key`) }, (req, res) => {
    if (req.url === '/secure') {
      received.push({ method: req.method!, path: req.url, headers: req.headers, body: '' });
      return void req.resume().on('end', () => res.end());
    }
    const { port } = new URL(remote.url);
    req.pipe(request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers }, (answer) => (res.writeHead(answer.statusCode!, answer.headers), answer.pipe(res))));
  });
  await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
  securePort = (secure.address() as { port: number }).port;
});
afterAll(async () => {
  await Promise.all([remote, ...servers].map((server) => server.dispose()));
  secure.closeAllConnections();
  await Promise.all([proxy.close(), receiver.close(), new Promise((resolve) => secure.close(resolve))]);
});

/** A server whose environment names the mock proxy (with credentials, in HTTP_PROXY unless `env` says) and NO_PROXY=127.0.0.1. */
async function proxiedServer(args: string[] = [], env: Record<string, string> = { HTTP_PROXY: proxy.url.replace('//', '//user:pass@') }): Promise<TestServer> {
  const server = await startServer({ args, env: { NO_PROXY: '127.0.0.1', ...env } });
  servers.push(server);
  return server;
}

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

const arrived = (path: string) => received.some((hit) => hit.path === path);
const hitsFor = (target: string) => proxy.hits.filter((hit) => hit.target.includes(target));

/** Has `server` (its network feature on) search `remote` by `url` as remote ms1; each remote in `others` by its URL. */
async function searchRemote(server: TestServer, url: string, others: Record<string, string> = {}) {
  await call(server, 'PATCH', '/experimental-features', { network: true });
  const remotes = Object.fromEntries(Object.entries({ ms1: url, ...others }).map(([name, remoteUrl]) => [name, { url: remoteUrl }]));
  await call(server, 'PATCH', '/network', { self: 'ms0', remotes: { ms0: { url: server.url }, ...remotes } });
  const queries = Object.keys(remotes).map((name) => ({ indexUid: 'books', q: 'carol', federationOptions: { remote: name } }));
  return call(server, 'POST', '/multi-search', { federation: {}, queries });
}

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
    const remoteUrl = `http://remote.test:${new URL(remote.url).port}`;
    const reply = await searchRemote(allowed, remoteUrl, { ms2: 'http://10.0.0.1:7700' });
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

describe('https URLs through HTTPS_PROXY', () => {
  it('tunnels a webhook and a remote search to an https URL, TLS end to end with its host', async () => {
    // the test CA trusted; only HTTPS_PROXY, which reqwest's clients read for https URLs alone
    const env = { NODE_EXTRA_CA_CERTS: `${TLS}ca.pem`, HTTPS_PROXY: proxy.url.replace('//', '//user:pass@') };
    const server = await proxiedServer(['--experimental-allowed-ip-networks', '127.0.0.0/8'], env);
    await webhookTo(server, `https://localhost:${securePort}/secure`);
    await until(() => arrived('/secure'));
    expect(arrived('/secure')).toBe(true);
    const reply = await searchRemote(server, `https://localhost:${securePort}`);
    expect(reply.body.remoteErrors).toEqual({});
    expect(reply.body.hits.map((hit: { id: number }) => hit.id)).toEqual([1]);
    // ureq's tunnel (`basic`) for the webhook, reqwest's (`Basic`) for the search
    expect(hitsFor(`localhost:${securePort}`)).toEqual([
      { kind: 'connect', target: `localhost:${securePort}`, authorization: `basic ${CREDENTIALS}` },
      { kind: 'connect', target: `localhost:${securePort}`, authorization: `Basic ${CREDENTIALS}` },
    ]);
  });

  it('speaks TLS to an https:// proxy: a tunnel, TLS inside for an https URL, and an http URL sent whole', async () => {
    const tlsProxy = await startHttpProxy(undefined, { cert: readFileSync(`${TLS}server.pem`), key: readFileSync(`${TLS}server.key`) });
    try {
      const env = { NODE_EXTRA_CA_CERTS: `${TLS}ca.pem`, ALL_PROXY: tlsProxy.url.replace('//', '//user:pass@') };
      const server = await proxiedServer(['--experimental-allowed-ip-networks', '127.0.0.0/8'], env);
      await webhookTo(server, `http://receiver.test:${receiver.port}/over-tls`);
      await until(() => arrived('/over-tls'));
      expect(arrived('/over-tls')).toBe(true);
      const remoteUrl = `http://remote.test:${new URL(remote.url).port}`;
      const reply = await searchRemote(server, remoteUrl, { ms2: `https://localhost:${securePort}` });
      expect(reply.body.remoteErrors).toEqual({});
      expect(reply.body.hits.map((hit: { id: number }) => hit.id)).toEqual([1, 1]);
      // the two remotes are asked at once: in either order
      expect(tlsProxy.hits).toHaveLength(3);
      expect(tlsProxy.hits[0]).toEqual({ kind: 'connect', target: `receiver.test:${receiver.port}`, authorization: `basic ${CREDENTIALS}` });
      expect(tlsProxy.hits).toContainEqual({ kind: 'forward', target: `${remoteUrl}/multi-search`, authorization: `Basic ${CREDENTIALS}` });
      expect(tlsProxy.hits).toContainEqual({ kind: 'connect', target: `localhost:${securePort}`, authorization: `Basic ${CREDENTIALS}` });
    } finally {
      await tlsProxy.close();
    }
  });
});

describe('SOCKS proxies', () => {
  it("carry a webhook (ureq's socks-proxy); reqwest's callers fail, as in v1.50, and the start says so", async () => {
    const socks = await startSocksProxy('user:pass');
    try {
      const server = await proxiedServer(['--experimental-allowed-ip-networks', '127.0.0.0/8'], { ALL_PROXY: socks.url('socks5h', 'user:pass') });
      expect(server.output()).toMatch(/WARN quarry::outgoing: the proxy in `ALL_PROXY` is a `socks5h` proxy, which remote searches and writes, chat providers, personalization and S3 snapshots do not speak \(nor in v1\.50\): their requests fail/);
      await webhookTo(server, `http://receiver.test:${receiver.port}/socks`);
      await until(() => arrived('/socks'));
      expect(socks.hits).toEqual([{ version: 5, target: `receiver.test:${receiver.port}`, credentials: 'user:pass' }]);
      const reply = await searchRemote(server, `http://remote.test:${new URL(remote.url).port}`);
      expect(reply.body.remoteErrors.ms1.message).toBe('error sending request');
      expect(socks.hits).toHaveLength(1);
    } finally {
      await socks.close();
    }
  });
});
