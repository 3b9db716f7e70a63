// Port of Meilisearch's crates/meilisearch/tests/search/restrict_searchable.rs: `attributesToSearchOn`
// (search.md §2) — which fields are searched, unknown names and wildcard patterns (`details.*`,
// `*.title`), and that the ranking rules still see the restricted fields in the right order. Each
// request goes through POST and GET, as there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError } from '../../helpers/api.js';
import { expectJson, searchBoth, seed, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const SIMPLE_SEARCH_DOCUMENTS = [
  { title: 'Shazam!', desc: 'a Captain Marvel ersatz', id: '1' },
  { title: 'Captain Planet', desc: "He's not part of the Marvel Cinematic Universe", id: '2' },
  { title: 'Captain Marvel', desc: 'a Shazam ersatz', id: '3' },
];

const NESTED_SEARCH_DOCUMENTS = [
  {
    details: {
      title: 'Shazam!',
      desc: 'a Captain Marvel ersatz',
      weaknesses: ['magic', 'requires transformation'],
      outfit: { has_cape: true, colors: { primary: 'red', secondary: 'gold' } },
    },
    id: '1',
  },
  {
    details: { title: 'Captain Planet', desc: "He's not part of the Marvel Cinematic Universe", blue_skin: true, outfit: { has_cape: false } },
    id: '2',
  },
  {
    details: { title: 'Captain Marvel', desc: 'a Shazam ersatz', weaknesses: ['magic', 'power instability'], outfit: { has_cape: false } },
    id: '3',
  },
];

let server: TestServer;
let counter = 0;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

/** A fresh index holding `documents`, as each of Meilisearch's tests starts from a new server. */
async function indexWith(documents: unknown[]): Promise<string> {
  counter += 1;
  const uid = `test-${counter}`;
  await seed(server, uid, documents);
  return uid;
}

const setSearchable = (uid: string, attributes: string[]) => succeed(server, 'PUT', `/indexes/${uid}/settings/searchable-attributes`, attributes);
const setTypoTolerance = (uid: string, typoTolerance: object) => succeed(server, 'PATCH', `/indexes/${uid}/settings/typo-tolerance`, typoTolerance);

function expectHitCount(uid: string, body: Record<string, unknown>, count: number): Promise<void> {
  return searchBoth(server, uid, body, (answer) => expect(answer.hits).toHaveLength(count));
}

function expectIds(uid: string, body: Record<string, unknown>, ids: string[]): Promise<void> {
  return searchBoth(server, uid, { ...body, attributesToRetrieve: ['id'] }, (answer) => expectJson(answer.hits, ids.map((id) => ({ id }))));
}

describe('flat documents', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await indexWith(SIMPLE_SEARCH_DOCUMENTS);
  });

  it('simple_search_on_title: searches only the title', () => expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['title'] }, 2));

  it('search_on_all_attributes: "*" searches every field', () => expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['*'] }, 3));

  it('simple_prefix_search_on_title: the last word is a prefix in the restricted field', () => expectHitCount(uid, { q: 'Captain Mar', attributesToSearchOn: ['title'] }, 2));

  it('simple_search_on_title_matching_strategy_all: all words in the restricted field', () => expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['title'], matchingStrategy: 'all' }, 1));

  it('simple_search_on_no_field: an empty list searches nothing', () => expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: [] }, 0));

  it('word_ranking_rule_order: the document with both words in the title comes first', () => expectIds(uid, { q: 'Captain Marvel', attributesToSearchOn: ['title'] }, ['3', '2']));
});

describe('search_no_searchable_attribute_set', () => {
  it('ignores unknown names while searchableAttributes is "*", before and after setting it explicitly', async () => {
    const uid = await indexWith(SIMPLE_SEARCH_DOCUMENTS);
    await expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['unknown'] }, 0);
    await setSearchable(uid, ['*']);
    await expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['unknown'] }, 0);
    await expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['unknown', 'title'] }, 2);
  });
});

describe('search_on_all_attributes_restricted_set', () => {
  it('"*" means the searchableAttributes setting, not every field', async () => {
    const uid = await indexWith(SIMPLE_SEARCH_DOCUMENTS);
    await setSearchable(uid, ['title']);
    await expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['*'] }, 2);
  });
});

describe('word_ranking_rule_order_exact_words', () => {
  it('keeps the words order when the query words allow no typo', async () => {
    const uid = await indexWith(SIMPLE_SEARCH_DOCUMENTS);
    await setTypoTolerance(uid, { disableOnWords: ['Captain', 'Marvel'] });
    await expectIds(uid, { q: 'Captain Marvel', attributesToSearchOn: ['title'] }, ['3', '2']);
  });
});

describe('ranking rules on the restricted fields', () => {
  it('typo_ranking_rule_order: counts typos in the searched field only', async () => {
    const uid = await indexWith([
      { title: 'Capitain Marivel', desc: 'Captain Marvel', id: '1' },
      { title: 'Captain Marivel', desc: 'a Shazam ersatz', id: '2' },
    ]);
    await expectIds(uid, { q: 'Captain Marvel', attributesToSearchOn: ['title'] }, ['2', '1']);
  });

  it('attributes_ranking_rule_order: keeps the searchable order between the searched fields', async () => {
    const uid = await indexWith([
      { title: 'Captain Marvel', desc: 'a Shazam ersatz', footer: 'The story of Captain Marvel', id: '1' },
      { title: 'The Avengers', desc: 'Captain Marvel is far from the earth', footer: 'A super hero team', id: '2' },
    ]);
    await expectIds(uid, { q: 'Captain Marvel', attributesToSearchOn: ['desc', 'footer'] }, ['1', '2']);
  });

  it('exactness_ranking_rule_order: judges exactness in the searched field only', async () => {
    const uid = await indexWith([
      { title: 'Captain Marvel', desc: 'Captain Marivel', id: '1' },
      { title: 'Captain Marvel', desc: 'Captain the Marvel', id: '2' },
    ]);
    await expectIds(uid, { q: 'Captain Marvel', attributesToSearchOn: ['desc'] }, ['2', '1']);
  });

  it('search_on_exact_field: an attribute without typo tolerance matches only the exact word', async () => {
    const uid = await indexWith([
      { title: 'Captain Marvel', exact: 'Captain Marivel', id: '1' },
      { title: 'Captain Marivel', exact: 'Captain the Marvel', id: '2' },
    ]);
    await setTypoTolerance(uid, { disableOnAttributes: ['exact'] });
    await expectHitCount(uid, { q: 'Marvel', attributesToSearchOn: ['exact'] }, 1);
  });

  it('phrase_search_on_title: a phrase must appear in the searched field', async () => {
    const uid = await indexWith([
      { id: 8, desc: 'Document Review', title: 'Document Review Specialist II' },
      { id: 5, desc: 'Document Review', title: 'Document Review Attorney' },
      { id: 4, desc: 'Document Review', title: 'Document Review Manager - Cyber Incident Response (Remote)' },
      { id: 3, desc: 'Document Review', title: 'Document Review Paralegal' },
      { id: 2, desc: 'Document Review', title: 'Document Controller (Saudi National)' },
      { id: 1, desc: 'Document Review', title: 'Document Reviewer' },
      { id: 7, desc: 'Document Review', title: 'Document Review Specialist II' },
      { id: 6, desc: 'Document Review', title: 'Document Review (Entry Level)' },
    ]);
    const titles = [
      'Document Review Specialist II',
      'Document Review Attorney',
      'Document Review Manager - Cyber Incident Response (Remote)',
      'Document Review Paralegal',
      'Document Review Specialist II',
      'Document Review (Entry Level)',
    ];
    const query = { q: '"Document Review"', attributesToSearchOn: ['title'], attributesToRetrieve: ['title'] };
    await searchBoth(server, uid, query, (answer) => expectJson(answer.hits, titles.map((title) => ({ title }))));
  });
});

describe('nested documents and wildcard patterns', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await indexWith(NESTED_SEARCH_DOCUMENTS);
  });

  it('nested_search_on_title_with_prefix_wildcard: "*.title" searches the nested titles', () => expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['*.title'] }, 2));

  it('nested_search_with_suffix_wildcard: "details.*" searches every field under details, deep ones and booleans included', async () => {
    await expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['details.*'] }, 3);
    await expectHitCount(uid, { q: 'gold', attributesToSearchOn: ['details.*'] }, 1);
    await expectHitCount(uid, { q: 'true', attributesToSearchOn: ['details.*'] }, 2);
  });

  it('nested_prefix_search_on_title_with_prefix_wildcard: prefix search through "*.title"', () => expectHitCount(uid, { q: 'Captain Mar', attributesToSearchOn: ['*.title'] }, 2));

  it('nested_prefix_search_on_details_with_suffix_wildcard: prefix search through "details.*"', () => expectHitCount(uid, { q: 'Captain Mar', attributesToSearchOn: ['details.*'] }, 3));

  it('nested_prefix_search_on_weaknesses_with_suffix_wildcard: prefix search reaches arrays under "details.*"', () => expectHitCount(uid, { q: 'mag', attributesToSearchOn: ['details.*'] }, 2));

  it('nested_search_on_title_matching_strategy_all: all words through "*.title"', () => expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['*.title'], matchingStrategy: 'all' }, 1));

  it('nested_attributes_ranking_rule_order_with_prefix_wildcard: ranks by the fields "*.desc", "*.title" select', () =>
    expectIds(uid, { q: 'Captain Marvel', attributesToSearchOn: ['*.desc', '*.title'] }, ['3', '1', '2']));

  it('nested_attributes_ranking_rule_order_with_suffix_wildcard: ranks by the fields "details.*" selects', () =>
    expectIds(uid, { q: 'Captain Marvel', attributesToSearchOn: ['details.*'] }, ['3', '1', '2']));
});

describe('nested_search_on_title_restricted_set_with_suffix_wildcard', () => {
  let uid: string;
  beforeAll(async () => {
    uid = await indexWith(NESTED_SEARCH_DOCUMENTS);
    await setSearchable(uid, ['details.title']);
  });

  it('"details.*" is cut down to the searchable details.title', () => expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['details.*'] }, 2));

  // not in restrict_searchable.rs: the other side of the same check in milli's attributes_to_search_on
  it('a pattern matching no searchable field is rejected when searchableAttributes is a list', async () => {
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'Captain Marvel', attributesToSearchOn: ['*.desc'] });
    expectError(
      reply,
      400,
      'invalid_search_attributes_to_search_on',
      `Index \`${uid}\`: Attribute \`*.desc\` is not searchable. Available searchable attributes are: \`details.title\`.`,
    );
  });
});

// not in restrict_searchable.rs: milli's match_pattern also has the `*infix*` form
describe('infix pattern', () => {
  it('"*itl*" searches the fields whose path contains "itl"', async () => {
    const uid = await indexWith(NESTED_SEARCH_DOCUMENTS);
    await expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['*itl*'] }, 2);
  });
});

describe('nested_search_no_searchable_attribute_set_with_any_wildcard', () => {
  it('patterns matching no field search nothing, a matching one next to them still searches', async () => {
    const uid = await indexWith(NESTED_SEARCH_DOCUMENTS);
    await expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['unknown.*', '*.unknown'] }, 0);
    await setSearchable(uid, ['*']);
    await expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['unknown.*', '*.unknown'] }, 0);
    await expectHitCount(uid, { q: 'Captain Marvel', attributesToSearchOn: ['unknown.*', '*.unknown', '*.title'] }, 2);
  });
});
