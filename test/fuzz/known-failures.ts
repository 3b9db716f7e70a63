/**
 * Failure classes the fuzzer finds that other branches are fixing (issue 25's findings). The
 * `npm test` slice tolerates them, nothing else; empty this list as the fixes merge. A class no
 * one is fixing does not belong here: it fails the slice until fixed.
 */
import type { FuzzRequest } from './arbitraries.js';
import type { Failure } from './verdict.js';

export interface KnownFailure {
  /** The issue 25 finding, as the fixing branch names it. */
  finding: string;
  matches(failure: Failure, request: FuzzRequest): boolean;
}

/** The `error` (or `code`) of the bodies Fastify answers on its own. */
const FASTIFY_ERRORS = new Set(['Request Header Fields Too Large', 'Bad Request', 'FST_ERR_BAD_URL']);

/** Routes whose list fields were checked in O(n²) (rankingRules, key actions and indexes, swaps). */
const LIST_ROUTES = new Set<string>([
  'POST /keys', 'PATCH /keys/:key', 'POST /swap-indexes', 'PATCH /indexes/:indexUid/settings', 'PUT /indexes/:indexUid/settings/:setting',
]);

/** Whether the body holds a list of 10,000 items or more (the fuzzer's huge arrays). */
function hugeList(request: FuzzRequest): boolean {
  let commas = 0;
  for (const byte of request.raw.body ?? []) if (byte === 0x2c && ++commas >= 9_999) return true;
  return false;
}

export const KNOWN_FAILURES: readonly KnownFailure[] = [
  {
    finding: 'deep JSON nesting answers 500 (branch nesting)',
    matches: (failure) => failure.kind === '5xx' && failure.detail.includes('Maximum call stack size exceeded'),
  },
  {
    finding: "Fastify's own 431/400 bodies outside the error envelope (header block too large, bytes Node's parser refuses, bad percent-encoding in the path)",
    matches: (failure) => failure.kind === 'envelope' && FASTIFY_ERRORS.has(failure.code ?? ''),
  },
  {
    finding: 'huge arrays in rankingRules/keys/swap block the event loop (branch arrays)',
    matches: (failure, request) => failure.kind === 'hang' && LIST_ROUTES.has(request.route) && hugeList(request),
  },
];

export function knownFailure(failure: Failure, request: FuzzRequest): KnownFailure | undefined {
  return KNOWN_FAILURES.find((known) => known.matches(failure, request));
}
