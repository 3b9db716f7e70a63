import { describe, expect, it } from 'vitest';
import {
  QueryValueError,
  parseBoolean,
  parseEnum,
  parseFilterParam,
  parseIndexUid,
  parsePositiveInteger,
  parseSortList,
  parseString,
  parseU32,
  starOr,
  starOrList,
  type ValueParser,
} from '../../../src/validation/query-values.js';

/** The QueryValueError a parser throws, rendered for parameter `name`. */
function refusal<T>(parse: ValueParser<T>, raw: string, name = 'p'): string {
  try {
    parse(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryValueError);
    return (error as QueryValueError).render(name);
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

describe('parsePositiveInteger', () => {
  it('reads decimal digits, with an optional + like Rust', () => {
    expect(parsePositiveInteger('0')).toBe(0);
    expect(parsePositiveInteger('20')).toBe(20);
    expect(parsePositiveInteger('+5')).toBe(5);
    expect(parsePositiveInteger('007')).toBe(7);
    expect(parsePositiveInteger('18446744073709551615')).toBe(2 ** 64);
  });

  it.each(['doggo', '-1', '', ' 1', '1.0', '1e3', '0x10', '18446744073709551616'])('refuses %j', (raw) => {
    expect(refusal(parsePositiveInteger, raw, 'limit')).toBe(
      `Invalid value in parameter \`limit\`: could not parse \`${raw}\` as a positive integer`,
    );
  });
});

describe('parseU32', () => {
  it('accepts up to 2^32 - 1 and refuses beyond', () => {
    expect(parseU32('4294967295')).toBe(4294967295);
    expect(refusal(parseU32, '4294967296', 'uids')).toBe(
      'Invalid value in parameter `uids`: could not parse `4294967296` as a positive integer',
    );
  });
});

describe('parseBoolean', () => {
  it('reads exactly true and false', () => {
    expect(parseBoolean('true')).toBe(true);
    expect(parseBoolean('false')).toBe(false);
  });

  it.each(['doggo', '*', '', 'TRUE', 'False', '1'])('refuses %j, case-sensitively', (raw) => {
    expect(refusal(parseBoolean, raw, 'reverse')).toBe(
      `Invalid value in parameter \`reverse\`: could not parse \`${raw}\` as a boolean, expected either \`true\` or \`false\``,
    );
  });
});

describe('parseString and parseEnum', () => {
  it('keeps strings as they are', () => {
    expect(parseString('a b,c')).toBe('a b,c');
  });

  it('reads enum values case-sensitively, refusing others as "Unknown value"', () => {
    const sizeFormat = parseEnum(['human', 'raw'] as const);
    expect(sizeFormat('raw')).toBe('raw');
    expect(refusal(sizeFormat, 'Raw', 'sizeFormat')).toBe(
      'Unknown value `Raw` for parameter `sizeFormat`: expected one of `human`, `raw`',
    );
    expect(refusal(sizeFormat, 'humann', 'sizeFormat')).toBe(
      'Unknown value `humann` for parameter `sizeFormat`: did you mean `human`? expected one of `human`, `raw`',
    );
  });
});

describe('parseIndexUid', () => {
  it('accepts index uids and refuses others with the index uid message', () => {
    expect(parseIndexUid('movies_2-b')).toBe('movies_2-b');
    expect(refusal(parseIndexUid, 'the good doggo', 'indexUids')).toBe(
      'Invalid value in parameter `indexUids`: `the good doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.',
    );
  });
});

describe('starOr', () => {
  it('maps exactly `*` to "no restriction" and parses anything else', () => {
    const parse = starOr(parseU32);
    expect(parse('*')).toBe('*');
    expect(parse('3')).toBe(3);
    expect(refusal(parse, ' *')).toBe('Invalid value in parameter `p`: could not parse ` *` as a positive integer');
  });
});

describe('starOrList', () => {
  const uids = starOrList(parseU32);

  it('splits on commas, skipping empty elements without trimming', () => {
    expect(uids('1,2,3')).toEqual([1, 2, 3]);
    expect(uids(',,1,,,2,,')).toEqual([1, 2]);
    expect(uids('')).toEqual([]);
    expect(refusal(uids, '1, 2', 'uids')).toBe('Invalid value in parameter `uids[1]`: could not parse ` 2` as a positive integer');
  });

  it('turns the whole list into `*` when any element is `*`', () => {
    expect(uids('*')).toBe('*');
    expect(uids('1,*,2')).toBe('*');
  });

  it('still parses every element next to a `*`', () => {
    expect(refusal(uids, '*,doggo', 'uids')).toBe(
      'Invalid value in parameter `uids[1]`: could not parse `doggo` as a positive integer',
    );
  });

  it('indexes the failing element only when the list has several elements', () => {
    expect(refusal(uids, 'doggo', 'uids')).toBe('Invalid value in parameter `uids`: could not parse `doggo` as a positive integer');
    expect(refusal(uids, 'doggo,', 'uids')).toBe('Invalid value in parameter `uids`: could not parse `doggo` as a positive integer');
    expect(refusal(uids, '1,dogo', 'uids')).toBe('Invalid value in parameter `uids[1]`: could not parse `dogo` as a positive integer');
    expect(refusal(uids, 'a,b', 'uids')).toBe('Invalid value in parameter `uids[0]`: could not parse `a` as a positive integer');
  });

  it('indexes enum mismatches too', () => {
    expect(refusal(starOrList(parseEnum(['a', 'b'])), 'a,c', 'letters')).toBe(
      'Unknown value `c` for parameter `letters[1]`: expected one of `a`, `b`',
    );
  });
});

describe('parseSortList', () => {
  it('splits on commas, trimming each criterion and the surrounding quotes', () => {
    expect(parseSortList('"title:asc, year:desc"')).toEqual(['title:asc', 'year:desc']);
  });

  it('trims only the quotes at the ends, in one walk past a long inner run of them', () => {
    expect(parseSortList('""title:asc""')).toEqual(['title:asc']);
    const inner = '"'.repeat(200_000);
    expect(parseSortList(`"a${inner}b"`)).toEqual([`a${inner}b`]);
  });

  it('joins the pieces of a _geoPoint criterion back together', () => {
    expect(parseSortList('_geoPoint(48.8, 2.3):asc,title:desc')).toEqual(['_geoPoint(48.8,2.3):asc', 'title:desc']);
    expect(parseSortList('title:asc,_geoPoint(1,2):desc')).toEqual(['title:asc', '_geoPoint(1,2):desc']);
  });

  it('keeps joining after a _geoPoint piece until one ends the criterion, as Meilisearch', () => {
    expect(parseSortList('_geoPoint(1):asc,title:asc')).toEqual(['_geoPoint(1):asc,title:asc']);
  });
});

describe('parseFilterParam', () => {
  it('reads JSON when the text is JSON, the text itself otherwise', () => {
    expect(parseFilterParam('["a = 1", ["b = 2", "c = 3"]]')).toEqual(['a = 1', ['b = 2', 'c = 3']]);
    expect(parseFilterParam('a = 1 AND b = 2')).toBe('a = 1 AND b = 2');
  });
});
