import { describe, expect, it } from 'vitest';
import {
  compactJson,
  describeKinds,
  describeValue,
  immutableFieldMessage,
  invalidParameterMessage,
  invalidTypeMessage,
  invalidValueMessage,
  missingFieldMessage,
  unknownFieldMessage,
  unknownParameterMessage,
  unknownParameterValueMessage,
  unknownValueMessage,
  type ValueKind,
} from '../../../src/validation/messages.js';

describe('describeKinds', () => {
  it.each<[ValueKind[], string]>([
    [[], 'a different value'],
    [['null'], 'null'],
    [['boolean'], 'a boolean'],
    [['positiveInteger'], 'a positive integer'],
    [['negativeInteger'], 'a negative integer'],
    [['float'], 'a number'],
    [['string'], 'a string'],
    [['array'], 'an array'],
    [['object'], 'an object'],
    [['positiveInteger', 'boolean'], 'a boolean or a positive integer'],
    [['null', 'positiveInteger'], 'null or a positive integer'],
    [['array', 'negativeInteger'], 'a negative integer or an array'],
    [['positiveInteger', 'float'], 'a number'],
    [['negativeInteger', 'float'], 'a number'],
    [['positiveInteger', 'float', 'negativeInteger'], 'a number'],
    [['positiveInteger', 'negativeInteger'], 'an integer'],
    [['positiveInteger', 'float', 'negativeInteger', 'null'], 'null or a number'],
    [['boolean', 'positiveInteger', 'float', 'negativeInteger', 'null'], 'null, a boolean, or a number'],
    [['null', 'boolean', 'positiveInteger', 'float', 'negativeInteger', 'null'], 'null, a boolean, or a number'],
    [['object', 'string', 'array'], 'a string, an array, or an object'],
  ])('describes %j as %j (sorted, deduplicated, joined like deserr)', (kinds, text) => {
    expect(describeKinds(kinds)).toBe(text);
  });
});

describe('describeValue', () => {
  it.each<[unknown, string]>([
    [null, 'null'],
    [true, 'a boolean: `true`'],
    [12, 'a positive integer: `12`'],
    [0, 'a positive integer: `0`'],
    [-3, 'a negative integer: `-3`'],
    [1.5, 'a number: `1.5`'],
    ['12', 'a string: `"12"`'],
    [['the', 'best'], 'an array: `["the","best"]`'],
    [{ a: 1, b: [true, null] }, 'an object: `{"a":1,"b":[true,null]}`'],
  ])('describes %j as %j', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });

  it('prints JSON compactly, escaping like serde_json and keeping key order', () => {
    expect(compactJson({ z: 'a"b\\c\n', a: 'é/' })).toBe('{"z":"a\\"b\\\\c\\n","a":"é/"}');
  });

  it('reads integers beyond 64 bits as floats and prints exponents without `+`', () => {
    expect(describeValue(1e21)).toBe('a number: `1e21`');
    expect(compactJson(1e19)).toBe('10000000000000000000');
  });

  it('prints floats as ryu does', () => {
    expect(compactJson(2 ** 64)).toBe('1.8446744073709552e19');
    expect(compactJson(1e308)).toBe('1e308');
    expect(compactJson(1.5)).toBe('1.5');
    expect(compactJson(0.000001)).toBe('1e-6');
  });
});

describe('JSON message templates', () => {
  it('omits the location at the root', () => {
    expect(invalidTypeMessage('', ['object'], 'x')).toBe('Invalid value type: expected an object, but found a string: `"x"`');
    expect(invalidValueMessage('', 'nope')).toBe('Invalid value: nope');
    expect(missingFieldMessage('', 'uid')).toBe('Missing field `uid`');
    expect(unknownFieldMessage('', 'doggo', ['uid', 'primaryKey'])).toBe(
      'Unknown field `doggo`: expected one of `uid`, `primaryKey`',
    );
  });

  it('places nested locations with "at" or "inside"', () => {
    expect(invalidTypeMessage('.uid', ['string'], 12)).toBe(
      'Invalid value type at `.uid`: expected a string, but found a positive integer: `12`',
    );
    expect(invalidTypeMessage('.primaryKey', ['string'], null)).toBe(
      'Invalid value type at `.primaryKey`: expected a string, but found null',
    );
    expect(missingFieldMessage('.queries[0]', 'indexUid')).toBe('Missing field `indexUid` inside `.queries[0]`');
    expect(unknownFieldMessage('.remotes.kefir', 'urll', ['url', 'searchApiKey'])).toBe(
      'Unknown field `urll` inside `.remotes.kefir`: did you mean `url`? expected one of `url`, `searchApiKey`',
    );
    expect(unknownValueMessage('.actions[0]', 'doggo', ['search', 'version'])).toBe(
      'Unknown value `doggo` at `.actions[0]`: expected one of `search`, `version`',
    );
    expect(invalidValueMessage('.uid', 'bad')).toBe('Invalid value at `.uid`: bad');
  });

  it('words immutable fields without location or hint', () => {
    expect(immutableFieldMessage('uid', ['description', 'name'])).toBe(
      'Immutable field `uid`: expected one of `description`, `name`',
    );
  });
});

describe('query message templates', () => {
  it('names parameters without a leading dot', () => {
    expect(unknownParameterMessage('doggo', ['offset', 'limit'])).toBe(
      'Unknown parameter `doggo`: expected one of `offset`, `limit`',
    );
    expect(invalidParameterMessage('uids[1]', 'could not parse `dogo` as a positive integer')).toBe(
      'Invalid value in parameter `uids[1]`: could not parse `dogo` as a positive integer',
    );
    expect(unknownParameterValueMessage('sizeFormat', 'hmn', ['human', 'raw'])).toBe(
      'Unknown value `hmn` for parameter `sizeFormat`: expected one of `human`, `raw`',
    );
  });
});
