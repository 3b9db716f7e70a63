import { describe, expect, it } from 'vitest';
import { parseFilter, type FilterAst } from '../../../../src/engine/filter-parser/index.js';
import { assertFilterable, assertFilterFeatures, FilterRules, rejectForeignFilter, type FilterFeature } from '../../../../src/engine/filter/gates.js';
import type { FilterableEntry } from '../../../../src/types/settings.js';
import type { FilterableRule } from '../../../../src/types/settings.js';

const rule = (attributePatterns: string[], equality = true, comparison = false, facetSearch = false): FilterableRule => ({
  attributePatterns,
  features: { facetSearch, filter: { equality, comparison } },
});

function ast(filter: unknown): FilterAst {
  const parsed = parseFilter(filter);
  if (parsed === null) throw new Error('no filter');
  return parsed;
}

function message(check: () => void): string {
  try {
    check();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('no error');
}

const rules = (entries: FilterableEntry[]) => new FilterRules(entries, () => {});

describe('assertFilterable', () => {
  it('accepts attributes whose first matching rule filters, and _vectors/_shard always', () => {
    expect(() => assertFilterable(ast('doggos.age > 1 AND _shard = a'), rules(['doggos']), 'invalid_document_filter')).not.toThrow();
  });

  it('refuses with the code of the route and the attribute position', () => {
    expect(message(() => assertFilterable(ast('doggo=bernese'), rules([]), 'invalid_document_filter'))).toBe(
      'Attribute `doggo` is not filterable. This index does not have configured filterable attributes.\n1:6 doggo=bernese',
    );
    expect(message(() => assertFilterable(ast('doggos.age > 2'), rules([rule(['doggos.*'], false, false, true), 'cat']), 'invalid_search_filter'))).toBe(
      'Attribute `doggos.age` is not filterable. Available filterable attribute patterns are: `cat`.\n1:11 doggos.age > 2',
    );
  });

  it('looks each attribute up once, charging the rules it checked', () => {
    const many: FilterableEntry[] = [...Array.from({ length: 10_000 }, (_, i) => `f${i}.*`), 'year', 'id'];
    let checked = 0;
    const lookup = new FilterRules(many, (count) => (checked += count));
    const filter = Array.from({ length: 5_000 }, (_, i) => `year = ${i} OR id = ${i}`).join(' OR ');
    assertFilterable(ast(filter), lookup, 'invalid_search_filter');
    // 10,001 rules checked for `year`, 10,002 for `id`: not 100 million
    expect(checked).toBe(20_003);
    expect(lookup.of('year')?.index).toBe(10_000);
    expect(lookup.of('nope')).toBeNull();
    expect(checked).toBe(30_005);
  });
});

describe('filter gates', () => {
  const none = (): boolean => false;

  it('refuses experimental operators in Meilisearch’s order, pointing at their token', () => {
    expect(message(() => assertFilterFeatures(ast('doggo != echo AND doggo CONTAINS kefir'), none))).toBe(
      'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763\n25:33 doggo != echo AND doggo CONTAINS kefir',
    );
    expect(message(() => assertFilterFeatures(ast('_foreign(author, id = a1)'), none))).toBe(
      'using a foreign filter requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873\n10:16 _foreign(author, id = a1)',
    );
    expect(message(() => assertFilterFeatures(ast('_vectors EXISTS AND a CONTAINS b'), (f: FilterFeature) => f === 'containsFilter'))).toBe(
      'using a vector filter requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846\n1:9 _vectors EXISTS AND a CONTAINS b',
    );
    expect(() => assertFilterFeatures(ast('a CONTAINS b'), () => true)).not.toThrow();
  });

  it('refuses _foreign on single-index endpoints with the route’s code', () => {
    expect(message(() => rejectForeignFilter(ast('_foreign(author, id = a1)'), 'invalid_document_filter'))).toBe(
      'Filter condition `_foreign` is not supported for this endpoint.\n10:16 _foreign(author, id = a1)',
    );
  });
});
