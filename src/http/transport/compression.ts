/**
 * Response compression as v1.50 answers it: every body the client accepts compressed, whatever
 * its size (actix's `Compress` middleware), preferring gzip, then deflate, then brotli.
 * @fastify/compress's hook (added to each route in app.ts, with the same preferences) compresses
 * streams and large bodies through zlib streams. The bodies routes answer as a whole (JSON, text)
 * up to SYNC_BYTES, every search page among them, are compressed here first, at once, in this
 * thread: through a zlib stream each cost ~0.3 ms of set-up and thread-pool round trips, where a
 * 9 KB page of hits takes 0.08 ms at once and a small answer 0.01 ms. The negotiation is
 * @fastify/compress's (its `*` and `x-gzip` aliases, its compressible types, its brotli quality).
 * The package is loaded at the first body left to it (`compressStreamed`), not at start: with the
 * stream packages it requires it took ~70 ms of a start's ~0.9 s of CPU, and most processes
 * (a test's server among them) never stream a compressed body.
 */
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyPluginCallback, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';

/** Encodings in the order they are preferred when the client accepts several: brotli costs far more per response. */
export const ENCODINGS: ('gzip' | 'deflate' | 'br')[] = ['gzip', 'deflate', 'br'];

/** The largest body compressed at once: ~0.6 ms of gzip; larger ones stream through @fastify/compress's hook. */
const SYNC_BYTES = 64 * 1024;

/** @fastify/compress's default compressible types (the others it looks up in mime-db itself). */
const COMPRESSIBLE = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)/u;

/** @fastify/compress reads a no-preference `*` and `x-gzip` as gzip. */
const GZIP_ALIAS = /\*|x-gzip/gu;

const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };

const COMPRESS: Record<(typeof ENCODINGS)[number], (body: Buffer | string) => Buffer> = {
  gzip: (body) => zlib.gzipSync(body),
  deflate: (body) => zlib.deflateSync(body),
  br: (body) => zlib.brotliCompressSync(body, BROTLI),
};

/** The encoding the client accepts, as @fastify/compress negotiates it; null for none. */
function acceptedEncoding(request: FastifyRequest): (typeof ENCODINGS)[number] | null {
  const header = request.headers['accept-encoding'];
  if (header === undefined) return null;
  const encoding = negotiate(header.toLowerCase().replace(GZIP_ALIAS, 'gzip'), ENCODINGS);
  return encoding;
}

/** Appends `accept-encoding` to the reply's `Vary`, as @fastify/compress does. */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('Vary');
  if (vary === undefined) {
    reply.header('Vary', 'accept-encoding');
    return;
  }
  const values = Array.isArray(vary) ? vary.map(String) : [String(vary)];
  if (!values.some((value) => value.includes('accept-encoding'))) reply.header('Vary', [...values, 'accept-encoding'].join(', '));
}

/** onSend hook, before @fastify/compress's: compresses a whole body of up to SYNC_BYTES at once. */
export function compressAtOnce(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  // a request that asks for no encoding costs no scan of its body
  if (request.headers['accept-encoding'] === undefined || request.headers['x-no-compression'] !== undefined) return done(null, payload);
  // a string's UTF-8 bytes are at least its UTF-16 units: a long one is not measured
  if (typeof payload === 'string' && payload.length > SYNC_BYTES) return done(null, payload);
  const bytes = Buffer.byteLength(payload);
  if (bytes === 0 || bytes > SYNC_BYTES) return done(null, payload);
  const encoding = reply.getHeader('Content-Encoding');
  if (encoding !== undefined && encoding !== 'identity') return done(null, payload);
  if (!COMPRESSIBLE.test(String(reply.getHeader('Content-Type') ?? 'application/json'))) return done(null, payload);
  const accepted = acceptedEncoding(request);
  if (accepted === null) return done(null, payload);
  varyOnEncoding(reply);
  reply.header('Content-Encoding', accepted);
  reply.removeHeader('content-length');
  done(null, COMPRESS[accepted](payload));
}

/** The options @fastify/compress is given: every route, no request decompression, any size. */
const PLUGIN_OPTIONS = { global: true, globalDecompression: false, threshold: 1, encodings: ENCODINGS };

let pluginOnSend: onSendHookHandler | undefined;

/**
 * @fastify/compress's onSend hook, made once: the plugin adds it to each route it sees registered
 * (its onRoute hook), so it is given one route's options object of ours, and hooks that.
 */
function compressPluginHook(): onSendHookHandler {
  if (pluginOnSend !== undefined) return pluginOnSend;
  const plugin = (createRequire(import.meta.url)('@fastify/compress') as { default: FastifyPluginCallback<typeof PLUGIN_OPTIONS> }).default;
  let onRoute: ((route: { onSend?: onSendHookHandler[] }) => void) | undefined;
  const host = {
    decorateReply: () => host,
    addHook: (name: string, hook: typeof onRoute) => {
      if (name === 'onRoute') onRoute = hook;
      return host;
    },
  };
  plugin(host as unknown as FastifyInstance, PLUGIN_OPTIONS, (err) => {
    if (err !== undefined) throw err;
  });
  const route: { onSend?: onSendHookHandler[] } = {};
  onRoute?.(route);
  if (route.onSend?.length !== 1) throw new Error('@fastify/compress added no onSend hook to a route');
  return (pluginOnSend = route.onSend[0]!);
}

/**
 * onSend hook of every route that compresses, after compressAtOnce: @fastify/compress's own, for
 * the bodies left compressed (streams, larger ones). A body it would leave as it is (no
 * `Accept-Encoding`, `X-No-Compression`, already encoded) is let through without loading it.
 */
export function compressStreamed(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void): void {
  if (payload === null || payload === undefined || request.headers['accept-encoding'] === undefined || request.headers['x-no-compression'] !== undefined) return done(null, payload);
  const encoding = reply.getHeader('Content-Encoding');
  if (encoding !== undefined && encoding !== 'identity') return done(null, payload);
  void compressPluginHook().call(this, request, reply, payload, done as Parameters<onSendHookHandler>[3]);
}
