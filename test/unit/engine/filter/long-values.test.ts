// String filter values longer than any stored facet value: stored values are cut to
// MAX_FACET_VALUE_BYTES of their normalised form, and LMDB refuses keys much past that (a lookup of
// an 8 KB key threw, so a filter answered 500 and a deletion by filter failed its task). Every
// comparison must answer what comparing the stored (cut) values with the whole filter value answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FACET_VALUE_BYTES, normalizeFacet, truncateFacet } from '../../../../src/engine/facets/values.js';
import { mulberry32 } from '../../../helpers/random.js';
import { TestIndex } from '../facets/fixture.js';

const random = mulberry32(23);
const pick = (n: number) => Math.floor(random() * n);
/** Text of `length` characters over a small alphabet, two-byte ones included (a cut lands inside them). */
const text = (length: number) => Array.from({ length }, () => 'abé'[pick(3)]).join('');

let index: TestIndex;
const titles: string[] = [];

beforeAll(() => {
  index = TestIndex.create({ filterableAttributes: ['title'] });
  // a shared long start, so that many values are cut to the same bytes or differ just before the cut
  const stem = text(MAX_FACET_VALUE_BYTES - 40);
  for (let id = 0; id < 120; id++) titles.push(id % 3 === 0 ? text(1 + pick(30)) : stem + text(pick(200)));
  index.write(titles.map((title, id) => ({ id, title })));
});
afterAll(async () => {
  await index.close();
});

const stored = (title: string) => Buffer.from(truncateFacet(normalizeFacet(title)));
const storedTitles = new Map<number, Buffer>();
const normalized = new Map<string, Buffer>();
/** How title `id`'s stored value compares with `value`, each normalised once (normalising them per comparison was most of the test's time). */
const compare = (id: number, value: string) => {
  let whole = normalized.get(value);
  if (whole === undefined) normalized.set(value, (whole = Buffer.from(normalizeFacet(value))));
  let kept = storedTitles.get(id);
  if (kept === undefined) storedTitles.set(id, (kept = stored(titles[id]!)));
  return Buffer.compare(kept, whole);
};
const matching = (test: (id: number) => boolean) => titles.map((_, id) => id).filter(test);
const quoted = (value: string) => `"${value}"`;

describe('a string filter value longer than any stored one', () => {
  it('compares against the stored values as the whole value does, for =, !=, ranges and STARTS WITH', () => {
    for (let round = 0; round < 60; round++) {
      // a stored title's start, lengthened past every stored value (up to 20,000 characters)
      const base = titles[pick(titles.length)]!;
      const value = base.slice(0, pick(base.length + 1)) + text(MAX_FACET_VALUE_BYTES + pick(20_000));
      const low = titles[pick(titles.length)]!.slice(0, 5);
      const cases: [string, number[]][] = [
        [`title = ${quoted(value)}`, []],
        [`title != ${quoted(value)}`, matching(() => true)],
        [`title > ${quoted(value)}`, matching((id) => compare(id, value) > 0)],
        [`title >= ${quoted(value)}`, matching((id) => compare(id, value) >= 0)],
        [`title < ${quoted(value)}`, matching((id) => compare(id, value) < 0)],
        [`title <= ${quoted(value)}`, matching((id) => compare(id, value) <= 0)],
        [`title ${quoted(low)} TO ${quoted(value)}`, matching((id) => compare(id, low) >= 0 && compare(id, value) <= 0)],
        [`title ${quoted(value)} TO ${quoted(value + 'z')}`, []],
        [`title STARTS WITH ${quoted(value)}`, []],
      ];
      for (const [filter, ids] of cases) expect(index.filter(filter), filter.slice(0, 40)).toEqual(ids);
    }
  });

  it('still finds values up to the stored length', () => {
    const short = titles[0]!;
    expect(index.filter(`title = ${quoted(short)}`)).toEqual(matching((id) => titles[id] === short));
    // a prefix of a cut value, up to its last stored bytes
    const prefix = normalizeFacet(titles[1]!).slice(0, 200);
    expect(Buffer.byteLength(prefix)).toBeLessThanOrEqual(MAX_FACET_VALUE_BYTES);
    const holding = matching((id) => stored(titles[id]!).toString().startsWith(prefix));
    expect(holding.length).toBeGreaterThan(1);
    expect(index.filter(`title STARTS WITH ${quoted(prefix)}`)).toEqual(holding);
  });
});
