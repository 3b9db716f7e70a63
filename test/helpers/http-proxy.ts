/**
 * A loopback HTTP proxy for outgoing-request tests: CONNECT tunnels and absolute-form requests,
 * each recorded with its `Proxy-Authorization`, then carried to where `reach` sends the named host
 * (so a URL whose host resolves nowhere is reachable only through the proxy).
 */
import { createServer, request, type RequestListener } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import net from 'node:net';

export interface ProxyHit {
  /** `connect`: a tunnel to `target` (`host:port`); `forward`: `target` is the whole URL asked for */
  kind: 'connect' | 'forward';
  target: string;
  authorization: string | undefined;
}

export interface MockProxy {
  url: string;
  hits: ProxyHit[];
  close: () => Promise<void>;
}

/**
 * `reach(host, port)` → where to connect instead (by default the loopback port `port`); with `tls`
 * (a certificate and its key) the proxy is spoken to over TLS, as an `https://` proxy.
 */
export async function startHttpProxy(reach: (host: string, port: number) => number = (_host, port) => port, tls?: { cert: Buffer; key: Buffer }): Promise<MockProxy> {
  const hits: ProxyHit[] = [];
  const sockets = new Set<net.Socket>();
  const forward: RequestListener = (req, res) => {
    const url = new URL(req.url!);
    hits.push({ kind: 'forward', target: req.url!, authorization: req.headers['proxy-authorization'] });
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = request({ host: '127.0.0.1', port: reach(url.hostname, Number(url.port || 80)), method: req.method, path: `${url.pathname}${url.search}`, headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  };
  const proxy = tls === undefined ? createServer(forward) : createTlsServer(tls, forward);
  proxy.on('connect', (req, client: net.Socket) => {
    hits.push({ kind: 'connect', target: req.url!, authorization: req.headers['proxy-authorization'] });
    const colon = req.url!.lastIndexOf(':');
    const upstream = net.connect(reach(req.url!.slice(0, colon), Number(req.url!.slice(colon + 1))), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client).pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => [client, upstream].forEach((s) => s.destroy()));
    }
  });
  proxy.on(tls === undefined ? 'connection' : 'secureConnection', (socket: net.Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as net.AddressInfo).port;
  return {
    // its certificate names localhost
    url: tls === undefined ? `http://127.0.0.1:${port}` : `https://localhost:${port}`,
    hits,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
