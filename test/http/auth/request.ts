/** A bare HTTP call for auth and key tests: status and parsed body (null when empty, the text when not JSON). */
import type { TestServer } from '../../helpers/server.js';

export interface CallOptions {
  /** Sent as `Authorization: Bearer <key>`. */
  key?: string;
  /** A raw Authorization header, for malformed ones. */
  authorization?: string;
  /** JSON-encoded unless already a string. */
  body?: unknown;
}

export interface CallResult {
  status: number;
  body: unknown;
}

export async function call(server: TestServer, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = {};
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.authorization !== undefined) headers.authorization = options.authorization;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const res = await fetch(`${server.url}${path}`, { method, headers, body });
  const text = await res.text();
  // `GET /` is the dashboard's HTML page in the development environment
  const json = res.headers.get('content-type')?.startsWith('application/json') === true;
  return { status: res.status, body: text === '' ? null : json ? (JSON.parse(text) as unknown) : text };
}

/** The error body Meilisearch answers for `code`. */
export function errorBody(code: string, message: string, type = 'invalid_request') {
  return { message, code, type, link: `https://docs.meilisearch.com/errors#${code}` };
}
