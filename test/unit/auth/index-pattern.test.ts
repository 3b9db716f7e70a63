import { describe, expect, it } from 'vitest';
import { formatPatternList, indexPatternProblem, patternMatches, patternsCover } from '../../../src/auth/index-pattern.js';

const PATTERN_HELP =
  'is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).';

describe('indexPatternProblem', () => {
  it('accepts *, valid uids and valid prefixes followed by *', () => {
    for (const pattern of ['*', 'movies', 'movies_2024-01', 'products_*', '1', 'a*']) expect(indexPatternProblem(pattern)).toBeUndefined();
  });

  it('names the refused value, or the refused prefix of a prefix pattern', () => {
    expect(indexPatternProblem('good doggo')).toBe(`\`good doggo\` ${PATTERN_HELP}`);
    expect(indexPatternProblem('doggo!*')).toBe(`\`doggo!\` ${PATTERN_HELP}`);
    expect(indexPatternProblem('**')).toBe(`\`*\` ${PATTERN_HELP}`);
    expect(indexPatternProblem('')).toBe(`\`\` ${PATTERN_HELP}`);
    expect(indexPatternProblem('a*b')).toBe(`\`a*b\` ${PATTERN_HELP}`);
  });
});

describe('patternMatches', () => {
  it('matches exact uids exactly and prefix patterns by prefix', () => {
    expect(patternMatches('products', 'products')).toBe(true);
    expect(patternMatches('products', 'products_1')).toBe(false);
    expect(patternMatches('products_*', 'products_1')).toBe(true);
    expect(patternMatches('products_*', 'products_')).toBe(true);
    expect(patternMatches('products_*', 'products')).toBe(false);
    expect(patternMatches('*', 'anything')).toBe(true);
  });

  it('covers an index when any pattern matches', () => {
    expect(patternsCover(['dog', 'cat*'], 'catto')).toBe(true);
    expect(patternsCover(['dog', 'cat*'], 'doggo')).toBe(false);
    expect(patternsCover([], 'doggo')).toBe(false);
  });
});

describe('formatPatternList', () => {
  it('prints sorted, de-duplicated patterns as a Rust debug list', () => {
    expect(formatPatternList(['doggo', 'catto', 'doggo'])).toBe('["catto", "doggo"]');
    expect(formatPatternList([])).toBe('[]');
    expect(formatPatternList(['B', 'a', '*'])).toBe('["*", "B", "a"]');
  });
});
