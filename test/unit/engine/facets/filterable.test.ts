import { describe, expect, it } from 'vitest';
import { filterablePatterns } from '../../../../src/engine/facets/filterable.js';
import type { FilterableRule } from '../../../../src/types/settings.js';

const rule = (attributePatterns: string[], equality = true, comparison = false, facetSearch = false): FilterableRule => ({
  attributePatterns,
  features: { facetSearch, filter: { equality, comparison } },
});

describe('filterablePatterns', () => {
  it('lists the patterns of filterable rules only, sorted and deduplicated', () => {
    expect(filterablePatterns(['b', rule(['a', 'b']), rule(['c'], false, false, true)])).toEqual(['a', 'b']);
  });
});
