// Port of Meilisearch's crates/meilisearch/tests/search/errors.rs, for what errors.test.ts does not
// already cover: parameter errors answered before the index is looked up (its tests search an
// index never created), facets that are not filterable (POST and GET), filter syntax, reserved and
// attribute errors on both indexing orders, granular-rule operator errors, the distinct errors as
// the settings change, and the `CONTAINS` gate in the string and array forms.
// Where the v1.50 reference disagrees with a stored snapshot, the reference wins: the facet error
// names a `Pattern`, the operator list ends with `_geoPolygon`, `STARTS WITH` needs no feature, the
// operator errors carry their hints, and filter evaluation errors point into the re-serialized
// filter (filter.md §4, search.md §2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, uniqueUid, type Reply } from '../../helpers/api.js';
import { DOCUMENTS, NESTED_DOCUMENTS, inBothOrders, seed, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const post = (uid: string, body: unknown): Promise<Reply> => call(server, 'POST', `/indexes/${uid}/search`, body);
const get = (uid: string, query: string): Promise<Reply> => call(server, 'GET', `/indexes/${uid}/search${query}`);

/** The same search as a POST body and a GET query string (lists comma-separated) must answer the same error. */
async function expectBoth(uid: string, body: Record<string, string | string[]>, code: string, message: string): Promise<void> {
  expectError(await post(uid, body), 400, code, message);
  const query = new URLSearchParams(Object.entries(body).map(([key, value]): [string, string] => [key, Array.isArray(value) ? value.join(',') : value]));
  expectError(await get(uid, `?${query}`), 400, code, message);
}

describe('parameter errors come before the index lookup', () => {
  const missing = 'never-created';

  it.each([
    [{ q: ['doggo'] }, 'invalid_search_q', 'Invalid value type at `.q`: expected a string, but found an array: `["doggo"]`'],
    [{ offset: 'doggo' }, 'invalid_search_offset', 'Invalid value type at `.offset`: expected a positive integer, but found a string: `"doggo"`'],
    [{ limit: 'doggo' }, 'invalid_search_limit', 'Invalid value type at `.limit`: expected a positive integer, but found a string: `"doggo"`'],
    [{ page: 'doggo' }, 'invalid_search_page', 'Invalid value type at `.page`: expected a positive integer, but found a string: `"doggo"`'],
    [{ hitsPerPage: 'doggo' }, 'invalid_search_hits_per_page', 'Invalid value type at `.hitsPerPage`: expected a positive integer, but found a string: `"doggo"`'],
    [{ attributesToRetrieve: 'doggo' }, 'invalid_search_attributes_to_retrieve', 'Invalid value type at `.attributesToRetrieve`: expected an array, but found a string: `"doggo"`'],
    [{ retrieveVectors: 'doggo' }, 'invalid_search_retrieve_vectors', 'Invalid value type at `.retrieveVectors`: expected a boolean, but found a string: `"doggo"`'],
    [{ retrieveVectors: [true] }, 'invalid_search_retrieve_vectors', 'Invalid value type at `.retrieveVectors`: expected a boolean, but found an array: `[true]`'],
    [{ attributesToCrop: 'doggo' }, 'invalid_search_attributes_to_crop', 'Invalid value type at `.attributesToCrop`: expected an array, but found a string: `"doggo"`'],
    [{ cropLength: 'doggo' }, 'invalid_search_crop_length', 'Invalid value type at `.cropLength`: expected a positive integer, but found a string: `"doggo"`'],
    [{ attributesToHighlight: 'doggo' }, 'invalid_search_attributes_to_highlight', 'Invalid value type at `.attributesToHighlight`: expected an array, but found a string: `"doggo"`'],
    [{ sort: 'doggo' }, 'invalid_search_sort', 'Invalid value type at `.sort`: expected an array, but found a string: `"doggo"`'],
    [{ showMatchesPosition: 'doggo' }, 'invalid_search_show_matches_position', 'Invalid value type at `.showMatchesPosition`: expected a boolean, but found a string: `"doggo"`'],
    [{ facets: 'doggo' }, 'invalid_search_facets', 'Invalid value type at `.facets`: expected an array, but found a string: `"doggo"`'],
    [{ rankingScoreThreshold: 'doggo' }, 'invalid_search_ranking_score_threshold', 'Invalid value type at `.rankingScoreThreshold`: expected a number, but found a string: `"doggo"`'],
    [
      { rankingScoreThreshold: 42 },
      'invalid_search_ranking_score_threshold',
      'Invalid value at `.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.',
    ],
    [{ highlightPreTag: ['doggo'] }, 'invalid_search_highlight_pre_tag', 'Invalid value type at `.highlightPreTag`: expected a string, but found an array: `["doggo"]`'],
    [{ highlightPostTag: ['doggo'] }, 'invalid_search_highlight_post_tag', 'Invalid value type at `.highlightPostTag`: expected a string, but found an array: `["doggo"]`'],
    [{ cropMarker: ['doggo'] }, 'invalid_search_crop_marker', 'Invalid value type at `.cropMarker`: expected a string, but found an array: `["doggo"]`'],
    [{ matchingStrategy: 'doggo' }, 'invalid_search_matching_strategy', 'Unknown value `doggo` at `.matchingStrategy`: expected one of `last`, `all`, `frequency`'],
    [
      { matchingStrategy: { doggo: 'doggo' } },
      'invalid_search_matching_strategy',
      'Invalid value type at `.matchingStrategy`: expected a string, but found an object: `{"doggo":"doggo"}`',
    ],
  ])('POST %j answers its own error, not index_not_found', async (body, code, message) => {
    expectError(await post(missing, body), 400, code, message);
  });

  it.each([
    ['?offset=doggo', 'invalid_search_offset', 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer'],
    ['?limit=doggo', 'invalid_search_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer'],
    ['?page=doggo', 'invalid_search_page', 'Invalid value in parameter `page`: could not parse `doggo` as a positive integer'],
    ['?hitsPerPage=doggo', 'invalid_search_hits_per_page', 'Invalid value in parameter `hitsPerPage`: could not parse `doggo` as a positive integer'],
    ['?retrieveVectors=', 'invalid_search_retrieve_vectors', 'Invalid value in parameter `retrieveVectors`: could not parse `` as a boolean, expected either `true` or `false`'],
    ['?retrieveVectors=doggo', 'invalid_search_retrieve_vectors', 'Invalid value in parameter `retrieveVectors`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    ['?cropLength=doggo', 'invalid_search_crop_length', 'Invalid value in parameter `cropLength`: could not parse `doggo` as a positive integer'],
    [
      '?showMatchesPosition=doggo',
      'invalid_search_show_matches_position',
      'Invalid value in parameter `showMatchesPosition`: could not parse `doggo` as a boolean, expected either `true` or `false`',
    ],
    ['?matchingStrategy=doggo', 'invalid_search_matching_strategy', 'Unknown value `doggo` for parameter `matchingStrategy`: expected one of `last`, `all`, `frequency`'],
  ])('GET %s answers its own error, not index_not_found', async (query, code, message) => {
    expectError(await get(missing, query), 400, code, message);
  });

  it('answers an unknown parameter with bad_request, not index_not_found', async () => {
    expect((await post(missing, { marin: 'hello' })).body.code).toBe('bad_request');
    expect((await get(missing, '?marin=hello')).body.code).toBe('bad_request');
  });

  it('checks the type of `filter` only once the index exists (search_bad_filter creates it first)', async () => {
    expectError(await post(missing, { filter: true }), 404, 'index_not_found', `Index \`${missing}\` not found.`);
    const uid = uniqueUid('created');
    await succeed(server, 'POST', '/indexes', { uid });
    expectError(await post(uid, { filter: true }), 400, 'invalid_search_filter', 'Invalid syntax for the filter parameter: `expected String, Array, found: true`.');
  });
});

describe('search_non_filterable_facets', () => {
  const withFilterable = async (filterableAttributes: string[]): Promise<string> => {
    const uid = uniqueUid('facets');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes });
    return uid;
  };

  it('names the pattern and the one filterable attribute', async () => {
    const uid = await withFilterable(['title']);
    await expectBoth(uid, { facets: ['doggo'] }, 'invalid_search_facets', 'Invalid facet distribution: Pattern `doggo` is not filterable. Available filterable attributes patterns are: `title`.');
  });

  it('lists the filterable attributes sorted', async () => {
    const uid = await withFilterable(['title', 'genres']);
    await expectBoth(uid, { facets: ['doggo'] }, 'invalid_search_facets', 'Invalid facet distribution: Pattern `doggo` is not filterable. Available filterable attributes patterns are: `genres, title`.');
  });

  it('says when no attribute is filterable', async () => {
    const uid = await withFilterable([]);
    await expectBoth(uid, { facets: ['doggo'] }, 'invalid_search_facets', 'Invalid facet distribution: Pattern `doggo` is not filterable. This index does not have configured filterable attributes.');
  });

  it('names the first pattern, in request order, that is not filterable', async () => {
    const uid = await withFilterable(['title', 'genres']);
    await expectBoth(
      uid,
      { facets: ['doggo', 'neko'] },
      'invalid_search_facets',
      'Invalid facet distribution: Pattern `doggo` is not filterable. Available filterable attributes patterns are: `genres, title`.',
    );
    await expectBoth(
      uid,
      { facets: ['title', 'neko', 'doggo'] },
      'invalid_search_facets',
      'Invalid facet distribution: Pattern `neko` is not filterable. Available filterable attributes patterns are: `genres, title`.',
    );
  });
});

describe('filter errors, on both indexing orders', () => {
  const settings = { filterableAttributes: ['title'] };
  const OPERATIONS =
    'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon`';
  const reserved = (name: string) =>
    `\`${name}\` is a reserved keyword and thus can't be used as a filter expression. Use the \`_geoRadius(latitude, longitude, distance)\` or \`_geoBoundingBox([latitude, longitude], [latitude, longitude])\` built-in rules to filter on \`_geo\` coordinates.`;

  /** The string form through POST and GET, the one-element array form through POST. */
  async function expectFilterError(uid: string, filter: string, message: string): Promise<void> {
    await expectBoth(uid, { filter }, 'invalid_search_filter', message);
    expectError(await post(uid, { filter: [filter] }), 400, 'invalid_search_filter', message);
  }

  it('reports syntax errors without the index prefix', async () => {
    await inBothOrders(server, DOCUMENTS, settings, async (uid) => {
      await expectFilterError(uid, 'title & Glass', `${OPERATIONS} at \`title & Glass\`.\n1:14 title & Glass`);
      await expectFilterError(
        uid,
        'title = Glass XOR title = Glass',
        'Found unexpected characters at the end of the filter: `XOR title = Glass`. You probably forgot an `OR` or an `AND` rule.\n15:32 title = Glass XOR title = Glass',
      );
    });
  });

  it('reports reserved geo names as syntax errors', async () => {
    await inBothOrders(server, DOCUMENTS, settings, async (uid) => {
      for (const name of ['_geo', '_geoDistance', '_geoPoint']) {
        const filter = `${name} = Glass`;
        await expectFilterError(uid, filter, `${reserved(name)}\n1:${filter.length + 1} ${filter}`);
      }
    });
  });

  it('reports an attribute that is not filterable inside the index, in the re-serialized filter', async () => {
    await inBothOrders(server, DOCUMENTS, settings, (uid) =>
      expectFilterError(uid, 'many = Glass', `Index \`${uid}\`: Attribute \`many\` is not filterable. Available filterable attribute patterns are: \`title\`.\n2:6 "many" = "Glass"`),
    );
  });
});

describe('search_with_pattern_filter_settings_errors', () => {
  const rule = (filter?: { equality: boolean; comparison: boolean }) => ({
    filterableAttributes: [{ attributePatterns: ['cattos', 'doggos.age'], ...(filter ? { features: { facetSearch: false, filter } } : {}) }],
  });
  const refused = (uid: string, operator: string, field: string, allowed: string, feature: string) =>
    `Index \`${uid}\`: Filter operator \`${operator}\` is not allowed for the attribute \`${field}\`.\n` +
    `  - Note: allowed operators: ${allowed}.\n` +
    `  - Note: field \`${field}\` matched rule #0 in \`filterableAttributes\`\n` +
    `  - Hint: enable ${feature} in rule #0 by modifying the features.filter object\n` +
    `  - Hint: prepend another rule matching \`${field}\` with appropriate filter features before rule #0`;
  const EQUALITY_ONLY = 'OR, AND, NOT, =, !=, IN, IS EMPTY, IS NULL, EXISTS';
  const COMPARISON_ONLY = 'OR, AND, NOT, <, >, <=, >=, TO, IS EMPTY, IS NULL, EXISTS';

  it.each([
    ['cattos = pésti', { equality: false, comparison: true }, '=', 'cattos', COMPARISON_ONLY, 'equality'],
    // `IN` is refused as `=`
    ['cattos IN [pésti, simba]', { equality: false, comparison: true }, '=', 'cattos', COMPARISON_ONLY, 'equality'],
    // an object rule without features allows equality only
    ['doggos.age > 2', undefined, '>', 'doggos.age', EQUALITY_ONLY, 'comparison'],
    ['doggos.age > 2', { equality: true, comparison: false }, '>', 'doggos.age', EQUALITY_ONLY, 'comparison'],
    ['doggos.age 2 TO 4', { equality: true, comparison: false }, 'TO', 'doggos.age', EQUALITY_ONLY, 'comparison'],
  ])('refuses %s under features %j', async (filter, features, operator, field, allowed, feature) => {
    await inBothOrders(server, NESTED_DOCUMENTS, rule(features), async (uid) => {
      await expectBoth(uid, { filter }, 'invalid_search_filter', refused(uid, operator, field, allowed, feature));
    });
  });
});

describe('distinct_at_search_time', () => {
  it('explains why the distinct attribute is refused as the settings change', async () => {
    const uid = uniqueUid('distinct');
    await seed(server, uid, [{ id: 1, color: 'Doggo', machin: 'Action' }]);
    const distinct = () => post(uid, { page: 0, hitsPerPage: 2, distinct: 'doggo.truc' });
    const head = `Index \`${uid}\`: Attribute \`doggo.truc\` is not filterable and thus, cannot be used as distinct attribute.`;
    expectError(await distinct(), 400, 'invalid_search_distinct', `${head} This index does not have configured filterable attributes.`);
    await succeed(server, 'PUT', `/indexes/${uid}/settings/filterable-attributes`, ['color', 'machin']);
    expectError(await distinct(), 400, 'invalid_search_distinct', `${head} Available filterable attributes patterns are: \`color, machin\`.`);
    await succeed(server, 'PUT', `/indexes/${uid}/settings/displayed-attributes`, ['color']);
    expectError(await distinct(), 400, 'invalid_search_distinct', `${head} Available filterable attributes patterns are: \`color, <..hidden-attributes>\`.`);
    expectError(
      await post(uid, { page: 0, hitsPerPage: 2, distinct: true }),
      400,
      'invalid_search_distinct',
      'Invalid value type at `.distinct`: expected a string, but found a boolean: `true`',
    );
  });
});

describe('search_with_contains_without_enabling_the_feature', () => {
  const GATE = 'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763';

  it('points at the CONTAINS keyword of the string, or of the array element holding it, before checking attributes', async () => {
    const uid = uniqueUid('contains');
    await succeed(server, 'POST', '/indexes', { uid });
    await expectBoth(uid, { filter: 'doggo CONTAINS kefir' }, 'feature_not_enabled', `${GATE}\n7:15 doggo CONTAINS kefir`);
    await expectBoth(uid, { filter: 'doggo != echo AND doggo CONTAINS kefir' }, 'feature_not_enabled', `${GATE}\n25:33 doggo != echo AND doggo CONTAINS kefir`);
    for (const filter of [
      ['doggo != echo', 'doggo CONTAINS kefir'],
      ['doggo != echo', ['doggo CONTAINS kefir']],
    ]) {
      expectError(await post(uid, { filter }), 400, 'feature_not_enabled', `${GATE}\n7:15 doggo CONTAINS kefir`, 'invalid_request');
    }
  });
});
