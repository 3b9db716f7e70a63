// An object read from its JSON text only when looked into: a reply writes the text itself, every
// other look (members, keys, spreads, JSON.stringify, changes) sees the parsed object.
import { describe, expect, it } from 'vitest';
import { jsonTextObject, jsonTextOf } from '../../../src/types/json-text-object.js';
import { stringifyReply } from '../../../src/types/reply-text.js';

// spaced so that the text written can be told from the object serialised again
const TEXT = '{ "synonyms": { "a": ["b"] }, "big": 18446744073709551615 }';

describe('jsonTextObject', () => {
  it('is written by a reply as its text, without parsing it', () => {
    const object = jsonTextObject('{ "a": not json }');
    expect(stringifyReply({ details: object, n: 1 })).toBe('{"details":{ "a": not json },"n":1}');
  });

  it('shows the members of its text to every other look, 64-bit integers kept', () => {
    const object = jsonTextObject(TEXT);
    expect(object.synonyms).toEqual({ a: ['b'] });
    expect(Object.keys(object)).toEqual(['synonyms', 'big']);
    expect('synonyms' in object).toBe(true);
    expect({ ...object }).toEqual({ synonyms: { a: ['b'] }, big: 18446744073709551615n });
    expect(JSON.stringify({ x: jsonTextObject('{ "a": 1 }') })).toBe('{"x":{"a":1}}');
    expect(jsonTextOf(object)).toBe(TEXT);
  });

  it('forgets its text once changed, so that a reply writes the change', () => {
    const object = jsonTextObject(TEXT);
    object.extra = true;
    expect(jsonTextOf(object)).toBeUndefined();
    expect(stringifyReply(object)).toBe('{"synonyms":{"a":["b"]},"big":18446744073709551615,"extra":true}');
    const deleted = jsonTextObject(TEXT);
    delete deleted.big;
    expect(stringifyReply(deleted)).toBe('{"synonyms":{"a":["b"]}}');
  });

  it('knows only the objects it made', () => {
    expect(jsonTextOf({ a: 1 })).toBeUndefined();
    expect(jsonTextOf('text')).toBeUndefined();
    expect(jsonTextOf(null)).toBeUndefined();
  });
});
