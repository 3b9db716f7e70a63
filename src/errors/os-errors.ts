/**
 * Errors of the operating system as Meilisearch shows them.
 *
 * - The OS refusing a file descriptor (EMFILE, errno 24): `too_many_open_files` with the OS
 *   error's text, instead of an internal error. lmdb reports the errno as a numeric `code`;
 *   Node's fs as `code: 'EMFILE'`.
 * - A failed start (a db path that is a file, a port taken, a host that does not resolve, an
 *   unreadable config file): Rust's `io::Error` display, the strerror text then the errno,
 *   e.g. `File exists (os error 17)`, which v1.50 prints as `Error: …` before exiting.
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

// glibc's strerror for the errors a start can meet
const STRERROR: Record<string, string> = {
  EPERM: 'Operation not permitted',
  ENOENT: 'No such file or directory',
  EIO: 'Input/output error',
  EACCES: 'Permission denied',
  EEXIST: 'File exists',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EMFILE: 'Too many open files',
  ENOSPC: 'No space left on device',
  EROFS: 'Read-only file system',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EADDRINUSE: 'Address already in use',
  EADDRNOTAVAIL: 'Cannot assign requested address',
};

// getaddrinfo's failures, as Rust's `to_socket_addrs` words them (no errno)
const LOOKUP: Record<string, string> = {
  ENOTFOUND: 'failed to lookup address information: Name or service not known',
  EAI_AGAIN: 'failed to lookup address information: Temporary failure in name resolution',
};

/** Rust's display of `err` when it is one of the OS errors above, else null. */
export function osErrorMessage(err: unknown): string | null {
  const { code, errno } = (err ?? {}) as NodeJS.ErrnoException;
  if (typeof code !== 'string') return null;
  if (LOOKUP[code] !== undefined) return LOOKUP[code];
  const text = STRERROR[code];
  return text !== undefined && typeof errno === 'number' ? `${text} (os error ${Math.abs(errno)})` : null;
}
