/**
 * `personalize` (search.md): the hits of a search, or a federated search's merged page, reranked
 * by a Cohere reranker with the user's context, as v1.50's personalization service does when it
 * runs with `--experimental-personalization-api-key`. Without a key a search that asks for it
 * fails, once the search itself ran (its own errors come first), with v1.50's
 * `feature_not_enabled`, rather than answering hits that were not reranked.
 *
 * As v1.50: the prompt is `User Context: …` then `Query: …`; each hit is sent as its document's
 * JSON (the retrieved fields, not `_formatted` or the scores); up to 10 retries, 10^n ms apart
 * plus up to as much again at random (100 ms more after a 429); 401, 400 and other 4xx answers give
 * up at once. Once the search's deadline (`searchCutoffMs`) has passed, before an attempt or after
 * a failed one, the hits come back in their own order; no wait between attempts outlasts it. The request goes through the IP policy;
 * `--experimental-personalization-url` (Quarry's) points it at another Cohere-compatible
 * endpoint than Cohere's, e.g. a test's mock.
 */
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';
import type { OutgoingClient, OutgoingResponse } from '../outgoing/client.js';
import { isJsonObject, parseJson, stringifyJson } from '../types/json-text.js';
import { setField } from '../types/own-record.js';

const MODEL = 'rerank-english-v3.0';
const MAX_RETRIES = 10;
const ATTEMPT_TIMEOUT_MS = 30_000;

export interface Personalize {
  readonly userContext: string;
}

/** What a search asks of the service: `hits` in the reranker's order (or as they were, past the deadline). */
export interface Reranker {
  rerank<H>(hits: H[], personalize: Personalize, query: string | null, deadline: number, documentOf: (hit: H) => unknown): Promise<H[]>;
}

/** What a formatted hit sends the reranker: its document, as v1.50's `SearchHit.document` (not its formatting or scores). */
export function hitDocument(hit: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const document: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(hit)) if (!HIT_EXTRAS.has(key)) setField(document, key, value);
  return document;
}

const HIT_EXTRAS = new Set(['_formatted', '_matchesPosition', '_rankingScore', '_rankingScoreDetails', '_federation']);

/** The service without a key: every `personalize` fails as in v1.50. */
export const NO_PERSONALIZATION: Reranker = {
  rerank: () => {
    throw new ApiError(
      'feature_not_enabled',
      'reranking search results requires enabling the `personalization` experimental feature. See https://github.com/orgs/meilisearch/discussions/866',
    );
  },
};

/** v1.50's `PersonalizationService::cohere`: a blank key leaves the service disabled. */
export function personalizationService(apiKey: string | null, url: string, client: Pick<OutgoingClient, 'request'>): Reranker {
  return apiKey === null || apiKey.trim() === '' ? NO_PERSONALIZATION : new CohereReranker(apiKey, url, client);
}

type Outcome = { readonly indices: number[] } | { readonly error: ApiError; readonly then: 'giveUp' | 'retry' | 'rateLimited' };

const failure = (code: ErrorCode, message: string, then: 'giveUp' | 'retry' | 'rateLimited'): Outcome => ({
  error: new ApiError(code, `Personalization service: ${message}`),
  then,
});

class CohereReranker implements Reranker {
  constructor(
    private readonly apiKey: string,
    private readonly url: string,
    private readonly client: Pick<OutgoingClient, 'request'>,
  ) {}

  async rerank<H>(hits: H[], personalize: Personalize, query: string | null, deadline: number, documentOf: (hit: H) => unknown): Promise<H[]> {
    if (performance.now() >= deadline || hits.length === 0) return hits;
    const prompt = query === null ? `User Context: ${personalize.userContext}` : `User Context: ${personalize.userContext}\nQuery: ${query}`;
    const body = Buffer.from(stringifyJson({ query: prompt, documents: hits.map((hit) => stringifyJson(documentOf(hit))), model: MODEL }));
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(body);
      if ('indices' in outcome) return outcome.indices.flatMap((index) => (index < hits.length ? [hits[index]!] : []));
      if (outcome.then === 'giveUp' || attempt === MAX_RETRIES) throw outcome.error;
      // past the deadline the search answers its own order, as v1.50 does
      if (performance.now() >= deadline) return hits;
      const backoff = (outcome.then === 'rateLimited' ? 100 : 0) + 10 ** attempt;
      // a wait past the deadline would only end in the hits' own order: it ends at the deadline
      // (v1.50 sleeps it out, 10 s or more from the fourth retry)
      await new Promise((resolve) => setTimeout(resolve, Math.min(backoff + Math.random() * backoff, deadline - performance.now())));
    }
  }

  private async attempt(body: Buffer): Promise<Outcome> {
    let response: OutgoingResponse;
    try {
      response = await this.client.request(this.url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${this.apiKey}`, 'Content-Type': 'application/json' },
        body,
        timeoutMs: ATTEMPT_TIMEOUT_MS,
        redirectAuthorization: 'sameHost', proxyRules: 'reqwest',
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const reason = error instanceof Error ? error.message : String(error);
      return failure('remote_could_not_send_request', `Network error: ${timedOut ? `Request timeout: ${reason}` : `Network error: ${reason}`}`, 'retry');
    }
    const text = response.body.toString('utf8');
    const status = response.status;
    if (status >= 200 && status < 300) {
      const indices = rerankedIndices(text);
      return typeof indices === 'string' ? failure('remote_bad_response', `Failed to parse response: Failed to parse response: ${indices}`, 'retry') : { indices };
    }
    if (status === 401) return failure('remote_invalid_api_key', 'Unauthorized: invalid API key', 'giveUp');
    if (status === 429) return failure('too_many_search_requests', 'Rate limited: too many requests', 'rateLimited');
    if (status === 400) return failure('remote_bad_request', `Bad request: ${text}`, 'giveUp');
    if (status >= 500) return failure('remote_remote_error', `Internal server error: Status ${status}: ${text}`, 'retry');
    if (status >= 402 && status <= 499) return failure('remote_bad_response', `Cohere API error: Status ${status}: ${text}`, 'giveUp');
    return failure('remote_bad_response', `Cohere API error: Unexpected status ${status}: ${text}`, 'retry');
  }
}

/** The `results[].index` of a Cohere rerank answer, or why it is not one. */
function rerankedIndices(text: string): number[] | string {
  let answer: unknown;
  try {
    answer = parseJson(text);
  } catch (error) {
    return (error as Error).message;
  }
  if (!isJsonObject(answer) || !Array.isArray(answer.results)) return 'missing field `results`';
  const indices: number[] = [];
  for (const result of answer.results) {
    const index = isJsonObject(result) ? result.index : undefined;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index > 0xffff_ffff) return 'invalid type: expected u32 at `results[].index`';
    indices.push(index);
  }
  return indices;
}
