// Port of Meilisearch's crates/meilisearch/tests/settings/tokenizer_customization.rs: nonSeparatorTokens,
// separatorTokens and dictionary are read back sorted and reset with null; `&` and `#` made word
// characters, `&sep` made a separator, and dictionary entries kept whole change what documents and
// queries are cut into (and what is highlighted); a dictionary update re-reads the synonyms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, uniqueUid } from '../../helpers/api.js';
import { expectJson, searchBoth, seed, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

/** A hit of documents {id, content} highlighted on content. */
const hit = (id: number, content: string, highlighted: string) => ({ id, content, _formatted: { id: String(id), content: highlighted } });

const expectHits = (uid: string, q: string, hits: unknown[]) =>
  searchBoth(server, uid, { q, attributesToHighlight: ['content'] }, (answer) => expectJson(answer.hits, hits));

describe('set_and_reset', () => {
  it('GET answers the three lists sorted, and null resets each to []', async () => {
    const uid = uniqueUid();
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
      nonSeparatorTokens: ['#', '&'],
      separatorTokens: ['&sep', '<br/>'],
      dictionary: ['J.R.R.', 'J. R. R.'],
    });
    let { body } = await call(server, 'GET', `/indexes/${uid}/settings`);
    expectJson([body.nonSeparatorTokens, body.separatorTokens, body.dictionary], [['#', '&'], ['&sep', '<br/>'], ['J. R. R.', 'J.R.R.']]);

    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { nonSeparatorTokens: null, separatorTokens: null, dictionary: null });
    ({ body } = await call(server, 'GET', `/indexes/${uid}/settings`));
    expect([body.nonSeparatorTokens, body.separatorTokens, body.dictionary]).toEqual([[], [], []]);
  });
});

describe('set_and_search', () => {
  const uid = uniqueUid('notes');
  const MAC = [1, 'Mac & cheese'] as const;
  const SEP = [3, 'Mac&sep&&sepcheese'] as const;

  beforeAll(() =>
    seed(
      server,
      uid,
      [
        { id: 1, content: 'Mac & cheese' },
        { id: 2, content: 'G#D#G#D#G#C#D#G#C#' },
        { id: 3, content: 'Mac&sep&&sepcheese' },
      ],
      { nonSeparatorTokens: ['#', '&'], separatorTokens: ['<br/>', '&sep'], dictionary: ['#', 'A#', 'B#', 'C#', 'D#', 'E#', 'F#', 'G#'] },
    ),
  );

  it('"&" is a word: it matches the lone & and the one between two &sep separators', () =>
    expectHits(uid, '&', [hit(...MAC, 'Mac <em>&</em> cheese'), hit(...SEP, 'Mac&sep<em>&</em>&sepcheese')]));

  it('"Mac & cheese" matches both spellings, three words each', () =>
    expectHits(uid, 'Mac & cheese', [hit(...MAC, '<em>Mac</em> <em>&</em> <em>cheese</em>'), hit(...SEP, '<em>Mac</em>&sep<em>&</em>&sep<em>cheese</em>')]));

  it('"Mac&sep&&sepcheese" is cut at &sep into the same three words', () =>
    expectHits(uid, 'Mac&sep&&sepcheese', [
      hit(...MAC, '<em>Mac</em> <em>&</em> <em>cheese</em>'),
      hit(...SEP, '<em>Mac</em>&sep<em>&</em>&sep<em>cheese</em>'),
    ]));

  it('"C#D#G" is cut into dictionary notes, and every D#, C# and G is highlighted', () =>
    expectHits(uid, 'C#D#G', [
      hit(2, 'G#D#G#D#G#C#D#G#C#', '<em>G</em>#<em>D#</em><em>G</em>#<em>D#</em><em>G</em>#<em>C#</em><em>D#</em><em>G</em>#<em>C#</em>'),
    ]));

  it('"#" alone matches nothing', () => expectHits(uid, '#', []));
});

describe('advanced_synergies', () => {
  const uid = uniqueUid('authors');
  const TOLKIEN = { 1: 'J.R.R. Tolkien', 2: 'J. R. R. Tolkien', 3: 'jrr Tolkien' };
  const ROWLINGS = { 4: 'J.K. Rowlings', 5: 'J. K. Rowlings', 6: 'jk Rowlings' };
  const CONTENT: Record<number, string> = { ...TOLKIEN, ...ROWLINGS };
  /** The hit of document `id` with `initials` (its first word or dictionary entry) highlighted. */
  const initials = (id: number, highlighted: string) => hit(id, CONTENT[id]!, CONTENT[id]!.replace(highlighted, `<em>${highlighted}</em>`));

  beforeAll(() =>
    seed(
      server,
      uid,
      Object.entries(CONTENT).map(([id, content]) => ({ id: Number(id), content })),
      {
        dictionary: ['J.R.R.', 'J. R. R.'],
        synonyms: {
          'J.R.R.': ['jrr', 'J. R. R.'],
          'J. R. R.': ['jrr', 'J.R.R.'],
          jrr: ['J.R.R.', 'J. R. R.'],
          'J.K.': ['jk', 'J. K.'],
          'J. K.': ['jk', 'J.K.'],
          jk: ['J.K.', 'J. K.'],
        },
      },
    ),
  );

  it('"J.R.R." finds its two spellings and the jrr synonym', () =>
    expectHits(uid, 'J.R.R.', [initials(1, 'J.R.R.'), initials(2, 'J. R. R.'), initials(3, 'jrr')]));

  it('"jrr" finds itself first, then its synonyms', () => expectHits(uid, 'jrr', [initials(3, 'jrr'), initials(1, 'J.R.R.'), initials(2, 'J. R. R.')]));

  it('"J. R. R." finds itself first, then its synonyms', () =>
    expectHits(uid, 'J. R. R.', [initials(2, 'J. R. R.'), initials(1, 'J.R.R.'), initials(3, 'jrr')]));

  describe('after a dictionary-only update adding J.K. and J. K.', () => {
    beforeAll(() => succeed(server, 'PATCH', `/indexes/${uid}/settings`, { dictionary: ['J.R.R.', 'J. R. R.', 'J.K.', 'J. K.'] }));

    it('"jk" finds itself first, then the synonyms keyed on the new dictionary entries', () =>
      expectHits(uid, 'jk', [initials(6, 'jk'), initials(4, 'J.K.'), initials(5, 'J. K.')]));

    it('"J.K." finds its two spellings and the jk synonym', () => expectHits(uid, 'J.K.', [initials(4, 'J.K.'), initials(5, 'J. K.'), initials(6, 'jk')]));

    it('"J. K." finds its spellings and jk, then J. R. R. Tolkien with "J. R." highlighted', () =>
      expectHits(uid, 'J. K.', [initials(5, 'J. K.'), initials(4, 'J.K.'), initials(6, 'jk'), hit(2, 'J. R. R. Tolkien', '<em>J. R.</em> R. Tolkien')]));
  });
});
