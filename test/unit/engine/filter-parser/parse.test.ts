import { describe, expect, it } from 'vitest';
import { parseFilter, parseFilterExpression } from '../../../../src/engine/filter-parser/index.js';
import { p } from './show.js';

/** [filter, expected AST in Meilisearch's Display notation]; most rows come from the crate's tests. */
type Row = [string, string];

function table(rows: Row[]) {
  it.each(rows)('%j', (filter, expected) => {
    expect(p(filter)).toBe(expected);
  });
}

describe('comparisons and quoting', () => {
  table([
    ['channel = Ponce', '{channel} = {Ponce}'],
    ['subscribers = 12', '{subscribers} = {12}'],
    ["channel = 'Mister Mv'", '{channel} = {Mister Mv}'],
    ['channel = "Mister Mv"', '{channel} = {Mister Mv}'],
    ["'dog race' = Borzoi", '{dog race} = {Borzoi}'],
    ['"dog race" = Chusky', '{dog race} = {Chusky}'],
    ['"dog race" = "Bernese Mountain"', '{dog race} = {Bernese Mountain}'],
    ["'dog race' = 'Bernese Mountain'", '{dog race} = {Bernese Mountain}'],
    ['"dog race" = \'Bernese Mountain\'', '{dog race} = {Bernese Mountain}'],
    ['channel != ponce', '{channel} != {ponce}'],
    ['subscribers < 1000', '{subscribers} < {1000}'],
    ['subscribers > 1000', '{subscribers} > {1000}'],
    ['subscribers <= 1000', '{subscribers} <= {1000}'],
    ['subscribers >= 1000', '{subscribers} >= {1000}'],
    ['subscribers 100 TO 1000', '{subscribers} {100} TO {1000}'],
  ]);
});

describe('operators need no surrounding spaces', () => {
  table([
    ['id=1', '{id} = {1}'],
    ['price>=10', '{price} >= {10}'],
    ['price!=-1.5', '{price} != {-1.5}'],
    ['a<b', '{a} < {b}'],
    ["'a'='b'", '{a} = {b}'],
  ]);
});

describe('quoted values keep anything and decode escapes', () => {
  table([
    ["title = 'foo\\\\'", '{title} = {foo\\}'],
    ["title = 'foo\\\\\\\\'", '{title} = {foo\\\\}'],
    ["title = 'foo\\\\\\\\\\\\'", '{title} = {foo\\\\\\}'],
    ["title = 'foo\\x20\\n\\t\\\"\\''", "{title} = {foo \n\t\"'}"],
    ['title = "I\'m \\"super\\" tamo"', '{title} = {I\'m "super" tamo}'],
    ["title = 'I\\'m \"super\" tamo'", '{title} = {I\'m "super" tamo}'],
    ["x = 'cha)nnel'", '{x} = {cha)nnel}'],
    ["x = 'cha\"nnel'", '{x} = {cha"nnel}'],
    ['x = "cha\'nnel"', "{x} = {cha'nnel}"],
    ['x = " some spaces "', '{x} = { some spaces }'],
    ['x = "a OR b AND (c)"', '{x} = {a OR b AND (c)}'],
    ["x = ''", '{x} = {}'],
    ['x = "\\u{1F600} \\u00e9 \\101 \\/"', '{x} = {😀 é A /}'],
    ['x = "\\x+f"', '{x} = {\u000f}'],
  ]);
});

describe('unicode words', () => {
  table([
    ['名前 = 東京', '{名前} = {東京}'],
    ['cattos = PÉSTI', '{cattos} = {PÉSTI}'],
    ['nombre = niño-2.0_x', '{nombre} = {niño-2.0_x}'],
    ['x = ½', '{x} = {½}'],
    ['\u00a0x =\u3000y', '{x} = {y}'],
    ['channel = "🐻"', '{channel} = {🐻}'],
  ]);
});

describe('IN and NOT IN', () => {
  table([
    ['colour IN[]', '{colour} IN[]'],
    ['colour IN[green]', '{colour} IN[{green}, ]'],
    ['colour IN[green,]', '{colour} IN[{green}, ]'],
    ['colour NOT IN[green,blue]', 'NOT ({colour} IN[{green}, {blue}, ])'],
    [' colour IN [  green , blue , ]', '{colour} IN[{green}, {blue}, ]'],
    [' colour NOT  IN [green, blue] ', 'NOT ({colour} IN[{green}, {blue}, ])'],
    ["colour IN ['light blue', \"dark, green\"]", '{colour} IN[{light blue}, {dark, green}, ]'],
    [' colour IN [green, blue]  AND color = green ', 'AND[{colour} IN[{green}, {blue}, ], {color} = {green}, ]'],
    ['NOT (colour IN [green, blue])  AND color = green ', 'AND[NOT ({colour} IN[{green}, {blue}, ]), {color} = {green}, ]'],
    [
      'x = 1 OR NOT (colour IN [green, blue]  OR color = green) ',
      'OR[{x} = {1}, NOT (OR[{colour} IN[{green}, {blue}, ], {color} = {green}, ]), ]',
    ],
  ]);
});

describe('null, empty, exists', () => {
  table([
    ['subscribers IS NULL', '{subscribers} IS NULL'],
    ['NOT subscribers IS NULL', 'NOT ({subscribers} IS NULL)'],
    ['subscribers IS NOT NULL', 'NOT ({subscribers} IS NULL)'],
    ['NOT subscribers IS NOT NULL', '{subscribers} IS NULL'],
    ['subscribers  IS   NOT   NULL', 'NOT ({subscribers} IS NULL)'],
    ['subscribers IS EMPTY', '{subscribers} IS EMPTY'],
    ['subscribers IS NOT EMPTY', 'NOT ({subscribers} IS EMPTY)'],
    ['NOT subscribers IS NOT EMPTY', '{subscribers} IS EMPTY'],
    ['subscribers  IS   NOT   EMPTY', 'NOT ({subscribers} IS EMPTY)'],
    ['subscribers EXISTS', '{subscribers} EXISTS'],
    ['NOT subscribers EXISTS', 'NOT ({subscribers} EXISTS)'],
    ['subscribers NOT EXISTS', 'NOT ({subscribers} EXISTS)'],
    ['NOT subscribers NOT EXISTS', '{subscribers} EXISTS'],
    ['subscribers NOT   EXISTS', 'NOT ({subscribers} EXISTS)'],
    ['subscribers IS\tNOT\nNULL', 'NOT ({subscribers} IS NULL)'],
  ]);
});

describe('CONTAINS and STARTS WITH', () => {
  table([
    ["subscribers CONTAINS 'hello'", '{subscribers} CONTAINS {hello}'],
    ["NOT subscribers CONTAINS 'hello'", 'NOT ({subscribers} CONTAINS {hello})'],
    ['subscribers NOT CONTAINS hello', 'NOT ({subscribers} CONTAINS {hello})'],
    ["NOT subscribers NOT CONTAINS 'hello'", '{subscribers} CONTAINS {hello}'],
    ["subscribers NOT   CONTAINS 'hello'", 'NOT ({subscribers} CONTAINS {hello})'],
    ["subscribers STARTS WITH 'hel'", '{subscribers} STARTS WITH {hel}'],
    ["NOT subscribers STARTS WITH 'hel'", 'NOT ({subscribers} STARTS WITH {hel})'],
    ['subscribers NOT STARTS WITH hel', 'NOT ({subscribers} STARTS WITH {hel})'],
    ["NOT subscribers NOT STARTS WITH 'hel'", '{subscribers} STARTS WITH {hel}'],
    ["subscribers NOT   STARTS WITH 'hel'", 'NOT ({subscribers} STARTS WITH {hel})'],
    ["name STARTS WITH ''", '{name} STARTS WITH {}'],
  ]);
});

describe('NOT, AND, OR, parentheses and precedence', () => {
  table([
    ['NOT channel = ponce', 'NOT ({channel} = {ponce})'],
    ['NOT subscribers < 1000', 'NOT ({subscribers} < {1000})'],
    ['NOT subscribers 100 TO 1000', 'NOT ({subscribers} {100} TO {1000})'],
    ['NOT NOT NOT NOT x = 5', '{x} = {5}'],
    ['NOT NOT (NOT NOT x = 5)', '{x} = {5}'],
    ['NOT(x = 5)', 'NOT ({x} = {5})'],
    ["channel = ponce AND 'dog race' != 'bernese mountain'", 'AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ]'],
    ["channel = ponce OR 'dog race' != 'bernese mountain'", 'OR[{channel} = {ponce}, {dog race} != {bernese mountain}, ]'],
    [
      "channel = ponce AND 'dog race' != 'bernese mountain' OR subscribers > 1000",
      'OR[AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ], {subscribers} > {1000}, ]',
    ],
    [
      "channel = ponce AND 'dog race' != 'bernese mountain' OR subscribers > 1000 OR colour = red OR colour = blue AND size = 7",
      'OR[AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ], {subscribers} > {1000}, {colour} = {red}, AND[{colour} = {blue}, {size} = {7}, ], ]',
    ],
    ['a = 1 OR b = 2 AND c = 3', 'OR[{a} = {1}, AND[{b} = {2}, {c} = {3}, ], ]'],
    [
      "channel = ponce AND ( 'dog race' != 'bernese mountain' OR subscribers > 1000 )",
      'AND[{channel} = {ponce}, OR[{dog race} != {bernese mountain}, {subscribers} > {1000}, ], ]',
    ],
    [
      "(channel = ponce AND 'dog race' != 'bernese mountain' OR subscribers > 1000) AND _geoRadius(12, 13, 14)",
      'AND[OR[AND[{channel} = {ponce}, {dog race} != {bernese mountain}, ], {subscribers} > {1000}, ], _geoRadius({12}, {13}, {14}), ]',
    ],
    [' colour = green ', '{colour} = {green}'],
    [' (colour = green OR colour = red) ', 'OR[{colour} = {green}, {colour} = {red}, ]'],
    ['a = 1 OR (b = 2 OR c = 3)', 'OR[{a} = {1}, OR[{b} = {2}, {c} = {3}, ], ]'],
    ['a = 1 AND(b = 2)', 'AND[{a} = {1}, {b} = {2}, ]'],
    ['NOT "OR" EXISTS AND "EXISTS" NOT EXISTS', 'AND[NOT ({OR} EXISTS), NOT ({EXISTS} EXISTS), ]'],
    ["'OR' EXISTS", '{OR} EXISTS'],
    ['a = and', '{a} = {and}'],
    ['NOTE = 1', '{NOTE} = {1}'],
  ]);
});

describe('geo operations', () => {
  table([
    ['_geoRadius(12, 13, 14)', '_geoRadius({12}, {13}, {14})'],
    ['NOT _geoRadius(12, 13, 14)', 'NOT (_geoRadius({12}, {13}, {14}))'],
    ['_geoRadius(12,13,14)', '_geoRadius({12}, {13}, {14})'],
    ['_geoRadius(12,13,14,1000)', '_geoRadius({12}, {13}, {14}, {1000})'],
    ['_geoRadius( -1.5e2 ,+.5, 12. )', '_geoRadius({-1.5e2}, {+.5}, {12.})'],
    ['_geoBoundingBox([12, 13], [14, 15])', '_geoBoundingBox([{12}, {13}], [{14}, {15}])'],
    ['NOT _geoBoundingBox([12, 13], [14, 15])', 'NOT (_geoBoundingBox([{12}, {13}], [{14}, {15}]))'],
    ['_geoBoundingBox([12,13],[14,15])', '_geoBoundingBox([{12}, {13}], [{14}, {15}])'],
    ['_geoPolygon([12, 13], [14, 15], [16, 17])', '_geoPolygon([[{12}, {13}], [{14}, {15}], [{16}, {17}], ])'],
    [
      '_geoPolygon([12, 13], [14, 15], [-1.2,2939.2], [1,1])',
      '_geoPolygon([[{12}, {13}], [{14}, {15}], [{-1.2}, {2939.2}], [{1}, {1}], ])',
    ],
    ['_geoPolygon([1, 2], [3, 4], [5, 6], )', '_geoPolygon([[{1}, {2}], [{3}, {4}], [{5}, {6}], ])'],
    ['x = _geoPolygon', '{x} = {_geoPolygon}'],
    ['_geo.lat = 1', '{_geo.lat} = {1}'],
  ]);
});

describe('vector filters', () => {
  table([
    ['_vectors EXISTS', '_vectors EXISTS'],
    ['_vectors.embedderName EXISTS', '_vectors."embedderName" EXISTS'],
    ['_vectors.embedderName.documentTemplate EXISTS', '_vectors."embedderName".documentTemplate EXISTS'],
    ['_vectors.embedderName.regenerate EXISTS', '_vectors."embedderName".regenerate EXISTS'],
    ['_vectors.embedderName.userProvided EXISTS', '_vectors."embedderName".userProvided EXISTS'],
    ['_vectors.embedderName.fragments.fragmentName EXISTS', '_vectors."embedderName".fragments."fragmentName" EXISTS'],
    ['  _vectors.embedderName.fragments.fragmentName   EXISTS', '_vectors."embedderName".fragments."fragmentName" EXISTS'],
    ['NOT _vectors EXISTS', 'NOT (_vectors EXISTS)'],
    [' NOT  _vectors   EXISTS', 'NOT (_vectors EXISTS)'],
    ['  _vectors  NOT  EXISTS', 'NOT (_vectors EXISTS)'],
    ['_vectors." valid.name  ".fragments."also.. valid! " EXISTS', '_vectors." valid.name  ".fragments."also.. valid! " EXISTS'],
    ['_vectors."\n\t\r\\"" EXISTS', '_vectors."\\n\\t\\r\\"" EXISTS'],
    ['_vectors.a = 1', '{_vectors.a} = {1}'],
    ['_vectorsX EXISTS', '{_vectorsX} EXISTS'],
  ]);
});

describe('foreign filters', () => {
  table([
    ['_foreign(channel, subscribers = 1000)', '_foreign({channel}, {subscribers} = {1000})'],
    ['_foreign(channel, channel = ponce AND subscribers > 1000)', '_foreign({channel}, AND[{channel} = {ponce}, {subscribers} > {1000}, ])'],
    [
      "_foreign(channel, channel = ponce AND ( 'dog race' != 'bernese mountain' OR subscribers > 1000 ))",
      '_foreign({channel}, AND[{channel} = {ponce}, OR[{dog race} != {bernese mountain}, {subscribers} > {1000}, ], ])',
    ],
    ['x = 1 AND _foreign( author , name = Kefir )', 'AND[{x} = {1}, _foreign({author}, {name} = {Kefir}), ]'],
    ['_foreign = 1', '{_foreign} = {1}'],
  ]);
});

describe('empty filters', () => {
  it.each(['', '   ', '\n\t', '\u3000\u00a0'])('treats %j as no filter', (filter) => {
    expect(parseFilterExpression(filter)).toBeNull();
  });
});

describe('depth', () => {
  it('accepts 36 nested parentheses', () => {
    expect(p(`${'('.repeat(36)}x = 1${')'.repeat(36)}`)).toBe('{x} = {1}');
  });

  it('accepts 147 consecutive NOTs and collapses them', () => {
    expect(p(`${'NOT '.repeat(147)}x = 1`)).toBe('NOT ({x} = {1})');
  });

  it('parses a 10k-term flat OR chain', () => {
    const filter = Array.from({ length: 10_000 }, (_, i) => `id = ${i}`).join(' OR ');
    const ast = parseFilterExpression(filter);
    expect(ast?.type === 'or' && ast.children.length).toBe(10_000);
  });
});

describe('size bound', () => {
  const tooMany = 'The filter exceeded the maximum of 10000 conditions and `IN` values. Try rewriting the filter so that it contains fewer conditions.';
  const ors = (n: number) => Array.from({ length: n }, (_, i) => `id = ${i}`).join(' OR ');

  it('refuses the 10,001st condition, located on it', () => {
    const filter = ors(10_001);
    const column = filter.lastIndexOf('id = 10000') + 1;
    expect(() => parseFilterExpression(filter)).toThrow(`${tooMany}\n${column}:${column + 2} ${filter}`);
  });

  it('counts each IN value after the first as a condition', () => {
    const list = (n: number) => `id IN [${Array.from({ length: n }, (_, i) => i).join(', ')}]`;
    expect(parseFilterExpression(list(10_000))?.type).toBe('in');
    expect(() => parseFilterExpression(`x = 1 AND ${list(10_000)}`)).toThrow(tooMany);
  });

  it('shares one budget between the strings of the array form', () => {
    const strings = Array.from({ length: 10_001 }, (_, i) => `id = ${i}`);
    expect(() => parseFilter(strings)).toThrow(tooMany);
    expect(() => parseFilter([strings.slice(0, 10_000)])).not.toThrow();
  });

  it('takes a kept expression\'s conditions from the budget, and fails where it runs out as a first parse does', () => {
    const expression = Array.from({ length: 140 }, () => 'a = 1').join(' OR ');
    expect(parseFilterExpression(expression)?.type).toBe('or');
    expect(() => parseFilter(Array.from({ length: 71 }, () => expression))).not.toThrow();
    const column = 60 * 'a = 1 OR '.length + 1; // the 61st condition of the 72nd string is the 10,001st
    expect(() => parseFilter(Array.from({ length: 72 }, () => expression))).toThrow(`${tooMany}\n${column}:${column + 1} ${expression}`);
  });

  it('refuses a filter of a million conditions', () => {
    expect(() => parseFilterExpression(ors(1_000_000))).toThrow(tooMany);
  });
});

describe('kept expressions', () => {
  it('answers the same frozen AST for the same text, as a first parse would', () => {
    const first = parseFilterExpression('kept = "one" AND other > 2');
    expect(parseFilterExpression('kept = "one" AND other > 2')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first?.type === 'and' && Object.isFrozen(first.children[0]) && Object.isFrozen(first.children)).toBe(true);
    expect(p('kept = "one" AND other > 2')).toBe('AND[{kept} = {one}, {other} > {2}, ]');
  });
});

describe('spans', () => {
  it('points field and value tokens at their raw text, inside quotes', () => {
    const filter = '"dog race" = \'I\\\'m \'';
    const ast = parseFilterExpression(filter);
    expect(ast?.type).toBe('comparison');
    if (ast?.type !== 'comparison') return;
    expect(ast.field).toEqual({ value: 'dog race', span: { input: filter, start: 1, end: 9, echo: filter } });
    expect(ast.value.value).toBe("I'm ");
    expect(filter.slice(ast.value.span.start, ast.value.span.end)).toBe("I\\'m ");
  });

  it('keeps the CONTAINS keyword token', () => {
    const ast = parseFilterExpression('doggo NOT CONTAINS kefir');
    expect(ast?.type === 'not' && ast.child.type === 'contains' && ast.child.keyword.span).toMatchObject({ start: 10, end: 18 });
  });

  it('echoes the input from the _foreign call for tokens inside it', () => {
    const ast = parseFilterExpression('x = 1 AND _foreign(a, b = 2)');
    const foreign = ast?.type === 'and' ? ast.children[1] : undefined;
    expect(foreign?.type === 'foreign' && foreign.field.span.echo).toBe('_foreign(a, b = 2)');
  });
});
