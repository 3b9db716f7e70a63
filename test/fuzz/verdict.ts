/**
 * Whether one exchange is a failure, and of which class. Meilisearch answers every error with a
 * JSON body of `message`, `code`, `type` and `link`; it never answers 5xx to a client's mistake,
 * never leaves a request without an answer, and answers within the fuzzer's 2 s budget.
 * A class (route, kind, status, code) groups the failures a single defect produces.
 */
import type { Outcome } from './raw-http.js';

export type FailureKind = '5xx' | 'envelope' | 'status' | 'hang' | 'no-answer' | 'crash' | 'rss';

export interface Failure {
  kind: FailureKind;
  route: string;
  status?: number;
  /** The error code the answer carried, if any. */
  code?: string;
  /** What was received, shortened. */
  detail: string;
}

/**
 * Answers outside the envelope come from layers below the routes (Fastify, Node's parser), and
 * memory grows over the whole run, so those classes ignore the route; other kinds are told apart
 * per route.
 */
export function classOf(failure: Failure): string {
  const route = failure.kind === 'envelope' || failure.kind === 'rss' ? '' : failure.route;
  return [failure.kind, route, failure.status ?? '', failure.code ?? ''].filter((part) => part !== '').join(' ');
}

function errorEnvelope(body: Buffer): { code?: string; problem?: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return { problem: 'body is not JSON' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { problem: 'body is not a JSON object' };
  const fields = parsed as Record<string, unknown>;
  const missing = ['message', 'code', 'type', 'link'].filter((name) => typeof fields[name] !== 'string');
  // Fastify's own error bodies name the error in `error`, not `code`.
  const name = fields.code ?? fields.error;
  const code = typeof name === 'string' ? name : undefined;
  return missing.length === 0 ? { code } : { code, problem: `no string ${missing.join(', ')}` };
}

const shorten = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);

export function judge(route: string, outcome: Outcome): Failure | undefined {
  if (outcome.kind === 'timeout') return { kind: 'hang', route, detail: `no complete answer in ${outcome.ms} ms` };
  if (outcome.kind === 'no-answer') return { kind: 'no-answer', route, detail: outcome.detail };
  const { status, body } = outcome;
  if (status >= 200 && status < 300) return undefined;
  // Unmatched paths and methods: actix answers them with an empty body, and so does Quarry.
  if ((status === 404 || status === 405) && body.length === 0) return undefined;
  const text = shorten(body.toString('utf8'));
  const { code, problem } = errorEnvelope(body);
  if (status >= 500) return { kind: '5xx', route, status, code, detail: text };
  if (status < 400) return { kind: 'status', route, status, code, detail: text };
  return problem === undefined ? undefined : { kind: 'envelope', route, status, code, detail: `${problem}: ${text}` };
}
