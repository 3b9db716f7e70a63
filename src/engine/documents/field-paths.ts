/**
 * The engine's error for a payload document with a field path longer than the bound
 * (types/json-paths.ts): for payloads that did not come through the routes, which refuse such a
 * document at enqueue (a dump's enqueued tasks, update files written before the routes checked).
 */
import { ApiError } from '../../errors/api-error.js';
import { longPathDetail } from '../../types/json-paths.js';

/** The error at a position of the payload (1-based, in bytes), as the routes word it. */
export function fieldPathTooLong(line: number, column: number): ApiError {
  return new ApiError('malformed_payload', `The \`ndjson\` payload provided is malformed. \`Couldn't serialize document value: ${longPathDetail(`line ${line} column ${column}`)}\`.`);
}
