import { describe, expect, it } from 'vitest';
import { FilterParseError, formatFilterError, parseFilterExpression } from '../../../../src/engine/filter-parser/index.js';
import { errorOf } from './show.js';

const OPS =
  'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, ' +
  '`IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, ' +
  '`_geoRadius`, `_geoBoundingBox` or `_geoPolygon`';
const GEO_RESERVED = (name: string) =>
  `\`${name}\` is a reserved keyword and thus can't be used as a filter expression. Use the \`_geoRadius(latitude, longitude, distance)\` ` +
  'or `_geoBoundingBox([latitude, longitude], [latitude, longitude])` built-in rules to filter on `_geo` coordinates.';
const EOF = (rest: string) =>
  `Found unexpected characters at the end of the filter: \`${rest}\`. You probably forgot an \`OR\` or an \`AND\` rule.`;
const KEYWORD = (word: string) =>
  `Was expecting a value but instead got \`${word}\`, which is a reserved keyword. To use \`${word}\` as a field name or a value, surround it by quotes.`;
const GEO_RADIUS_FORM =
  'The `_geoRadius` filter must be in the form: `_geoRadius(latitude, longitude, radius, optionalResolution)`.';
const BOUNDING_BOX_FORM =
  'The `_geoBoundingBox` filter expects two pairs of arguments: `_geoBoundingBox([latitude, longitude], [latitude, longitude])`.';
const POLYGON_FORM =
  "The `_geoPolygon` filter doesn't match the expected format: `_geoPolygon([latitude, longitude], [latitude, longitude])`.";
const FOREIGN = (found: string) =>
  `Was expecting a field name and an condition inside \`_foreign(..)\` filter but instead found \`${found}\`.`;
const IN_VALUES = (found: string) =>
  `Expected only comma-separated field names inside \`IN[..]\` but instead found \`${found}\`.`;
const DEPTH =
  'The filter exceeded the maximum depth limit. Try rewriting the filter so that it contains fewer nested conditions.';

/** [filter, description, locator]: the message is `${description}\n${locator} ${filter}`. */
type Row = [string, string, string];

function table(rows: Row[]) {
  it.each(rows)('%j', (filter, description, locator) => {
    expect(errorOf(filter)).toBe(`${description}\n${locator} ${filter}`);
  });
}

describe('syntax errors from Meilisearch snapshots', () => {
  table([
    ['channel = Ponce = 12', EOF('= 12'), '17:21'],
    ['channel =    ', 'Was expecting a value but instead got nothing.', '14:14'],
    ['channel = 🐻', 'Was expecting a value but instead got `🐻`.', '11:12'],
    ['channel = 🐻 AND followers < 100', 'Was expecting a value but instead got `🐻`.', '11:12'],
    ["'OR'", `${OPS} at \`\\'OR\\'\`.`, '1:5'],
    ['OR', KEYWORD('OR'), '1:3'],
    ['channel Ponce', `${OPS} at \`channel Ponce\`.`, '1:14'],
    ['channel = Ponce OR', `${OPS} but instead got nothing.`, '19:19'],
    ['_geoRadius', GEO_RADIUS_FORM, '11:11'],
    ['_geoRadius = 12', GEO_RADIUS_FORM, '11:16'],
    ['_geoBoundingBox', BOUNDING_BOX_FORM, '16:16'],
    ['_geoBoundingBox = 12', BOUNDING_BOX_FORM, '16:21'],
    ['_geoBoundingBox(1.0, 1.0)', BOUNDING_BOX_FORM, '17:26'],
    ['_geoPolygon([1,2,3])', 'The `_geoPolygon` filter expects at least 3 points but only 1 were specified', '18:19'],
    ['_geoPolygon(1,2,3)', POLYGON_FORM, '13:19'],
    ['_geoPolygon([1,2],[1,2],[1,2,3])', 'Was expecting 2 coordinates but instead found 3.', '26:27'],
    ['_geoPolygon([1,2],[1,2,3])', 'The `_geoPolygon` filter expects at least 3 points but only 2 were specified', '24:25'],
    ['_geoPolygon(1)', POLYGON_FORM, '13:15'],
    ['_geoPolygon([1,2)', POLYGON_FORM, '17:18'],
    ['_geoPoint(12, 13, 14)', GEO_RESERVED('_geoPoint'), '1:22'],
    ['position <= _geoPoint(12, 13, 14)', GEO_RESERVED('_geoPoint'), '13:34'],
    ['_geoDistance(12, 13, 14)', GEO_RESERVED('_geoDistance'), '1:25'],
    ['position <= _geoDistance(12, 13, 14)', GEO_RESERVED('_geoDistance'), '13:37'],
    ['_geo(12, 13, 14)', GEO_RESERVED('_geo'), '1:17'],
    ['position <= _geo(12, 13, 14)', GEO_RESERVED('_geo'), '13:29'],
    ['position <= _geoRadius(12, 13, 14)', "The `_geoRadius` filter is an operation and can't be used as a value.", '13:35'],
    ["channel = 'ponce", "Expression `\\'ponce` is missing the following closing delimiter: `'`.", '11:17'],
    ['channel = "ponce', 'Expression `\\"ponce` is missing the following closing delimiter: `"`.', '11:17'],
    ['channel = mv OR (followers >= 1000', 'Expression `(followers >= 1000` is missing the following closing delimiter: `)`.', '17:35'],
    ['channel = mv OR followers >= 1000)', EOF(')'), '34:35'],
    ['colour NOT EXIST', `${OPS} at \`colour NOT EXIST\`.`, '1:17'],
    ['subscribers 100 TO1000', `${OPS} at \`subscribers 100 TO1000\`.`, '1:23'],
    ["channel = ponce ORdog != 'bernese mountain'", EOF("ORdog != \\'bernese mountain\\'"), '17:44'],
    ['name = "\\x"', 'The filter is incomplete and requires Unknown additional bytes to be parsed.', '1:12'],
    ['colour IN blue, green]', 'Expected `[` after `IN` keyword.', '11:23'],
    ["colour IN [blue, green, 'blue' > 2]", IN_VALUES('> 2]'), '32:36'],
    ['colour IN [blue, green, AND]', IN_VALUES('AND]'), '25:29'],
    ['colour IN [blue, green', 'Expected matching `]` after the list of field names given to `IN[`', '23:23'],
    ["colour IN ['blue, green", "Expression `\\'blue, green` is missing the following closing delimiter: `'`.", '12:24'],
    ['x = EXISTS', KEYWORD('EXISTS'), '5:11'],
    ['AND = 8', KEYWORD('AND'), '1:4'],
    [`${'('.repeat(50)}x = 1${')'.repeat(50)}`, DEPTH, '38:106'],
    [`${'NOT '.repeat(199)}x = 1`, DEPTH, '597:802'],
    ['NOT OR EXISTS AND EXISTS NOT EXISTS', KEYWORD('OR'), '5:7'],
    ['value NULL', `${OPS} at \`value NULL\`.`, '1:11'],
    ['value NOT NULL', `${OPS} at \`value NOT NULL\`.`, '1:15'],
    ['value EMPTY', `${OPS} at \`value EMPTY\`.`, '1:12'],
    ['value NOT EMPTY', `${OPS} at \`value NOT EMPTY\`.`, '1:16'],
    ['value IS', `${OPS} at \`value IS\`.`, '1:9'],
    ['value IS NOT', `${OPS} at \`value IS NOT\`.`, '1:13'],
    ['value IS EXISTS', `${OPS} at \`value IS EXISTS\`.`, '1:16'],
    ['value IS NOT EXISTS', `${OPS} at \`value IS NOT EXISTS\`.`, '1:20'],
  ]);
});

describe('syntax errors from the reference examples', () => {
  table([
    ['title & Glass', `${OPS} at \`title & Glass\`.`, '1:14'],
    ['title = Glass XOR title = Glass', EOF('XOR title = Glass'), '15:32'],
    ['_geo = Glass', GEO_RESERVED('_geo'), '1:13'],
  ]);
});

describe('vector filter errors', () => {
  table([
    ['_vectors _vectors EXISTS', 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.', '10:25'],
    ['_vectors. embedderName EXISTS', 'Was expecting embedder name but found nothing.', '10:11'],
    ['_vectors .embedderName EXISTS', 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.', '10:30'],
    [
      '_vectors.embedderName. EXISTS',
      'Was expecting one of `.fragments`, `.userProvided`, `.documentTemplate`, `.regenerate` or nothing, but instead found a point without a valid value.',
      '22:23',
    ],
    ['_vectors."embedderName EXISTS', 'The quotes in one of the values are inconsistent.', '10:30'],
    ['_vectors."embedderNam"e EXISTS', 'The vector filter has leftover tokens.', '23:31'],
    [
      '_vectors.embedderName.documentTemplate. EXISTS',
      'Was expecting one of `.fragments`, `.userProvided`, `.documentTemplate`, `.regenerate` or nothing, but instead found a point without a valid value.',
      '39:40',
    ],
    ['_vectors.embedderName.fragments EXISTS', 'The vector filter is missing a fragment name.', '32:39'],
    ['_vectors.embedderName.fragments. EXISTS', "The vector filter's fragment name is invalid.", '33:40'],
    ['_vectors.embedderName.fragments.test test EXISTS', 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.', '38:49'],
    ['_vectors.embedderName.fragments. test EXISTS', "The vector filter's fragment name is invalid.", '33:45'],
    ['_vectors.embedderName .fragments. test EXISTS', 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.', '23:46'],
    ['_vectors.embedderName .fragments.test EXISTS', 'Was expecting an operation like `EXISTS` or `NOT EXISTS` after the vector filter.', '23:45'],
    [
      '_vectors.embedderName.fargments.test EXISTS',
      'Was expecting one of `fragments`, `userProvided`, `documentTemplate`, `regenerate` or nothing, but instead found `fargments`. Did you mean `fragments`?',
      '23:32',
    ],
    [
      '_vectors.embedderName.xyz EXISTS',
      'Was expecting one of `fragments`, `userProvided`, `documentTemplate`, `regenerate` or nothing, but instead found `xyz`.',
      '23:26',
    ],
    ['_vectors.embedderName."userProvided" EXISTS', 'Was expecting this part to be unquoted.', '24:36'],
    [
      '_vectors.embedderName.userProvided.fragments.test EXISTS',
      'Vector filter can only accept one of `fragments`, `userProvided`, `documentTemplate` or `regenerate`, but found both `userProvided` and `fragments`.',
      '36:45',
    ],
  ]);
});

describe('value errors: quotes, escapes, keywords, geo names', () => {
  table([
    ['x = "\\xZZ"', 'Found an invalid escaped sequence number: `\\\\xZZ`.', '6:10'],
    ['x = "\\u{110000}"', 'Malformed value: `\\\\u{110000}`.', '6:16'],
    ['x = "\\q"', 'Malformed value: `\\\\q`.', '6:8'],
    ['x = "abc\\', 'Malformed value: `abc\\\\`.', '6:10'],
    ['x = "\\u12"', 'The filter is incomplete and requires Unknown additional bytes to be parsed.', '1:11'],
    ['"x', 'Expression `\\"x` is missing the following closing delimiter: `"`.', '1:3'],
    ['x = NULL', KEYWORD('NULL'), '5:9'],
    ['IN [a]', KEYWORD('IN'), '1:3'],
    ['x = OR[', KEYWORD('OR['), '5:8'],
    ['_geoPointer = 1', GEO_RESERVED('_geoPoint'), '1:16'],
    ['x = _geoBoundingBox([1,2],[3,4])', "The `_geoBoundingBox` filter is an operation and can't be used as a value.", '5:33'],
    ["x 'abc", "Expression `\\'abc` is missing the following closing delimiter: `'`.", '3:7'],
    ['x CONTAINS', 'Was expecting a value but instead got nothing.', '11:11'],
    ['x 1 TO ', 'Was expecting a value but instead got nothing.', '8:8'],
  ]);
});

describe('structure errors', () => {
  table([
    ['x = 1 and y = 2', EOF('and y = 2'), '7:16'],
    ['x = 1 or y = 2', EOF('or y = 2'), '7:15'],
    ['x = 1 AND', `${OPS} but instead got nothing.`, '10:10'],
    ['x = 1 OR ', `${OPS} but instead got nothing.`, '10:10'],
    ['NOT', `${OPS} but instead got nothing.`, '4:4'],
    ['(x = 1', 'Expression `(x = 1` is missing the following closing delimiter: `)`.', '1:7'],
    ['()', `${OPS} at \`)\`.`, '2:3'],
    ['x exists', `${OPS} at \`x exists\`.`, '1:9'],
    ['x TO 5', `${OPS} at \`x TO 5\`.`, '1:7'],
    ['x 1 TO', `${OPS} at \`x 1 TO\`.`, '1:7'],
    ['x STARTS  WITH y', `${OPS} at \`x STARTS  WITH y\`.`, '1:17'],
    ["x = 'a' b", EOF('b'), '9:10'],
    ['👍 = 1 OR x', `${OPS} at \`👍 = 1 OR x\`.`, '1:11'],
    ['é = 1 OR 👍 = 2', `${OPS} at \`👍 = 2\`.`, '10:15'],
    // Nothing consumes the spaces after EXISTS/NULL/EMPTY or a geo `)`.
    ['x EXISTS ', EOF(' '), '9:10'],
    ['x IS NULL ', EOF(' '), '10:11'],
    ['_geoRadius(1, 2, 3) ', EOF(' '), '20:21'],
    ['x IS NULLABLE', EOF('ABLE'), '10:14'],
  ]);
});

describe('IN list errors', () => {
  table([
    ['x IN [a b]', IN_VALUES('b]'), '9:11'],
    ['x IN [   ', IN_VALUES('   '), '7:10'],
    ['x IN [a,', 'Expected matching `]` after the list of field names given to `IN[`', '9:9'],
    ['x IN [a, OR]', IN_VALUES('OR]'), '10:13'],
    ['x NOT IN blue', 'Expected `[` after `IN` keyword.', '10:14'],
  ]);
});

describe('geo argument errors', () => {
  table([
    ['_geoRadius(1, 2)', 'Was expecting 3 or 4 arguments for `_geoRadius`, but instead found 2.', '17:17'],
    ['_geoRadius(1,2,3,4,5)', 'Was expecting 3 or 4 arguments for `_geoRadius`, but instead found 5.', '22:22'],
    ['_geoRadius (1,2,3)', GEO_RADIUS_FORM, '11:19'],
    ['_geoRadius(1, 2, a)', GEO_RADIUS_FORM, '16:20'],
    ['_geoRadius(1e, 2, 3)', GEO_RADIUS_FORM, '14:21'],
    ['_geoRadius(a, 2, 3)', GEO_RADIUS_FORM, '12:20'],
    ['_geoBoundingBox([1,2],[3,4,5])', 'Was expecting 2 coordinates but instead found 3.', '24:25'],
    ['_geoBoundingBox([1,2])', BOUNDING_BOX_FORM, '23:23'],
    ['_geoBoundingBox([1,2],[3,4],[5,6])', BOUNDING_BOX_FORM, '35:35'],
  ]);
});

describe('foreign filter errors', () => {
  table([
    ['_foreign(author)', FOREIGN(')'), '16:17'],
    ['_foreign (a, b = 1)', FOREIGN(' (a, b = 1)'), '9:20'],
    ['_foreign(a, b = 1', FOREIGN(''), '18:18'],
  ]);

  it('echoes the filter from the _foreign call on, with columns of the whole filter', () => {
    expect(errorOf('x = 1 AND _foreign(a, b = )')).toBe(`${FOREIGN('')}\n27:27 _foreign(a, b = )`);
  });
});

describe('depth limit', () => {
  it('rejects 37 nested parentheses at the 37th', () => {
    const filter = `${'('.repeat(37)}x = 1${')'.repeat(37)}`;
    expect(errorOf(filter)).toBe(`${DEPTH}\n38:80 ${filter}`);
  });

  it('rejects 148 consecutive NOTs', () => {
    const filter = `${'NOT '.repeat(148)}x = 1`;
    expect(errorOf(filter)).toBe(`${DEPTH}\n593:598 ${filter}`);
  });
});

describe('locator and escaping', () => {
  it('counts columns from the start of the line', () => {
    expect(errorOf('x = 1 AND\ny = ')).toBe('Was expecting a value but instead got nothing.\n5:5 x = 1 AND\ny = ');
  });

  it('escapes newlines and quotes in the fragment but not in the echoed filter', () => {
    expect(errorOf('x = 1 XOR\n"q"')).toBe(`${EOF('XOR\\n\\"q\\"')}\n7:14 x = 1 XOR\n"q"`);
  });

  it('escapes non-printable characters as \\u{…}', () => {
    expect(errorOf('x = 1 \u00a0y\u200b')).toBe(`${EOF('\\u{a0}y\\u{200b}')}\n7:10 x = 1 \u00a0y\u200b`);
  });

  it('escapes a combining mark only at the start of the fragment', () => {
    expect(errorOf('x = 1 \u0301e\u0301')).toBe(`${EOF('\\u{301}e\u0301')}\n7:10 x = 1 \u0301e\u0301`);
  });

  it('throws a FilterParseError carrying the description and span', () => {
    let caught: unknown;
    try {
      parseFilterExpression('channel = Ponce = 12');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(FilterParseError);
    expect(caught).toMatchObject({ description: EOF('= 12'), span: { start: 16, end: 20 } });
  });

  it('formats later-stage errors on a token with the same locator', () => {
    const ast = parseFilterExpression('"many" = "Glass"');
    const field = ast?.type === 'comparison' ? ast.field : null;
    expect(field && formatFilterError('Attribute `many` is not filterable.', field.span)).toBe(
      'Attribute `many` is not filterable.\n2:6 "many" = "Glass"',
    );
  });
});
