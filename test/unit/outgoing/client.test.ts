/**
 * The outgoing client against loopback receivers: the policy is checked before any connection
 * (IP literals, every resolved address, every redirect hop), the connection goes to the checked
 * address, connections are kept alive (each new one checked, an idempotent request sent again when
 * its reused one was closed, never a POST nor a request answered), and timeouts and retries behave.
 * Only loopback addresses are ever connected to.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, OutgoingClient, type Failure } from '../../../src/outgoing/client.js';
import { IpPolicy, RejectedIp } from '../../../src/outgoing/ip-policy.js';
import { ProxySettings } from '../../../src/outgoing/proxy-settings.js';
import { startHttpProxy } from '../../helpers/http-proxy.js';
import { startSocksProxy } from '../../helpers/socks-proxy.js';
import { startRecordingReceiver, type Hit } from '../../helpers/recording-receiver.js';

const hits: Hit[] = [];
let answer: (hit: Hit, res: ServerResponse) => void;
let receiver: Awaited<ReturnType<typeof startRecordingReceiver>>;
let base: string;
let port: number;

beforeAll(async () => {
  receiver = await startRecordingReceiver((hit, res) => {
    hits.push(hit);
    answer(hit, res);
  });
  port = receiver.port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => receiver.close());
beforeEach(() => {
  hits.length = 0;
  answer = (_hit, res) => res.end('fine');
});

const loopback = IpPolicy.fromNetworks(['127.0.0.0/8']);
const localhostOnly = IpPolicy.fromNetworks(['127.0.0.1/32']);
const POST = { method: 'POST', body: Buffer.from('payload'), timeoutMs: 5_000 };

/** A resolver that answers `addresses` for every host and counts its calls. */
function fakeDns(...addresses: string[]): { resolve: (host: string) => Promise<LookupAddress[]>; calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { resolve, calls };
}

describe('the IP policy', () => {
  it('refuses a loopback IP literal by default, before connecting', async () => {
    const client = new OutgoingClient(IpPolicy.fromNetworks([]));
    await expect(client.request(`${base}/hook`, POST)).rejects.toThrow(RejectedIp);
    await expect(client.request(`http://[::1]:${port}/hook`, POST)).rejects.toMatchObject({ message: 'Rejected IP', address: '::1' });
    await expect(client.request(`http://[::ffff:127.0.0.1]:${port}/hook`, POST)).rejects.toMatchObject({ message: 'Rejected IP' });
    expect(hits).toEqual([]);
  });

  it('refuses a host name that the system resolves to loopback', async () => {
    await expect(new OutgoingClient(IpPolicy.fromNetworks([])).request(`http://localhost:${port}/hook`, POST)).rejects.toThrow('Rejected IP');
    expect(hits).toEqual([]);
  });

  it('delivers to an allowed network, the body sent with its length, or chunked when asked', async () => {
    const reply = await new OutgoingClient(loopback).request(`${base}/hook?x=1`, { ...POST, headers: { 'X-Custom': 'yes' } });
    expect(reply.status).toBe(200);
    expect(reply.body.toString()).toBe('fine');
    expect(hits).toMatchObject([{ method: 'POST', path: '/hook?x=1', body: 'payload', headers: { 'x-custom': 'yes', 'content-length': '7' } }]);
    expect(hits[0]!.headers).not.toHaveProperty('transfer-encoding');
    await new OutgoingClient(loopback).request(`${base}/stream`, { ...POST, chunked: true });
    expect(hits[1]).toMatchObject({ body: 'payload', headers: { 'transfer-encoding': 'chunked' } });
    expect(hits[1]!.headers).not.toHaveProperty('content-length');
    expect(await new OutgoingClient(IpPolicy.fromNetworks(['any'])).request(`${base}/any`, POST)).toMatchObject({ status: 200 });
  });

  it('checks every address a name resolves to, and refuses them all for one refused', async () => {
    const dns = fakeDns('127.0.0.1', '::1');
    await expect(new OutgoingClient(loopback, dns.resolve).request(`http://hooks.test:${port}/`, POST)).rejects.toMatchObject({ address: '::1' });
    expect(hits).toEqual([]);
  });

  it('resolves once and connects to the checked address, whatever the name', async () => {
    const dns = fakeDns('127.0.0.1');
    const reply = await new OutgoingClient(loopback, dns.resolve).request(`http://hooks.test:${port}/named`, POST);
    expect(reply.status).toBe(200);
    expect(dns.calls).toEqual(['hooks.test']);
    expect(hits).toMatchObject([{ path: '/named', headers: { host: `hooks.test:${port}` } }]);
  });
});

describe('connections', () => {
  it('gives a request asking for a connection of its own a new one, closed once answered (webhooks)', async () => {
    const server = createServer((req, res) => req.resume().on('end', () => res.end('ok')));
    let [opened, closed] = [0, 0];
    server.on('connection', (socket) => {
      opened++;
      socket.on('close', () => closed++);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port: own } = server.address() as { port: number };
    try {
      const client = new OutgoingClient(loopback);
      for (let i = 0; i < 3; i++) expect((await client.request(`http://127.0.0.1:${own}/`, { ...POST, connection: 'own' })).body.toString()).toBe('ok');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect({ opened, closed }).toEqual({ opened: 3, closed: 3 });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('keeps a connection alive for the next requests to the host, resolving and checking its name once per connection', async () => {
    const server = createServer((req, res) => req.resume().on('end', () => res.end('ok')));
    let connections = 0;
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port: own } = server.address() as { port: number };
    try {
      // a name that resolves to 127.0.0.1, then to 127.0.0.2, which the policy refuses
      const calls: string[] = [];
      let address = '127.0.0.1';
      const client = new OutgoingClient(localhostOnly, async (host) => {
        calls.push(host);
        return [{ address, family: 4 }];
      });
      for (let i = 0; i < 5; i++) expect((await client.request(`http://pooled.test:${own}/`, POST)).body.toString()).toBe('ok');
      expect(connections).toBe(1);
      expect(calls).toEqual(['pooled.test']);
      // the name now resolves to a refused address (DNS rebinding): the open connection, to the
      // address checked, still serves; once the server closes it, the next connection is refused
      address = '127.0.0.2';
      expect((await client.request(`http://pooled.test:${own}/`, POST)).status).toBe(200);
      server.closeAllConnections();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(client.request(`http://pooled.test:${own}/`, POST)).rejects.toMatchObject({ message: 'Rejected IP', address: '127.0.0.2' });
      expect(connections).toBe(1);
      expect(calls).toEqual(['pooled.test', 'pooled.test']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  /** A loopback server whose `nth` request (1-based, over all connections) is handled by `cut`; the others answer `ok`. */
  async function cuttingServer(nth: number, cut: (req: IncomingMessage, res: ServerResponse) => void) {
    const seen: string[] = [];
    let connections = 0;
    const server = createServer((req, res) => {
      seen.push(req.method!);
      req.resume().on('end', () => (seen.length === nth ? cut(req, res) : res.end('ok')));
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    const close = () => {
      server.closeAllConnections();
      server.close();
    };
    return { url, seen, connections: () => connections, close };
  }

  it('sends an idempotent request again on a new connection when the kept-alive one it was sent on turns out closed', async () => {
    // the second request meets its connection closed, as a server's idle timeout closes it
    const server = await cuttingServer(2, (req) => req.socket.destroy());
    try {
      const client = new OutgoingClient(loopback);
      for (let i = 0; i < 2; i++) expect((await client.request(server.url, { method: 'PUT', body: Buffer.from('part'), timeoutMs: 5_000 })).body.toString()).toBe('ok');
      expect({ seen: server.seen, connections: server.connections() }).toEqual({ seen: ['PUT', 'PUT', 'PUT'], connections: 2 });
    } finally {
      server.close();
    }
  });

  it('never sends a POST twice: one its kept-alive connection failed fails (the server may have acted on it), for the caller to retry', async () => {
    const server = await cuttingServer(2, (req) => req.socket.destroy());
    try {
      const client = new OutgoingClient(loopback);
      expect((await client.request(server.url, POST)).status).toBe(200);
      await expect(client.request(server.url, POST)).rejects.toMatchObject({ code: 'ECONNRESET' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.seen).toEqual(['POST', 'POST']);
    } finally {
      server.close();
    }
  });

  it('does not send a request again when its answer, begun on a kept-alive connection, is cut', async () => {
    const server = await cuttingServer(2, (req, res) => {
      res.writeHead(200, { 'content-length': '100' }).write('part');
      setTimeout(() => req.socket.resetAndDestroy(), 20);
    });
    try {
      const client = new OutgoingClient(loopback);
      expect((await client.request(server.url, { method: 'GET', timeoutMs: 5_000 })).status).toBe(200);
      await expect(client.request(server.url, { method: 'GET', timeoutMs: 5_000 })).rejects.toMatchObject({ code: 'ECONNRESET' });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(server.seen).toEqual(['GET', 'GET']);
    } finally {
      server.close();
    }
  });
});

describe('redirects', () => {
  it('checks every hop: a redirect to a refused address is not followed', async () => {
    answer = (_hit, res) => res.writeHead(302, { location: `http://127.0.0.2:${port}/inside` }).end();
    await expect(new OutgoingClient(localhostOnly).request(`${base}/out`, POST)).rejects.toMatchObject({ message: 'Rejected IP', address: '127.0.0.2' });
    expect(hits.map((hit) => hit.path)).toEqual(['/out']);
  });

  it('repeats the request on 307 and 308, turns it into a GET on the others, never forwards Authorization', async () => {
    answer = (hit, res) => {
      const next = { '/307': '/308', '/308': '/303', '/303': '/end' }[hit.path];
      if (next === undefined) res.end('arrived');
      else res.writeHead(Number(hit.path.slice(1)), { location: next }).end();
    };
    const reply = await new OutgoingClient(loopback).request(`${base}/307`, { ...POST, headers: { Authorization: 'Bearer secret' } });
    expect(reply.body.toString()).toBe('arrived');
    expect(hits.map(({ method, path, body, headers }) => [method, path, body, headers.authorization ?? null])).toEqual([
      ['POST', '/307', 'payload', 'Bearer secret'],
      ['POST', '/308', 'payload', null],
      ['POST', '/303', 'payload', null],
      ['GET', '/end', '', null],
    ]);
  });

  it('forwards Authorization to the same host and port when asked, as reqwest does, and to no other', async () => {
    answer = (hit, res) => {
      const next = { '/here': '/there', '/there': `http://localhost:${port}/elsewhere` }[hit.path];
      if (next === undefined) res.end('arrived');
      else res.writeHead(302, { location: next }).end();
    };
    const client = new OutgoingClient(loopback, fakeDns('127.0.0.1').resolve);
    const reply = await client.request(`${base}/here`, { ...POST, headers: { Authorization: 'Bearer secret' }, redirectAuthorization: 'sameHost' });
    expect(reply.body.toString()).toBe('arrived');
    expect(hits.map(({ path, headers }) => [path, headers.authorization ?? null])).toEqual([
      ['/here', 'Bearer secret'],
      ['/there', 'Bearer secret'],
      ['/elsewhere', null],
    ]);
  });

  it('gives up after 10 redirects', async () => {
    answer = (_hit, res) => res.writeHead(302, { location: '/again' }).end();
    await expect(new OutgoingClient(loopback).request(`${base}/loop`, { timeoutMs: 5_000 })).rejects.toThrow('too many redirects');
    expect(hits).toHaveLength(11);
  });
});

describe('timeouts, retries and errors', () => {
  it('fails an attempt whose answer passes MAX_ANSWER_BYTES, without holding it', async () => {
    answer = (_hit, res) => {
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      let sent = 0;
      const more = () => {
        while (sent < MAX_ANSWER_BYTES / chunk.length + 8) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => {});
      more();
    };
    const client = new OutgoingClient(loopback);
    // 64 MiB over loopback: seconds on a loaded machine
    await expect(client.request(`${base}/hook`, { ...POST, timeoutMs: 15_000 })).rejects.toThrow(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
    answer = (_hit, res) => res.end('x'.repeat(1000));
    expect((await client.request(`${base}/hook`, POST)).body.length).toBe(1000);
  });

  it('aborts an exchange that outlasts its timeout', async () => {
    answer = () => {};
    const started = Date.now();
    await expect(new OutgoingClient(loopback).request(`${base}/slow`, { ...POST, timeoutMs: 200 })).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  // MEILI_EXPERIMENTAL_*_TIMEOUT_SECONDS take any u64 in v1.50; a Node timer past 2^31 - 1 ms fired
  // after 1 ms (every request timed out at once), and AbortSignal.timeout threw past 2^53
  it('waits for an answer under a timeout longer than a Node timer holds', async () => {
    answer = (_hit, res) => void setTimeout(() => res.end('late'), 100);
    for (const timeoutMs of [30 * 86_400_000, 1e20]) {
      const reply = await new OutgoingClient(loopback).request(`${base}/slow`, { ...POST, timeoutMs, connectTimeoutMs: timeoutMs });
      expect(reply.body.toString()).toBe('late');
    }
  });

  it('retries as long as the caller asks, then returns the last answer or throws the last error', async () => {
    answer = (_hit, res) => res.writeHead(hits.length < 3 ? 503 : 200).end(String(hits.length));
    const seen: number[] = [];
    const retry = (failure: Failure, attempt: number) => {
      if ('response' in failure) seen.push(failure.response.status);
      return attempt < 5 ? 1 : null;
    };
    expect((await new OutgoingClient(loopback).request(`${base}/flaky`, { ...POST, retry })).body.toString()).toBe('3');
    expect(seen).toEqual([503, 503]);

    hits.length = 0;
    const once = await new OutgoingClient(loopback).request(`${base}/flaky`, { ...POST, retry: () => null });
    expect(once.status).toBe(503);

    const errors: unknown[] = [];
    const refused = new OutgoingClient(IpPolicy.fromNetworks([])).request(`${base}/flaky`, {
      ...POST,
      retry: (failure, attempt) => (errors.push('error' in failure ? failure.error : null), attempt < 3 ? 1 : null),
    });
    await expect(refused).rejects.toThrow(RejectedIp);
    expect(errors).toHaveLength(3);
    expect(errors.every((err) => err instanceof RejectedIp)).toBe(true);
  });

  it('refuses schemes other than http and https', async () => {
    await expect(new OutgoingClient(IpPolicy.fromNetworks(['any'])).request(`ftp://127.0.0.1:${port}/`, POST)).rejects.toThrow('unsupported URL scheme `ftp`');
  });
});

describe('through a proxy', () => {
  /** A raw proxy that answers each connection with `reply` (or closes it at once), counting them. */
  async function rawProxy(reply: string | null): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.once('data', () => (reply === null ? socket.destroy() : socket.end(reply)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    return { url, connections: () => connections, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }
  const via = (policy: IpPolicy, proxyUrl: string) => new OutgoingClient(policy, undefined, ProxySettings.fromEnv({ HTTP_PROXY: proxyUrl }));

  it("fails a tunnel the proxy refuses or never answers, in ureq's words", async () => {
    const refusing = await rawProxy('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
    const closing = await rawProxy(null);
    await expect(via(loopback, refusing.url).request('http://a.test/', POST)).rejects.toThrow('CONNECT proxy failed: proxy server responded 407/407');
    await expect(via(loopback, closing.url).request('http://a.test/', POST)).rejects.toThrow('CONNECT proxy failed: proxy server did not respond');
    await Promise.all([refusing.close(), closing.close()]);
  });

  it("checks a proxy named by an IP literal for ureq's callers, not for reqwest's, as v1.50's resolvers do", async () => {
    const proxy = await startHttpProxy();
    const closed = via(IpPolicy.fromNetworks([]), proxy.url);
    await expect(closed.request(`http://a.test:${port}/ureq`, POST)).rejects.toThrow(RejectedIp);
    expect(proxy.hits).toEqual([]);
    expect((await closed.request(`http://a.test:${port}/reqwest`, { ...POST, proxyRules: 'reqwest' })).status).toBe(200);
    expect(proxy.hits.map((hit) => hit.kind)).toEqual(['forward']);
    expect(hits.map((hit) => hit.path)).toEqual(['/reqwest']);
    await proxy.close();
  });

  it('follows a redirect to a host NO_PROXY names straight, and back through the proxy', async () => {
    const proxy = await startHttpProxy();
    const client = new OutgoingClient(loopback, undefined, ProxySettings.fromEnv({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }));
    answer = (hit, res) => (hit.path === '/start' ? res.writeHead(307, { location: `${base}/straight` }).end() : res.end('fine'));
    expect((await client.request(`http://a.test:${port}/start`, POST)).status).toBe(200);
    expect(hits.map((hit) => hit.path)).toEqual(['/start', '/straight']);
    expect(proxy.hits.map((hit) => hit.target)).toEqual([`a.test:${port}`]);
    await proxy.close();
  });
});

describe('through a SOCKS proxy (ureq)', () => {
  it('hands socks5h and socks4a the host name, socks5 and socks4 an address resolved and checked here', async () => {
    const proxy = await startSocksProxy();
    const dns = fakeDns('127.0.0.1');
    const via = (scheme: string) => new OutgoingClient(loopback, dns.resolve, ProxySettings.fromEnv({ ALL_PROXY: proxy.url(scheme) }));
    for (const scheme of ['socks5h', 'socks4a', 'socks5', 'socks4']) expect((await via(scheme).request(`http://a.test:${port}/${scheme}`, POST)).status).toBe(200);
    expect(proxy.hits.map((hit) => [hit.version, hit.target])).toEqual([
      [5, `a.test:${port}`],
      [4, `a.test:${port}`],
      [5, `127.0.0.1:${port}`],
      [4, `127.0.0.1:${port}`],
    ]);
    expect(hits.map((hit) => hit.path)).toEqual(['/socks5h', '/socks4a', '/socks5', '/socks4']);
    // the proxy's own address is a literal: only the target's names were resolved
    expect(dns.calls).toEqual(['a.test', 'a.test']);
    await proxy.close();
  });

  it('refuses an address the URL resolves to before asking the proxy (socks5), not a name the proxy resolves (socks5h)', async () => {
    const proxy = await startSocksProxy();
    const client = (scheme: string) => new OutgoingClient(localhostOnly, fakeDns('127.0.0.2').resolve, ProxySettings.fromEnv({ ALL_PROXY: proxy.url(scheme) }));
    await expect(client('socks5').request(`http://a.test:${port}/refused`, POST)).rejects.toThrow(RejectedIp);
    expect(proxy.hits).toEqual([]);
    expect((await client('socks5h').request(`http://a.test:${port}/proxied`, POST)).status).toBe(200);
    expect(hits.map((hit) => hit.path)).toEqual(['/proxied']);
    await proxy.close();
  });

  it("authenticates with the proxy URL's credentials, and fails in the socks crate's words when refused", async () => {
    const proxy = await startSocksProxy('user:pass');
    const via = (userinfo: string) => new OutgoingClient(loopback, undefined, ProxySettings.fromEnv({ ALL_PROXY: proxy.url('socks5h', userinfo) }));
    expect((await via('user:pass').request(`http://a.test:${port}/in`, POST)).status).toBe(200);
    expect(proxy.hits).toEqual([{ version: 5, target: `a.test:${port}`, credentials: 'user:pass' }]);
    await expect(via('user:wrong').request(`http://a.test:${port}/out`, POST)).rejects.toThrow('io: password authentication failed');
    expect(hits.map((hit) => hit.path)).toEqual(['/in']);
    await proxy.close();
  });
});
