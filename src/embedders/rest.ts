/**
 * The REST embedder (vectors.md §5, milli's `embedder/rest.rs`), which openAi and ollama are
 * configurations of: texts injected into the request template, one POST per chunk of texts with
 * `Content-Type: application/json`, the bearer key and the extra headers; up to 10 retries with
 * v1.50's backoff (5xx, network errors and unparsable JSON: 10^attempt ms; 429: 100 + 10^attempt
 * ms; randomized ×[0.5, 1] and capped); other 4xx, a template mismatch, a wrong count or wrong
 * dimensions give up at once. Every attempt is counted in the request stats.
 */
import { RejectedIp } from '../outgoing/ip-policy.js';
import { AnswerTooLarge, type OutgoingResponse } from '../outgoing/client.js';
import { EmbedError, replyInfo } from './embed-error.js';
import {
  EMBEDDING_PLACEHOLDER,
  FRAGMENT_PLACEHOLDER,
  TEXT_PLACEHOLDER,
  TemplateParseError,
  extractEmbeddings,
  inject,
  parseInjectable,
  type InjectableValue,
} from './json-template.js';
import type { EmbedderRequestStats } from './request-stats.js';
import type { EmbedderRuntime } from './runtime.js';
import { setField } from '../types/own-record.js';
import { describeJsonSyntaxError, holdsOutOfRangeNumber, serdeJsonError } from '../types/json-syntax-error.js';
import { MAX_EMBEDDING_DIMENSIONS } from '../types/settings.js';
import { timerDelay } from '../types/timer-delay.js';

/** Who wrote the request shape: worded differently in authentication and bad-request errors. */
export type Configuration = 'user' | 'openAi' | 'ollama';

export interface RestOptions {
  url: string;
  request: unknown;
  response: unknown;
  apiKey?: string;
  headers?: Readonly<Record<string, string>>;
  configuration: Configuration;
}

export interface RestTemplates {
  request: InjectableValue;
  response: InjectableValue;
}

const MAX_RETRIES = 10;
const TEXT_NOTE = `\n  - Note: this template is using a document template, and so expects to contain the placeholder "${TEXT_PLACEHOLDER}" rather than "${FRAGMENT_PLACEHOLDER}"`;

/** The request template, holding `{{text}}` (milli's `Request::new`); throws a `user error`. */
export function parseRequestTemplate(request: unknown): InjectableValue {
  try {
    return parseInjectable(request, 'request', TEXT_PLACEHOLDER);
  } catch (error) {
    if (error instanceof TemplateParseError) throw new EmbedError('user', error.message + TEXT_NOTE);
    throw error;
  }
}

/** The request and response templates checked together (milli's `RequestData::new` + `Response::new`); throws a `user error`. */
export function parseRestTemplates(request: unknown, response: unknown): RestTemplates {
  const parsedRequest = parseRequestTemplate(request);
  return { request: parsedRequest, response: parseResponseTemplate(response, parsedRequest) };
}

const FRAGMENT_NOTE = `\n  - Note: this template is using fragments, and so expects to contain the placeholder "${FRAGMENT_PLACEHOLDER}" rathern than "${TEXT_PLACEHOLDER}"`;

/** The request template of an embedder with fragments, holding `{{fragment}}` (milli's `RequestFromFragments::new`); throws a `user error`. */
export function parseFragmentRequestTemplate(request: unknown): InjectableValue {
  try {
    return parseInjectable(request, 'request', FRAGMENT_PLACEHOLDER);
  } catch (error) {
    if (error instanceof TemplateParseError) throw new EmbedError('user', error.message + FRAGMENT_NOTE);
    throw error;
  }
}

/** `parseRestTemplates` for an embedder with fragments: the rendered fragments go where `{{fragment}}` is. */
export function parseFragmentRestTemplates(request: unknown, response: unknown): RestTemplates {
  const parsedRequest = parseFragmentRequestTemplate(request);
  return { request: parsedRequest, response: parseResponseTemplate(response, parsedRequest) };
}

/** The response template, which must be in batch mode exactly when the request is. */
export function parseResponseTemplate(response: unknown, request: InjectableValue): InjectableValue {
  let parsed: InjectableValue;
  try {
    parsed = parseInjectable(response, 'response', EMBEDDING_PLACEHOLDER);
  } catch (error) {
    if (error instanceof TemplateParseError) throw new EmbedError('user', error.message);
    throw error;
  }
  const many = parsed.array !== null;
  if (many && request.array === null) {
    throw new EmbedError('user', 'in `response`: `response` has multiple embeddings, but `request` has only one text to embed');
  }
  if (!many && request.array !== null) {
    throw new EmbedError('user', 'in `response`: `response` has a single embedding, but `request` has multiple texts to embed');
  }
  return parsed;
}

/** Texts per request: 10 in batch mode, else 1 (milli's `prompt_count_in_chunk_hint`). */
export function textsPerRequest(templates: RestTemplates): number {
  return templates.request.array === null ? 1 : 10;
}

/** The client's failure to reach the server, in ureq's words where they differ from Node's. */
function networkReason(error: unknown): string {
  if (error instanceof RejectedIp) return error.ureqMessage;
  const err = error as NodeJS.ErrnoException;
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timeout: global';
  if (err.code === 'ECONNREFUSED') return 'io: Connection refused (os error 111)';
  if (err.code === 'ECONNRESET') return 'io: Connection reset by peer (os error 104)';
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `host not found`;
  return err.message;
}

interface Verdict {
  error: EmbedError;
  /** null: give up */
  retry: 'later' | 'rateLimited' | null;
}

function statusVerdict(response: OutgoingResponse, configuration: Configuration): Verdict {
  const status = response.status;
  const reply = response.body.toString('utf8');
  if (status === 401) {
    const server = configuration === 'openAi' ? 'OpenAI' : configuration === 'ollama' ? 'Ollama' : 'embedding';
    const hint =
      configuration === 'openAi'
        ? '\n  - Hint: Check the `apiKey` parameter in the embedder configuration, and the `MEILI_OPENAI_API_KEY` and `OPENAI_API_KEY` environment variables'
        : '\n  - Hint: Check the `apiKey` parameter in the embedder configuration';
    return { error: new EmbedError('user', `could not authenticate against ${server} server${replyInfo(reply)}${hint}`, 'unauthorized', status, reply), retry: null };
  }
  if (status === 429) {
    return { error: new EmbedError('runtime', `sent too many requests to embedding server${replyInfo(reply)}`, 'rateLimited', status, reply), retry: 'rateLimited' };
  }
  if (status === 400) {
    const hint = configuration === 'user' ? "\n  - Hint: check that the `request` in the embedder configuration matches the remote server's API" : '';
    return { error: new EmbedError('user', `sent a bad request to embedding server${hint}${replyInfo(reply)}`, 'badRequest', status, reply), retry: null };
  }
  if (status >= 500 && status <= 599) {
    return { error: new EmbedError('runtime', `received internal error HTTP ${status} from embedding server${replyInfo(reply)}`, 'serverError', status, reply), retry: 'later' };
  }
  const error = new EmbedError('undecided', `received unexpected HTTP ${status} from embedding server${replyInfo(reply)}`, 'otherStatus', status, reply);
  return { error, retry: status >= 402 && status <= 499 ? null : 'later' };
}

function answerVerdict(response: OutgoingResponse, templates: RestTemplates, count: number, dimensions: number | undefined): Float32Array[] | Verdict {
  const text = response.body.toString('utf8');
  let json: unknown;
  // serde_json's refusal, in ureq's words (`json: …`): also of a number past f64's range, which
  // JSON.parse reads as Infinity (an embedding of `1e999` would be stored, shown as null)
  let refusal: string | undefined;
  try {
    json = JSON.parse(text);
    if (holdsOutOfRangeNumber(json)) refusal = serdeJsonError(text);
  } catch {
    refusal = describeJsonSyntaxError(text);
  }
  if (refusal !== undefined) {
    return { error: new EmbedError('runtime', `error deserializing the response body as JSON:\n  - json: ${refusal}`, 'deserialization'), retry: 'later' };
  }
  let embeddings: Float32Array[];
  try {
    embeddings = extractEmbeddings(templates.response, json);
  } catch (error) {
    return { error: new EmbedError('runtime', `error extracting embeddings from the response:\n  - ${(error as Error).message}`), retry: null };
  }
  if (embeddings.length !== count) {
    return { error: new EmbedError('runtime', `expected a response containing ${count} embeddings, got only ${embeddings.length}`), retry: null };
  }
  if (dimensions !== undefined) {
    const wrong = embeddings.find((e) => e.length !== dimensions);
    if (wrong !== undefined) {
      return { error: new EmbedError('runtime', `was expecting embeddings of dimension \`${dimensions}\`, got embeddings of dimensions \`${wrong.length}\``), retry: null };
    }
  }
  return embeddings;
}

/** The delay before retry number `attempt` (0-based), or null to give up. */
function retryDelay(verdict: Verdict, attempt: number, runtime: EmbedderRuntime): number | null {
  if (verdict.retry === null) return null;
  const base = verdict.retry === 'rateLimited' ? 100 + 10 ** attempt : 10 ** attempt;
  return Math.min(base, runtime.maxRetryDelayMs) * (0.5 + Math.random() * 0.5);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, timerDelay(ms));
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

const isAborted = (signal: AbortSignal | undefined): boolean => signal?.aborted === true;

export interface EmbedCall {
  runtime: EmbedderRuntime;
  stats?: EmbedderRequestStats;
  /** expected dimensions; undefined while inferring them */
  dimensions?: number;
  /** stops retrying (and waiting) when aborted: the last error is thrown */
  signal?: AbortSignal;
}

/** Bytes an embedding component may take in an answer (`-1.2345678901234567e-05,` and room to spare). */
const COMPONENT_BYTES = 32;
/** An answer's bytes beyond its embeddings and an echo of the request (other fields, usage, whitespace). */
const ANSWER_SLACK_BYTES = 1024 * 1024;

/**
 * The most bytes an answer to a request of `requestBytes` for `count` embeddings of `dimensions`
 * (any allowed while inferring them) is read up to: an answer of 16 million components took ~3 s
 * to parse on the thread answering requests, for each search.
 */
function answerBytes(requestBytes: number, count: number, dimensions = MAX_EMBEDDING_DIMENSIONS): number {
  return ANSWER_SLACK_BYTES + requestBytes + count * dimensions * COMPONENT_BYTES;
}

/** Embeds `values` (already the JSON values to inject: texts) in one request, retrying as v1.50. */
export async function restEmbed(options: RestOptions, templates: RestTemplates, values: readonly unknown[], call: EmbedCall, expected = values.length): Promise<Float32Array[]> {
  if (values.length === 0) return [];
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (options.apiKey !== undefined) headers.Authorization = `Bearer ${options.apiKey}`;
  // header names are the user's: `__proto__` is one like any other (Object.assign would set the prototype)
  for (const [name, value] of Object.entries(options.headers ?? {})) setField(headers, name, value);
  const body = Buffer.from(JSON.stringify(inject(templates.request, values)));
  for (let attempt = 0; ; attempt++) {
    call.stats?.attempt();
    let verdict: Verdict;
    try {
      const response = await call.runtime.client.request(options.url, { method: 'POST', headers, body, timeoutMs: call.runtime.timeoutMs, signal: call.signal, maxAnswerBytes: answerBytes(body.length, expected, call.dimensions) });
      // v1.50 reads an answer only when its status is a success (2xx): a redirect the client did
      // not follow (no `Location`) is an unexpected status, retried
      if (response.status < 200 || response.status >= 300) verdict = statusVerdict(response, options.configuration);
      else {
        const answer = answerVerdict(response, templates, expected, call.dimensions);
        if (Array.isArray(answer)) return answer;
        verdict = answer;
      }
    } catch (error) {
      // The caller's deadline cut the request short: v1.50 sets it as the request's timeout.
      const reason = isAborted(call.signal) && error === call.signal!.reason ? 'timeout: global' : networkReason(error);
      // an answer too large for the embeddings asked is no network failure: not asked again
      verdict =
        error instanceof AnswerTooLarge
          ? { error: new EmbedError('runtime', `received an answer larger than the embeddings asked for could take from embedding server:\n  - ${error.message}`), retry: null }
          : { error: new EmbedError('runtime', `could not reach embedding server:\n  - ${reason}`, 'network'), retry: 'later' };
    }
    call.stats?.failure(verdict.error.message);
    const delay = attempt < MAX_RETRIES ? retryDelay(verdict, attempt, call.runtime) : null;
    if (delay === null || isAborted(call.signal)) throw verdict.error;
    await sleep(delay, call.signal);
    if (isAborted(call.signal)) throw verdict.error;
  }
}
