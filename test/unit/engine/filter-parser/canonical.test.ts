import { describe, expect, it } from 'vitest';
import { canonicalFilter, parseFilterExpression, type FilterAst } from '../../../../src/engine/filter-parser/index.js';
import { show } from './show.js';

function ast(input: string): FilterAst {
  const parsed = parseFilterExpression(input);
  if (parsed === null) throw new Error('no filter');
  return parsed;
}

describe('canonicalFilter', () => {
  it.each([
    ['many = Glass', '"many" = "Glass"'],
    ['doggos.age > 2', '"doggos.age" > "2"'],
    ['price 10 TO 20', '"price" "10" TO "20"'],
    ['mother IN [intel, kefir]', '"mother" IN ["intel", "kefir"]'],
    ['doggos EXISTS', '"doggos" EXISTS'],
    ['a IS NOT NULL', 'NOT ("a" IS NULL)'],
    ['a NOT IN []', 'NOT ("a" IN [])'],
    ['a IS EMPTY', '"a" IS EMPTY'],
    ['t CONTAINS cap', '"t" CONTAINS "cap"'],
    ['t NOT STARTS WITH cap', 'NOT ("t" STARTS WITH "cap")'],
    ['a = 1 AND b = 2 AND c = 3', '("a" = "1") AND ("b" = "2") AND ("c" = "3")'],
    ['a = 1 OR b = 2 AND NOT c = 3', '("a" = "1") OR (("b" = "2") AND (NOT ("c" = "3")))'],
    ['_geoRadius(45.472735, 9.184019, 10000)', '_geoRadius(45.472735, 9.184019, 10000)'],
    ['_geoRadius(1,2,3,10)', '_geoRadius(1, 2, 3, 10)'],
    ['_geoBoundingBox([89, 179],[-89,-179])', '_geoBoundingBox([89, 179], [-89, -179])'],
    ['_geoPolygon([1, 2], [3, 4], [5, 6])', '_geoPolygon([1, 2], [3, 4], [5, 6])'],
    ['_vectors.rest.fragments.withBreed EXISTS', '_vectors."rest".fragments."withBreed" EXISTS'],
    ['_vectors.rest.userProvided NOT EXISTS', 'NOT (_vectors."rest".userProvided EXISTS)'],
    ['_vectors.other EXISTS', '_vectors."other" EXISTS'],
  ])('prints %s as %s', (input, canonical) => {
    expect(canonicalFilter(ast(input))).toBe(canonical);
  });

  it.each(['title = "I\'m \\"super\\" tamo"', "'dog race' = 'cha\"nnel'", 'a = "back\\\\slash"', '"OR" EXISTS', 'a = 1 OR (b > 2 AND NOT c IN [x, "y z"])', '_vectors EXISTS', '_vectors.rest.fragments.withBreed EXISTS', '_vectors." odd.name ".regenerate EXISTS'])(
    'reads %s back as the same filter',
    (input) => {
      const parsed = ast(input);
      expect(show(ast(canonicalFilter(parsed)))).toBe(show(parsed));
    },
  );
});
