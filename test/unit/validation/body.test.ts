import { describe, expect, it } from 'vitest';
import { addSharedSchema, compileBody } from '../../../src/validation/body.js';
import { indexUidProblem } from '../../../src/types/index-uid.js';
import { apiErrorOf } from './expect-api-error.js';

// Shapes of real Meilisearch routes; expected texts are the snapshots of its integration tests
// (crates/meilisearch/tests/{index,auth,search}/errors.rs).

const parseCreateIndex = compileBody<{ uid: string; primaryKey?: string | null }>(
  {
    type: 'object',
    properties: { uid: { type: 'string' }, primaryKey: { type: ['string', 'null'] } },
    required: ['uid'],
    additionalProperties: false,
  },
  { '.uid': 'invalid_index_uid', '.primaryKey': 'invalid_index_primary_key' },
  { missing: { uid: 'missing_index_uid' }, validators: { '.uid': indexUidProblem } },
);

const ACTIONS = ['*', 'search', 'documents.*', 'documents.add', 'version'];

const parseCreateKey = compileBody(
  {
    type: 'object',
    properties: {
      description: { type: ['string', 'null'] },
      name: { type: ['string', 'null'] },
      uid: { type: 'string' },
      actions: { type: 'array', items: { type: 'string', enum: ACTIONS } },
      indexes: { type: 'array', items: { type: 'string' } },
      expiresAt: { type: ['string', 'null'] },
    },
    required: ['actions', 'indexes', 'expiresAt'],
    additionalProperties: false,
  },
  {
    '.description': 'invalid_api_key_description',
    '.name': 'invalid_api_key_name',
    '.uid': 'invalid_api_key_uid',
    '.actions': 'invalid_api_key_actions',
    '.indexes': 'invalid_api_key_indexes',
    '.expiresAt': 'invalid_api_key_expires_at',
  },
  {
    missing: {
      actions: 'missing_api_key_actions',
      indexes: 'missing_api_key_indexes',
      expiresAt: 'missing_api_key_expires_at',
    },
    validators: {
      '.indexes[]': (pattern) =>
        /^[A-Za-z0-9_-]+\*?$|^\*$/.test(pattern as string)
          ? undefined
          : `\`${String(pattern)}\` is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).`,
    },
  },
);

const parsePatchKey = compileBody(
  {
    type: 'object',
    properties: { description: { type: ['string', 'null'] }, name: { type: ['string', 'null'] } },
    additionalProperties: false,
  },
  { '.description': 'invalid_api_key_description', '.name': 'invalid_api_key_name' },
  {
    immutable: {
      uid: 'immutable_api_key_uid',
      actions: 'immutable_api_key_actions',
      indexes: 'immutable_api_key_indexes',
      expiresAt: 'immutable_api_key_expires_at',
      createdAt: 'immutable_api_key_created_at',
      updatedAt: 'immutable_api_key_updated_at',
    },
  },
);

const parseMultiSearch = compileBody(
  {
    type: 'object',
    properties: {
      queries: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            indexUid: { type: 'string' },
            q: { type: ['string', 'null'] },
            limit: { type: 'integer', minimum: 0 },
            matchingStrategy: { type: 'string', enum: ['last', 'all', 'frequency'] },
          },
          required: ['indexUid'],
          additionalProperties: false,
        },
      },
    },
    required: ['queries'],
    additionalProperties: false,
  },
  {
    '.queries[].indexUid': 'invalid_index_uid',
    '.queries[].q': 'invalid_search_q',
    '.queries[].limit': 'invalid_search_limit',
    '.queries[].matchingStrategy': 'invalid_search_matching_strategy',
  },
  { missing: { '.queries[].indexUid': 'missing_index_uid' }, validators: { '.queries[].indexUid': indexUidProblem } },
);

const parseSettings = compileBody(
  {
    type: 'object',
    properties: {
      typoTolerance: {
        type: ['object', 'null'],
        properties: {
          enabled: { type: ['boolean', 'null'] },
          minWordSizeForTypos: {
            type: ['object', 'null'],
            properties: { oneTypo: { type: ['integer', 'null'], minimum: 0 }, twoTypos: { type: ['integer', 'null'], minimum: 0 } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
      rankingRules: { type: ['array', 'null'], items: { type: 'string' } },
    },
    additionalProperties: false,
  },
  { '.typoTolerance': 'invalid_settings_typo_tolerance', '.rankingRules': 'invalid_settings_ranking_rules' },
);

const parseNetwork = compileBody(
  {
    type: 'object',
    properties: {
      self: { type: ['string', 'null'] },
      remotes: {
        type: ['object', 'null'],
        additionalProperties: {
          type: ['object', 'null'],
          properties: { url: { type: ['string', 'null'] }, searchApiKey: { type: ['string', 'null'] } },
          required: ['url'],
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  },
  { '.self': 'invalid_network_self', '.remotes': 'invalid_network_remotes', '.remotes.*.url': 'invalid_network_url' },
  { missing: { '.remotes.*.url': 'missing_network_url' } },
);

describe('compileBody: accepted bodies', () => {
  it('returns the body itself, typed', () => {
    const body = { uid: 'movies', primaryKey: null };
    expect(parseCreateIndex(body)).toBe(body);
    expect(parseMultiSearch({ queries: [{ indexUid: 'a', limit: 3 }] })).toEqual({ queries: [{ indexUid: 'a', limit: 3 }] });
  });
});

describe('compileBody: wrong types', () => {
  it('names the expected and found kinds with the field code', () => {
    expect(apiErrorOf(() => parseCreateIndex({ uid: true }))).toEqual({
      code: 'invalid_index_uid',
      message: 'Invalid value type at `.uid`: expected a string, but found a boolean: `true`',
    });
    expect(apiErrorOf(() => parseCreateIndex({ uid: 'doggo', primaryKey: ['the', 'best', 'doggo'] }))).toEqual({
      code: 'invalid_index_primary_key',
      message: 'Invalid value type at `.primaryKey`: expected a string, but found an array: `["the","best","doggo"]`',
    });
    expect(apiErrorOf(() => parseCreateKey({ actions: 'doggo' }))).toEqual({
      code: 'invalid_api_key_actions',
      message: 'Invalid value type at `.actions`: expected an array, but found a string: `"doggo"`',
    });
  });

  it('describes the root without a location and with bad_request', () => {
    expect(apiErrorOf(() => parseCreateIndex('movies'))).toEqual({
      code: 'bad_request',
      message: 'Invalid value type: expected an object, but found a string: `"movies"`',
    });
    expect(apiErrorOf(() => parseCreateIndex(null)).message).toBe('Invalid value type: expected an object, but found null');
    expect(apiErrorOf(() => parseCreateIndex([1])).message).toBe('Invalid value type: expected an object, but found an array: `[1]`');
  });

  it('reads a non-negative integer schema as "a positive integer", negatives included', () => {
    const limit = (value: unknown) => apiErrorOf(() => parseMultiSearch({ queries: [{ indexUid: 'a', limit: value }] }));
    expect(limit(-1)).toEqual({
      code: 'invalid_search_limit',
      message: 'Invalid value type at `.queries[0].limit`: expected a positive integer, but found a negative integer: `-1`',
    });
    expect(limit(1.5).message).toBe(
      'Invalid value type at `.queries[0].limit`: expected a positive integer, but found a number: `1.5`',
    );
    expect(limit('7').message).toBe(
      'Invalid value type at `.queries[0].limit`: expected a positive integer, but found a string: `"7"`',
    );
  });

  it('reads integer, number and union schemas like the matching Rust types', () => {
    const parse = compileBody({
      type: 'object',
      properties: {
        offset: { type: 'integer' },
        ratio: { type: 'number' },
        distinct: { type: ['boolean', 'string', 'array'] },
        either: { type: ['boolean', 'integer'], minimum: 0 },
      },
      additionalProperties: false,
    });
    expect(apiErrorOf(() => parse({ offset: 'x' })).message).toBe(
      'Invalid value type at `.offset`: expected an integer, but found a string: `"x"`',
    );
    expect(apiErrorOf(() => parse({ ratio: true })).message).toBe(
      'Invalid value type at `.ratio`: expected a number, but found a boolean: `true`',
    );
    expect(apiErrorOf(() => parse({ distinct: 1 })).message).toBe(
      'Invalid value type at `.distinct`: expected a boolean, a string, or an array, but found a positive integer: `1`',
    );
    expect(apiErrorOf(() => parse({ either: {} })).message).toBe(
      'Invalid value type at `.either`: expected a boolean or a positive integer, but found an object: `{}`',
    );
  });
});

describe('compileBody: missing fields', () => {
  it('uses the declared missing_* code', () => {
    expect(apiErrorOf(() => parseCreateIndex({ primaryKey: 'doggo' }))).toEqual({
      code: 'missing_index_uid',
      message: 'Missing field `uid`',
    });
    expect(apiErrorOf(() => parseCreateKey({ indexes: ['doggo'], expiresAt: null }))).toEqual({
      code: 'missing_api_key_actions',
      message: 'Missing field `actions`',
    });
  });

  it('reports the first missing field in declaration order, not in `required` order', () => {
    const parse = compileBody({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['b', 'a'],
      additionalProperties: false,
    });
    expect(apiErrorOf(() => parse({}))).toEqual({ code: 'bad_request', message: 'Missing field `a`' });
    expect(apiErrorOf(() => parseCreateKey({ uid: '0' })).message).toBe('Missing field `actions`');
    expect(apiErrorOf(() => parseCreateKey({ actions: ['*'], indexes: [] })).message).toBe('Missing field `expiresAt`');
  });

  it('locates nested missing fields with "inside"', () => {
    expect(apiErrorOf(() => parseMultiSearch({ queries: [{ q: 'glass' }] }))).toEqual({
      code: 'missing_index_uid',
      message: 'Missing field `indexUid` inside `.queries[0]`',
    });
  });

  it('falls back to the enclosing object code, not the field code, when no missing code is declared', () => {
    expect(apiErrorOf(() => parseMultiSearch({}))).toEqual({ code: 'bad_request', message: 'Missing field `queries`' });
    const parse = compileBody(
      {
        type: 'object',
        properties: { filter: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
        additionalProperties: false,
      },
      { '.filter': 'invalid_dynamic_search_rule_filter', '.filter.query': 'invalid_dynamic_search_rule_filter_query' },
    );
    expect(apiErrorOf(() => parse({ filter: {} }))).toEqual({
      code: 'invalid_dynamic_search_rule_filter',
      message: 'Missing field `query` inside `.filter`',
    });
  });

  it('matches map entries with `*` in locations', () => {
    expect(apiErrorOf(() => parseNetwork({ remotes: { kefir: { searchApiKey: 'k' } } }))).toEqual({
      code: 'missing_network_url',
      message: 'Missing field `url` inside `.remotes.kefir`',
    });
    expect(apiErrorOf(() => parseNetwork({ remotes: { kefir: { url: 3 } } }))).toEqual({
      code: 'invalid_network_url',
      message: 'Invalid value type at `.remotes.kefir.url`: expected a string, but found a positive integer: `3`',
    });
  });
});

describe('compileBody: unknown fields', () => {
  it('lists the accepted fields in declaration order with bad_request', () => {
    expect(apiErrorOf(() => parseCreateIndex({ uid: 'doggo', doggo: 'bernese' }))).toEqual({
      code: 'bad_request',
      message: 'Unknown field `doggo`: expected one of `uid`, `primaryKey`',
    });
    expect(apiErrorOf(() => parsePatchKey({ doggo: 'bork' }))).toEqual({
      code: 'bad_request',
      message: 'Unknown field `doggo`: expected one of `description`, `name`',
    });
  });

  it('adds the did-you-mean hint', () => {
    expect(apiErrorOf(() => parseCreateKey({ expires_at: ['doggo'] }))).toEqual({
      code: 'bad_request',
      message:
        'Unknown field `expires_at`: did you mean `expiresAt`? expected one of `description`, `name`, `uid`, `actions`, `indexes`, `expiresAt`',
    });
  });

  it("uses the nested object's own code and location", () => {
    expect(apiErrorOf(() => parseSettings({ typoTolerance: { enabled: true, minWordSizeForTypo: {} } }))).toEqual({
      code: 'invalid_settings_typo_tolerance',
      message:
        'Unknown field `minWordSizeForTypo` inside `.typoTolerance`: did you mean `minWordSizeForTypos`? expected one of `enabled`, `minWordSizeForTypos`',
    });
    expect(apiErrorOf(() => parseNetwork({ remotes: { kefir: { url: null, doggo: 1 } } }))).toEqual({
      code: 'invalid_network_remotes',
      message: 'Unknown field `doggo` inside `.remotes.kefir`: expected one of `url`, `searchApiKey`',
    });
  });

  it('lets deeper fields inherit the nearest declared code', () => {
    expect(apiErrorOf(() => parseSettings({ typoTolerance: { minWordSizeForTypos: { oneTypo: 'five' } } }))).toEqual({
      code: 'invalid_settings_typo_tolerance',
      message:
        'Invalid value type at `.typoTolerance.minWordSizeForTypos.oneTypo`: expected a positive integer, but found a string: `"five"`',
    });
  });
});

describe('compileBody: immutable fields', () => {
  it.each([
    ['uid', 'immutable_api_key_uid'],
    ['actions', 'immutable_api_key_actions'],
    ['indexes', 'immutable_api_key_indexes'],
    ['expiresAt', 'immutable_api_key_expires_at'],
    ['createdAt', 'immutable_api_key_created_at'],
    ['updatedAt', 'immutable_api_key_updated_at'],
  ])('refuses `%s` with %s and the accepted fields', (field, code) => {
    expect(apiErrorOf(() => parsePatchKey({ [field]: 'doggo' }))).toEqual({
      code,
      message: `Immutable field \`${field}\`: expected one of \`description\`, \`name\``,
    });
  });

  it('reports an immutable field at its position among the other keys', () => {
    expect(apiErrorOf(() => parsePatchKey({ name: 1, uid: 'x' })).code).toBe('invalid_api_key_name');
    expect(apiErrorOf(() => parsePatchKey({ uid: 'x', name: 1 })).code).toBe('immutable_api_key_uid');
  });
});

describe('compileBody: unknown enum values', () => {
  it('reads "Unknown value" at the element location', () => {
    expect(apiErrorOf(() => parseCreateKey({ actions: ['doggo'] }))).toEqual({
      code: 'invalid_api_key_actions',
      message: 'Unknown value `doggo` at `.actions[0]`: expected one of `*`, `search`, `documents.*`, `documents.add`, `version`',
    });
  });

  it('adds the did-you-mean hint', () => {
    expect(
      apiErrorOf(() => parseMultiSearch({ queries: [{ indexUid: 'a', matchingStrategy: 'frequenci' }] })),
    ).toEqual({
      code: 'invalid_search_matching_strategy',
      message:
        'Unknown value `frequenci` at `.queries[0].matchingStrategy`: did you mean `frequency`? expected one of `last`, `all`, `frequency`',
    });
  });

  it('reports a non-string value as a type error', () => {
    expect(apiErrorOf(() => parseCreateKey({ actions: [3] })).message).toBe(
      'Invalid value type at `.actions[0]`: expected a string, but found a positive integer: `3`',
    );
    const parse = compileBody({ type: 'object', properties: { mode: { enum: ['a', 'b', null] } } });
    expect(apiErrorOf(() => parse({ mode: 3 })).message).toBe(
      'Invalid value type at `.mode`: expected a string, but found a positive integer: `3`',
    );
  });
});

describe('compileBody: custom validators', () => {
  it('prefixes the reason with the location and uses the field code', () => {
    expect(apiErrorOf(() => parseCreateIndex({ uid: 'the best doggo' }))).toEqual({
      code: 'invalid_index_uid',
      message:
        'Invalid value at `.uid`: `the best doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.',
    });
    expect(apiErrorOf(() => parseCreateKey({ indexes: ['good doggo'] }))).toEqual({
      code: 'invalid_api_key_indexes',
      message:
        'Invalid value at `.indexes[0]`: `good doggo` is not a valid index uid pattern. Index uid patterns can be an integer or a string containing only alphanumeric characters, hyphens (-), underscores (_), and optionally end with a star (*).',
    });
  });

  it('runs on every array element and reports the first failing one', () => {
    const error = apiErrorOf(() => parseMultiSearch({ queries: [{ indexUid: 'ok' }, { indexUid: 'not ok' }, { indexUid: '!' }] }));
    expect(error.code).toBe('invalid_index_uid');
    expect(error.message).toMatch(/^Invalid value at `\.queries\[1\]\.indexUid`: `not ok` is not a valid index uid\./);
  });

  it('only sees values that match the schema', () => {
    let calls = 0;
    const parse = compileBody(
      { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } },
      {},
      { validators: { '.a': () => (calls++, 'never') } },
    );
    expect(apiErrorOf(() => parse({ a: { b: 1 } })).message).toBe(
      'Invalid value type at `.a.b`: expected a string, but found a positive integer: `1`',
    );
    expect(calls).toBe(0);
  });

  it('checks the root as "Invalid value: <reason>"', () => {
    const parse = compileBody(
      { type: 'object', properties: { vector: { type: 'array' }, media: { type: 'object' } } },
      {},
      { validators: { '': (v) => ('vector' in (v as object) && 'media' in (v as object) ? 'both given' : undefined) } },
    );
    expect(apiErrorOf(() => parse({ vector: [], media: {} }))).toEqual({ code: 'bad_request', message: 'Invalid value: both given' });
  });

  it('reports a check on a whole object after the errors inside it', () => {
    const parse = compileBody(
      {
        type: 'object',
        properties: { hybrid: { type: 'object', properties: { embedder: { type: 'string' }, semanticRatio: { type: 'number' } } } },
        required: ['hybrid'],
      },
      { '.hybrid': 'invalid_search_hybrid_query', '.hybrid.semanticRatio': 'invalid_search_semantic_ratio' },
      {
        validators: {
          '.hybrid': () => 'whole object refused',
          '.hybrid.semanticRatio': (r) => ((r as number) > 1 ? 'ratio out of range' : undefined),
        },
      },
    );
    expect(apiErrorOf(() => parse({ hybrid: { semanticRatio: 3 } }))).toEqual({
      code: 'invalid_search_semantic_ratio',
      message: 'Invalid value at `.hybrid.semanticRatio`: ratio out of range',
    });
    expect(apiErrorOf(() => parse({ hybrid: { semanticRatio: 0.5 } })).message).toBe(
      'Invalid value at `.hybrid`: whole object refused',
    );
  });
});

describe('compileBody: which error comes first', () => {
  it('follows the order of keys in the payload', () => {
    expect(apiErrorOf(() => parseCreateIndex({ doggo: 1, uid: 12 })).message).toBe(
      'Unknown field `doggo`: expected one of `uid`, `primaryKey`',
    );
    expect(apiErrorOf(() => parseCreateIndex({ uid: 12, doggo: 1 })).message).toBe(
      'Invalid value type at `.uid`: expected a string, but found a positive integer: `12`',
    );
    expect(apiErrorOf(() => parseCreateIndex({ primaryKey: 1, uid: 'the best doggo' })).code).toBe('invalid_index_primary_key');
    expect(apiErrorOf(() => parseCreateIndex({ uid: 'the best doggo', primaryKey: 1 })).code).toBe('invalid_index_uid');
  });

  it('reports missing fields only after every present key', () => {
    expect(apiErrorOf(() => parseCreateIndex({ doggo: 1 })).message).toBe('Unknown field `doggo`: expected one of `uid`, `primaryKey`');
    expect(apiErrorOf(() => parseCreateIndex({ primaryKey: 1 })).code).toBe('invalid_index_primary_key');
  });

  it('walks nested values depth-first, array elements in order', () => {
    const body = { queries: [{ indexUid: 'a', q: 1 }, { indexUid: 2 }], doggo: true };
    expect(apiErrorOf(() => parseMultiSearch(body))).toEqual({
      code: 'invalid_search_q',
      message: 'Invalid value type at `.queries[0].q`: expected a string, but found a positive integer: `1`',
    });
    expect(apiErrorOf(() => parseMultiSearch({ doggo: true, queries: [{ q: 1 }] })).message).toBe(
      'Unknown field `doggo`: expected one of `queries`',
    );
    expect(apiErrorOf(() => parseMultiSearch({ queries: [{ q: 'x' }, { indexUid: 2 }] })).message).toBe(
      'Missing field `indexUid` inside `.queries[0]`',
    );
  });

  it('renders nested array locations', () => {
    const parse = compileBody({
      type: 'object',
      properties: { matrix: { type: 'array', items: { type: 'array', items: { type: 'number' } } } },
    });
    expect(apiErrorOf(() => parse({ matrix: [[1], [2, 'x']] })).message).toBe(
      'Invalid value type at `.matrix[1][1]`: expected a number, but found a string: `"x"`',
    );
  });
});

describe('compileBody: large bodies (issue 25)', () => {
  const N = 100_000;
  const ints = Array.from({ length: N }, (_, i) => i);
  const time = (run: () => void): number => {
    const started = performance.now();
    run();
    return performance.now() - started;
  };

  it('reports the first of 100,000 wrong elements, and only it, in linear time', () => {
    let message = '';
    const ms = time(() => (message = apiErrorOf(() => parseCreateKey({ indexes: ints })).message));
    expect(message).toBe('Invalid value type at `.indexes[0]`: expected a string, but found a positive integer: `0`');
    expect(ms).toBeLessThan(1_000);
  });

  it('runs a check over 100,000 right elements up to the first failure, children first', () => {
    const indexes = [...ints.map((i) => `i${i}`), 'not ok'];
    expect(apiErrorOf(() => parseCreateKey({ indexes })).message).toMatch(/^Invalid value at `\.indexes\[100000\]`: `not ok` is not/);
    expect(time(() => parseCreateKey({ actions: ['search'], indexes: indexes.slice(0, N), expiresAt: null }))).toBeLessThan(1_000);
  });

  it('puts an unknown field before a huge wrong array that follows it', () => {
    expect(apiErrorOf(() => parseCreateKey({ doggo: 1, indexes: ints })).message).toMatch(/^Unknown field `doggo`: expected one of/);
  });

  it('still reports missing fields after 100,000 right elements', () => {
    expect(apiErrorOf(() => parseCreateKey({ actions: ['search'], indexes: ints.map(String) }))).toEqual({
      code: 'missing_api_key_expires_at',
      message: 'Missing field `expiresAt`',
    });
  });
});

describe('compileBody: unsigned integers past 64 bits', () => {
  const parse = compileBody({ type: 'object', properties: { limit: { type: 'integer', minimum: 0 } } }, { '.limit': 'invalid_search_limit' });

  it.each([
    [1e308, 'a number: `1e308`'],
    [2 ** 64, 'a number: `1.8446744073709552e19`'],
    [1.5, 'a number: `1.5`'],
    [-1, 'a negative integer: `-1`'],
  ])('reads %s as serde_json does: %s', (limit, found) => {
    expect(apiErrorOf(() => parse({ limit }))).toEqual({
      code: 'invalid_search_limit',
      message: `Invalid value type at \`.limit\`: expected a positive integer, but found ${found}`,
    });
  });

  it('accepts the largest integers below 2^64', () => {
    expect(parse({ limit: 1e19 })).toEqual({ limit: 1e19 });
  });
});

describe('compileBody: other keywords and shared schemas', () => {
  it("falls back to ajv's wording for keywords deserr has no message for", () => {
    const parse = compileBody(
      { type: 'object', properties: { indexes: { type: 'array', minItems: 2, maxItems: 2 } } },
      { '.indexes': 'invalid_swap_indexes' },
    );
    expect(apiErrorOf(() => parse({ indexes: ['a'] }))).toEqual({
      code: 'invalid_swap_indexes',
      message: 'Invalid value at `.indexes`: must NOT have fewer than 2 items',
    });
  });

  it('resolves fragments shared by $id, keeping their messages', () => {
    addSharedSchema({ $id: 'quarry:test/pagination', type: 'object', properties: { limit: { type: 'integer', minimum: 0 } } });
    const parse = compileBody({ $ref: 'quarry:test/pagination' }, { '.limit': 'invalid_index_limit' });
    expect(apiErrorOf(() => parse({ limit: -2 }))).toEqual({
      code: 'invalid_index_limit',
      message: 'Invalid value type at `.limit`: expected a positive integer, but found a negative integer: `-2`',
    });
  });

  it('compiles a schema on its first use, refusing unknown keywords then (ajv strict mode)', () => {
    const parse = compileBody({ type: 'object', doggo: true });
    expect(() => parse({})).toThrow(/unknown keyword/);
  });
});
