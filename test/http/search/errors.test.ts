// Every bad search parameter answers its own error with Meilisearch's exact message, through raw
// HTTP (POST body and GET query string), plus the errors that need the index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

// v1.50's locales (meilisearch-types locales.rs): as deserr lists them, and sorted as `LocaleFormatError` lists them
const DECLARED_LOCALES =
  '`af`, `ak`, `am`, `ar`, `az`, `be`, `bn`, `bg`, `ca`, `cs`, `da`, `de`, `el`, `en`, `eo`, `et`, `fi`, `fr`, `gu`, `he`, `hi`, `hr`, `hu`, `hy`, `id`, `it`, `jv`, `ja`, `kn`, `ka`, `km`, `ko`, `la`, `lv`, `lt`, `ml`, `mr`, `mk`, `my`, `ne`, `nl`, `nb`, `or`, `pa`, `fa`, `pl`, `pt`, `ro`, `ru`, `si`, `sk`, `sl`, `sn`, `es`, `sr`, `sv`, `ta`, `te`, `tl`, `th`, `tk`, `tr`, `uk`, `ur`, `uz`, `vi`, `yi`, `zh`, `zu`, `afr`, `aka`, `amh`, `ara`, `aze`, `bel`, `ben`, `bul`, `cat`, `ces`, `dan`, `deu`, `ell`, `eng`, `epo`, `est`, `fin`, `fra`, `guj`, `heb`, `hin`, `hrv`, `hun`, `hye`, `ind`, `ita`, `jav`, `jpn`, `kan`, `kat`, `khm`, `kor`, `lat`, `lav`, `lit`, `mal`, `mar`, `mkd`, `mya`, `nep`, `nld`, `nob`, `ori`, `pan`, `pes`, `pol`, `por`, `ron`, `rus`, `sin`, `slk`, `slv`, `sna`, `spa`, `srp`, `swe`, `tam`, `tel`, `tgl`, `tha`, `tuk`, `tur`, `ukr`, `urd`, `uzb`, `vie`, `yid`, `zho`, `zul`, `cmn`';
const SORTED_LOCALES =
  'af, ak, am, ar, az, be, bg, bn, ca, cs, da, de, el, en, eo, es, et, fa, fi, fr, gu, he, hi, hr, hu, hy, id, it, ja, jv, ka, km, kn, ko, la, lt, lv, mk, ml, mr, my, nb, ne, nl, or, pa, pl, pt, ro, ru, si, sk, sl, sn, sr, sv, ta, te, th, tk, tl, tr, uk, ur, uz, vi, yi, zh, zu, afr, aka, amh, ara, aze, bel, ben, bul, cat, ces, cmn, dan, deu, ell, eng, epo, est, fin, fra, guj, heb, hin, hrv, hun, hye, ind, ita, jav, jpn, kan, kat, khm, kor, lat, lav, lit, mal, mar, mkd, mya, nep, nld, nob, ori, pan, pes, pol, por, ron, rus, sin, slk, slv, sna, spa, srp, swe, tam, tel, tgl, tha, tuk, tur, ukr, urd, uzb, vie, yid, zho, zul';

let server: TestServer;
const INDEX = 'search-errors';

beforeAll(async () => {
  server = await startServer();
  await run(server, 'POST', `/indexes/${INDEX}/documents`, [{ id: 1, title: 'Batman', color: 'black' }]);
  await run(server, 'PATCH', `/indexes/${INDEX}/settings`, {
    searchableAttributes: ['id', 'title'],
    filterableAttributes: ['title'],
    sortableAttributes: ['id'],
  });
});
afterAll(async () => {
  await server.dispose();
});

async function expectError(method: 'GET' | 'POST', query: string | Record<string, unknown>, code: string, message: string, status = 400) {
  const reply =
    method === 'GET'
      ? await call(server, 'GET', `/indexes/${INDEX}/search${query as string}`)
      : await call(server, 'POST', `/indexes/${INDEX}/search`, query);
  expect({ status: reply.status, body: reply.body }).toEqual({ status, body: errorBody(code, message) });
}

describe('search errors', () => {
  it('answers index_not_found for an unknown index, on POST and GET', async () => {
    const expected = { status: 404, body: errorBody('index_not_found', 'Index `nope` not found.') };
    const post = await call(server, 'POST', '/indexes/nope/search', { q: 'hello' });
    expect({ status: post.status, body: post.body }).toEqual(expected);
    const get = await call(server, 'GET', '/indexes/nope/search?q=hello');
    expect({ status: get.status, body: get.body }).toEqual(expected);
  });

  it('checks the body before the index exists', async () => {
    const reply = await call(server, 'POST', '/indexes/nope/search', { q: ['doggo'] });
    expect(reply.body.code).toBe('invalid_search_q');
  });

  it('rejects an unknown body field or query parameter with bad_request', async () => {
    const post = await call(server, 'POST', `/indexes/${INDEX}/search`, { marin: 'hello' });
    expect(post.status).toBe(400);
    expect(post.body.code).toBe('bad_request');
    // v1.50's `SearchQuery` and `SearchQueryGet` declaration orders (search.md §1)
    expect(post.body.message).toBe(
      'Unknown field `marin`: expected one of `q`, `offset`, `limit`, `page`, `hitsPerPage`, `attributesToRetrieve`, `attributesToCrop`, `cropLength`, `cropMarker`, `attributesToHighlight`, `highlightPreTag`, `highlightPostTag`, `showMatchesPosition`, `filter`, `sort`, `distinct`, `facets`, `matchingStrategy`, `attributesToSearchOn`, `rankingScoreThreshold`, `locales`, `hybrid`, `vector`, `retrieveVectors`, `media`, `personalize`, `useNetwork`, `showRankingScore`, `showRankingScoreDetails`, `showPerformanceDetails`',
    );
    const get = await call(server, 'GET', `/indexes/${INDEX}/search?doggo=1`);
    expect(get.body.code).toBe('bad_request');
    expect(get.body.message).toBe(
      'Unknown parameter `doggo`: expected one of `q`, `offset`, `limit`, `page`, `hitsPerPage`, `attributesToRetrieve`, `attributesToCrop`, `cropLength`, `cropMarker`, `attributesToHighlight`, `highlightPreTag`, `highlightPostTag`, `showMatchesPosition`, `filter`, `sort`, `distinct`, `facets`, `matchingStrategy`, `attributesToSearchOn`, `rankingScoreThreshold`, `locales`, `hybridEmbedder`, `hybridSemanticRatio`, `vector`, `retrieveVectors`, `personalizeUserContext`, `useNetwork`, `showRankingScore`, `showRankingScoreDetails`, `showPerformanceDetails`',
    );
    const hybrid = await call(server, 'POST', `/indexes/${INDEX}/search`, { hybrid: { embedder: 'x', foo: 1 } });
    expect(hybrid.body.message).toBe('Unknown field `foo` inside `.hybrid`: expected one of `semanticRatio`, `embedder`');
  });

  it('answers a missing index before a vector without hybrid (v1.50 opens the index first)', async () => {
    const reply = await call(server, 'POST', '/indexes/no-such-index/search', { vector: [1] });
    expect(reply.status).toBe(404);
    expect(reply.body.code).toBe('index_not_found');
  });

  it('refuses GET filter=null as a filter of the wrong type', async () => {
    const reply = await call(server, 'GET', `/indexes/${INDEX}/search?filter=null`);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_search_filter', message: 'Invalid syntax for the filter parameter: `expected String, Array, found: null`.' });
  });

  it.each([
    ['?vector=a', 'Invalid value in parameter `vector`: invalid float literal'],
    ['?vector=1,0x10', 'Invalid value in parameter `vector`: invalid float literal'],
  ])('GET %s answers Rust\'s float parse error', async (query, message) => {
    const reply = await call(server, 'GET', `/indexes/${INDEX}/search${query}`);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid_search_vector', message });
  });

  it.each([
    ['q', ['doggo'], 'invalid_search_q', 'Invalid value type at `.q`: expected a string, but found an array: `["doggo"]`'],
    ['offset', 'doggo', 'invalid_search_offset', 'Invalid value type at `.offset`: expected a positive integer, but found a string: `"doggo"`'],
    ['limit', 'doggo', 'invalid_search_limit', 'Invalid value type at `.limit`: expected a positive integer, but found a string: `"doggo"`'],
    ['page', 'doggo', 'invalid_search_page', 'Invalid value type at `.page`: expected a positive integer, but found a string: `"doggo"`'],
    ['hitsPerPage', 'doggo', 'invalid_search_hits_per_page', 'Invalid value type at `.hitsPerPage`: expected a positive integer, but found a string: `"doggo"`'],
    ['attributesToRetrieve', 'doggo', 'invalid_search_attributes_to_retrieve', 'Invalid value type at `.attributesToRetrieve`: expected an array, but found a string: `"doggo"`'],
    ['retrieveVectors', [true], 'invalid_search_retrieve_vectors', 'Invalid value type at `.retrieveVectors`: expected a boolean, but found an array: `[true]`'],
    ['attributesToCrop', 'doggo', 'invalid_search_attributes_to_crop', 'Invalid value type at `.attributesToCrop`: expected an array, but found a string: `"doggo"`'],
    ['cropLength', 'doggo', 'invalid_search_crop_length', 'Invalid value type at `.cropLength`: expected a positive integer, but found a string: `"doggo"`'],
    ['attributesToHighlight', 'doggo', 'invalid_search_attributes_to_highlight', 'Invalid value type at `.attributesToHighlight`: expected an array, but found a string: `"doggo"`'],
    ['sort', 'doggo', 'invalid_search_sort', 'Invalid value type at `.sort`: expected an array, but found a string: `"doggo"`'],
    ['showMatchesPosition', 'doggo', 'invalid_search_show_matches_position', 'Invalid value type at `.showMatchesPosition`: expected a boolean, but found a string: `"doggo"`'],
    ['showRankingScore', 'doggo', 'invalid_search_show_ranking_score', 'Invalid value type at `.showRankingScore`: expected a boolean, but found a string: `"doggo"`'],
    ['showRankingScoreDetails', 'doggo', 'invalid_search_show_ranking_score_details', 'Invalid value type at `.showRankingScoreDetails`: expected a boolean, but found a string: `"doggo"`'],
    ['facets', 'doggo', 'invalid_search_facets', 'Invalid value type at `.facets`: expected an array, but found a string: `"doggo"`'],
    ['highlightPreTag', ['doggo'], 'invalid_search_highlight_pre_tag', 'Invalid value type at `.highlightPreTag`: expected a string, but found an array: `["doggo"]`'],
    ['highlightPostTag', ['doggo'], 'invalid_search_highlight_post_tag', 'Invalid value type at `.highlightPostTag`: expected a string, but found an array: `["doggo"]`'],
    ['cropMarker', ['doggo'], 'invalid_search_crop_marker', 'Invalid value type at `.cropMarker`: expected a string, but found an array: `["doggo"]`'],
    ['matchingStrategy', 'doggo', 'invalid_search_matching_strategy', 'Unknown value `doggo` at `.matchingStrategy`: expected one of `last`, `all`, `frequency`'],
    ['matchingStrategy', { doggo: 'doggo' }, 'invalid_search_matching_strategy', 'Invalid value type at `.matchingStrategy`: expected a string, but found an object: `{"doggo":"doggo"}`'],
    ['rankingScoreThreshold', 'doggo', 'invalid_search_ranking_score_threshold', 'Invalid value type at `.rankingScoreThreshold`: expected a number, but found a string: `"doggo"`'],
    ['rankingScoreThreshold', 42, 'invalid_search_ranking_score_threshold', 'Invalid value at `.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.'],
    ['distinct', true, 'invalid_search_distinct', 'Invalid value type at `.distinct`: expected a string, but found a boolean: `true`'],
    ['attributesToSearchOn', 'doggo', 'invalid_search_attributes_to_search_on', 'Invalid value type at `.attributesToSearchOn`: expected an array, but found a string: `"doggo"`'],
    ['filter', true, 'invalid_search_filter', 'Invalid syntax for the filter parameter: `expected String, Array, found: true`.'],
    ['locales', ['invalid'], 'invalid_search_locales', `Unknown value \`invalid\` at \`.locales[0]\`: expected one of ${DECLARED_LOCALES}`],
  ])('POST %s = %j answers %s', async (field, value, code, message) => {
    await expectError('POST', { [field]: value }, code, message);
  });

  it.each([
    ['?offset=doggo', 'invalid_search_offset', 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer'],
    ['?limit=doggo', 'invalid_search_limit', 'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer'],
    ['?page=doggo', 'invalid_search_page', 'Invalid value in parameter `page`: could not parse `doggo` as a positive integer'],
    ['?hitsPerPage=doggo', 'invalid_search_hits_per_page', 'Invalid value in parameter `hitsPerPage`: could not parse `doggo` as a positive integer'],
    ['?cropLength=doggo', 'invalid_search_crop_length', 'Invalid value in parameter `cropLength`: could not parse `doggo` as a positive integer'],
    ['?retrieveVectors=', 'invalid_search_retrieve_vectors', 'Invalid value in parameter `retrieveVectors`: could not parse `` as a boolean, expected either `true` or `false`'],
    ['?retrieveVectors=doggo', 'invalid_search_retrieve_vectors', 'Invalid value in parameter `retrieveVectors`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    ['?showMatchesPosition=doggo', 'invalid_search_show_matches_position', 'Invalid value in parameter `showMatchesPosition`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    ['?showRankingScore=doggo', 'invalid_search_show_ranking_score', 'Invalid value in parameter `showRankingScore`: could not parse `doggo` as a boolean, expected either `true` or `false`'],
    ['?matchingStrategy=doggo', 'invalid_search_matching_strategy', 'Unknown value `doggo` for parameter `matchingStrategy`: expected one of `last`, `all`, `frequency`'],
    ['?rankingScoreThreshold=2', 'invalid_search_ranking_score_threshold', 'Invalid value in parameter `rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.'],
    ['?hybridSemanticRatio=0.5', 'invalid_search_hybrid_query', '`hybridEmbedder` is mandatory when `hybridSemanticRatio` is present'],
    ['?vector=1,2', 'missing_search_hybrid', '`hybridEmbedder` is mandatory when `vector` is present'],
    ['?locales=invalid', 'invalid_search_locales', `Invalid value in parameter \`locales\`: Unsupported locale \`invalid\`, expected one of ${SORTED_LOCALES}`],
  ])('GET %s answers %s', async (query, code, message) => {
    await expectError('GET', query, code, message);
  });

  it('refuses vector or media without hybrid, and both together', async () => {
    await expectError('POST', { vector: [1, 2] }, 'missing_search_hybrid', 'Invalid request: missing `hybrid` parameter when `vector` or `media` are present.');
    await expectError('POST', { vector: [1], media: { a: 1 }, hybrid: { embedder: 'e' } }, 'invalid_search_media_and_vector', 'Invalid request: both `media` and `vector` parameters are present.');
    await expectError('POST', { q: 'a', hybrid: { embedder: 'default' } }, 'invalid_search_embedder', 'Cannot find embedder with name `default`.');
  });

  it('reports filter syntax errors plainly, and filter attribute errors inside the index, in the re-serialized filter', async () => {
    await expectError(
      'POST',
      { filter: 'title = Glass XOR title = Glass' },
      'invalid_search_filter',
      'Found unexpected characters at the end of the filter: `XOR title = Glass`. You probably forgot an `OR` or an `AND` rule.\n15:32 title = Glass XOR title = Glass',
    );
    await expectError(
      'POST',
      { filter: 'many = Glass' },
      'invalid_search_filter',
      `Index \`${INDEX}\`: Attribute \`many\` is not filterable. Available filterable attribute patterns are: \`title\`.\n2:6 "many" = "Glass"`,
    );
    await expectError(
      'GET',
      '?filter=many%20%3D%20Glass',
      'invalid_search_filter',
      `Index \`${INDEX}\`: Attribute \`many\` is not filterable. Available filterable attribute patterns are: \`title\`.\n2:6 "many" = "Glass"`,
    );
  });

  it('reports sort errors', async () => {
    await expectError('POST', { sort: ['title'] }, 'invalid_search_sort', 'Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `title`.');
    await expectError(
      'POST',
      { sort: ['_geo:asc'] },
      'invalid_search_sort',
      "`_geo` is a reserved keyword and thus can't be used as a sort expression. Use the _geoPoint(latitude, longitude) built-in rule to sort on _geo field coordinates.",
    );
    await expectError('POST', { sort: ['_geoDistance:asc'] }, 'invalid_search_sort', "`_geoDistance` is a reserved keyword and thus can't be used as a sort expression.");
    await expectError('POST', { sort: ['title:asc'] }, 'invalid_search_sort', `Index \`${INDEX}\`: Attribute \`title\` is not sortable. Available sortable attributes are: \`id\`.`);
  });

  it('reports an attribute the filter cannot use before a sort or facets it cannot use (milli filters first)', async () => {
    const notFilterable = `Index \`${INDEX}\`: Attribute \`many\` is not filterable. Available filterable attribute patterns are: \`title\`.\n2:6 "many" = "x"`;
    await expectError('POST', { sort: ['title:asc'], filter: 'many = x' }, 'invalid_search_filter', notFilterable);
    await expectError('POST', { facets: ['many'], filter: 'many = x' }, 'invalid_search_filter', notFilterable);
    // a sort's syntax is read before the search
    await expectError('POST', { sort: ['title'], filter: 'many = x' }, 'invalid_search_sort', 'Invalid syntax for the sort parameter: expected expression ending by `:asc` or `:desc`, found `title`.');
  });

  it('requires sort in the ranking rules to sort at search time', async () => {
    const uid = `${INDEX}-rules`;
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, title: 'a' }]);
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { sortableAttributes: ['title'], rankingRules: ['proximity', 'exactness'] });
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { sort: ['title:asc'] });
    expect(reply.body).toEqual(
      errorBody('invalid_search_sort', `Index \`${uid}\`: You must specify where \`sort\` is listed in the rankingRules setting to use the sort parameter at search time.`),
    );
    // milli's check_sort_criteria looks for the rule before it checks each attribute
    const unsortable = await call(server, 'POST', `/indexes/${uid}/search`, { sort: ['nope:asc'] });
    expect(unsortable.body).toEqual(reply.body);
  });

  it('refuses attributesToSearchOn outside the searchable attributes, even next to *', async () => {
    for (const attributes of [['unknown'], ['*', 'unknown'], ['unknown', '*']]) {
      await expectError(
        'POST',
        { q: 'Captain Marvel', attributesToSearchOn: attributes },
        'invalid_search_attributes_to_search_on',
        `Index \`${INDEX}\`: Attribute \`unknown\` is not searchable. Available searchable attributes are: \`id, title\`.`,
      );
    }
  });

  it('refuses a distinct attribute that is not filterable', async () => {
    await expectError(
      'POST',
      { distinct: 'doggo.truc' },
      'invalid_search_distinct',
      `Index \`${INDEX}\`: Attribute \`doggo.truc\` is not filterable and thus, cannot be used as distinct attribute. Available filterable attributes patterns are: \`title\`.`,
    );
  });

  it('lists only displayed attributes in the distinct, sort and attributesToSearchOn errors, and says others are hidden', async () => {
    const uid = `${INDEX}-hidden`;
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, color: 'Doggo', machin: 'Action' }]);
    await run(server, 'PATCH', `/indexes/${uid}/settings`, {
      displayedAttributes: ['color'],
      searchableAttributes: ['color', 'machin'],
      filterableAttributes: ['color', 'machin'],
      sortableAttributes: ['color', 'machin'],
    });
    const expectHidden = async (query: Record<string, unknown>, code: string, message: string) => {
      const reply = await call(server, 'POST', `/indexes/${uid}/search`, query);
      expect({ status: reply.status, body: reply.body }).toEqual({ status: 400, body: errorBody(code, message) });
    };
    await expectHidden(
      { distinct: 'doggo.truc' },
      'invalid_search_distinct',
      `Index \`${uid}\`: Attribute \`doggo.truc\` is not filterable and thus, cannot be used as distinct attribute. Available filterable attributes patterns are: \`color, <..hidden-attributes>\`.`,
    );
    await expectHidden(
      { sort: ['id:asc'] },
      'invalid_search_sort',
      `Index \`${uid}\`: Attribute \`id\` is not sortable. Available sortable attributes are: \`color, <..hidden-attributes>\`.`,
    );
    await expectHidden(
      { attributesToSearchOn: ['id'] },
      'invalid_search_attributes_to_search_on',
      `Index \`${uid}\`: Attribute \`id\` is not searchable. Available searchable attributes are: \`color, <..hidden-attributes>\`.`,
    );
    // every listed attribute hidden: "none configured" where v1.50 says so, an empty list before the marker where it does not
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { displayedAttributes: ['id'] });
    await expectHidden(
      { distinct: 'doggo.truc' },
      'invalid_search_distinct',
      `Index \`${uid}\`: Attribute \`doggo.truc\` is not filterable and thus, cannot be used as distinct attribute. This index does not have configured filterable attributes.`,
    );
    await expectHidden({ sort: ['id:asc'] }, 'invalid_search_sort', `Index \`${uid}\`: Attribute \`id\` is not sortable. This index does not have configured sortable attributes.`);
    await expectHidden(
      { attributesToSearchOn: ['id'] },
      'invalid_search_attributes_to_search_on',
      `Index \`${uid}\`: Attribute \`id\` is not searchable. Available searchable attributes are: \`, <..hidden-attributes>\`.`,
    );
  });
});

describe('numbers sent as floats where an integer is wanted', () => {
  const post = (path: string, text: string) => call(server, path.startsWith('/indexes/') && path.endsWith('settings') ? 'PATCH' : 'POST', path, text);
  const found = (location: string, number: string) => `Invalid value type at \`${location}\`: expected a positive integer, but found a number: \`${number}\``;

  it('refuses an integer value written as a float, as serde_json reads it (`20.0`, `1e1`, `-0`)', async () => {
    for (const [text, code, message] of [
      ['{"limit": 20.0}', 'invalid_search_limit', found('.limit', '20.0')],
      ['{"offset": 1e1}', 'invalid_search_offset', found('.offset', '10.0')],
      ['{"hitsPerPage": -0}', 'invalid_search_hits_per_page', found('.hitsPerPage', '-0.0')],
      ['{"cropLength": 2.00}', 'invalid_search_crop_length', found('.cropLength', '2.0')],
    ]) {
      const reply = await post(`/indexes/${INDEX}/search`, text!);
      expect({ status: reply.status, body: reply.body }, text).toEqual({ status: 400, body: errorBody(code!, message!) });
    }
  });

  it('reports it where deserr meets it among the other errors', async () => {
    const q = errorBody('invalid_search_q', 'Invalid value type at `.q`: expected a string, but found a positive integer: `5`');
    expect((await post(`/indexes/${INDEX}/search`, '{"q": 5, "limit": 20.0}')).body).toEqual(q);
    expect((await post(`/indexes/${INDEX}/search`, '{"limit": 20.0, "q": 5}')).body).toEqual(errorBody('invalid_search_limit', found('.limit', '20.0')));
  });

  it('answers like a fraction in the same place in settings and multi-search', async () => {
    for (const [path, template] of [
      [`/indexes/${INDEX}/settings`, '{"pagination": {"maxTotalHits": N}}'],
      [`/indexes/${INDEX}/settings`, '{"typoTolerance": {"minWordSizeForTypos": {"oneTypo": N}}}'],
      ['/multi-search', `{"queries": [{"indexUid": "${INDEX}", "limit": N}]}`],
      ['/multi-search', `{"federation": {"offset": N}, "queries": []}`],
      [`/indexes/${INDEX}/documents/fetch`, '{"limit": N}'],
    ]) {
      const fraction = await post(path!, template!.replace('N', '3.5'));
      const integral = await post(path!, template!.replace('N', '3.0'));
      expect(fraction.status, template).toBe(400);
      expect(integral.body, template).toEqual({ ...fraction.body, message: fraction.body.message.replace('`3.5`', '`3.0`') });
    }
  });

  it('accepts floats where numbers are wanted, and float-like text in strings', async () => {
    const reply = await post(`/indexes/${INDEX}/search`, '{"q": "batman 2.0 1e3", "limit": 20, "rankingScoreThreshold": 0.0}');
    expect(reply.status).toBe(200);
  });
});
