/**
 * Sends a search-type request to another instance (network.md §7.3, §7.5): by default the
 * queries of a federated search that name it, as one `POST <remote url>/multi-search`; facet
 * search and document fetches name their own path and answer shape. Every request carries
 * `Meili-Proxy-Search: true` (so the remote adds each hit's weighted score values), the remote's
 * search key, and the caller's `Meili-Include-Metadata`. One deadline covers every attempt
 * (`MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS`, 25 s by default); connection errors, 5xx
 * answers and unreadable bodies are tried again up to three times, after a delay of at most
 * 100 ms; a timeout, a refused key or another 4xx is final. Failures come back as the error
 * bodies v1.50 lists in `remoteErrors`, never as an exception: a failing remote never fails the
 * request.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ErrorBody } from '../errors/api-error.js';
import { errorBody, isCount, isTimeout, quoted, SAME_VERSION_HINT } from '../network/remote-answer.js';
import type { OutgoingClient, OutgoingResponse } from '../outgoing/client.js';
import { sendFailureMessage } from '../outgoing/ip-policy.js';
import { isJsonObject } from '../types/json-text.js';
import { markWrittenFloats } from '../types/written-floats.js';

export interface RemoteAddress {
  readonly url: string;
  readonly searchApiKey: string | null;
}

/** What a remote answered: its federated search response, or the error to report for it. */
export type RemoteAnswer = { readonly ok: true; readonly body: Record<string, unknown> } | { readonly ok: false; readonly error: ErrorBody };

const RETRIES = 3;
const DEFAULT_TIMEOUT_SECONDS = 25;

/** The deadline of a request's remote searches, from `MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS`. */
export function remoteSearchDeadline(env: NodeJS.ProcessEnv = process.env): number {
  const seconds = Number.parseInt(env.MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS ?? '', 10);
  return Date.now() + (Number.isFinite(seconds) && seconds >= 0 ? seconds : DEFAULT_TIMEOUT_SECONDS) * 1000;
}

type Attempt = { readonly done: RemoteAnswer } | { readonly retry: ErrorBody };

/** A facet distribution (`{facet: {value: count}}`) and facet stats (`{facet: {min, max}}`), as v1.50 types them. */
const isDistribution = (value: unknown): boolean => isJsonObject(value) && Object.values(value).every((counts) => isJsonObject(counts) && Object.values(counts).every(isCount));
const isStats = (value: unknown): boolean =>
  isJsonObject(value) && Object.values(value).every((stats) => isJsonObject(stats) && typeof stats.min === 'number' && typeof stats.max === 'number');
const absentOr = (value: unknown, valid: (value: unknown) => boolean): boolean => value === undefined || value === null || valid(value);

/**
 * Whether `body` has the shape of a federated search response (what `/multi-search` answers), as
 * v1.50 deserializes it (`FederatedSearchResult`): hits that are maps, counts that are
 * non-negative integers in one of the two pagination forms, well-typed facets. A remote answering
 * a negative or fractional total, or a count that is text, is a bad response, not a total.
 */
function isFederatedResponse(body: Record<string, unknown>): boolean {
  if (!Array.isArray(body.hits) || !body.hits.every(isJsonObject) || !isCount(body.processingTimeMs)) return false;
  const paged = isCount(body.hitsPerPage) && isCount(body.page) && isCount(body.totalPages) && isCount(body.totalHits);
  const offset = isCount(body.limit) && isCount(body.offset) && isCount(body.estimatedTotalHits);
  const facetsByIndex = (value: unknown) =>
    isJsonObject(value) && Object.values(value).every((facets) => isJsonObject(facets) && absentOr(facets.distribution, isDistribution) && absentOr(facets.stats, isStats));
  return (
    (paged || offset) &&
    absentOr(body.facetDistribution, isDistribution) &&
    absentOr(body.facetStats, isStats) &&
    absentOr(body.facetsByIndex, facetsByIndex) &&
    absentOr(body.semanticHitCount, isCount)
  );
}

function classify(response: OutgoingResponse, accepts: (body: Record<string, unknown>) => boolean): Attempt {
  const { status } = response;
  if (status === 401 || status === 403) {
    return {
      done: {
        ok: false,
        error: errorBody('remote_invalid_api_key', 'could not authenticate against the remote host\n  - hint: check that the remote instance was registered with a valid API key having the `search` action'),
      },
    };
  }
  if (status >= 400 && status < 500) {
    const message = `remote host responded with code ${status}:\n  - response from remote: ${quoted(response.body)}\n  - hint: check that the remote instance has the correct index configuration for that request\n  - hint: check that the \`network\` experimental feature is enabled on the remote instance`;
    return { done: { ok: false, error: errorBody('remote_bad_request', message) } };
  }
  if (status >= 500) return { retry: errorBody('remote_remote_error', `remote host responded with code ${status}:\n  - response from remote: ${quoted(response.body)}`) };
  let body: unknown;
  try {
    const text = response.body.toString('utf8');
    body = JSON.parse(text);
    // the remote's floats (its documents' `9.0`, its scores) pass on as floats
    markWrittenFloats(text, body);
  } catch {
    body = undefined;
  }
  if (!isJsonObject(body) || !accepts(body)) {
    const message = `could not parse response from the remote host as a federated search response:\n  - response from remote: ${quoted(response.body)}${SAME_VERSION_HINT}`;
    return { retry: errorBody('remote_bad_response', message) };
  }
  return { done: { ok: true, body } };
}

export interface RemoteRequestOptions {
  /** ms since the epoch: no attempt goes beyond */
  readonly deadline: number;
  readonly includeMetadata: boolean;
  readonly signal?: AbortSignal;
  /** the path the request goes to (replacing the remote URL's): `/multi-search` by default */
  readonly path?: string;
  /** whether an answer has the expected shape: a federated search response by default */
  readonly accepts?: (body: Record<string, unknown>) => boolean;
}

export class RemoteSearch {
  constructor(private readonly client: Pick<OutgoingClient, 'request'>) {}

  /** `body` (a federated multi-search unless `options.path` says otherwise) sent to `remote`, answered by the deadline. */
  async send(remote: RemoteAddress, body: unknown, options: RemoteRequestOptions): Promise<RemoteAnswer> {
    const accepts = options.accepts ?? isFederatedResponse;
    let url: string;
    try {
      url = new URL(options.path ?? '/multi-search', remote.url).toString();
    } catch (err) {
      return { ok: false, error: errorBody('invalid_network_url', `Invalid remote url: ${(err as Error).message}`) };
    }
    const headers: Record<string, string> = { 'content-type': 'application/json', 'meili-proxy-search': 'true' };
    if (remote.searchApiKey !== null) headers.authorization = `Bearer ${remote.searchApiKey}`;
    if (options.includeMetadata) headers['meili-include-metadata'] = 'true';
    const payload = Buffer.from(JSON.stringify(body));
    for (let attempt = 0; ; attempt++) {
      const left = options.deadline - Date.now();
      if (left <= 0) return { ok: false, error: errorBody('remote_timeout', 'remote host did not answer before the deadline') };
      let outcome: Attempt;
      try {
        outcome = classify(
          await this.client.request(url, { method: 'POST', headers, body: payload, timeoutMs: left, redirectAuthorization: 'sameHost', proxyRules: 'reqwest', ...(options.signal !== undefined ? { signal: options.signal } : {}) }),
          accepts,
        );
      } catch (err) {
        if (isTimeout(err)) return { ok: false, error: errorBody('remote_timeout', 'remote host did not answer before the deadline') };
        // reqwest's words for a request that never got an answer, without the URL (or the policy's)
        outcome = { retry: errorBody('remote_could_not_send_request', sendFailureMessage(err)) };
      }
      if ('done' in outcome) return outcome.done;
      if (attempt === RETRIES || options.signal?.aborted === true) return { ok: false, error: outcome.retry };
      // 10^attempt ns, at most 100 ms, randomly up to twice that: no real wait, as v1.50's
      await sleep(Math.min(10 ** attempt / 1e6, 100) * (1 + Math.random()));
    }
  }
}
