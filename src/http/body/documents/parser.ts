/**
 * The contract between the document payload writer (`payload.ts`) and the per-format parsers
 * (`json-array.ts`, `ndjson.ts`, `csv.ts`), and the `malformed_payload` messages they share.
 * A parser is fed the decoded body chunk by chunk and hands every document over as one compact
 * JSON object (no newline), or a run of them as NDJSON lines (the JSON parsers); it throws an
 * ApiError on the first malformed document.
 */
import { ApiError } from '../../../errors/api-error.js';

export type EmitDocument = (document: Buffer) => void;

/** How the JSON parsers hand over a run of `count` documents at once: NDJSON lines, each ending with a newline. */
export type EmitLines = (lines: Uint8Array, count: number) => void;

export interface PayloadParser {
  write(chunk: Buffer): void;
  /** The body is complete: flushes the last document or reports a truncated payload. */
  end(): void;
}

/**
 * Meilisearch's text for a JSON or NDJSON document it cannot read. Its 138-character truncation
 * of the inner message never applies here: every detail this module produces is shorter.
 */
export function malformedJson(format: 'json' | 'ndjson', detail: string): ApiError {
  return new ApiError('malformed_payload', `The \`${format}\` payload provided is malformed. \`Couldn't serialize document value: ${detail}\`.`);
}

export function malformedCsv(detail: string): ApiError {
  return new ApiError('malformed_payload', `The \`csv\` payload provided is malformed: \`${detail}\`.`);
}

/**
 * What serde_json says of valid JSON that is not a document. Meilisearch answers an array
 * element or NDJSON value that is not an object with a 500 (`internal`); Quarry reports it as
 * the malformed payload it is, with the message Meilisearch uses for a non-object JSON body.
 */
export const NOT_DOCUMENTS = 'data are neither an object nor a list of objects';
