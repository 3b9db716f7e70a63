/**
 * Sends one write to another instance of the network (network.md §7.5, §9; v1.50's
 * `proxy::send_request`): forwarded writes, and the topology change's propagation and exports.
 * The remote's URL keeps its scheme and host and takes the request's path and query; its write key
 * goes as a bearer token (none when null). Each attempt has a connect timeout (3 s) and a request
 * timeout (30 s); timeouts, connection errors and 5xx answers are tried again with v1.50's
 * exponential backoff (0.5 s, ×1.5, ±50 % jitter) until 25 s have passed since the first attempt;
 * a refused key, another 4xx or a 2xx answer that cannot be read is final. The three durations come
 * from `MEILI_EXPERIMENTAL_PROXY_{CONNECT,REQUEST,BACKOFF}_TIMEOUT_SECONDS`. Failures come back as
 * the error bodies v1.50 stores in a task's `remote_tasks`, never as an exception.
 */
import type { ErrorBody } from '../errors/api-error.js';
import { errorBody, isTimeout, quoted } from './remote-answer.js';
import type { Failure, OutgoingClient, OutgoingResponse } from '../outgoing/client.js';
import { sendFailureMessage } from '../outgoing/ip-policy.js';
import { parseRustUnsigned, U64_MAX } from '../types/rust-int.js';
import { isJsonObject } from '../types/json-text.js';

export interface WriteTimings {
  readonly connectMs: number;
  readonly requestMs: number;
  /** no attempt starts once this long has passed since the first one */
  readonly backoffMs: number;
}

export interface RemoteTarget {
  readonly url: string;
  readonly writeApiKey: string | null;
}

export interface RemoteWriteRequest {
  readonly method: string;
  /** path and query string, e.g. `/indexes/movies/documents?primaryKey=id` */
  readonly pathAndQuery: string;
  readonly contentType?: string | null;
  /** more headers (the proxy headers of proxy-headers.ts) */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
}

/** What the remote answered, read by the caller's parser, or the error to record for it. */
export type WriteAnswer<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ErrorBody };

const ENV = {
  connect: 'MEILI_EXPERIMENTAL_PROXY_CONNECT_TIMEOUT_SECONDS',
  request: 'MEILI_EXPERIMENTAL_PROXY_REQUEST_TIMEOUT_SECONDS',
  backoff: 'MEILI_EXPERIMENTAL_PROXY_BACKOFF_TIMEOUT_SECONDS',
} as const;

/**
 * The timings the environment sets (defaults 3 s, 30 s, 25 s). A value that is not an integer
 * throws v1.50's message (its first forwarded write panics with it).
 */
export function writeTimingsFromEnv(env: NodeJS.ProcessEnv = process.env): WriteTimings {
  const seconds = (key: string, fallback: number): number => {
    const text = env[key];
    if (text === undefined) return fallback;
    try {
      return parseRustUnsigned(text, U64_MAX);
    } catch {
      throw new Error(`\`${key}\` environment variable is not parseable as an integer: ${text}`);
    }
  };
  return { connectMs: seconds(ENV.connect, 3) * 1000, requestMs: seconds(ENV.request, 30) * 1000, backoffMs: seconds(ENV.backoff, 25) * 1000 };
}

/**
 * The delays between attempts of the `backoff` crate's `ExponentialBackoff` (v1.50's retries):
 * 500 ms growing ×1.5 (at most 60 s), each randomised by ±50 %; none once the elapsed time exceeds
 * the budget.
 */
export class WriteBackoff {
  private interval = 500;
  private readonly start: number;

  constructor(
    private readonly budgetMs: number,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {
    this.start = now();
  }

  next(): number | null {
    if (this.now() - this.start > this.budgetMs) return null;
    const delta = 0.5 * this.interval;
    const delay = this.interval - delta + this.random() * (2 * delta + 1);
    this.interval = Math.min(this.interval * 1.5, 60_000);
    return Math.floor(delay);
  }
}


/** v1.50's `ProxyError` for a failed answer or transport error. */
function failure(outcome: Failure): ErrorBody {
  if ('error' in outcome) {
    if (isTimeout(outcome.error)) return errorBody('remote_timeout', 'remote host did not answer before the deadline');
    // reqwest's words for a request that never got an answer, without the URL (or the policy's)
    return errorBody('remote_could_not_send_request', sendFailureMessage(outcome.error));
  }
  const { status, body } = outcome.response;
  if (status === 401 || status === 403) {
    return errorBody(
      'remote_invalid_api_key',
      'could not authenticate against the remote host\n  - hint: check that the remote instance was registered with a valid API key having the `documents.add` action',
    );
  }
  if (status < 500) {
    return errorBody(
      'remote_bad_request',
      `remote host responded with code ${status}:\n  - response from remote: ${quoted(body)}\n  - hint: check that the remote instance has the correct index configuration for that request\n  - hint: check that the \`network\` experimental feature is enabled on the remote instance`,
    );
  }
  return errorBody('remote_remote_error', `remote host responded with code ${status}:\n  - response from remote: ${quoted(body)}`);
}

/** Timeouts, connection errors and 5xx answers are worth another attempt. */
function transient(outcome: Failure): boolean {
  return 'error' in outcome || outcome.response.status >= 500;
}

/** A summarized task as a remote answers a write: its `taskUid`, or undefined when it is not one. */
export function summarizedTaskUid(json: unknown): number | undefined {
  if (!isJsonObject(json)) return undefined;
  const { taskUid, status, type, enqueuedAt } = json;
  const isUid = typeof taskUid === 'number' && Number.isInteger(taskUid) && taskUid >= 0 && taskUid <= 0xffff_ffff;
  return isUid && typeof status === 'string' && typeof type === 'string' && typeof enqueuedAt === 'string' ? taskUid : undefined;
}

export class RemoteWriter {
  constructor(
    private readonly client: Pick<OutgoingClient, 'request'>,
    private readonly timings: WriteTimings,
  ) {}

  /**
   * `request` sent to `remote`, its 2xx answer read by `parse` (JSON in, undefined when it is not
   * what was expected: `remote_bad_response`).
   */
  async send<T>(remote: RemoteTarget, request: RemoteWriteRequest, parse: (json: unknown) => T | undefined): Promise<WriteAnswer<T>> {
    let url: string;
    try {
      url = new URL(request.pathAndQuery, remote.url).toString();
    } catch (err) {
      return { ok: false, error: errorBody('invalid_network_remotes', `Invalid remote url \`${remote.url}\`: ${(err as Error).message}`) };
    }
    const headers: Record<string, string> = { ...request.headers };
    if (remote.writeApiKey !== null) headers.authorization = `Bearer ${remote.writeApiKey}`;
    if (request.contentType !== undefined && request.contentType !== null) headers['content-type'] = request.contentType;
    const backoff = new WriteBackoff(this.timings.backoffMs);
    let response: OutgoingResponse;
    try {
      response = await this.client.request(url, {
        method: request.method,
        headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        timeoutMs: this.timings.requestMs,
        connectTimeoutMs: this.timings.connectMs,
        redirectAuthorization: 'sameHost', proxyRules: 'reqwest',
        retry: (outcome) => (transient(outcome) ? backoff.next() : null),
      });
    } catch (error) {
      return { ok: false, error: failure({ error }) };
    }
    if (response.status >= 400) return { ok: false, error: failure({ response }) };
    let json: unknown;
    try {
      json = JSON.parse(response.body.toString('utf8'));
    } catch {
      json = undefined;
    }
    const value = json === undefined ? undefined : parse(json);
    if (value === undefined) {
      return {
        ok: false,
        error: errorBody(
          'remote_bad_response',
          `could not parse response from the remote host as a document addition response:\n  - response from remote: ${quoted(response.body)}\n  - hint: check that the remote instance is a Meilisearch instance running the same version`,
        ),
      };
    }
    return { ok: true, value };
  }
}
