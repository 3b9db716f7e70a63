/**
 * fast-check generators of hostile requests, one per route of routes.ts: wrong types in every
 * field, deep nesting, huge arrays and strings, odd Unicode (lone surrogates), huge numerals,
 * bad query strings and percent-encoding, path traversal in path parameters, odd headers and
 * content types, compressed bombs. Most requests stay close enough to valid to reach handlers.
 */
import fc from 'fast-check';
import { bombs } from './bombs.js';
import { Raw, render, type Json } from './json-text.js';
import type { RawRequest } from './raw-http.js';
import { FUZZ_ROUTES, SETTING_ROUTES, type BodyShape, type FuzzRoute } from './routes.js';

export interface FuzzContext {
  masterKey: string;
  /** The server's payload limit, in bytes: some bodies go past it. */
  payloadLimit: number;
  /** The index holding the movies, read by read-only routes. */
  fixtureIndex: string;
  /** The index write routes aim at. */
  scratchIndex: string;
}

/** A generated request and the route it was generated for (the report counts per route). */
export interface FuzzRequest {
  route: FuzzRoute['key'];
  raw: RawRequest;
}

const HUGE_NUMERALS = [
  '1e308', '-1e308', '1e309', '1E400', '-1e400', '18446744073709551616', '18446744073709551615', '-9223372036854775809',
  '9007199254740993', '1e-400', '-0', '123456789012345678901234567890',
];

const ODD_STRINGS = [
  '', ' ', '\ud800', '\udfff', 'a\ud83d', '\udc00x\ud800', '\u0000', '\u202eevil', '\ufeff', 'e\u0301\u0301\u0301\u0301',
  '😀', '𝕏𝕐', 'İı', 'ß', '\u3000', '\r\n', '"', '\\', 'null', '*', '../../etc/passwd', '..\\..\\boot.ini', '%00', '%zz',
  'http://127.0.0.1:1/hook', '2025-01-01T00:00:00Z', '9999-99-99', 'P1D', '-', '_',
];

/** Values of the right kind for many fields, so requests get past validation into handlers. */
const PLAUSIBLE: readonly Json[] = [
  0, 1, 2, 20, 1000, -1, true, false, null, 'movies', 'scratch', 'title', 'genres', 'year', 'id', 'overview', '*',
  ['*'], ['title'], ['genres', 'year'], ['title:asc'], ['year:desc'], ['search'], ['movies'], ['movies', 'scratch'],
  'year > 2000', 'genres = Drama', 'genres IN [Drama, Comedy]', 'year 1990 TO 2000', 'year >', '((((', 'title:asc',
  'last', 'all', 'frequency', 'words', 'typo', 'proximity', 'attribute', 'sort', 'exactness', 'human', 'json', 'info',
  'star wars', 'the', 'a b c d e f g h i j', { genres: 'Drama' }, [1, 2, 3], ['1', '2'], { q: 'star', indexUid: 'movies' },
  [{ q: 'star', indexUid: 'movies' }, { indexUid: 'scratch', filter: 'year > 1' }], { indexes: ['movies', 'scratch'] },
  { url: 'http://127.0.0.1:1' }, 'doc.title', 'return doc', 'context.x',
];

/** Every field name any route reads, for keys of nested objects. */
const FIELD_NAMES = [...new Set(FUZZ_ROUTES.flatMap((route) => [...route.query, ...(route.body.kind === 'none' ? [] : route.body.fields)]))];

const repeatText = (unit: string, times: number) => unit.repeat(times);
const rawList = (item: (i: number) => string, length: number) => new Raw(`[${Array.from({ length }, (_, i) => item(i)).join(',')}]`);

const hugeString = fc.constantFrom(10_000, 100_000, 600_000).chain((n) =>
  fc.constantFrom(repeatText('a', n), repeatText('the ', n / 4), repeatText('\u00e9', n), repeatText('😀', n / 2)),
);

const hugeArray = fc.constantFrom(10_000, 100_000).chain((n) =>
  fc.constantFrom(rawList(() => '"title"', n), rawList((i) => `"w${i}"`, n), rawList((i) => String(i), n), rawList(() => '{}', n)),
);

const deepNesting = fc.tuple(fc.constantFrom(64, 127, 128, 129, 1_000, 100_000), fc.constantFrom('[', '{"a":')).map(
  ([depth, open]) => new Raw(`${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}`),
);

const leaf: fc.Arbitrary<Json> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...PLAUSIBLE) },
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 2, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.constantFrom(...HUGE_NUMERALS).map((text) => new Raw(text)) },
  { weight: 1, arbitrary: hugeString },
  { weight: 1, arbitrary: hugeArray },
  { weight: 1, arbitrary: deepNesting },
);

/** Any JSON value, a few levels deep, with object keys that routes read. */
export const jsonValue: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3 },
    { weight: 6, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 4 }) },
  ),
})).value;

function shapedBody(shape: BodyShape): fc.Arbitrary<Json> {
  if (shape.kind === 'none') return jsonValue;
  const record = fc.record(Object.fromEntries(shape.fields.map((field) => [field, jsonValue])), { requiredKeys: [] }) as fc.Arbitrary<Json>;
  return shape.kind === 'object' ? record : fc.array(fc.oneof({ weight: 3, arbitrary: record }, { weight: 1, arbitrary: leaf }), { maxLength: 6 });
}

const INVALID_UTF8 = [Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]), Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), Buffer.from('[{"id":1,"title":"\xff"}]', 'latin1')];

type Body = { bytes: Buffer; encoding?: string };

function body(route: FuzzRoute, context: FuzzContext): fc.Arbitrary<Body | undefined> {
  const json = (value: Json): Body => ({ bytes: Buffer.from(render(value), 'utf8') });
  const usual = route.body.kind === 'none' ? fc.constant(undefined) : shapedBody(route.body).map(json);
  return fc.oneof(
    { weight: 12, arbitrary: usual },
    { weight: 2, arbitrary: jsonValue.map(json) },
    { weight: 1, arbitrary: fc.constantFrom(...INVALID_UTF8).map((bytes) => ({ bytes })) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '[1,', '{"a":1}}', 'nul', '{"q":"a"', '\u0000', ' ').map((text) => ({ bytes: Buffer.from(text) })) },
    { weight: 1, arbitrary: fc.constantFrom(...bombs()).map(({ encoding, body }) => ({ bytes: body, encoding })) },
    { weight: 1, arbitrary: fc.constant({ bytes: Buffer.alloc(context.payloadLimit + 1, 0x20) }) },
    { weight: 1, arbitrary: fc.tuple(usual, fc.constantFrom('gzip', 'deflate', 'br', 'zstd', 'compress', 'gzip, br', 'GZIP', ''))
      .map(([plain, encoding]) => ({ bytes: plain?.bytes ?? Buffer.from('{}'), encoding })) },
  );
}

const CONTENT_TYPES = [
  'application/json', 'application/x-ndjson', 'text/csv', 'text/plain', 'application/json; charset=utf-16', 'application/json;',
  'application/', ';', '*/*', 'multipart/form-data; boundary=x', 'application/json\xe9', 'APPLICATION/JSON', 'application/json; charset=utf-8',
];

/** A path segment already percent-encoded (or deliberately not). */
const oddSegment = fc.oneof(
  fc.constantFrom(
    '..', '.', '%2e%2e', '..%2F..%2Fetc%2Fpasswd', '..%5c..%5cx', '%zz', '%', '%E0%A4%A', '%ED%A0%80', '%00', '%FF', '\xe9',
    'a'.repeat(600), 'a'.repeat(513), '*', '1e308', '18446744073709551616', '-1', '0x10', ' ', '%20', 'movies%00', 'MOVIES',
    '%F0%9F%98%80', 'dumps', '20250101-000000000.dump', '..%2Fdumps%2F20250101-000000000.dump',
  ),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map((text) => encodeURIComponent(text)),
);

function pathParam(name: string, route: FuzzRoute, context: FuzzContext): fc.Arbitrary<string> {
  const usual: Record<string, fc.Arbitrary<string>> = {
    indexUid: fc.constant(route.mutates ? context.scratchIndex : context.fixtureIndex),
    setting: fc.constantFrom(...SETTING_ROUTES),
    taskUid: fc.nat(50).map(String),
    batchUid: fc.nat(50).map(String),
    documentId: fc.nat(600).map(String),
    uuid: fc.uuid(),
    key: fc.uuid(),
  };
  return fc.oneof({ weight: 6, arbitrary: usual[name] ?? oddSegment }, { weight: 2, arbitrary: oddSegment });
}

function path(route: FuzzRoute, context: FuzzContext): fc.Arbitrary<string> {
  const parts = route.template.split('/').map((part) => (part.startsWith(':') ? pathParam(part.slice(1), route, context) : fc.constant(part)));
  return fc.tuple(fc.tuple(...parts), fc.constantFrom('', '', '', '', '/', '//', '/..')).map(([segments, tail]) => {
    const joined = segments.join('/');
    return (joined === '' ? '/' : joined) + (tail === '' || joined === '' ? '' : tail);
  });
}

const queryValue = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('0', '1', '20', 'true', 'false', '*', 'title', 'title,genres', 'year%20%3E%202000', 'movies', 'succeeded', 'documentAdditionOrUpdate', '2025-01-01T00%3A00%3A00Z', 'star') },
  { weight: 2, arbitrary: fc.constantFrom(...HUGE_NUMERALS) },
  { weight: 2, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%ED%A0%80', '%00', '%FF%FE', '+', '%2B', ',,,', 'a,,b', '[1]', '{}', '\xe9', '-1', '1.5', 'NaN', 'Infinity') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }).map((text) => encodeURIComponent(text.replace(/[\ud800-\udfff]/g, ''))) },
  { weight: 1, arbitrary: fc.constantFrom(1_000, 5_000, 20_000).map((n) => 'a,'.repeat(n)) },
);

function query(route: FuzzRoute): fc.Arbitrary<string> {
  const name = route.query.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...route.query) }, { weight: 1, arbitrary: fc.constantFrom('x', '%zz', '', 'q[]', '%ED%A0%80', 'limit') }) : fc.constantFrom('x', 'q', 'limit', '%zz');
  const pairs = fc.array(fc.tuple(name, queryValue), { maxLength: route.query.length > 0 ? 6 : 2 }).map((list) => list.map(([key, value]) => `${key}=${value}`).join('&'));
  return fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 3, arbitrary: pairs.map((text) => (text === '' ? '' : `?${text}`)) }, { weight: 1, arbitrary: fc.constantFrom('?', '?&&=&', '?=1', '?a=b?c=d', '?limit', '?%', '#frag') });
}

function headers(context: FuzzContext, hasBody: boolean): fc.Arbitrary<[string, string][]> {
  const authorization = fc.oneof(
    { weight: 14, arbitrary: fc.constant<string | undefined>(`Bearer ${context.masterKey}`) },
    { weight: 1, arbitrary: fc.constantFrom<string | undefined>(undefined, 'Bearer wrong', 'Basic YTpi', `Bearer ${context.masterKey}\xff`, 'Bearer', 'Bearer ', `bearer ${context.masterKey}`, `Bearer ${'x'.repeat(20_000)}`, 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.x') },
  );
  const contentType = hasBody
    ? fc.oneof({ weight: 8, arbitrary: fc.constant<string | undefined>('application/json') }, { weight: 2, arbitrary: fc.constantFrom<string | undefined>(undefined, ...CONTENT_TYPES) })
    : fc.constantFrom<string | undefined>(undefined, undefined, undefined, 'application/json');
  const extra = fc.array(
    fc.constantFrom<[string, string]>(
      ['Accept-Encoding', 'gzip'], ['Accept-Encoding', 'br'], ['Accept-Encoding', 'deflate, *;q=0'], ['Accept', 'text/html'],
      ['Origin', 'http://127.0.0.1:1'], ['X-Meilisearch-Client', '\x80\xff'], ['X-Junk', 'a'.repeat(20_000)], ['Cookie', ';;;='],
      ['Accept-Language', '\xe9'], ['X-Forwarded-For', '::1, ' + '1.'.repeat(100)],
    ),
    { maxLength: 2 },
  );
  return fc.tuple(authorization, contentType, extra).map(([auth, type, more]) => [
    ...(auth === undefined ? [] : [['Authorization', auth] as [string, string]]),
    ...(type === undefined ? [] : [['Content-Type', type] as [string, string]]),
    ...more,
  ]);
}

const OTHER_METHODS = ['OPTIONS', 'PUT', 'PATCH', 'DELETE', 'POST', 'GET', 'TRACE', 'FOO'];

function request(route: FuzzRoute, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof({ weight: 30, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) });
  return fc.tuple(method, path(route, context), query(route), body(route, context)).chain(([verb, target, search, payload]) =>
    headers(context, payload !== undefined).map((lines) => ({
      route: route.key,
      raw: {
        method: verb,
        target: target + search,
        headers: payload?.encoding === undefined ? lines : [...lines, ['Content-Encoding', payload.encoding] as [string, string]],
        body: payload?.bytes,
        headOnly: route.key === 'POST /logs/stream',
      },
    })),
  );
}

/** A request to any route, routes drawn evenly. */
export function fuzzRequest(context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...FUZZ_ROUTES.map((route) => request(route, context)));
}
