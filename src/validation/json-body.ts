/**
 * A JSON request body's bytes read into a value, with Meilisearch's error texts
 * (http-conventions.md §4.1): a body nested deeper than serde_json reads is refused before it is
 * parsed, as Meilisearch refuses it (`recursion limit exceeded`), so no validator ever walks it;
 * so is a body of more than MAX_BODY_VALUES values, which JSON.parse would take seconds to build,
 * and a number past f64's range (`1e400`), which serde_json refuses and JSON.parse would read as
 * Infinity. Pure: the thread answering requests runs it (http/body/json.ts), and so does a
 * formatting thread for a large settings body (settings/body.ts).
 */
import { ApiError } from '../errors/api-error.js';
import { nestsDeeper, SERDE_MAX_DEPTH } from '../types/json-depth.js';
import { describeJsonSyntaxError, holdsOutOfRangeNumber, serdeJsonError } from '../types/json-syntax-error.js';
import { holdsMoreValuesThan } from '../types/json-values.js';
import { isSentNumber } from './sent-values.js';

/**
 * Values a JSON body may hold (Quarry's bound; document payloads are read by their own route,
 * in pieces): commas and opening brackets outside strings, counted before parsing (json-values.ts).
 */
export const MAX_BODY_VALUES = 1_000_000;

/** `bytes` (not empty) parsed by `parse`, or the ApiError Meilisearch answers for them. */
export function parseJsonBody(bytes: Buffer, parse: (text: string) => unknown): unknown {
  const text = bytes.toString('utf8');
  if (nestsDeeper(bytes, SERDE_MAX_DEPTH)) throw malformed(text);
  if (holdsMoreValuesThan(bytes, MAX_BODY_VALUES)) {
    throw new ApiError(
      'payload_too_large',
      `The JSON payload holds more than ${MAX_BODY_VALUES} values. A body is read whole on the thread that answers every request: send its values in several requests.`,
    );
  }
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    throw malformed(text);
  }
  // a bare number written as a float stays as sent (sent-values.ts): its value is read here
  const read = isSentNumber(value) ? Number(value.value) : value;
  if (holdsOutOfRangeNumber(read) && serdeJsonError(text) !== undefined) throw malformed(text);
  return value;
}

/** The first error serde_json meets in `text`: a syntax error or the nesting limit. */
function malformed(text: string): ApiError {
  return new ApiError('malformed_payload', `The json payload provided is malformed. \`${describeJsonSyntaxError(text)}\`.`);
}
