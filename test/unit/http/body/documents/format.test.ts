import { describe, expect, it } from 'vitest';
import { documentsFormat } from '../../../../../src/http/body/documents/format.js';
import { apiErrorOf } from '../../../validation/expect-api-error.js';

// Expected texts: Meilisearch's crates/meilisearch/tests/documents/{errors,add_documents}.rs.
const ACCEPTED = 'Accepted values for the Content-Type header are: `application/json`, `application/x-ndjson`, `text/csv`';

describe('documentsFormat', () => {
  it('maps the three accepted content types, ignoring parameters and case', () => {
    expect(documentsFormat('application/json', undefined)).toEqual({ format: 'json', delimiter: ',' });
    expect(documentsFormat('application/x-ndjson', undefined)).toEqual({ format: 'ndjson', delimiter: ',' });
    expect(documentsFormat('text/csv', undefined)).toEqual({ format: 'csv', delimiter: ',' });
    expect(documentsFormat('Application/JSON; charset=utf-8', undefined)).toEqual({ format: 'json', delimiter: ',' });
    expect(documentsFormat('text/csv;charset=utf-8', undefined)).toEqual({ format: 'csv', delimiter: ',' });
  });

  it('uses the csvDelimiter for CSV', () => {
    expect(documentsFormat('text/csv', '|')).toEqual({ format: 'csv', delimiter: '|' });
    expect(documentsFormat('text/csv', ';')).toEqual({ format: 'csv', delimiter: ';' });
  });

  it('refuses a missing Content-Type, even with a valid csvDelimiter', () => {
    const expected = { code: 'missing_content_type', message: `A Content-Type header is missing. ${ACCEPTED}` };
    expect(apiErrorOf(() => documentsFormat(undefined, undefined))).toEqual(expected);
    expect(apiErrorOf(() => documentsFormat(undefined, ';'))).toEqual(expected);
  });

  it('echoes an unparsable Content-Type as sent', () => {
    expect(apiErrorOf(() => documentsFormat('doggo', undefined))).toEqual({
      code: 'invalid_content_type',
      message: `The Content-Type \`doggo\` is invalid. ${ACCEPTED}`,
    });
    expect(apiErrorOf(() => documentsFormat('', undefined)).message).toBe(`The Content-Type \`\` is invalid. ${ACCEPTED}`);
  });

  it('echoes another media type as type/subtype, without its parameters', () => {
    expect(apiErrorOf(() => documentsFormat('text/plain', undefined))).toEqual({
      code: 'invalid_content_type',
      message: `The Content-Type \`text/plain\` is invalid. ${ACCEPTED}`,
    });
    expect(apiErrorOf(() => documentsFormat('Application/CSV; charset=utf-8', ',')).message).toBe(
      `The Content-Type \`application/csv\` is invalid. ${ACCEPTED}`,
    );
  });

  it('refuses a csvDelimiter with the JSON content types', () => {
    expect(apiErrorOf(() => documentsFormat('application/json', 'a'))).toEqual({
      code: 'invalid_content_type',
      message:
        'The Content-Type `application/json` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type `text/csv`.',
    });
    expect(apiErrorOf(() => documentsFormat('application/x-ndjson; charset=utf-8', 'a')).message).toBe(
      'The Content-Type `application/x-ndjson` does not support the use of a csv delimiter. The csv delimiter can only be used with the Content-Type `text/csv`.',
    );
  });

  it('validates the csvDelimiter before the Content-Type', () => {
    expect(apiErrorOf(() => documentsFormat('application/json', ''))).toEqual({
      code: 'invalid_document_csv_delimiter',
      message: 'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found an empty string',
    });
    expect(apiErrorOf(() => documentsFormat(undefined, 'doggo'))).toEqual({
      code: 'invalid_document_csv_delimiter',
      message:
        'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found the following string of 5 characters: `doggo`',
    });
    expect(apiErrorOf(() => documentsFormat('text/csv', '🍰'))).toEqual({
      code: 'invalid_document_csv_delimiter',
      message: 'csv delimiter must be an ascii character. Found: `🍰`',
    });
  });

  it('counts csvDelimiter characters as code points, not UTF-16 units', () => {
    expect(apiErrorOf(() => documentsFormat('text/csv', '🍰;')).message).toBe(
      'Invalid value in parameter `csvDelimiter`: expected a string of one character, but found the following string of 2 characters: `🍰;`',
    );
  });
});
