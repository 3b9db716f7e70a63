// Ranges and prefixes answered from the value columns (facets/value-columns.ts `columnRanges`)
// give exactly what reading the facet data's entries gives: random indexes of strings (with
// characters whose UTF-16 order is not their UTF-8 order), numbers and arrays of both, written in
// rounds of additions, replacements and deletions, so the columns are patched between filters.
import { afterAll, describe, expect, it } from 'vitest';
import { evaluateFilter } from '../../../../src/engine/filter/evaluate.js';
import { parseFilter } from '../../../../src/engine/filter-parser/index.js';
import { FacetKind } from '../../../../src/engine/facets/extract.js';
import { keptColumn } from '../../../../src/engine/facets/value-columns.js';
import { FacetReader } from '../../../../src/engine/facets/store.js';
import { vectorFilter } from '../../../../src/engine/vectors/index.js';
import type { JsonObject } from '../../../../src/engine/document-id.js';
import { mulberry32 } from '../../../helpers/random.js';
import { TestIndex } from '../facets/fixture.js';

// letters, U+E000 and a character outside the BMP: U+E000 sorts after U+1F600 in UTF-16, before it in UTF-8
const ALPHABET = ['a', 'b', 'c', 'é', '\ue000', '\u{1f600}', ' ', '0', '9'];

describe('ranges answered from the value columns', () => {
  const index = TestIndex.create({ filterableAttributes: ['s', 'n', 'mix'] });
  afterAll(async () => {
    await index.close();
  });
  const random = mulberry32(7);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const word = () => Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(ALPHABET)).join('');
  const number = () => Math.round((random() - 0.5) * 20_000) / 4;
  const value = () => (random() < 0.5 ? word() : number());
  const doc = (id: number): JsonObject => ({
    id,
    s: random() < 0.2 ? [word(), word()] : word(),
    n: random() < 0.2 ? [number(), number()] : number(),
    mix: random() < 0.1 ? null : random() < 0.3 ? [value(), value(), value()] : value(),
  });
  const filters = () => {
    const field = pick(['s', 'n', 'mix']);
    const bound = () => JSON.stringify(String(random() < 0.5 ? word() : number()));
    return [
      `${field} > ${bound()}`,
      `${field} <= ${bound()}`,
      `${field} ${bound()} TO ${bound()}`,
      `${field} STARTS WITH ${JSON.stringify(pick(ALPHABET))}`,
      `NOT ${field} >= ${bound()} OR ${field} < ${bound()}`,
      // bounds between the characters whose UTF-16 and UTF-8 orders differ
      `${field} >= "\ue000"`,
      `${field} < "\u{1f600}"`,
    ];
  };
  const evaluate = (filter: string, columns: boolean) => {
    const ast = parseFilter(filter)!;
    return Array.from(evaluateFilter(index.env, index.settings, ast, { vectors: vectorFilter(index.env, index.settings), columns }));
  };

  it('answers as the facet data does, through writes that patch the columns', () => {
    index.write(Array.from({ length: 4_000 }, (_, id) => doc(id)));
    let compared = 0;
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 8; i++) {
        for (const filter of filters()) {
          expect(evaluate(filter, true), filter).toEqual(evaluate(filter, false));
          compared++;
        }
      }
      // additions, replacements and deletions between rounds
      const changes: (JsonObject | { delete: number })[] = [];
      for (let i = 0; i < 60; i++) {
        const id = Math.floor(random() * 4_400);
        changes.push(random() < 0.3 ? { delete: id } : doc(id));
      }
      index.write(changes);
    }
    expect(compared).toBe(12 * 8 * 7);
    // the columns were built by the first large scans, then read
    const reader = new FacetReader(index.env);
    for (const field of ['s', 'n']) {
      const fid = reader.fieldId(field)!;
      expect(keptColumn(index.env, fid, field === 's' ? FacetKind.string : FacetKind.number)).toBeTruthy();
    }
  });
});
