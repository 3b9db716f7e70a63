import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../../../src/engine/filter-parser/index.js';
import { ApiError } from '../../../../src/errors/api-error.js';
import { show } from './show.js';

function shown(input: unknown): string | null {
  const ast = parseFilter(input);
  return ast === null ? null : show(ast);
}

function apiErrorOf(input: unknown, code?: Parameters<typeof parseFilter>[1]): ApiError {
  try {
    parseFilter(input, code);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(input)} parsed without error`);
}

describe('parseFilter: JSON shapes', () => {
  it.each([
    [null, null],
    [undefined, null],
    ['', null],
    ['  \n', null],
    [[], null],
    [[''], null],
    [[[]], null],
    [[['', ' ']], null],
    ['a = 1', '{a} = {1}'],
    [['a = 1'], '{a} = {1}'],
    [[['a = 1']], '{a} = {1}'],
    [['a = 1', 'b = 2'], 'AND[{a} = {1}, {b} = {2}, ]'],
    [[['a = 1', 'a = 2'], 'b = 3'], 'AND[OR[{a} = {1}, {a} = {2}, ], {b} = {3}, ]'],
    [[['a = 1', ''], '', 'b = 3'], 'AND[{a} = {1}, {b} = {3}, ]'],
    [['a = 1 OR b = 2', 'c = 3'], 'AND[OR[{a} = {1}, {b} = {2}, ], {c} = {3}, ]'],
  ])('%j → %s', (input, expected) => {
    expect(shown(input)).toBe(expected);
  });
});

describe('parseFilter: type errors', () => {
  it.each([
    [true, 'expected String, Array, found: true'],
    [12, 'expected String, Array, found: 12'],
    [{ a: 'b' }, 'expected String, Array, found: {"a":"b"}'],
    [[1], 'expected String, [String], found: 1'],
    [['a = 1', null], 'expected String, [String], found: null'],
    [['a = 1', { x: [1, 2] }], 'expected String, [String], found: {"x":[1,2]}'],
    [[['a = 1', 2]], 'expected String, found: 2'],
    [[[['a = 1']]], 'expected String, found: ["a = 1"]'],
  ])('%j is rejected with `%s`', (input, detail) => {
    const error = apiErrorOf(input);
    expect(error.code).toBe('invalid_search_filter');
    expect(error.message).toBe(`Invalid syntax for the filter parameter: \`${detail}\`.`);
  });

  it('checks the whole array shape before parsing any string', () => {
    expect(apiErrorOf(['a =', 1]).message).toBe('Invalid syntax for the filter parameter: `expected String, [String], found: 1`.');
  });
});

describe('parseFilter: syntax errors', () => {
  it('locates an error relative to its own array element', () => {
    expect(apiErrorOf(['a = 1', ['b = 2', 'c = ']]).message).toBe('Was expecting a value but instead got nothing.\n5:5 c = ');
  });

  it('reports the first invalid element', () => {
    expect(apiErrorOf(['a =', 'b =']).message).toBe('Was expecting a value but instead got nothing.\n4:4 a =');
  });

  it('uses invalid_search_filter by default', () => {
    const error = apiErrorOf('channel = Ponce = 12');
    expect(error.toBody()).toEqual({
      message:
        'Found unexpected characters at the end of the filter: `= 12`. You probably forgot an `OR` or an `AND` rule.\n17:21 channel = Ponce = 12',
      code: 'invalid_search_filter',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#invalid_search_filter',
    });
  });

  it.each(['invalid_document_filter', 'invalid_similar_filter'] as const)('uses the code the route passes: %s', (code) => {
    expect(apiErrorOf('x =', { code }).code).toBe(code);
    expect(apiErrorOf(true, { code }).code).toBe(code);
  });
});
