// Port of Meilisearch's crates/meilisearch/tests/search/filters.rs: the string and array forms of
// `filter`, granular filterableAttributes rules (equality / comparison features, first matching
// rule wins) and their errors, and the `multimodal` gate of vector filters. Requests its tests send
// through `index.search` go through POST and GET here too.
// Filter evaluation errors point into the canonical string v1.50 re-serializes the filter to before
// evaluating it inside the index (filter.md §4): `"doggos.age" > "2"`, not the text as sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, uniqueUid } from '../../helpers/api.js';
import {
  DOCUMENTS,
  DOCUMENTS_SETTINGS,
  NESTED_DOCUMENTS,
  NESTED_DOCUMENTS_CATTOS_SETTINGS,
  expectJson,
  inBothOrders,
  search,
  searchBoth,
  seed,
  shown,
  succeed,
} from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let movies: string;
let nested: string;

beforeAll(async () => {
  server = await startServer();
  movies = uniqueUid('movies');
  nested = uniqueUid('nested');
  await Promise.all([seed(server, movies, DOCUMENTS, DOCUMENTS_SETTINGS), seed(server, nested, NESTED_DOCUMENTS, NESTED_DOCUMENTS_CATTOS_SETTINGS)]);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const dog = (id: number) => shown(NESTED_DOCUMENTS.find((doc) => doc.id === id)!);
const ids = (hits: { id: unknown }[]) => hits.map((hit) => hit.id);

/** Both routes must answer 200 with these hits, in this order and key order. */
async function expectHits(uid: string, filter: string, expected: unknown[]): Promise<void> {
  await searchBoth(server, uid, { filter }, (body) => expectJson(body.hits, expected));
}

/** Both routes must answer this `invalid_search_filter` error. */
async function expectFilterError(uid: string, filter: string, message: string): Promise<void> {
  for (const reply of [
    await call(server, 'POST', `/indexes/${uid}/search`, { filter }),
    await call(server, 'GET', `/indexes/${uid}/search?filter=${encodeURIComponent(filter)}`),
  ]) {
    expectError(reply, 400, 'invalid_search_filter', message);
  }
}

/** The granular-rule error of filter.md §4, with its notes and hints. */
function operatorRefused(uid: string, operator: string, field: string, allowed: string, feature: 'equality' | 'comparison'): string {
  return (
    `Index \`${uid}\`: Filter operator \`${operator}\` is not allowed for the attribute \`${field}\`.\n` +
    `  - Note: allowed operators: ${allowed}.\n` +
    `  - Note: field \`${field}\` matched rule #0 in \`filterableAttributes\`\n` +
    `  - Hint: enable ${feature} in rule #0 by modifying the features.filter object\n` +
    `  - Hint: prepend another rule matching \`${field}\` with appropriate filter features before rule #0`
  );
}
const EQUALITY_ONLY = 'OR, AND, NOT, =, !=, IN, IS EMPTY, IS NULL, EXISTS';
const COMPARISON_ONLY = 'OR, AND, NOT, <, >, <=, >=, TO, IS EMPTY, IS NULL, EXISTS';

/** `filterableAttributes` of one object rule on `cattos` and `doggos.age`. */
const patternRule = (filter?: { equality: boolean; comparison: boolean }) => ({
  filterableAttributes: [{ attributePatterns: ['cattos', 'doggos.age'], ...(filter ? { features: { facetSearch: false, filter } } : {}) }],
});

describe('search_with_filter_string_notation', () => {
  it('matches an accented title, a nested string value and a nested number range', async () => {
    await searchBoth(server, movies, { filter: 'title = Gläss' }, (body) => expect(body.hits).toHaveLength(1));
    await searchBoth(server, nested, { filter: 'cattos = pésti' }, (body) => expect(ids(body.hits)).toEqual([852]));
    await searchBoth(server, nested, { filter: 'doggos.age > 5' }, (body) => expect(ids(body.hits)).toEqual([654, 951]));
  });
});

describe('search_with_filter_array_notation', () => {
  it('reads the outer array as AND and an inner array as OR', async () => {
    expect((await search(server, movies, { filter: ['title = Gläss'] })).hits).toHaveLength(1);
    const body = await search(server, movies, { filter: [['title = Gläss', 'title = "Shazam!"', 'title = "Escape Room"']] });
    expect(body.hits).toHaveLength(3);
  });
});

describe('search_with_pattern_filter_settings', () => {
  it('allows equality with an object rule whose features are the defaults or say so', async () => {
    for (const settings of [patternRule(), patternRule({ equality: true, comparison: false })]) {
      await inBothOrders(server, NESTED_DOCUMENTS, settings, (uid) => expectHits(uid, 'cattos = pésti', [dog(852)]));
    }
  });

  it('allows comparison on a nested pattern whose rule enables it', async () => {
    await inBothOrders(server, NESTED_DOCUMENTS, patternRule({ equality: false, comparison: true }), (uid) =>
      expectHits(uid, 'doggos.age > 2', [dog(852), dog(654), dog(951)]),
    );
  });
});

describe('search_with_pattern_filter_settings_scenario_1', () => {
  it('follows each settings update: the operators a rule refuses answer their error, the others filter', async () => {
    const uid = uniqueUid('scenario');
    const update = (filter: { equality: boolean; comparison: boolean }) => succeed(server, 'PATCH', `/indexes/${uid}/settings`, patternRule(filter));
    const allComparison = [dog(852), dog(654), dog(951)];
    await seed(server, uid, NESTED_DOCUMENTS, patternRule({ equality: true, comparison: false }));
    await expectHits(uid, 'cattos = pésti', [dog(852)]);
    await expectFilterError(uid, 'doggos.age > 2', operatorRefused(uid, '>', 'doggos.age', EQUALITY_ONLY, 'comparison'));

    await update({ equality: true, comparison: true });
    await expectHits(uid, 'cattos = pésti', [dog(852)]);
    await expectHits(uid, 'doggos.age > 2', allComparison);

    await update({ equality: false, comparison: true });
    await expectFilterError(uid, 'cattos = pésti', operatorRefused(uid, '=', 'cattos', COMPARISON_ONLY, 'equality'));
    await expectHits(uid, 'doggos.age > 2', allComparison);

    await update({ equality: true, comparison: false });
    await expectHits(uid, 'cattos = pésti', [dog(852)]);
    await expectFilterError(uid, 'doggos.age > 2', operatorRefused(uid, '>', 'doggos.age', EQUALITY_ONLY, 'comparison'));
  });
});

describe('test_filterable_attributes_priority', () => {
  // A first rule with no filter feature shadows the later `doggos.*` for what it matches.
  const shadowing = (pattern: string) => ({
    filterableAttributes: [
      { attributePatterns: [pattern], features: { facetSearch: false, filter: { equality: false, comparison: false } } },
      { attributePatterns: ['doggos.*'] },
    ],
  });

  it('lets a later rule decide the attributes the first one does not match', async () => {
    for (const pattern of ['doggos.a*', 'doggos']) {
      await inBothOrders(server, NESTED_DOCUMENTS, shadowing(pattern), (uid) => expectHits(uid, 'doggos.name = bobby', [dog(852)]));
    }
  });

  it('refuses an attribute whose first matching rule has no filter feature, listing only filterable patterns', async () => {
    await inBothOrders(server, NESTED_DOCUMENTS, shadowing('doggos.a*'), (uid) =>
      expectFilterError(
        uid,
        'doggos.age > 2',
        `Index \`${uid}\`: Attribute \`doggos.age\` is not filterable. Available filterable attribute patterns are: \`doggos.*\`.\n2:12 "doggos.age" > "2"`,
      ),
    );
    await inBothOrders(server, NESTED_DOCUMENTS, shadowing('doggos'), (uid) =>
      expectFilterError(
        uid,
        'doggos EXISTS',
        `Index \`${uid}\`: Attribute \`doggos\` is not filterable. Available filterable attribute patterns are: \`doggos.*\`.\n2:8 "doggos" EXISTS`,
      ),
    );
  });
});

describe('vector_filter_feature_gate', () => {
  it('refuses a `_vectors` filter while the multimodal feature is off', async () => {
    const reply = await call(server, 'POST', `/indexes/${movies}/search`, { filter: '_vectors EXISTS', attributesToRetrieve: ['name'] });
    expectError(
      reply,
      400,
      'feature_not_enabled',
      'using a vector filter requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846\n1:9 _vectors EXISTS',
    );
  });
});

describe('the re-serialized filter', () => {
  it('answers a value that cannot be written back (a lone surrogate) with a filter error, not a crash', async () => {
    const reply = await call(server, 'POST', `/indexes/${movies}/search`, '{"filter": "title = \\"\\ud800\\""}');
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.code).toBe('invalid_search_filter');
  });
});
