/**
 * The OS refusing a file descriptor (EMFILE, errno 24) as Meilisearch answers it:
 * `too_many_open_files` with the OS error's text, instead of an internal error.
 * lmdb reports the errno as a numeric `code`; Node's fs as `code: 'EMFILE'`.
 */
import { ApiError } from './api-error.js';

const EMFILE = 24;

export function isTooManyOpenFiles(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === EMFILE || code === 'EMFILE';
}

/** `err` as `too_many_open_files` when it is EMFILE, else `err` itself. */
export function tooManyOpenFiles(err: unknown): unknown {
  return isTooManyOpenFiles(err) ? new ApiError('too_many_open_files', `Too many open files (os error ${EMFILE})`) : err;
}
