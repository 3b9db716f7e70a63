/**
 * The errors the library throws, shaped as the meilisearch client's: an API error carries
 * Meilisearch's error object as `cause` (`message`, `code`, `type`, `link`, as MeilisearchApiError
 * does) and, for convenience, the same fields on itself plus the HTTP status the server would have
 * answered; a wait that outlives its timeout throws QuarryTaskTimeOutError with the client's message.
 */
import { ApiError, internalError, type ErrorBody } from '../errors/api-error.js';

export type { ErrorBody };

export class QuarryError extends Error {
  override name = 'QuarryError';
}

export class QuarryApiError extends QuarryError {
  override name = 'QuarryApiError';
  override readonly cause: ErrorBody;
  readonly code: ErrorBody['code'];
  readonly type: ErrorBody['type'];
  readonly link: string;
  /** The status the HTTP API answers this error with. */
  readonly httpStatus: number;

  constructor(body: ErrorBody, httpStatus: number) {
    super(body.message);
    this.cause = body;
    this.code = body.code;
    this.type = body.type;
    this.link = body.link;
    this.httpStatus = httpStatus;
  }
}

export class QuarryTaskTimeOutError extends QuarryError {
  override name = 'QuarryTaskTimeOutError';
  override readonly cause: { taskUid: number; timeout: number };

  constructor(taskUid: number, timeout: number) {
    super(`timeout of ${timeout}ms has exceeded on task ${taskUid} when waiting for it to be resolved.`);
    this.cause = { taskUid, timeout };
  }
}

/** What an HTTP client would have received as an error body, thrown. */
export function asQuarryError(err: unknown): QuarryApiError {
  const api = err instanceof ApiError ? err : internalError(err);
  return new QuarryApiError(api.toBody(), api.status);
}
