// Distinct read from the value columns: the same verdicts and counts as the documents' own values,
// through small writes that patch the columns, and for a field too big for a column.
import { afterEach, describe, expect, it } from 'vitest';

import type { JsonObject } from '../../../../src/engine/document-id.js';
import { fromSorted } from '../../../../src/engine/docset.js';
import { FacetKind } from '../../../../src/engine/facets/extract.js';
import { FacetReader } from '../../../../src/engine/facets/store.js';
import { keptColumn } from '../../../../src/engine/facets/value-columns.js';
import { distinctCounter, distinctFilter, distinctValues } from '../../../../src/engine/search/distinct.js';
import { mulberry32 } from '../../../helpers/random.js';
import { TestIndex } from '../facets/fixture.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const SPELLINGS = ['Dc', 'dc', 'DC ', 'Marvel', 'marvél', 'true', '12', ''];

/** A value for the `saga` field: numbers, strings spelled several ways, booleans, arrays, objects, null. */
function sagaValue(next: () => number): unknown {
  const pick = next();
  if (pick < 0.25) return Math.floor(next() * 6) * (next() < 0.2 ? 0.5 : 1);
  if (pick < 0.5) return SPELLINGS[Math.floor(next() * SPELLINGS.length)];
  if (pick < 0.6) return next() < 0.5;
  if (pick < 0.8) return [sagaValue(next), sagaValue(next)];
  if (pick < 0.9) return { inner: 1 };
  return null;
}

const sagaDocument = (id: number, next: () => number): JsonObject => (next() < 0.1 ? { id } : ({ id, saga: sagaValue(next) } as JsonObject));

/** The verdicts distinct gives every document in docid order, from the documents' own values. */
function expectedVerdicts(env: TestIndex['env']): boolean[] {
  const seen = new Set<string>();
  const verdicts: boolean[] = [];
  for (const { value } of env.documents.getRange()) {
    const keys = distinctValues(value as JsonObject, 'saga').map(([kind, v]) => `${kind}:${v}`);
    const kept = !keys.some((k) => seen.has(k));
    if (kept) for (const k of keys) seen.add(k);
    verdicts.push(kept);
  }
  return verdicts;
}

function verdicts(env: TestIndex['env']): boolean[] {
  const filter = distinctFilter(env, new FacetReader(env), 'saga');
  return [...env.documents.getKeys()].map((docid) => filter.accept(docid as number));
}

describe('distinct', () => {
  // the columns are built at the first search, then patched by each small write (index-changes.ts)
  it('keeps and rejects the documents their own values say, through writes that patch the columns', () => {
    index = TestIndex.create({ filterableAttributes: ['saga'] });
    const random = mulberry32(7);
    for (let round = 0; round < 20; round++) {
      const docs: (JsonObject | { delete: number })[] = [];
      for (let k = 0; k < (round === 0 ? 300 : 1 + Math.floor(random() * 6)); k++) {
        const id = round === 0 ? k : Math.floor(random() * 340);
        docs.push(round > 0 && random() < 0.15 ? { delete: id } : sagaDocument(id, random));
      }
      index.write(docs);
      const expected = expectedVerdicts(index.env);
      expect(expected.filter((kept) => !kept).length).toBeGreaterThan(150);
      expect(verdicts(index.env), `round ${round}`).toEqual(expected);
      const reader = new FacetReader(index.env);
      expect(keptColumn(index.env, reader.fieldId('saga')!, FacetKind.string), `round ${round}`).toBeTruthy();
      const count = distinctCounter(index.env, reader, 'saga');
      expect(count(reader.allDocids()), `round ${round}`).toBe(expected.filter((kept) => kept).length);
    }
  });

  it('takes out of the count every other document holding a kept value, by reading a few values or by one pass over the columns', () => {
    index = TestIndex.create({ filterableAttributes: ['saga'] });
    const random = mulberry32(11);
    for (let round = 0; round < 4; round++) {
      const docs: (JsonObject | { delete: number })[] = [];
      for (let k = 0; k < (round === 0 ? 300 : 6); k++) docs.push(round > 0 && random() < 0.2 ? { delete: Math.floor(random() * 300) } : sagaDocument(round === 0 ? k : Math.floor(random() * 320), random));
      index.write(docs);
      const { env } = index;
      const all = [...env.documents.getRange()].map(({ key, value }) => ({ docid: key as number, keys: distinctValues(value as JsonObject, 'saga').map(([kind, v]) => `${kind}:${v}`) }));
      // the first document holding a value reads its few values' documents; all of them, the pass
      for (const accepted of [all.filter((doc) => doc.keys.length > 0).slice(0, 1), all]) {
        const filter = distinctFilter(env, new FacetReader(env), 'saga');
        const kept = accepted.filter((doc) => filter.accept(doc.docid));
        const keptKeys = new Set(kept.flatMap((doc) => doc.keys));
        const keptIds = new Set(kept.map((doc) => doc.docid));
        const expected = all.filter((doc) => !keptIds.has(doc.docid) && doc.keys.some((key) => keptKeys.has(key))).map((doc) => doc.docid);
        expect([...filter.excluded(false)], `round ${round}, ${accepted.length} accepted`).toEqual(expected);
      }
    }
  });

  it('reads the documents of a field too big for a column, alike', () => {
    index = TestIndex.create({ filterableAttributes: ['saga'] });
    const random = mulberry32(3);
    // 11,000 strings of 400 characters: ~9 MB as a column, over its bound
    const pad = 'x'.repeat(392);
    index.write(Array.from({ length: 12_000 }, (_, id) => ({ id, saga: random() < 0.1 ? id % 7 : `${pad}${String(id % 11_000).padStart(8, '0')}` })));
    expect(expectedVerdicts(index.env).filter((kept) => !kept).length).toBeGreaterThan(1000);
    expect(verdicts(index.env)).toEqual(expectedVerdicts(index.env));
    const reader = new FacetReader(index.env);
    expect(keptColumn(index.env, reader.fieldId('saga')!, FacetKind.string)).toBeNull();
  });

  it('keeps every document when no document holds the attribute, and counts none in an empty set', () => {
    index = TestIndex.create({ filterableAttributes: ['saga'] });
    index.write([{ id: 1 }, { id: 2 }]);
    expect(verdicts(index.env)).toEqual([true, true]);
    expect(distinctCounter(index.env, new FacetReader(index.env), 'saga')(fromSorted([]))).toBe(0);
  });
});
