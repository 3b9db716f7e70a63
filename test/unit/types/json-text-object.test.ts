// An object kept as its members' JSON texts: a reply writes the texts themselves, every other look
// (members, keys, spreads, structured clones, JSON.stringify) sees the parsed values, parsed once
// and only the members read; a change makes it an ordinary object. An object kept as its whole
// text alike, parsed at the first look.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { jsonTextLength, jsonTextObject, jsonTextOf, jsonTextValue, textMembers, type TextMember } from '../../../src/types/json-text-object.js';
import { stringifyReply } from '../../../src/types/reply-text.js';

// spaced so that the texts written can be told from the values serialised again
const MEMBERS: TextMember[] = [
  ['synonyms', '{ "a": ["b"] }'],
  ['big', '18446744073709551615'],
];
const TEXT = '{"synonyms":{ "a": ["b"] },"big":18446744073709551615}';

describe('jsonTextObject', () => {
  it('is written by a reply as its texts, without parsing them', () => {
    const object = jsonTextObject([['a', 'not json'], ['b "quoted"', '1']]);
    expect(stringifyReply({ details: object, n: 1 })).toBe('{"details":{"a":not json,"b \\"quoted\\"":1},"n":1}');
    expect(stringifyReply(jsonTextObject([]))).toBe('{}');
  });

  it('shows the parsed members to every other look, 64-bit integers kept', () => {
    const object = jsonTextObject(MEMBERS);
    expect(Object.keys(object)).toEqual(['synonyms', 'big']);
    expect(object.synonyms).toEqual({ a: ['b'] });
    expect(object.synonyms).toBe(object.synonyms);
    expect({ ...object }).toEqual({ synonyms: { a: ['b'] }, big: 18446744073709551615n });
    expect(structuredClone(object)).toEqual({ synonyms: { a: ['b'] }, big: 18446744073709551615n });
    expect(JSON.stringify({ x: jsonTextObject([['a', ' 1']]) })).toBe('{"x":{"a":1}}');
    expect(inspect(jsonTextObject([['a', '[1, 2]']]))).toBe('{ a: [ 1, 2 ] }');
  });

  it('parses only the members read', () => {
    const object = jsonTextObject([['fine', '[1]'], ['broken', '{']]);
    expect(object.fine).toEqual([1]);
    expect(() => object.broken).toThrow();
  });

  it('knows its text and its length while its members are unchanged, read or not', () => {
    const object = jsonTextObject(MEMBERS);
    expect(jsonTextOf(object)).toBe(TEXT);
    void object.synonyms;
    expect(jsonTextOf(object)).toBe(TEXT);
    for (const members of [MEMBERS, [], [['k', '1']] as TextMember[]]) {
      const made = jsonTextObject(members);
      expect(jsonTextLength(made)).toBe(jsonTextOf(made)!.length);
    }
    expect(textMembers(object)).toEqual(MEMBERS);
  });

  it('becomes an ordinary object once a member is set, deleted or added', () => {
    const set = jsonTextObject(MEMBERS);
    set.big = 1;
    expect(jsonTextOf(set)).toBeUndefined();
    expect(stringifyReply(set)).toBe('{"synonyms":{"a":["b"]},"big":1}');
    expect(textMembers(set)).toEqual([['synonyms', '{"a":["b"]}'], ['big', '1']]);
    const deleted = jsonTextObject(MEMBERS);
    delete deleted.big;
    expect(stringifyReply(deleted)).toBe('{"synonyms":{"a":["b"]}}');
    const added = jsonTextObject(MEMBERS);
    added.extra = true;
    expect(jsonTextLength(added)).toBeUndefined();
    expect(stringifyReply(added)).toBe('{"synonyms":{"a":["b"]},"big":18446744073709551615,"extra":true}');
  });

  it('knows only the objects it made', () => {
    expect(jsonTextOf({ a: 1 })).toBeUndefined();
    expect(jsonTextOf('text')).toBeUndefined();
    expect(jsonTextOf(null)).toBeUndefined();
    expect(textMembers({ a: 1, gone: undefined })).toEqual([['a', '1']]);
  });
});

describe('jsonTextValue', () => {
  it('is written by a reply as its text, without parsing it', () => {
    expect(stringifyReply({ context: jsonTextValue('not json'), n: 1 })).toBe('{"context":not json,"n":1}');
    expect(jsonTextOf(jsonTextValue(TEXT))).toBe(TEXT);
    expect(jsonTextLength(jsonTextValue(TEXT))).toBe(TEXT.length);
  });

  it('shows the parsed object to every other look, 64-bit integers kept', () => {
    const object = jsonTextValue(TEXT);
    expect(Object.keys(object)).toEqual(['synonyms', 'big']);
    expect(object.synonyms).toEqual({ a: ['b'] });
    expect(object.synonyms).toBe(object.synonyms);
    expect('big' in object).toBe(true);
    expect({ ...object }).toEqual({ synonyms: { a: ['b'] }, big: 18446744073709551615n });
    expect(object).toEqual({ synonyms: { a: ['b'] }, big: 18446744073709551615n });
    expect(Object.getPrototypeOf(jsonTextValue('{}'))).toBe(Object.prototype);
    expect(JSON.stringify({ x: jsonTextValue('{ "a": 1 }') })).toBe('{"x":{"a":1}}');
    expect(inspect(jsonTextValue('{"a": [1, 2]}'))).toBe('{ a: [ 1, 2 ] }');
  });

  it('becomes an ordinary object once a member is set, deleted or defined', () => {
    const set = jsonTextValue('{"a": 1}');
    set.a = 2;
    expect(jsonTextOf(set)).toBeUndefined();
    expect(stringifyReply(set)).toBe('{"a":2}');
    const deleted = jsonTextValue('{"a": 1, "b": 2}');
    delete deleted.a;
    expect(stringifyReply(deleted)).toBe('{"b":2}');
    const defined = jsonTextValue('{"a": 1}');
    Object.defineProperty(defined, 'c', { value: 3, enumerable: true, configurable: true });
    expect(jsonTextLength(defined)).toBeUndefined();
    expect(stringifyReply(defined)).toBe('{"a":1,"c":3}');
  });
});
