/**
 * What the proxy errors of network.md §9 share, for searches sent to remotes (search/remote-search.ts)
 * and writes forwarded to them (remote-write.ts): an error body, and a remote's answer quoted as
 * v1.50 quotes it, and whether a failure was a timeout.
 */
import { ApiError, type ErrorBody } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';

export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return new ApiError(code, message).toBody();
}

/** A remote's answer body as v1.50 quotes it: compact JSON when it is JSON, else the text. */
export function quoted(body: Buffer): string {
  const text = body.toString('utf8');
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** A deadline passed: the client's own TimeoutError, or an abort whose reason is one. */
export function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || (err.name === 'AbortError' && err.cause instanceof Error && err.cause.name === 'TimeoutError'));
}
