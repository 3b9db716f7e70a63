// Port of Meilisearch's crates/meilisearch/tests/search/locales.rs: `locales` at search time and
// `localizedAttributes` in the settings over English, Japanese and Mandarin documents (flat and
// nested), Swedish and German text: which documents a query finds and how their fields are
// highlighted as each forced, inferred or pattern-assigned language cuts them; search and facet
// search with locales; settings changes re-cutting the stored documents; the errors of an unknown
// locale (POST and GET) and of malformed localizedAttributes rules.
//
// As in the Rust harness, every `index.search` is run as POST and as GET (lists comma-separated,
// as yaup writes them), both compared with the same snapshot; each case has an index of its own
// on one shared server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, uniqueUid } from '../../helpers/api.js';
import { expectJson, stableResponse, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.dispose();
});

/** yaup's query string of a search body: lists joined by commas. */
function queryString(body: Record<string, unknown>): string {
  return Object.entries(body)
    .map(([key, value]) => `${key}=${encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value))}`)
    .join('&');
}

/**
 * The search (`both`: POST then GET, `POST`, `GET`) or facet search (`facet`) of `body` on `uid`,
 * its status and its body as the snapshot has it (processingTimeMs and requestUid redacted).
 */
async function expectSearch(uid: string, route: 'both' | 'POST' | 'GET' | 'facet', body: Record<string, unknown>, status: number, expected: unknown): Promise<void> {
  const replies =
    route === 'facet'
      ? [await call(server, 'POST', `/indexes/${uid}/facet-search`, body)]
      : [
          ...(route === 'GET' ? [] : [await call(server, 'POST', `/indexes/${uid}/search`, body)]),
          ...(route === 'POST' ? [] : [await call(server, 'GET', `/indexes/${uid}/search?${queryString(body)}`)]),
        ];
  for (const reply of replies) {
    expect(reply.status, reply.text).toBe(status);
    expectJson(status === 200 ? stableResponse(reply.body) : reply.body, expected);
  }
}

const NESTED_DOCUMENTS = [
  {
    id: 852,
    document_en: {
      name: 'Attack on Titan',
      description: 'Attack on Titan is a Japanese manga series written and illustrated by Hajime Isayama',
      author: 'Hajime Isayama',
    },
    document_ja: { name: '進撃の巨人', description: '進撃の巨人は、日本の漫画シリーズであり、諫山 創によって作画されている。', author: '諫山 創' },
    document_zh: { name: '进击的巨人', description: '进击的巨人是日本的漫画系列，由諫山 創作画。', author: '諫山創' },
    _vectors: { manual: [1, 2, 3] },
  },
  {
    id: 654,
    document_en: {
      name: 'One Piece',
      description: 'One Piece is a Japanese manga series written and illustrated by Eiichiro Oda',
      author: 'Eiichiro Oda',
    },
    document_ja: { name: 'ワンピース', description: 'ワンピースは、日本の漫画シリーズであり、尾田 栄一郎によって作画されている。', author: '尾田 栄一郎' },
    document_zh: { name: 'ONE PIECE', description: '海贼王》是尾田荣一郎创作的日本漫画系列。', author: '尾田 栄一郎' },
    _vectors: { manual: [1, 2, 54] },
  },
];

const DOCUMENTS = [
  {
    id: 852,
    name_en: 'Attack on Titan',
    description_en: 'Attack on Titan is a Japanese manga series written and illustrated by Hajime Isayama',
    author_en: 'Hajime Isayama',
    name_ja: '進撃の巨人',
    description_ja: '進撃の巨人は、日本の漫画シリーズであり、諫山 創によって作画されている。',
    author_ja: '諫山 創',
    _vectors: { manual: [1, 2, 3] },
  },
  {
    id: 853,
    name_zh: '进击的巨人',
    description_zh: '进击的巨人是日本的漫画系列，由諫山 創作画。',
    author_zh: '諫山創',
    _vectors: { manual: [1, 2, 3] },
  },
  {
    id: 654,
    name_en: 'One Piece',
    description_en: 'One Piece is a Japanese manga series written and illustrated by Eiichiro Oda',
    author_en: 'Eiichiro Oda',
    name_ja: 'ワンピース',
    description_ja: 'ワンピースは、日本の漫画シリーズであり、尾田 栄一郎によって作画されている。',
    author_ja: '尾田 栄一郎',
    _vectors: { manual: [1, 2, 54] },
  },
  {
    id: 655,
    name_zh: 'ONE PIECE',
    description_zh: '海贼王》是尾田荣一郎创作的日本漫画系列。',
    author_zh: '尾田 栄一郎',
    _vectors: { manual: [1, 2, 54] },
  },
];

describe('locales (search/locales.rs)', () => {
  it('simple_search: a Han query finds the Mandarin-cut document unless locales say Japanese', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: [
        'name_en',
        'name_ja',
        'name_zh',
        'author_en',
        'author_ja',
        'author_zh',
        'description_en',
        'description_ja',
        'description_zh',
      ],
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    await expectSearch(uid, 'both', { q: 'Atta', attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 852 }],
      query: 'Atta',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '進撃', attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 853 }],
      query: '進撃',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '進撃', locales: ['jpn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 852 }],
      query: '進撃',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '进击', attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 853 }],
      query: '进击',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
  });

  it('force_locales: localizedAttributes forcing Japanese on every field change what a Mandarin-looking query finds', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: [
        'name_en',
        'name_ja',
        'name_zh',
        'author_en',
        'author_ja',
        'author_zh',
        'description_en',
        'description_ja',
        'description_zh',
      ],
      localizedAttributes: [
        {
          attributePatterns: ['name_ja', 'name_zh', 'author_ja', 'author_zh', 'description_ja', 'description_zh'],
          locales: ['jpn'],
        },
      ],
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    await expectSearch(uid, 'both', { q: '"进击的巨人"', attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 853 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['jpn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 853 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
  });

  it('force_locales_with_pattern: a pattern assigns Japanese to the fields it matches only', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: [
        'name_en',
        'name_ja',
        'name_zh',
        'author_en',
        'author_ja',
        'author_zh',
        'description_en',
        'description_ja',
        'description_zh',
      ],
      localizedAttributes: [{ attributePatterns: ['*_ja', '*_zh'], locales: ['jpn'] }],
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    await expectSearch(uid, 'both', { q: '"进击的巨人"', attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 853 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['jpn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 853 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
  });

  it('force_locales_with_pattern_nested: patterns reach nested fields', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: ['document_en', 'document_ja', 'document_zh'],
      localizedAttributes: [{ attributePatterns: ['document_ja.*', '*_zh.*'], locales: ['jpn'] }],
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, NESTED_DOCUMENTS);
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['cmn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 0,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['jpn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 852 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
  });

  it('force_different_locales_with_pattern: different patterns give fields different languages', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: [
        'name_en',
        'name_ja',
        'name_zh',
        'author_en',
        'author_ja',
        'author_zh',
        'description_en',
        'description_ja',
        'description_zh',
      ],
      localizedAttributes: [{ attributePatterns: ['*_zh'], locales: ['jpn'] }, { attributePatterns: ['*_ja'], locales: ['cmn'] }],
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['cmn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 0,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['jpn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 853 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
  });

  it('auto_infer_locales_at_search_with_attributes_to_search_on: the query language is inferred from the fields searched with attributesToSearchOn', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: [
        'name_en',
        'name_ja',
        'name_zh',
        'author_en',
        'author_ja',
        'author_zh',
        'description_en',
        'description_ja',
        'description_zh',
      ],
      localizedAttributes: [
        { attributePatterns: ['*_zh'], locales: ['jpn'] },
        { attributePatterns: ['*_ja'], locales: ['cmn'] },
        { attributePatterns: ['*_en'], locales: [] },
      ],
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    await expectSearch(uid, 'both', { q: '"进击的巨人"', attributesToRetrieve: ['id'] }, 200, {
      hits: [],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 0,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', attributesToRetrieve: ['id'], attributesToSearchOn: ['name_zh', 'description_zh'] }, 200, {
      hits: [{ id: 853 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
  });

  it('auto_infer_locales_at_search: the query language is inferred from the rules of all searchable fields', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: [
        'name_en',
        'name_ja',
        'name_zh',
        'author_en',
        'author_ja',
        'author_zh',
        'description_en',
        'description_ja',
        'description_zh',
      ],
      localizedAttributes: [{ attributePatterns: ['*'], locales: ['jpn'] }],
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    await expectSearch(uid, 'both', { q: '"进击的巨人"', attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 853 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 853 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 853 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
  });

  it('force_different_locales_with_pattern_nested: nested fields take different languages from different patterns', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: ['document_en', 'document_ja', 'document_zh'],
      localizedAttributes: [
        { attributePatterns: ['*_zh.*'], locales: ['jpn'] },
        { attributePatterns: ['document_ja.*', 'document_zh.*'], locales: ['cmn'] },
      ],
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, NESTED_DOCUMENTS);
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['cmn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 0,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['jpn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 852 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['ja'], attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 852 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
  });

  it('settings_change: changing localizedAttributes re-cuts the stored documents', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'POST', `/indexes/${uid}/documents`, NESTED_DOCUMENTS);
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: ['document_en', 'document_ja', 'document_zh'],
      localizedAttributes: [{ attributePatterns: ['document_ja.*', '*_zh.*'], locales: ['jpn'] }],
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['cmn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 0,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['jpn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 852 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: ['document_en', 'document_ja', 'document_zh'],
      localizedAttributes: [{ attributePatterns: ['*_zh.*'], locales: ['jpn'] }, { attributePatterns: ['document_ja.*'], locales: ['cmn'] }],
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['cmn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 0,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: '"进击的巨人"', locales: ['jpn'], attributesToRetrieve: ['id'] }, 200, {
      hits: [{ id: 852 }],
      query: '"进击的巨人"',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
  });

  it('invalid_locales: an unknown locale is invalid_search_locales, with the POST and GET wordings', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      searchableAttributes: [
        'name_en',
        'name_ja',
        'name_zh',
        'author_en',
        'author_ja',
        'author_zh',
        'description_en',
        'description_ja',
        'description_zh',
      ],
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    await expectSearch(uid, 'POST', { q: 'Atta', locales: ['invalid'] }, 400, {
      message: 'Unknown value `invalid` at `.locales[0]`: expected one of `af`, `ak`, `am`, `ar`, `az`, `be`, `bn`, `bg`, `ca`, `cs`, `da`, `de`, `el`, `en`, `eo`, `et`, `fi`, `fr`, `gu`, `he`, `hi`, `hr`, `hu`, `hy`, `id`, `it`, `jv`, `ja`, `kn`, `ka`, `km`, `ko`, `la`, `lv`, `lt`, `ml`, `mr`, `mk`, `my`, `ne`, `nl`, `nb`, `or`, `pa`, `fa`, `pl`, `pt`, `ro`, `ru`, `si`, `sk`, `sl`, `sn`, `es`, `sr`, `sv`, `ta`, `te`, `tl`, `th`, `tk`, `tr`, `uk`, `ur`, `uz`, `vi`, `yi`, `zh`, `zu`, `afr`, `aka`, `amh`, `ara`, `aze`, `bel`, `ben`, `bul`, `cat`, `ces`, `dan`, `deu`, `ell`, `eng`, `epo`, `est`, `fin`, `fra`, `guj`, `heb`, `hin`, `hrv`, `hun`, `hye`, `ind`, `ita`, `jav`, `jpn`, `kan`, `kat`, `khm`, `kor`, `lat`, `lav`, `lit`, `mal`, `mar`, `mkd`, `mya`, `nep`, `nld`, `nob`, `ori`, `pan`, `pes`, `pol`, `por`, `ron`, `rus`, `sin`, `slk`, `slv`, `sna`, `spa`, `srp`, `swe`, `tam`, `tel`, `tgl`, `tha`, `tuk`, `tur`, `ukr`, `urd`, `uzb`, `vie`, `yid`, `zho`, `zul`, `cmn`',
      code: 'invalid_search_locales',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#invalid_search_locales',
    });
    await expectSearch(uid, 'GET', { q: 'Atta', locales: ['invalid'] }, 400, {
      message: 'Invalid value in parameter `locales`: Unsupported locale `invalid`, expected one of af, ak, am, ar, az, be, bg, bn, ca, cs, da, de, el, en, eo, es, et, fa, fi, fr, gu, he, hi, hr, hu, hy, id, it, ja, jv, ka, km, kn, ko, la, lt, lv, mk, ml, mr, my, nb, ne, nl, or, pa, pl, pt, ro, ru, si, sk, sl, sn, sr, sv, ta, te, th, tk, tl, tr, uk, ur, uz, vi, yi, zh, zu, afr, aka, amh, ara, aze, bel, ben, bul, cat, ces, cmn, dan, deu, ell, eng, epo, est, fin, fra, guj, heb, hin, hrv, hun, hye, ind, ita, jav, jpn, kan, kat, khm, kor, lat, lav, lit, mal, mar, mkd, mya, nep, nld, nob, ori, pan, pes, pol, por, ron, rus, sin, slk, slv, sna, spa, srp, swe, tam, tel, tgl, tha, tuk, tur, ukr, urd, uzb, vie, yid, zho, zul',
      code: 'invalid_search_locales',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#invalid_search_locales',
    });
  });

  it('invalid_localized_attributes_rules: malformed localizedAttributes rules are invalid_settings_localized_attributes', async () => {
    const uid = uniqueUid('locales');
    expectError(await call(server, 'PATCH', `/indexes/${uid}/settings`, { localizedAttributes: [{ attributePatterns: ['*_ja', '*_zh'], locales: ['japan'] }] }), 400, 'invalid_settings_localized_attributes', 'Unknown value `japan` at `.localizedAttributes[0].locales[0]`: expected one of `af`, `ak`, `am`, `ar`, `az`, `be`, `bn`, `bg`, `ca`, `cs`, `da`, `de`, `el`, `en`, `eo`, `et`, `fi`, `fr`, `gu`, `he`, `hi`, `hr`, `hu`, `hy`, `id`, `it`, `jv`, `ja`, `kn`, `ka`, `km`, `ko`, `la`, `lv`, `lt`, `ml`, `mr`, `mk`, `my`, `ne`, `nl`, `nb`, `or`, `pa`, `fa`, `pl`, `pt`, `ro`, `ru`, `si`, `sk`, `sl`, `sn`, `es`, `sr`, `sv`, `ta`, `te`, `tl`, `th`, `tk`, `tr`, `uk`, `ur`, `uz`, `vi`, `yi`, `zh`, `zu`, `afr`, `aka`, `amh`, `ara`, `aze`, `bel`, `ben`, `bul`, `cat`, `ces`, `dan`, `deu`, `ell`, `eng`, `epo`, `est`, `fin`, `fra`, `guj`, `heb`, `hin`, `hrv`, `hun`, `hye`, `ind`, `ita`, `jav`, `jpn`, `kan`, `kat`, `khm`, `kor`, `lat`, `lav`, `lit`, `mal`, `mar`, `mkd`, `mya`, `nep`, `nld`, `nob`, `ori`, `pan`, `pes`, `pol`, `por`, `ron`, `rus`, `sin`, `slk`, `slv`, `sna`, `spa`, `srp`, `swe`, `tam`, `tel`, `tgl`, `tha`, `tuk`, `tur`, `ukr`, `urd`, `uzb`, `vie`, `yid`, `zho`, `zul`, `cmn`');
    expectError(await call(server, 'PATCH', `/indexes/${uid}/settings`, { localizedAttributes: [{ attributePatterns: ['*_ja', '*_zh'], locales: 'jpn' }] }), 400, 'invalid_settings_localized_attributes', 'Invalid value type at `.localizedAttributes[0].locales`: expected an array, but found a string: `"jpn"`');
    expectError(await call(server, 'PATCH', `/indexes/${uid}/settings`, { localizedAttributes: [{ attributePatterns: '*_ja', locales: ['jpn'] }] }), 400, 'invalid_settings_localized_attributes', 'Invalid value type at `.localizedAttributes[0].attributePatterns`: expected an array, but found a string: `"*_ja"`');
    expectError(await call(server, 'PATCH', `/indexes/${uid}/settings`, { localizedAttributes: [{ locales: ['jpn'] }] }), 400, 'invalid_settings_localized_attributes', 'Missing field `attributePatterns` inside `.localizedAttributes[0]`');
  });

  it('simple_facet_search: facet search with locales finds the value whatever the locale', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['name_en', 'name_ja', 'name_zh'] });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    await expectSearch(uid, 'facet', { facetName: 'name_zh', facetQuery: '進撃', locales: ['cmn'] }, 200, { facetHits: [{ value: '进击的巨人', count: 1 }], facetQuery: '進撃', processingTimeMs: '[duration]' });
    await expectSearch(uid, 'facet', { facetName: 'name_zh', facetQuery: '進撃', locales: ['jpn'] }, 200, { facetHits: [{ value: '进击的巨人', count: 1 }], facetQuery: '進撃', processingTimeMs: '[duration]' });
  });

  it('facet_search_with_localized_attributes: facet search follows the facet field\'s localized attributes', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      filterableAttributes: ['name_ja', 'name_zh'],
      localizedAttributes: [{ attributePatterns: ['*_ja', '*_zh'], locales: ['jpn'] }],
    });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    await expectSearch(uid, 'facet', { facetName: 'name_zh', facetQuery: '进击', locales: ['cmn'] }, 200, { facetHits: [], facetQuery: '进击', processingTimeMs: '[duration]' });
    await expectSearch(uid, 'facet', { facetName: 'name_zh', facetQuery: '进击', locales: ['jpn'] }, 200, { facetHits: [{ value: '进击的巨人', count: 1 }], facetQuery: '进击', processingTimeMs: '[duration]' });
    await expectSearch(uid, 'facet', { facetName: 'name_zh', facetQuery: '进击' }, 200, { facetHits: [{ value: '进击的巨人', count: 1 }], facetQuery: '进击', processingTimeMs: '[duration]' });
  });

  it('swedish_search: Swedish keeps å, ä and ö apart from a, so trä and tra find different products', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 'tra1-1', product: 'trä' },
      { id: 'tra2-1', product: 'traktor' },
      { id: 'tra1-2', product: 'träbjälke' },
      { id: 'tra2-2', product: 'trafiksignal' },
    ]);
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { searchableAttributes: ['product'], localizedAttributes: [{ attributePatterns: ['product'], locales: ['swe'] }] });
    await expectSearch(uid, 'both', { q: 'trä', attributesToRetrieve: ['product'] }, 200, {
      hits: [{ product: 'trä' }, { product: 'träbjälke' }],
      query: 'trä',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 2,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: 'tra', attributesToRetrieve: ['product'] }, 200, {
      hits: [{ product: 'traktor' }, { product: 'trafiksignal' }],
      query: 'tra',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 2,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: 'trä', locales: ['swe'], attributesToRetrieve: ['product'] }, 200, {
      hits: [{ product: 'trä' }, { product: 'träbjälke' }],
      query: 'trä',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 2,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: 'tra', locales: ['swe'], attributesToRetrieve: ['product'] }, 200, {
      hits: [{ product: 'traktor' }, { product: 'trafiksignal' }],
      query: 'tra',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 2,
      requestUid: '[uuid]',
    });
  });

  it('german_search: German splits compound words', async () => {
    const uid = uniqueUid('locales');
    await succeed(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, product: 'Interkulturalität' }, { id: 2, product: 'Wissensorganisation' }]);
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { searchableAttributes: ['product'], localizedAttributes: [{ attributePatterns: ['product'], locales: ['deu'] }] });
    await expectSearch(uid, 'both', { q: 'kulturalität', attributesToRetrieve: ['product'] }, 200, {
      hits: [{ product: 'Interkulturalität' }],
      query: 'kulturalität',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
    await expectSearch(uid, 'both', { q: 'organisation', attributesToRetrieve: ['product'] }, 200, {
      hits: [{ product: 'Wissensorganisation' }],
      query: 'organisation',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 1,
      requestUid: '[uuid]',
    });
  });

});
