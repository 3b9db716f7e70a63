// Content-Type headers read as v1.50 reads them (actix-http's `mime_type()`, the mime crate):
// token characters only, parameters checked for their syntax, the subtype before a `+suffix`.
import { describe, expect, it } from 'vitest';
import { checkJsonContentType, parseMediaType } from '../../../../src/http/body/content-type.js';

describe('parseMediaType', () => {
  it('reads type, subtype and suffix, lowercased, with well-formed parameters', () => {
    expect(parseMediaType('Application/JSON')).toEqual({ type: 'application', subtype: 'json', suffix: undefined });
    expect(parseMediaType('application/ld+json; charset=utf-8')).toEqual({ type: 'application', subtype: 'ld', suffix: 'json' });
    for (const header of ['application/json;charset=utf-8', 'application/json;  a=b;c=d', 'application/json; a="x y\\"z"  ;b=c', 'application/json;', 'application/json;a=', 'text/csv; header=present']) {
      expect(parseMediaType(header), header).not.toBeNull();
    }
  });

  it('refuses what the mime crate refuses: a parameter without `=`, spaces around the slash or before `;`, `*`, unclosed quotes, non-ASCII', () => {
    for (const header of ['application/json;foo', 'application/json ; charset=utf-8', 'application /json', 'application/ json', '/json', 'json', 'application/*', 'application/json;a=b c', 'application/json;a=;b=c', 'application/json;a="open', 'application/json;=b', 'application/jsön', 'application/json;a="x"y']) {
      expect(parseMediaType(header), header).toBeNull();
    }
  });
});

describe('checkJsonContentType', () => {
  it('takes a json subtype or a +json suffix, and refuses an unparsable header with invalid_content_type', () => {
    for (const header of ['application/json', 'text/json', 'application/vnd.api+json', 'application/json+x; charset=utf-8']) expect(() => checkJsonContentType(header), header).not.toThrow();
    expect(() => checkJsonContentType('application/json;foo')).toThrow(expect.objectContaining({ code: 'invalid_content_type', message: 'The Content-Type `application/json;foo` is invalid. Accepted values for the Content-Type header are: `application/json`' }));
    expect(() => checkJsonContentType(undefined)).toThrow(expect.objectContaining({ code: 'missing_content_type' }));
  });
});
