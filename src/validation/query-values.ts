/**
 * Reusable parsers for query-parameter values (every value is a string before conversion).
 * A parser returns the converted value or throws `QueryValueError` with deserr's wording;
 * `compileQuery` adds the parameter name and the parameter's error code.
 */
import { ApiError } from '../errors/api-error.js';
import { nestsDeeper, SERDE_MAX_DEPTH } from '../types/json-depth.js';
import { invalidParameterMessage, unknownParameterValueMessage } from './messages.js';
import { invalidIndexUidMessage, isValidIndexUid } from '../types/index-uid.js';
import { parseRustF64 } from '../types/rust-float.js';
import { strippedEnd, strippedStart } from '../types/utf16.js';

/** Converts one raw query value; throws `QueryValueError` when it cannot. */
export type ValueParser<T> = (raw: string) => T;

/** A value a parser refused. Custom parsers throw it with the text after the location prefix. */
export class QueryValueError extends Error {
  constructor(
    message: string,
    /** Set for enum mismatches, which deserr words as "Unknown value … for parameter …". */
    readonly unknownValue?: { readonly value: string; readonly accepted: readonly string[] },
    /** Position in a comma-separated list, when the list has more than one element. */
    readonly index?: number,
  ) {
    super(message);
    this.name = 'QueryValueError';
  }

  atIndex(index: number): QueryValueError {
    return new QueryValueError(this.message, this.unknownValue, index);
  }

  /** The full message for parameter `name` (``Invalid value in parameter `uids[1]`: …``). */
  render(name: string): string {
    const location = this.index === undefined ? name : `${name}[${this.index}]`;
    return this.unknownValue === undefined
      ? invalidParameterMessage(location, this.message)
      : unknownParameterValueMessage(location, this.unknownValue.value, this.unknownValue.accepted);
  }
}

/** Rust's unsigned `from_str`: decimal digits with an optional `+`, nothing else, within range. */
function unsignedParser(max: bigint): ValueParser<number> {
  return (raw) => {
    if (!/^\+?[0-9]+$/.test(raw) || BigInt(raw) > max) {
      throw new QueryValueError(`could not parse \`${raw}\` as a positive integer`);
    }
    return Number(raw);
  };
}

/** `usize` (limit, offset, from...). Values beyond 2^53 lose precision, which no caller needs. */
export const parsePositiveInteger: ValueParser<number> = unsignedParser(2n ** 64n - 1n);

/** `u32` (task and batch uids). */
export const parseU32: ValueParser<number> = unsignedParser(2n ** 32n - 1n);

/** Exactly `true` or `false`, case-sensitive. */
export const parseBoolean: ValueParser<boolean> = (raw) => {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new QueryValueError(`could not parse \`${raw}\` as a boolean, expected either \`true\` or \`false\``);
};

export const parseString: ValueParser<string> = (raw) => raw;

/** A comma-separated list, empty elements skipped, no trimming (`attributesToRetrieve=a,b`). */
export const parseList: ValueParser<string[]> = (raw) => raw.split(',').filter((item) => item !== '');

/**
 * A float parsed as Rust parses one, then `problem`'s bound check (`semanticRatioProblem`,
 * `rankingScoreThresholdProblem`: a NaN passes it, and then filters nothing out); its reason when
 * either fails.
 */
export const unitFloat =
  (problem: (value: unknown) => string | undefined): ValueParser<number> =>
  (raw) => {
    const value = parseRustF64(raw);
    const reason = problem(value ?? Number.POSITIVE_INFINITY);
    if (reason !== undefined) throw new QueryValueError(reason);
    return value!;
  };

const isQuote = (unit: number) => unit === 0x22;

/** `raw` without the double quotes at either end, walked off (`/"+$/` was quadratic in inner runs). */
function withoutEdgeQuotes(raw: string): string {
  const start = strippedStart(raw, isQuote);
  return raw.slice(start, strippedEnd(raw, isQuote, start));
}

/**
 * GET `sort` (search, document list): comma-separated, with the pieces of `_geoPoint(lat, lng):asc`
 * joined back, as Meilisearch's `fix_sort_query_parameters` does.
 */
export const parseSortList: ValueParser<string[]> = (raw) => {
  const criteria: string[] = [];
  let joining = false;
  for (const piece of withoutEdgeQuotes(raw).split(',').map((part) => part.trim())) {
    if (piece.startsWith('_geoPoint(')) {
      criteria.push(piece);
      joining = true;
    } else if (joining && criteria.length > 0) {
      criteria[criteria.length - 1] += `,${piece}`;
      if (piece.endsWith('):asc') || piece.endsWith('):desc')) joining = false;
    } else {
      criteria.push(piece);
    }
  }
  return criteria;
};

/**
 * GET `filter`: text that parses as JSON (e.g. `["a = 1"]`) is used as JSON, any other as the
 * filter text; so is JSON nested deeper than serde_json reads, as Meilisearch falls back.
 */
export const parseFilterParam: ValueParser<unknown> = (raw) => {
  if (nestsDeeper(Buffer.from(raw), SERDE_MAX_DEPTH)) return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
};

/**
 * Refuses a filter that is the JSON null where null is not "no filter": a query string's
 * `filter=null` (which `parseFilterParam` reads as JSON), or a body whose filter is required.
 */
export function refuseNullFilter(filter: unknown, code: 'invalid_search_filter' | 'invalid_document_filter'): void {
  if (filter === null) throw new ApiError(code, 'Invalid syntax for the filter parameter: `expected String, Array, found: null`.');
}

/** One of a fixed set of strings, case-sensitive (a Rust enum read by deserr). */
export function parseEnum<V extends string>(values: readonly V[]): ValueParser<V> {
  return (raw) => {
    if ((values as readonly string[]).includes(raw)) return raw as V;
    throw new QueryValueError(`unknown value \`${raw}\``, { value: raw, accepted: values });
  };
}

/** An index uid, with the same message as everywhere else. */
export const parseIndexUid: ValueParser<string> = (raw) => {
  if (!isValidIndexUid(raw)) throw new QueryValueError(invalidIndexUidMessage(raw));
  return raw;
};

/** Exactly `*` means "no restriction"; anything else goes to `parser`. */
export function starOr<T>(parser: ValueParser<T>): ValueParser<'*' | T> {
  return (raw) => (raw === '*' ? '*' : parser(raw));
}

/**
 * A comma-separated list (empty elements skipped, no trimming); `*` anywhere makes the whole
 * list `'*'`. Every element is still parsed, and the first bad one is reported, located as
 * `name[i]` when the list has more than one element.
 */
export function starOrList<T>(parser: ValueParser<T>): ValueParser<'*' | T[]> {
  return (raw) => {
    const elements = raw.split(',').filter((e) => e !== '');
    const parsed: T[] = [];
    let star = false;
    elements.forEach((element, i) => {
      if (element === '*') {
        star = true;
        return;
      }
      try {
        parsed.push(parser(element));
      } catch (error) {
        throw error instanceof QueryValueError && elements.length > 1 ? error.atIndex(i) : error;
      }
    });
    return star ? '*' : parsed;
  };
}
