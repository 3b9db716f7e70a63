/**
 * What the proxy errors of network.md §9 share, for searches sent to remotes (search/remote-search.ts)
 * and writes forwarded to them (remote-write.ts): an error body, a remote's answer quoted as
 * v1.50 quotes it, whether a failure was a timeout, what v1.50 reads as a count in an answer, and
 * v1.50's messages for a remote hit that lacks what merging needs (search/federation.ts,
 * search/network-documents.ts).
 */
import { ApiError, type ErrorBody } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';

/** A count v1.50 reads from a remote's answer as `usize` or `u64`: a non-negative integer. */
export const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

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

/** The hint of v1.50's errors about an answer another version could have sent. */
export const SAME_VERSION_HINT = '\n  - hint: check that the remote instance is a Meilisearch instance running the same version';

/** A remote hit without the value at `path` (`._federation`, `._federation.weightedScoreValues`, …). */
export function missingInHit(path: string): string {
  return `remote hit does not contain \`${path}\`${SAME_VERSION_HINT}`;
}

/** A remote hit whose value at `path` is not the `expected` kind (`map`, `number`, …). */
export function unexpectedInHit(path: string, expected: string, value: unknown): string {
  return `remote hit contains an unexpected value at path \`${path}\`: expected ${expected}, received \`${JSON.stringify(value)}\`${SAME_VERSION_HINT}`;
}
