/**
 * The one way the server sends HTTP requests to URLs its users give it (webhooks, embedders,
 * remote search, export, chat providers). Connections are kept alive and reused, as v1.50's
 * clients pool theirs: a new connection for every request cost an embedding batch a TCP (and TLS)
 * handshake and a DNS lookup per request. Each new connection resolves its host name once and
 * checks every address it resolves to against the IP policy before connecting, as v1.50's
 * resolvers do, and connects only to those checked addresses, so no second DNS answer can slip in
 * between check and connect (DNS rebinding); an IP literal is checked before the request. A
 * reused connection goes to an address checked when it was opened, and an idempotent request it
 * fails before any answer (closed as it was reused) is sent again on another; a request may ask
 * for a connection of its own instead (`connection`: webhooks). Redirects are
 * followed, each hop checked again: up to 10, as both of v1.50's clients (unless the caller
 * reads them itself: `redirect`); `Authorization` never forwarded, as its ureq agents, or only to
 * the same host and port, as its reqwest clients (`redirectAuthorization`); a 307/308 repeats the
 * request with its body, as its reqwest client. Answers are read whole, up to
 * MAX_ANSWER_BYTES or the request's smaller `maxAnswerBytes` (an embedding answer:
 * `AnswerTooLarge` past it), except by `stream` (a chat completion relays its provider's answer,
 * a model file goes to disk, as they come). A request goes through the proxy the environment names
 * for it (`ProxySettings`, by the rules of the v1.50 client its caller stands for: `proxyRules`):
 * sent whole to it, on a kept-alive connection to the proxy, or through a tunnel of its own
 * (CONNECT or SOCKS, not kept alive), with TLS to the URL's host inside for an `https` URL.
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import net, { isIP, type LookupFunction, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import tls from 'node:tls';
import { bareHost } from './cidr.js';
import type { IpPolicy } from './ip-policy.js';
import { ProxySettings, type ProxyRoute, type ProxyRules } from './proxy-settings.js';
import { openTunnel } from './proxy-tunnel.js';
import { openSocksTunnel } from './socks-tunnel.js';
import { timerDelay } from '../types/timer-delay.js';

export interface OutgoingRequest {
  method?: string;
  headers?: Record<string, string>;
  /**
   * Sent with its `Content-Length`, as v1.50's clients send a JSON body or a buffer (ureq's
   * `send_json`, reqwest's `json`), or with `Transfer-Encoding: chunked` when `chunked` is set, as
   * ureq sends a body it reads from a stream (v1.50's webhooks).
   */
  body?: Uint8Array;
  chunked?: boolean;
  /** Per attempt, from resolving the host to the answer's last byte (redirects included). */
  timeoutMs: number;
  /** Per connection: a socket not connected by then fails the attempt as a timeout (reqwest's `connect_timeout`). */
  connectTimeoutMs?: number;
  /** The caller's end (a search's deadline, a task's cancelation): aborts the attempt in flight, connection included. */
  signal?: AbortSignal;
  /** `manual`: a redirect is answered as it is, not followed (hf-hub's first request for a model file) */
  redirect?: 'follow' | 'manual';
  /**
   * `sameHost`: `Authorization` follows a redirect to the same host and port, as v1.50's reqwest
   * clients send it (remote search and writes, chat providers, personalization); by default it
   * follows none, as its ureq agents (embedders, webhooks, export).
   */
  redirectAuthorization?: 'never' | 'sameHost';
  /** The most bytes the answer, read whole, may hold: at most (and by default) MAX_ANSWER_BYTES. */
  maxAnswerBytes?: number;
  /**
   * `own`: a connection of its own, closed once answered, never one kept alive, as v1.50's
   * webhooks make a new agent for each batch they report (so a receiver closing an idle
   * connection as it is reused never costs one); by default `pooled`.
   */
  connection?: 'pooled' | 'own';
  /**
   * Whose proxy rules (HTTP_PROXY and the like) apply: v1.50's ureq agents' (by default: embedders,
   * webhooks, export, the Hugging Face hub) or its reqwest clients' (remote search and writes, chat
   * providers, personalization, S3 snapshots); see proxy-settings.ts.
   */
  proxyRules?: ProxyRules;
  /**
   * Asked after each failed attempt (an error, or an answer with status ≥ 400): the delay in ms
   * before the next attempt, or `null` to stop (then the error is thrown, the answer returned).
   */
  retry?: (failure: Failure, attempt: number) => number | null;
}

export interface OutgoingResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An answer whose body is read as it arrives: each chunk once, then the end (or the error that cut it). */
export interface StreamedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: AsyncIterable<Buffer>;
}

export type Failure = { error: unknown } | { response: OutgoingResponse };

/** Host name → its addresses; tests replace the system's. */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

const MAX_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
const systemResolver: Resolver = (host) => dns.lookup(host, { all: true });

export class OutgoingClient {
  // The last used connection reused first; an idle one closed after 4 s, before the 5 s after which
  // actix (v1.50 as a remote) and Node servers close theirs
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 4_000 }),
    'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 4_000 }),
  };

  constructor(
    private readonly policy: IpPolicy,
    private readonly resolve: Resolver = systemResolver,
    private readonly proxies: ProxySettings = ProxySettings.none,
  ) {}

  /** Rejects with `RejectedIp` when an address the URL leads to is refused. */
  async request(url: string, init: OutgoingRequest): Promise<OutgoingResponse> {
    for (let attempt = 1; ; attempt++) {
      let failure: Failure;
      try {
        const timeout = AbortSignal.timeout(timerDelay(init.timeoutMs));
        const response = await this.followRedirects(new URL(url), init, init.signal === undefined ? timeout : AbortSignal.any([init.signal, timeout]));
        if (response.status < 400) return response;
        failure = { response };
      } catch (error) {
        failure = { error };
      }
      const delay = init.signal?.aborted === true ? null : (init.retry?.(failure, attempt) ?? null);
      if (delay === null) {
        if ('error' in failure) throw failure.error;
        return failure.response;
      }
      await sleep(timerDelay(delay));
    }
  }

  /**
   * One attempt whose answer's body is handed over as it arrives (no retry): `signal` ends it
   * whenever it fires, reading included; the connection must connect within `connectTimeoutMs`.
   */
  async stream(url: string, init: Omit<OutgoingRequest, 'timeoutMs' | 'retry'> & { signal: AbortSignal }): Promise<StreamedResponse> {
    const res = await this.followRedirects(new URL(url), init, init.signal, true);
    return { status: res.statusCode!, headers: res.headers, body: res };
  }

  private async followRedirects(url: URL, init: Omit<OutgoingRequest, 'timeoutMs'>, signal: AbortSignal): Promise<OutgoingResponse>;
  private async followRedirects(url: URL, init: Omit<OutgoingRequest, 'timeoutMs'>, signal: AbortSignal, streamed: true): Promise<IncomingMessage>;
  private async followRedirects(url: URL, init: Omit<OutgoingRequest, 'timeoutMs'>, signal: AbortSignal, streamed?: true): Promise<OutgoingResponse | IncomingMessage> {
    let [target, method, headers, body] = [url, init.method ?? 'GET', init.headers ?? {}, init.body];
    for (let redirects = 0; ; redirects++) {
      const sized =
        body === undefined || init.chunked === true || Object.keys(headers).some((name) => name.toLowerCase() === 'content-length')
          ? headers
          : { ...headers, 'Content-Length': String(body.byteLength) };
      const res = await this.send(target, method, sized, body, signal, init);
      const location = res.headers.location;
      if (!REDIRECTS.has(res.statusCode!) || location === undefined || init.redirect === 'manual') return streamed ? res : readWhole(res, signal, init.maxAnswerBytes);
      // a redirect's own body is not read
      res.resume();
      if (redirects === MAX_REDIRECTS) throw new Error(`too many redirects (more than ${MAX_REDIRECTS})`);
      const next = new URL(location, target);
      // 307 and 308 repeat the request; the others turn it into a GET without a body.
      if (res.statusCode !== 307 && res.statusCode !== 308 && method !== 'HEAD') [method, body] = ['GET', undefined];
      if (init.redirectAuthorization !== 'sameHost' || !sameHostAndPort(next, target)) {
        headers = Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
      }
      target = next;
    }
  }

  /** Connects (through a proxy, if one applies) and sends one request; resolves with the answer once its head arrived. */
  private async send(url: URL, method: string, headers: Record<string, string>, body: Uint8Array | undefined, signal: AbortSignal, init: Pick<OutgoingRequest, 'connectTimeoutMs' | 'connection' | 'proxyRules'>): Promise<IncomingMessage> {
    let transport = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
    if (transport === null) throw new Error(`unsupported URL scheme \`${url.protocol.slice(0, -1)}\``);
    const host = bareHost(url.hostname);
    const route = this.proxies.route(url, init.proxyRules ?? 'ureq');
    // An IP literal is never looked up: it is checked as it is, unless only the proxy reads it (ureq).
    if (isIP(host) !== 0 && (route === null || route.checkTargetLiteral)) this.policy.check(host, true);
    signal.throwIfAborted();
    const agent = init.connection === 'own' ? false : this.agents[url.protocol as 'http:' | 'https:'];
    let options: https.RequestOptions = { method, headers, signal, agent, lookup: this.checkedLookup };
    if (route !== null) {
      if (route.checkProxyLiteral && isIP(route.host) !== 0) this.policy.check(route.host, false);
      if (route.tunnel) {
        const tunnel = await this.tunnel(route, url, host, signal, init.connectTimeoutMs);
        const socket = url.protocol === 'https:' ? tls.connect({ socket: tunnel, host, servername: isIP(host) === 0 ? host : undefined, ALPNProtocols: ['http/1.1'] }) : tunnel;
        // a tunnel of its own for each request, not kept alive
        options = { method, headers, signal, agent: undefined, createConnection: () => socket };
      } else {
        // the whole URL to the proxy, on a connection to it (absolute form, RFC 9112 §3.2.2)
        const proxied = { ...headers, Host: url.host, ...(route.authorization === undefined ? {} : { 'Proxy-Authorization': route.authorization }) };
        const scheme = route.tls ? 'https:' : 'http:';
        // (the TLS name is the proxy's, which Node would otherwise take from `Host`)
        const servername = isIP(route.host) === 0 ? route.host : '';
        const agent = init.connection === 'own' ? false : this.agents[scheme];
        [transport, options] = [route.tls ? https : http, { ...options, agent, protocol: scheme, servername, headers: proxied, hostname: route.host, port: route.port, path: url.href }];
      }
    }
    const { connectTimeoutMs } = init;
    return new Promise((resolve, reject) => {
      let answered = false;
      const req = transport.request(url, options, (res) => {
        answered = true;
        resolve(res);
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (signal.aborted) return reject(signal.reason);
        // A kept-alive connection the server closed as it was reused (its idle timeout): an
        // idempotent request not yet answered is sent again, on the next connection; each such one
        // is gone once it failed. Not a POST or PATCH, which the server may have acted on before
        // closing (RFC 9110 §9.2.2; v1.50's clients never send again a request they wrote), nor a
        // request whose answer had begun (its error is the answer's: the caller reads it there).
        if (req.reusedSocket && !answered && IDEMPOTENT.has(method.toUpperCase()) && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
          resolve(this.send(url, method, headers, body, signal, init));
        } else reject(err);
      });
      if (connectTimeoutMs !== undefined) req.on('socket', (socket) => failSlowConnect(socket, connectTimeoutMs, (err) => req.destroy(err)));
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  /** A connection to the proxy (TLS to an `https` one), then a tunnel through it (CONNECT, or SOCKS) to `url`'s host (`host`, bare) and port. */
  private async tunnel(route: ProxyRoute, url: URL, host: string, signal: AbortSignal, connectTimeoutMs: number | undefined): Promise<Socket> {
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    // SOCKS4 and SOCKS5 are handed an address resolved here, checked as any (ureq's first)
    const target = route.socks?.resolveHere === true && isIP(host) === 0 ? (await this.resolveChecked(host))[0]!.address : host;
    const to = { host: route.host, port: route.port, lookup: this.checkedLookup };
    const socket = route.tls ? tls.connect({ ...to, servername: isIP(route.host) === 0 ? route.host : undefined, ALPNProtocols: ['http/1.1'] }) : net.connect(to);
    if (connectTimeoutMs !== undefined) failSlowConnect(socket, connectTimeoutMs, (err) => socket.destroy(err));
    if (route.socks === null) return openTunnel(socket, `${url.hostname}:${port}`, route.authorization, signal);
    return openSocksTunnel(socket, { version: route.socks.version, host: target, port, credentials: route.socks.credentials }, signal);
  }

  /** The host name's addresses, every one checked: a refused one throws its RejectedIp. */
  private async resolveChecked(host: string): Promise<LookupAddress[]> {
    const addresses = await this.resolve(host);
    for (const { address } of addresses) this.policy.check(address, false);
    return addresses;
  }

  /**
   * The lookup of a new connection: the host name's addresses, every one checked (a refused one
   * fails the connection with its RejectedIp), then only those handed to the socket.
   */
  private readonly checkedLookup: LookupFunction = (hostname, options, callback) => {
    this.resolveChecked(hostname).then(
      (addresses) => {
        if (options.all === true) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

/** Fails a socket not connected within `ms` as a timeout (reqwest's `connect_timeout`). */
function failSlowConnect(socket: Socket, ms: number, fail: (err: Error) => void): void {
  if (!socket.connecting) return;
  const timer = setTimeout(() => fail(new DOMException('connection timed out', 'TimeoutError')), timerDelay(ms));
  socket.once('connect', () => clearTimeout(timer));
  socket.once('close', () => clearTimeout(timer));
}

/** reqwest's test for a redirect that keeps `Authorization`: the host and the port, a scheme's own included. */
function sameHostAndPort(a: URL, b: URL): boolean {
  const port = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');
  return a.hostname === b.hostname && port(a) === port(b);
}

/**
 * The most bytes an answer read whole may hold: an endpoint answering without end (a webhook's 2 GB
 * answer took the server to 4.2 GB) fails the attempt instead. Embeddings, remote search pages and
 * webhook acknowledgements are far smaller.
 */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** An answer past the bytes its request allows: asking again would get the same. */
export class AnswerTooLarge extends Error {
  constructor(readonly bound: number) {
    super(`the answer is larger than ${bound} bytes`);
    this.name = 'AnswerTooLarge';
  }
}

/** The whole body of `res`, or its error past `max` bytes. */
function readWhole(res: IncomingMessage, signal: AbortSignal, max = MAX_ANSWER_BYTES): Promise<OutgoingResponse> {
  const bound = Math.min(max, MAX_ANSWER_BYTES);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= bound) return void chunks.push(chunk);
      // the rest is not read: the connection goes with it (a response destroyed with an error on
      // a kept-alive connection emits that error only once the socket has closed)
      reject(new AnswerTooLarge(bound));
      res.destroy();
    });
    res.on('error', (err) => reject(signal.aborted ? signal.reason : err));
    res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
  });
}

