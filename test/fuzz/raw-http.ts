/**
 * One HTTP/1.1 exchange over a bare socket. fetch and node:http refuse to send what the fuzzer
 * needs to send (bytes outside ASCII in the request target and headers, bad percent-encoding kept
 * as is, oversized header blocks), so the request is written by hand and the answer parsed here.
 */
import { connect } from 'node:net';
import zlib from 'node:zlib';

export interface RawRequest {
  method: string;
  /** The request target, sent byte for byte (latin1). */
  target: string;
  /** Header lines, latin1; Host, Connection and Content-Length are added. */
  headers: readonly (readonly [string, string])[];
  body: Buffer | undefined;
  /** A 2xx head is the whole answer (endless streams). */
  headOnly?: boolean;
}

export type Outcome =
  | { kind: 'answer'; status: number; headers: Record<string, string>; body: Buffer; ms: number }
  | { kind: 'timeout'; ms: number }
  /**
   * The connection ended without a complete answer. The server may answer before reading the
   * whole body, but then it reads and drops the rest (a lingering close), so an answer sent is
   * never destroyed by a reset.
   */
  | { kind: 'no-answer'; detail: string; ms: number };

interface Head {
  status: number;
  headers: Record<string, string>;
  bodyStart: number;
}

function parseHead(data: Buffer): Head | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1] ?? NaN);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, bodyStart: end + 4 };
}

/** The chunked payload's data, or undefined while incomplete. */
function dechunk(data: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return undefined;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    if (lineEnd + 2 + size > data.length) return undefined;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 4 + size;
  }
}

/** The complete body, decoded, or undefined while more is to come. */
function bodyOf(head: Head, data: Buffer, ended: boolean): Buffer | undefined {
  const rest = data.subarray(head.bodyStart);
  let body: Buffer | undefined;
  if (/chunked/i.test(head.headers['transfer-encoding'] ?? '')) body = dechunk(rest);
  else if (head.headers['content-length'] !== undefined) {
    const length = Number(head.headers['content-length']);
    body = rest.length >= length ? rest.subarray(0, length) : undefined;
  } else body = ended ? rest : undefined;
  if (body === undefined) return undefined;
  switch (head.headers['content-encoding']) {
    case 'gzip':
      return zlib.gunzipSync(body);
    case 'deflate':
      return zlib.inflateSync(body);
    case 'br':
      return zlib.brotliDecompressSync(body);
    default:
      return body;
  }
}

export function exchange(port: number, request: RawRequest, timeoutMs: number): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ kind: 'timeout', ms: elapsed() }), timeoutMs);
    const attempt = (ended: boolean) => {
      const data = Buffer.concat(chunks);
      const head = parseHead(data);
      if (head === undefined) return;
      if (request.headOnly && head.status >= 200 && head.status < 300) {
        settle({ kind: 'answer', status: head.status, headers: head.headers, body: Buffer.alloc(0), ms: elapsed() });
        return;
      }
      let body: Buffer | undefined;
      try {
        body = bodyOf(head, data, ended);
      } catch (err) {
        settle({ kind: 'no-answer', detail: `undecodable body: ${(err as Error).message}`, ms: elapsed() });
        return;
      }
      if (body !== undefined) settle({ kind: 'answer', status: head.status, headers: head.headers, body, ms: elapsed() });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      attempt(false);
    });
    socket.on('end', () => {
      attempt(true);
      settle({ kind: 'no-answer', detail: `connection closed after ${Buffer.concat(chunks).length} bytes`, ms: elapsed() });
    });
    socket.on('error', (err) => {
      attempt(true);
      settle({ kind: 'no-answer', detail: err.message, ms: elapsed() });
    });
    const lines = [`${request.method} ${request.target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close'];
    for (const [name, value] of request.headers) lines.push(`${name}: ${value}`);
    if (request.body !== undefined) lines.push(`Content-Length: ${request.body.length}`);
    const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
    socket.write(request.body === undefined ? head : Buffer.concat([head, request.body]));
  });
}
