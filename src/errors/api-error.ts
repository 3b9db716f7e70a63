/**
 * Typed errors thrown by every layer. They carry a Meilisearch code and a message and no HTTP
 * knowledge; `codes.ts` gives the status and type, the HTTP error handler renders the body.
 */
import { ERROR_CODES, errorLink, type ErrorCode, type ErrorType } from './codes.js';

/** The public error object, keys in Meilisearch's order. Also stored in failed tasks. */
export interface ErrorBody {
  message: string;
  code: ErrorCode;
  type: ErrorType;
  link: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  /** Set where Meilisearch answers a code with another status than its usual one. */
  private readonly statusOverride: number | undefined;

  constructor(code: ErrorCode, message: string, status?: number) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.statusOverride = status;
  }

  get status(): number {
    return this.statusOverride ?? ERROR_CODES[this.code].status;
  }

  toBody(): ErrorBody {
    return { message: this.message, code: this.code, type: ERROR_CODES[this.code].type, link: errorLink(this.code) };
  }
}

/** An unexpected failure; rendered as `internal` without leaking a stack trace. */
export function internalError(cause: unknown): ApiError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ApiError('internal', detail);
}

/** An error raised inside index `uid`, with the ``Index `uid`: `` prefix Meilisearch gives it (searches and tasks alike). */
export function inIndex(uid: string, error: ApiError): ApiError {
  return new ApiError(error.code, `Index \`${uid}\`: ${error.message}`);
}
