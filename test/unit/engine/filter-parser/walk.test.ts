import { describe, expect, it } from 'vitest';
import {
  filterFields,
  findContainsOperator,
  findField,
  findForeignFilter,
  findVectorFilter,
  formatFilterError,
  operatorsUsed,
  parseFilter,
  walkFilter,
  type FilterAst,
  type Token,
} from '../../../../src/engine/filter-parser/index.js';

const CONTAINS_GATE =
  'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763';

function ast(input: unknown): FilterAst {
  const parsed = parseFilter(input);
  if (parsed === null) throw new Error('no filter');
  return parsed;
}

const values = (tokens: readonly Token[]) => tokens.map((token) => token.value);

describe('findContainsOperator', () => {
  it('points the feature gate error at the CONTAINS keyword', () => {
    const keyword = findContainsOperator(ast('doggo != echo AND doggo CONTAINS kefir'));
    expect(keyword && formatFilterError(CONTAINS_GATE, keyword.span)).toBe(
      `${CONTAINS_GATE}\n25:33 doggo != echo AND doggo CONTAINS kefir`,
    );
  });

  it('locates the keyword within its own array element', () => {
    for (const input of [['doggo != echo', 'doggo CONTAINS kefir'], ['doggo != echo', ['doggo CONTAINS kefir']]]) {
      const keyword = findContainsOperator(ast(input));
      expect(keyword && formatFilterError(CONTAINS_GATE, keyword.span)).toBe(`${CONTAINS_GATE}\n7:15 doggo CONTAINS kefir`);
    }
  });

  it('finds NOT CONTAINS and CONTAINS inside _foreign, but not STARTS WITH', () => {
    expect(findContainsOperator(ast('a NOT CONTAINS b'))?.value).toBe('CONTAINS');
    expect(findContainsOperator(ast('_foreign(author, name CONTAINS x)'))?.value).toBe('CONTAINS');
    expect(findContainsOperator(ast('a STARTS WITH b OR NOT c STARTS WITH d'))).toBeNull();
  });

  it('returns the first one in source order', () => {
    expect(findContainsOperator(ast('a CONTAINS b OR c CONTAINS d'))?.span.start).toBe(2);
  });
});

describe('findVectorFilter and findField', () => {
  it('points at the _vectors token', () => {
    const token = findVectorFilter(ast('x = 1 OR NOT _vectors.default EXISTS'));
    expect(token?.span).toMatchObject({ start: 13, end: 21 });
    expect(findVectorFilter(ast('_vectors.a = 1'))).toBeNull();
  });

  it('formats the multimodal gate error like Meilisearch', () => {
    const token = findVectorFilter(ast('_vectors EXISTS'));
    expect(token && formatFilterError('gate', token.span)).toBe('gate\n1:9 _vectors EXISTS');
  });

  it('finds an attribute by name in conditions, IN and _foreign', () => {
    expect(findField(ast('a = 1 AND _shard IN [s1]'), '_shard')?.span.start).toBe(10);
    expect(findField(ast('_foreign(_shard, a = 1)'), '_shard')?.value).toBe('_shard');
    expect(findField(ast('_foreign(a, _shard = 1)'), '_shard')?.span.start).toBe(12);
    expect(findField(ast('_geoRadius(1, 2, 3)'), '_geo')).toBeNull();
  });
});

describe('stack-ordered traversals (as Meilisearch reports them)', () => {
  it('lists fields last-first in a flat list, skipping geo and vector filters', () => {
    expect(values(filterFields(ast('a = 1 AND b = 2')))).toEqual(['b', 'a']);
    expect(values(filterFields(ast('a = 1 AND (b = 2 OR NOT c IN [1]) AND _geoRadius(1,2,3)')))).toEqual(['c', 'b', 'a']);
    expect(values(filterFields(ast('_vectors EXISTS OR x EXISTS')))).toEqual(['x']);
  });

  it('lists the _foreign field but not the attributes of the foreign index', () => {
    expect(values(filterFields(ast('x = 1 AND _foreign(author, name = y)')))).toEqual(['author', 'x']);
  });

  it('reports the last _foreign of a flat list first', () => {
    expect(findForeignFilter(ast('_foreign(a, x = 1) AND _foreign(b, y = 2)'))?.value).toBe('b');
    expect(findForeignFilter(ast('x = 1'))).toBeNull();
  });
});

describe('operatorsUsed and walkFilter', () => {
  it('lists every operator, negations as NOT', () => {
    const used = operatorsUsed(ast('a NOT IN [1] AND (b 1 TO 2 OR c IS NOT EMPTY) AND _geoBoundingBox([1, 2], [3, 4])'));
    expect([...used].sort()).toEqual(['AND', 'IN', 'IS EMPTY', 'NOT', 'OR', 'TO', '_geoBoundingBox'].sort());
  });

  it('visits nodes before their children, in source order', () => {
    const visited: string[] = [];
    walkFilter(ast('a = 1 OR NOT b EXISTS'), (node) => visited.push(node.type));
    expect(visited).toEqual(['or', 'comparison', 'not', 'exists']);
  });
});

describe('token spans used by evaluation errors (milli snapshots)', () => {
  const geoToken = (filter: string, pick: (node: FilterAst) => Token | undefined) => {
    const token = pick(ast(filter));
    if (!token) throw new Error('no token');
    return formatFilterError('e', token.span);
  };

  it.each([
    ['_geoRadius(42, 150, 10)', 'lat', '12:14'],
    ['_geoRadius(-90.0000001, 150, 10)', 'lat', '12:23'],
    ['_geoRadius(-10, 250, 10)', 'lng', '17:20'],
    ['_geoRadius(-10, 180.000001, 10)', 'lng', '17:27'],
  ] as const)('%s: the %s token is at %s', (filter, which, locator) => {
    const pick = (node: FilterAst) => (node.type === 'geoRadius' ? node.center[which === 'lat' ? 0 : 1] : undefined);
    expect(geoToken(filter, pick)).toBe(`e\n${locator} ${filter}`);
  });

  it.each([
    ['_geoBoundingBox([42, 150], [30, 10])', 0, 0, '18:20'],
    ['_geoBoundingBox([90.0000001, 150], [30, 10])', 0, 0, '18:28'],
    ['_geoBoundingBox([30, 10], [-90.0000001, 150])', 1, 0, '28:39'],
    ['_geoBoundingBox([-10, -180.000001], [30, 10])', 0, 1, '23:34'],
    ['_geoBoundingBox([30, 10], [-10, -180.000001])', 1, 1, '33:44'],
  ] as const)('%s: point %i coordinate %i is at %s', (filter, point, coordinate, locator) => {
    const pick = (node: FilterAst) =>
      node.type === 'geoBoundingBox' ? (point === 0 ? node.topRight : node.bottomLeft)[coordinate] : undefined;
    expect(geoToken(filter, pick)).toBe(`e\n${locator} ${filter}`);
  });

  it.each([
    ['dog = "bernese mountain"', '1:4'],
    ['name = 12', '1:5'],
    ['title = "test" AND name = 12', '20:24'],
    ['title = "test" AND name IN [12]', '20:24'],
    ['title = "test" AND name != 12', '20:24'],
  ])('%s: the first field reported is at %s', (filter, locator) => {
    const field = filterFields(ast(filter))[0]!;
    expect(formatFilterError('e', field.span)).toBe(`e\n${locator} ${filter}`);
  });
});
