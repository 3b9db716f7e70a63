// A value column is kept only within its share of the cache budget; the walk building one stops
// as soon as the values read are past it, and never refuses a column that fits.
import { afterEach, describe, expect, it } from 'vitest';
import { FacetKind } from '../../../../src/engine/facets/extract.js';
import { FacetReader } from '../../../../src/engine/facets/store.js';
import { valueColumn } from '../../../../src/engine/facets/value-columns.js';
import { TestIndex } from './fixture.js';

let index: TestIndex;
afterEach(() => index.close());

/** A reader that counts the values its column walks read. */
function countingReader(index: TestIndex): { reader: FacetReader; read: () => number } {
  const reader = new FacetReader(index.env);
  const walk = reader.valueRuns.bind(reader);
  let read = 0;
  reader.valueRuns = (fid, kind, fits) =>
    walk(fid, kind, (value, docids) => {
      read++;
      return fits(value, docids);
    });
  return { reader, read: () => read };
}

/** `count` documents, each with its own 400-character string: ~850 bytes each in a column. */
function writeLongValues(count: number): void {
  const pad = 'x'.repeat(392);
  index.write(Array.from({ length: count }, (_, id) => ({ id, saga: `${pad}${String(id).padStart(8, '0')}` })));
}

describe('value columns', () => {
  it('stop walking a field as soon as its values are too big for a column', () => {
    index = TestIndex.create({ filterableAttributes: ['saga'] });
    writeLongValues(12_000);
    const { reader, read } = countingReader(index);
    expect(valueColumn(index.env, reader, reader.fieldId('saga')!, FacetKind.string)).toBeNull();
    // 8 MiB over ~850 bytes a value: the walk stops near the 9,900th of 12,000
    expect(read()).toBeGreaterThan(9_000);
    expect(read()).toBeLessThan(10_500);
  });

  it('keep the column of a field within the bound, every value read', () => {
    index = TestIndex.create({ filterableAttributes: ['saga'] });
    writeLongValues(9_000);
    const { reader, read } = countingReader(index);
    const column = valueColumn(index.env, reader, reader.fieldId('saga')!, FacetKind.string);
    expect(column?.values.length).toBe(9_000);
    expect(read()).toBe(9_000);
  });
});
