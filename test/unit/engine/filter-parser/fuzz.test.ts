import { describe, expect, it } from 'vitest';
import {
  FilterParseError,
  parseFilter,
  parseFilterExpression,
  walkFilter,
  type FilterAst,
  type Token,
} from '../../../../src/engine/filter-parser/index.js';
import { ApiError } from '../../../../src/errors/api-error.js';

/** mulberry32: a seeded generator, so a failure can be replayed. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  'a', 'b', 'x1', 'dog.age', '"', "'", '\\', '\\x', '\\u{', '}', '=', '!=', '>', '>=', '<', '<=', ' ', ' ', '  ', '\t',
  '\n', '(', ')', '[', ']', ',', 'AND', 'OR', 'NOT', 'IN', 'TO', 'EXISTS', 'IS', 'NULL', 'EMPTY', 'CONTAINS',
  'STARTS WITH', 'STARTS', 'WITH', 'and', '_geoRadius', '_geoBoundingBox', '_geoPolygon', '_geo', '_geoPoint',
  '_geoDistance', '_vectors', '.', '.fragments', '.userProvided', '_foreign', '1', '-2.5', '1e', '+.5', '🐻', 'é',
  '\u0301', '\u00a0', '\u200b', '\ud800',
];

const VALID = [
  'genre = horror AND (year > 2000 OR NOT rating 1 TO 5)',
  "title IN ['a b', \"c\"] OR tags NOT IN [x,] AND t EXISTS",
  'x IS NOT NULL AND y IS EMPTY OR z CONTAINS "w" AND v NOT STARTS WITH q',
  '_geoRadius(1, 2, 3) OR _geoBoundingBox([1, 2], [3, 4]) OR _geoPolygon([1,2],[3,4],[5,6])',
  '_vectors.e.fragments.f EXISTS AND _foreign(a, b = "c\\n")',
];

function randomPieces(next: () => number): string {
  const count = Math.floor(next() * 12);
  let text = '';
  for (let i = 0; i < count; i++) text += PIECES[Math.floor(next() * PIECES.length)];
  return text;
}

function randomCodeUnits(next: () => number): string {
  const count = Math.floor(next() * 20);
  let text = '';
  for (let i = 0; i < count; i++) {
    text += String.fromCharCode(next() < 0.7 ? 32 + Math.floor(next() * 95) : Math.floor(next() * 0x10000));
  }
  return text;
}

function mutated(next: () => number): string {
  const chars = Array.from(VALID[Math.floor(next() * VALID.length)]!);
  const edits = 1 + Math.floor(next() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (chars.length + 1));
    const roll = next();
    if (roll < 0.33) chars.splice(at, 1);
    else if (roll < 0.66) chars.splice(at, 0, PIECES[Math.floor(next() * PIECES.length)]!);
    else chars[at] = PIECES[Math.floor(next() * PIECES.length)]!;
  }
  return chars.join('');
}

function tokensOf(ast: FilterAst): Token[] {
  const tokens: Token[] = [];
  walkFilter(ast, (node) => {
    for (const value of Object.values(node)) {
      const candidates = Array.isArray(value) ? value.flat() : [value];
      for (const candidate of candidates) {
        if (candidate && typeof candidate === 'object' && 'span' in candidate) tokens.push(candidate as Token);
      }
    }
  });
  return tokens;
}

/** Parses and checks the contract: an AST with in-bounds spans, null, or a well-formed FilterParseError. */
function check(filter: string): void {
  let ast: FilterAst | null;
  try {
    ast = parseFilterExpression(filter);
  } catch (error) {
    if (!(error instanceof FilterParseError)) throw new Error(`${JSON.stringify(filter)} threw ${String(error)}`);
    expect(error.message).not.toContain('Encountered an internal');
    expect(error.message).toMatch(/^[^\n]+\n\d+:\d+ /);
    expect(error.message.endsWith(error.span.echo)).toBe(true);
    expect(error.span.start).toBeLessThanOrEqual(error.span.end);
    expect(error.span.end).toBeLessThanOrEqual(filter.length);
    return;
  }
  if (ast === null) return;
  for (const token of tokensOf(ast)) {
    expect(token.span.input).toBe(filter);
    expect(token.span.start).toBeGreaterThanOrEqual(0);
    expect(token.span.end).toBeLessThanOrEqual(filter.length);
  }
}

describe('fuzzing', () => {
  it.each([
    ['grammar pieces', randomPieces],
    ['random code units', randomCodeUnits],
    ['mutated valid filters', mutated],
  ])('never throws anything but FilterParseError on %s', (_, generate) => {
    const next = rng(0xf117e4);
    for (let i = 0; i < 4000; i++) check(generate(next));
  });

  it('parses every unmutated seed', () => {
    for (const filter of VALID) expect(parseFilterExpression(filter)).not.toBeNull();
  });

  it.each([
    ['100k opening parentheses', '('.repeat(100_000)],
    ['100k NOTs', 'NOT '.repeat(100_000)],
    ['nested _foreign calls', '_foreign(a, '.repeat(10_000)],
    ['an unclosed IN list of brackets', `x IN ${'['.repeat(100_000)}`],
    ['a long chain ending in garbage', `${'x = 1 AND '.repeat(20_000)}(`],
    ['a 1 MB quoted value', `x = "${'a'.repeat(1_000_000)}`],
  ])('bounds the work on %s with a parse error', (_, filter) => {
    expect(() => parseFilterExpression(filter)).toThrow(FilterParseError);
  });

  it('only throws ApiError for arbitrary JSON values', () => {
    const next = rng(42);
    const json = (depth: number): unknown => {
      const roll = next();
      if (depth > 3 || roll < 0.3) return randomPieces(next);
      if (roll < 0.4) return Math.floor(next() * 100);
      if (roll < 0.45) return null;
      if (roll < 0.5) return { k: randomPieces(next) };
      return Array.from({ length: Math.floor(next() * 4) }, () => json(depth + 1));
    };
    for (let i = 0; i < 2000; i++) {
      const input = json(0);
      try {
        parseFilter(input);
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
      }
    }
  });
});
