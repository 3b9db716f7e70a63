/**
 * Query-string validation with Meilisearch's error messages and codes.
 *
 * A route declares each parameter it accepts with a value parser (see `query-values.ts`,
 * `task-filter-values.ts`) and the code of its errors; `compileQuery` returns a parser of the
 * raw query string. Routes that accept no parameter do not call it (Meilisearch ignores their
 * query string).
 *
 * @example
 * ```ts
 * const parseListKeys = compileQuery({
 *   offset: { parse: parsePositiveInteger, code: 'invalid_api_key_offset' },
 *   limit: { parse: parsePositiveInteger, code: 'invalid_api_key_limit' },
 * });
 * const { offset = 0, limit = 20 } = parseListKeys(rawQuery); // or throws ApiError
 * ```
 *
 * Behaviour (deserr over `serde_urlencoded`):
 * - `application/x-www-form-urlencoded` decoding (`+` is a space); a repeated parameter keeps
 *   its first position and its last value.
 * - Parameters are checked in the order they appear; the first problem is reported: an unknown
 *   name → 400 `bad_request` ``Unknown parameter `x`: expected one of `offset`, `limit` ``
 *   (with the did-you-mean hint), a bad value → the parameter's code with the parser's message.
 * - Absent parameters are absent from the result; defaults belong to the route.
 */
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { describe } from './described.js';
import { unknownParameterMessage } from './messages.js';
import { QueryValueError, type ValueParser } from './query-values.js';

export interface QueryParam<T> {
  readonly parse: ValueParser<T>;
  /** Code of every error in this parameter's value. */
  readonly code: ErrorCode;
}

export type QuerySpec = Readonly<Record<string, QueryParam<unknown>>>;

/** The parsed query: each declared parameter, converted, when it was present. */
export type ParsedQuery<S extends QuerySpec> = {
  -readonly [K in keyof S]?: S[K] extends QueryParam<infer T> ? T : never;
};

/**
 * Compiles a parameter spec into a parser of raw query strings (what follows the URL's first `?`).
 * The accepted-parameter list of the unknown-parameter message follows the spec's key order.
 */
export function compileQuery<S extends QuerySpec>(spec: S): (query: string) => ParsedQuery<S> {
  const accepted = Object.keys(spec);
  const parse = (query: string): ParsedQuery<S> => {
    const params = new Map<string, string>();
    // URLSearchParams drops a leading `?`; Meilisearch keeps it in the first name (`/tasks??from=2`
    // has an unknown `?from`). The `&` in front keeps it, and the empty pair it makes is skipped.
    for (const [name, value] of new URLSearchParams(`&${query}`)) params.set(name, value);

    const parsed: Record<string, unknown> = {};
    for (const [name, raw] of params) {
      const param = Object.hasOwn(spec, name) ? spec[name] : undefined;
      if (param === undefined) throw new ApiError('bad_request', unknownParameterMessage(name, accepted));
      try {
        parsed[name] = param.parse(raw);
      } catch (error) {
        if (error instanceof QueryValueError) throw new ApiError(param.code, error.render(name));
        throw error;
      }
    }
    return parsed as ParsedQuery<S>;
  };
  return describe(parse, { kind: 'query', spec });
}
