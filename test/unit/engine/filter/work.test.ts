import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilterWork } from '../../../../src/engine/filter/work.js';
import { TestIndex } from '../facets/fixture.js';

describe('FilterWork', () => {
  it('refuses once the units charged pass the limit, not before', () => {
    const refused: number[] = [];
    const work = new FilterWork(100, () => {
      refused.push(work.remaining);
      throw new Error('refused');
    });
    work.charge(60);
    work.combine([new Uint32Array(40)]);
    expect(refused).toEqual([]);
    expect(() => work.charge(1)).toThrow('refused');
    expect(refused).toEqual([-1]);
  });

  it('bounds a filter by the index size, within a floor and a ceiling', () => {
    const small = FilterWork.limitFor(1_000);
    expect(FilterWork.limitFor(0)).toBe(small);
    expect(FilterWork.limitFor(1_000_000)).toBeGreaterThan(small);
    expect(FilterWork.limitFor(100_000_000)).toBe(FilterWork.limitFor(1_000_000_000));
  });
});

describe('a filter past its work bound', () => {
  // 2,000 distinct titles: a range over them reads 2,000 facet entries
  const DOCUMENTS = Array.from({ length: 2_000 }, (_, id) => ({ id, title: `title ${String(id).padStart(4, '0')}`, year: 1900 + (id % 100) }));
  let index: TestIndex;
  beforeAll(() => {
    index = TestIndex.create({ filterableAttributes: ['title', 'year', 'id'] });
    index.write(DOCUMENTS);
  });
  afterAll(async () => {
    await index.close();
  });

  it('answers a few ranges over every value, as before', () => {
    const filter = Array.from({ length: 20 }, (_, i) => `title >= "title ${String(i * 100).padStart(4, '0')}"`).join(' OR ');
    expect(index.filter(filter)).toEqual(DOCUMENTS.map((doc) => doc.id));
    expect(index.filter('title "title 0010" TO "title 0012" AND year >= 1911')).toEqual([11, 12]);
  });

  it('is refused with the route error, located on the condition evaluated when the bound passed', () => {
    // 2,000 ranges, each reading most of the 2,000 titles: far past the bound
    const conditions = Array.from({ length: 2_000 }, (_, i) => `title > "title ${String(i % 10).padStart(4, '0')}"`);
    const filter = conditions.join(' OR ');
    const message = index.filterError(filter);
    const located = /^The filter needs too much work to evaluate: more than \d+ units \(a facet value read is 40, a document combined is 1\)\. Use fewer conditions, or narrower ranges\.\n(\d+):(\d+) /.exec(message);
    expect(located, message.slice(0, 200)).not.toBeNull();
    const column = Number(located![1]);
    // the column points at a condition's field, well before the end of the filter
    expect(filter.slice(column - 1, column + 4)).toBe('title');
    expect(column).toBeLessThan(filter.length / 2);
  });

  it('counts the documents every NOT and != yields', async () => {
    const nots = Array.from({ length: 2_500 }, (_, i) => `NOT id = ${i}`).join(' OR ');
    // 2,500 complements of 2,000 documents fit (about 10 million docids combined)…
    expect(index.filter(nots)).toHaveLength(2_000);
    const big = TestIndex.create({ filterableAttributes: ['id'] });
    try {
      big.write(Array.from({ length: 20_000 }, (_, id) => ({ id })));
      // …of 20,000 documents they do not (100 million)
      expect(big.filterError(nots)).toMatch(/^The filter needs too much work to evaluate: more than 20000000 units/);
      expect(big.filter(Array.from({ length: 100 }, (_, i) => `id != ${i}`).join(' AND '))).toHaveLength(19_900);
    } finally {
      await big.close();
    }
  });
});
