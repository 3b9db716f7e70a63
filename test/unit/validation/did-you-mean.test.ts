import { describe, expect, it } from 'vitest';
import { didYouMean } from '../../../src/validation/did-you-mean.js';

describe('didYouMean', () => {
  const accepted = ['q', 'filter', 'sort', 'attributesToHighlight'];

  it('suggests the closest accepted name with a trailing space', () => {
    expect(didYouMean('filler', accepted)).toBe('did you mean `filter`? ');
    expect(didYouMean('sart', accepted)).toBe('did you mean `sort`? ');
    expect(didYouMean('attributes_to_highlight', accepted)).toBe('did you mean `attributesToHighlight`? ');
  });

  it('gives no hint for names shorter than 4 bytes, even at distance 1', () => {
    expect(didYouMean('srt', ['sort'])).toBe('');
    expect(didYouMean('a', accepted)).toBe('');
  });

  it('passes over names whose length alone is past the budget, without measuring them', () => {
    // the matrix of a megabyte-long name took seconds per accepted name
    expect(didYouMean(`filter${'x'.repeat(1_000_000)}`, accepted)).toBe('');
    expect(didYouMean('attributesToHighlightXY', accepted)).toBe('did you mean `attributesToHighlight`? ');
  });

  it('gives no hint beyond the typo budget', () => {
    expect(didYouMean('query', accepted)).toBe('');
    expect(didYouMean('filterable', accepted)).toBe('');
    expect(didYouMean('sortable', accepted)).toBe('');
  });

  it.each([
    // [received length, budget]: a candidate at `budget` matches, one at `budget + 1` does not.
    [4, 1],
    [7, 1],
    [8, 2],
    [12, 2],
    [13, 3],
    [17, 3],
    [18, 4],
    [24, 4],
    [25, 5],
    [40, 5],
  ])('allows %i-byte names a distance of %i', (length, budget) => {
    const received = 'a'.repeat(length);
    const within = 'b'.repeat(budget) + 'a'.repeat(length - budget);
    const beyond = 'b'.repeat(budget + 1) + 'a'.repeat(length - budget - 1);
    expect(didYouMean(received, [within])).toBe(`did you mean \`${within}\`? `);
    expect(didYouMean(received, [beyond])).toBe('');
  });

  it('measures the budget in UTF-8 bytes', () => {
    // "éé" is 2 characters but 4 bytes, so it gets a budget of 1.
    expect(didYouMean('éé', ['éa'])).toBe('did you mean `éa`? ');
  });

  it('prefers the closest candidate and, among equals, the first declared', () => {
    expect(didYouMean('limmit', ['limits', 'limit'])).toBe('did you mean `limit`? ');
    expect(didYouMean('abcd', ['abcx', 'abcy'])).toBe('did you mean `abcx`? ');
  });
});
