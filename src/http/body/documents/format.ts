/**
 * Chooses the payload format of `POST|PUT /indexes/{uid}/documents` from the Content-Type
 * header and the `csvDelimiter` query parameter, with Meilisearch's rules and messages
 * (documents.md §3.1, http-conventions.md §4.2). Called by the documents route before the body
 * is read. The delimiter is validated first because Meilisearch parses query parameters before
 * looking at the Content-Type.
 */
import { ApiError } from '../../../errors/api-error.js';
import { invalidContentType, missingContentType, parseMediaType } from '../content-type.js';

export type DocumentsFormat = 'json' | 'ndjson' | 'csv';

export interface DocumentsPayloadFormat {
  format: DocumentsFormat;
  /** The CSV field delimiter (one ASCII character); `,` for the JSON formats, which ignore it. */
  delimiter: string;
}

export const DOCUMENTS_CONTENT_TYPES = ['application/json', 'application/x-ndjson', 'text/csv'] as const;

/** Validates the raw `csvDelimiter` query value: exactly one ASCII character. */
export function checkCsvDelimiter(raw: string): string {
  // Characters are counted as Unicode scalar values, as Rust's `char`s.
  const chars = [...raw];
  if (chars.length !== 1) {
    const found = chars.length === 0 ? 'an empty string' : `the following string of ${chars.length} characters: \`${raw}\``;
    throw new ApiError(
      'invalid_document_csv_delimiter',
      `Invalid value in parameter \`csvDelimiter\`: expected a string of one character, but found ${found}`,
    );
  }
  if (raw.charCodeAt(0) > 0x7f) {
    throw new ApiError('invalid_document_csv_delimiter', `csv delimiter must be an ascii character. Found: \`${raw}\``);
  }
  return raw;
}

function delimiterNotSupported(contentType: string): ApiError {
  return new ApiError(
    'invalid_content_type',
    `The Content-Type \`${contentType}\` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type \`text/csv\`.`,
  );
}

export function documentsFormat(contentTypeHeader: string | undefined, csvDelimiter: string | undefined): DocumentsPayloadFormat {
  const delimiter = csvDelimiter === undefined ? undefined : checkCsvDelimiter(csvDelimiter);
  if (contentTypeHeader === undefined) throw missingContentType(DOCUMENTS_CONTENT_TYPES);
  const media = parseMediaType(contentTypeHeader);
  if (media === null) throw invalidContentType(contentTypeHeader, DOCUMENTS_CONTENT_TYPES);
  const essence = `${media.type}/${media.subtype}`;
  switch (essence) {
    case 'application/json':
    case 'application/x-ndjson':
      if (delimiter !== undefined) throw delimiterNotSupported(essence);
      return { format: essence === 'application/json' ? 'json' : 'ndjson', delimiter: ',' };
    case 'text/csv':
      return { format: 'csv', delimiter: delimiter ?? ',' };
    default:
      throw invalidContentType(essence, DOCUMENTS_CONTENT_TYPES);
  }
}
