/**
 * The remote half of a networked facet search or document fetch (network.md §7.3): each copy of
 * the request's partition that another instance answers is sent to it under one deadline
 * (remote-search.ts: retries, v1.50's error bodies), all at once. A copy naming a remote that is
 * not registered fails as v1.50's `unknown_remote`. The answers come back in partition order.
 */
import { ApiError, type ErrorBody } from '../errors/api-error.js';
import { compareBytes } from '../types/bytes.js';
import type { SearchContext } from './context.js';
import type { NetworkCopy } from './network-partition.js';
import { remoteSearchDeadline, type RemoteAnswer } from './remote-search.js';

export interface CopyAnswer {
  readonly remote: string;
  /** the copy's position in the partition */
  readonly position: number;
  readonly answer: RemoteAnswer;
}

export interface CopyRequest {
  /** the path on the remote, e.g. `/indexes/movies/facet-search` */
  readonly path: string;
  /** what the remote receives for `copy` */
  readonly body: (copy: NetworkCopy) => unknown;
  /** whether an answer has the expected shape */
  readonly accepts: (body: Record<string, unknown>) => boolean;
  readonly signal: AbortSignal;
}

/** Sends the copies this instance (`self`) does not answer itself; one promise per copy sent. */
export function sendCopies(ctx: SearchContext, copies: readonly NetworkCopy[], request: CopyRequest): Promise<CopyAnswer>[] {
  const self = ctx.network.names().self;
  const deadline = remoteSearchDeadline();
  return copies.flatMap((copy, position) => {
    if (copy.remote === self) return [];
    const address = ctx.network.remoteAddress(copy.remote);
    if (address === null) {
      const error = new ApiError('unknown_remote', `Unknown remote \`${copy.remote}`).toBody();
      return [Promise.resolve({ remote: copy.remote, position, answer: { ok: false, error } })];
    }
    const sent = ctx.remoteSearch.send(address, request.body(copy), { deadline, includeMetadata: false, signal: request.signal, path: request.path, accepts: request.accepts });
    return [sent.then((answer) => ({ remote: copy.remote, position, answer }))];
  });
}

/** `remoteErrors` as v1.50 shows its BTreeMap: by remote name. */
export function sortedErrors(errors: Readonly<Record<string, ErrorBody>>): Record<string, ErrorBody> {
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => compareBytes(a, b)));
}
