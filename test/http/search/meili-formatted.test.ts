// Port of Meilisearch's crates/meilisearch/tests/search/formatted.rs: the first hit of each request,
// sent through POST and GET as there, compared with Meilisearch's snapshot (key order included) —
// which attributes reach the hit and `_formatted`, numbers as strings in `_formatted`, nested
// selection, `_matchesPosition`, cropping and CJK highlighting.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { NESTED_DOCUMENTS, NESTED_DOCUMENTS_SETTINGS, expectJson, searchBoth, seed, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const BOOKS = [
  { id: 123, title: 'Pride and Prejudice', genre: 'romance' },
  { id: 456, title: 'Le Petit Prince', genre: 'adventure' },
  { id: 1, title: 'Alice In Wonderland', genre: 'adventure' },
  { id: 2, title: 'Le Rouge et le Noir', genre: 'romance' },
  { id: 1344, title: 'The Hobbit', genre: 'adventure' },
  { id: 4, title: 'Harry Potter and the Half-Blood Prince', genre: 'fantasy' },
  { id: 7, title: 'Harry Potter and the Chamber of Secrets', genre: 'fantasy' },
  { id: 42, title: "The Hitchhiker's Guide to the Galaxy" },
];

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  // settings before documents where Meilisearch's test does it that way
  await succeed(server, 'PATCH', '/indexes/sdk/settings', { filterableAttributes: ['genre'], searchableAttributes: ['title'] });
  await seed(server, 'sdk', BOOKS);
  await succeed(server, 'PATCH', '/indexes/wildcard/settings', { displayedAttributes: ['id', 'cattos'] });
  await seed(server, 'wildcard', NESTED_DOCUMENTS);
  await seed(server, 'nested', NESTED_DOCUMENTS, NESTED_DOCUMENTS_SETTINGS);
  await succeed(server, 'PATCH', '/indexes/smol/settings', { displayedAttributes: ['id'] });
  await seed(server, 'smol', NESTED_DOCUMENTS);
  await seed(server, 'cjk', [
    { id: 0, title: 'この度、クーポンで無料で頂きました。' },
    { id: 1, title: '大卫到了扫罗那里' },
  ]);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

type Case = [behaviour: string, request: Record<string, unknown>, firstHit: unknown];

/** One test per request, checking the first hit of its POST and GET answers. */
function port(uid: string, cases: Case[]): void {
  for (const [behaviour, request, expected] of cases) {
    it(behaviour, () => searchBoth(server, uid, request, (answer) => expectJson(answer.hits[0], expected)));
  }
}

describe('search_formatted_from_sdk', () => {
  port('sdk', [
    [
      'crops to two words around the match and highlights it, after a filter',
      { q: 'prince', attributesToCrop: ['title'], cropLength: 2, filter: 'genre = adventure', attributesToHighlight: ['title'], attributesToRetrieve: ['title'] },
      { title: 'Le Petit Prince', _formatted: { title: '…Petit <em>Prince</em>' } },
    ],
  ]);
});

// UTF-8 bytes of the original text: `pésti` spans 6 (v1.50.0 tests/search/formatted.rs)
const PESTI_POSITION = { cattos: [{ start: 0, length: 6 }] };

describe('formatted_contain_wildcard (displayedAttributes: id, cattos)', () => {
  port('wildcard', [
    [
      'a "*" highlight covers every displayed attribute even when none is retrieved',
      { q: 'pésti', attributesToRetrieve: ['father', 'mother'], attributesToHighlight: ['father', 'mother', '*'], attributesToCrop: ['doggos'], showMatchesPosition: true },
      { _formatted: { id: '852', cattos: '<em>pésti</em>' }, _matchesPosition: PESTI_POSITION },
    ],
    ['"*" retrieves only the displayed attributes', { q: 'pésti', attributesToRetrieve: ['*'] }, { id: 852, cattos: 'pésti' }],
    [
      'highlighting only id still puts the retrieved attributes, unhighlighted, in _formatted',
      { q: 'pésti', attributesToRetrieve: ['*'], attributesToHighlight: ['id'], showMatchesPosition: true },
      { id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' }, _matchesPosition: PESTI_POSITION },
    ],
    [
      'a "*" crop leaves short values whole and does not highlight',
      { q: 'pésti', attributesToRetrieve: ['*'], attributesToCrop: ['*'] },
      { id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' } },
    ],
    ['a "*" crop without attributesToRetrieve', { q: 'pésti', attributesToCrop: ['*'] }, { id: 852, cattos: 'pésti', _formatted: { id: '852', cattos: 'pésti' } }],
  ]);
});

const DOGGO_NAMES = [{ name: 'bobby' }, { name: 'buddy' }];
const DOGGOS_AS_STRINGS = [
  { name: 'bobby', age: '2' },
  { name: 'buddy', age: '4' },
];

describe('format_nested', () => {
  port('nested', [
    [
      'retrieving a parent returns its whole nested value',
      { q: 'pésti', attributesToRetrieve: ['doggos'] },
      {
        doggos: [
          { name: 'bobby', age: 2 },
          { name: 'buddy', age: 4 },
        ],
      },
    ],
    ['a dotted path keeps only that key inside each array element', { q: 'pésti', attributesToRetrieve: ['doggos.name'] }, { doggos: DOGGO_NAMES }],
    [
      'a match inside an array is positioned with its array index',
      { q: 'bobby', attributesToRetrieve: ['doggos.name'], showMatchesPosition: true },
      { doggos: DOGGO_NAMES, _matchesPosition: { 'doggos.name': [{ start: 0, length: 5, indices: [0] }] } },
    ],
    ['highlighting a dotted path with nothing retrieved formats only that path', { q: 'pésti', attributesToRetrieve: [], attributesToHighlight: ['doggos.name'] }, { _formatted: { doggos: DOGGO_NAMES } }],
    ['cropping a dotted path with nothing retrieved formats only that path', { q: 'pésti', attributesToRetrieve: [], attributesToCrop: ['doggos.name'] }, { _formatted: { doggos: DOGGO_NAMES } }],
    [
      '_formatted merges the retrieved and highlighted paths, numbers as strings',
      { q: 'pésti', attributesToRetrieve: ['doggos.name'], attributesToHighlight: ['doggos.age'] },
      { doggos: DOGGO_NAMES, _formatted: { doggos: DOGGOS_AS_STRINGS } },
    ],
    [
      '_formatted merges a highlighted and a cropped path of the same array',
      { q: 'pésti', attributesToRetrieve: [], attributesToHighlight: ['doggos.age'], attributesToCrop: ['doggos.name'] },
      { _formatted: { doggos: DOGGOS_AS_STRINGS } },
    ],
  ]);
});

describe('displayedattr_2_smol (displayedAttributes: id)', () => {
  port('smol', [
    [
      'undisplayed attributes are neither retrieved nor formatted',
      { attributesToRetrieve: ['father', 'id'], attributesToHighlight: ['mother'], attributesToCrop: ['cattos'] },
      { id: 852 },
    ],
    ['retrieving the displayed id', { attributesToRetrieve: ['id'] }, { id: 852 }],
    ['highlighting id formats it as a string', { attributesToHighlight: ['id'] }, { id: 852, _formatted: { id: '852' } }],
    ['cropping id formats it as a string', { attributesToCrop: ['id'] }, { id: 852, _formatted: { id: '852' } }],
    ['highlighting and cropping id formats it once', { attributesToHighlight: ['id'], attributesToCrop: ['id'] }, { id: 852, _formatted: { id: '852' } }],
    ['highlighting an undisplayed attribute adds no _formatted', { attributesToHighlight: ['cattos'] }, { id: 852 }],
    ['cropping an undisplayed attribute adds no _formatted', { attributesToCrop: ['cattos'] }, { id: 852 }],
    ['retrieving only an undisplayed attribute gives an empty hit', { attributesToRetrieve: ['cattos'] }, {}],
    ['retrieving, highlighting and cropping only an undisplayed attribute gives an empty hit', { attributesToRetrieve: ['cattos'], attributesToHighlight: ['cattos'], attributesToCrop: ['cattos'] }, {}],
    ['a highlighted displayed attribute reaches _formatted even when not retrieved', { attributesToRetrieve: ['cattos'], attributesToHighlight: ['id'] }, { _formatted: { id: '852' } }],
    ['a cropped displayed attribute reaches _formatted even when not retrieved', { attributesToRetrieve: ['cattos'], attributesToCrop: ['id'] }, { _formatted: { id: '852' } }],
  ]);
});

describe('test_cjk_highlight', () => {
  const expectTitle = (q: string, title: string) => searchBoth(server, 'cjk', { q, attributesToHighlight: ['title'] }, (answer) => expectJson(answer.hits[0]._formatted.title, title));

  it('highlights every segment of a Japanese particle inside a sentence', () => expectTitle('で', 'この度、クーポン<em>で</em>無料<em>で</em>頂きました。'));

  it('highlights a Chinese word segmented out of a sentence', () => expectTitle('大卫', '<em>大卫</em>到了扫罗那里'));
});
