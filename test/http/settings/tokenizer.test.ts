// The tokenizer settings `separatorTokens`, `nonSeparatorTokens` and `dictionary` in search,
// through the real server with the `meilisearch` client (`updateSeparatorTokens`,
// `updateNonSeparatorTokens`, `updateDictionary`, `updateSynonyms`, `search`): they re-cut the
// documents already indexed and the query alike, highlighting follows them, and resetting them
// restores the default cut. Expectations come from Meilisearch's own
// tests/settings/tokenizer_customization.rs where it has them.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../../helpers/client.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Doc {
  id: number;
  content: string;
}

let server: TestServer;
let client: Meilisearch;

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

async function indexWith(uid: string, docs: Doc[]): Promise<Index<Doc>> {
  const index = client.index<Doc>(uid);
  await settle(client, (await index.addDocuments(docs)).taskUid);
  return index;
}

async function ids(index: Index<Doc>, q: string, matchingStrategy: 'all' | 'last' = 'last'): Promise<number[]> {
  return (await index.search(q, { matchingStrategy })).hits.map((hit) => hit.id);
}

/** [id, highlighted content] of every hit. */
async function highlighted(index: Index<Doc>, q: string): Promise<[number, string][]> {
  const { hits } = await index.search(q, { attributesToHighlight: ['content'] });
  return hits.map((hit) => [hit.id, hit._formatted!.content!]);
}

describe('separator and non-separator tokens, and a dictionary of musical notes', () => {
  let index: Index<Doc>;
  beforeAll(async () => {
    index = await indexWith('music', [
      { id: 1, content: 'Mac & cheese' },
      { id: 2, content: 'G#D#G#D#G#C#D#G#C#' },
      { id: 3, content: 'Mac&sep&&sepcheese' },
    ]);
  }, 60_000);

  it('cuts on the default separators before any setting', async () => {
    // "&" and "#" are default separators: "Mac&sep&&sepcheese" is mac, sep, sepcheese
    expect(await ids(index, 'Mac&sep&&sepcheese', 'all')).toEqual([3]);
    expect(await ids(index, 'sepcheese')).toEqual([3]);
  });

  it('re-cuts the indexed documents and the query once the settings change', async () => {
    await settle(client, (await index.updateNonSeparatorTokens(['#', '&'])).taskUid);
    await settle(client, (await index.updateSeparatorTokens(['<br/>', '&sep'])).taskUid);
    await settle(client, (await index.updateDictionary(['#', 'A#', 'B#', 'C#', 'D#', 'E#', 'F#', 'G#'])).taskUid);
    expect(await index.getNonSeparatorTokens()).toEqual(['#', '&']);
    expect(await index.getSeparatorTokens()).toEqual(['&sep', '<br/>']);

    expect(await ids(index, 'sepcheese')).toEqual([]);
    expect(await highlighted(index, '&')).toEqual([
      [1, 'Mac <em>&</em> cheese'],
      [3, 'Mac&sep<em>&</em>&sepcheese'],
    ]);
    expect(await highlighted(index, 'Mac & cheese')).toEqual([
      [1, '<em>Mac</em> <em>&</em> <em>cheese</em>'],
      [3, '<em>Mac</em>&sep<em>&</em>&sep<em>cheese</em>'],
    ]);
    expect(await highlighted(index, 'Mac&sep&&sepcheese')).toEqual([
      [1, '<em>Mac</em> <em>&</em> <em>cheese</em>'],
      [3, '<em>Mac</em>&sep<em>&</em>&sep<em>cheese</em>'],
    ]);
  });

  it('cuts dictionary words out of a run of them, in documents and queries', async () => {
    expect(await highlighted(index, 'C#D#G')).toEqual([
      [2, '<em>G</em>#<em>D#</em><em>G</em>#<em>D#</em><em>G</em>#<em>C#</em><em>D#</em><em>G</em>#<em>C#</em>'],
    ]);
    // a lone "#" is a word no document has: each "#" belongs to a note
    expect(await ids(index, '#')).toEqual([]);
  });

  it('restores the default cut when the settings are reset', async () => {
    await settle(client, (await index.resetNonSeparatorTokens()).taskUid);
    await settle(client, (await index.resetSeparatorTokens()).taskUid);
    await settle(client, (await index.resetDictionary()).taskUid);
    expect(await ids(index, 'sepcheese')).toEqual([3]);
    expect(await ids(index, 'Mac&sep&&sepcheese', 'all')).toEqual([3]);
  });
});

describe('a custom separator and a non-separator on ordinary text', () => {
  let index: Index<Doc>;
  beforeAll(async () => {
    index = await indexWith('handles', [
      { id: 1, content: 'rock|roll forever' },
      { id: 2, content: 'ping @quarry for help' },
      { id: 3, content: 'quarry user manual' },
    ]);
  }, 60_000);

  it('splits words on a separator token that is no default separator', async () => {
    expect(await ids(index, 'roll')).toEqual([]);
    await settle(client, (await index.updateSeparatorTokens(['|'])).taskUid);
    expect(await ids(index, 'roll')).toEqual([1]);
    expect(await highlighted(index, 'rock roll')).toEqual([[1, '<em>rock</em>|<em>roll</em> forever']]);
  });

  it('keeps a non-separator token inside the word, so it no longer matches the bare word', async () => {
    expect((await ids(index, '@quarry')).sort()).toEqual([2, 3]);
    await settle(client, (await index.updateNonSeparatorTokens(['@'])).taskUid);
    expect(await ids(index, '@quarry')).toEqual([2]);
    expect(await ids(index, 'quarry')).toEqual([3]);
  });
});

describe('a dictionary with synonyms (Meilisearch advanced_synergies)', () => {
  let index: Index<Doc>;
  beforeAll(async () => {
    index = await indexWith('authors', [
      { id: 1, content: 'J.R.R. Tolkien' },
      { id: 2, content: 'J. R. R. Tolkien' },
      { id: 3, content: 'jrr Tolkien' },
      { id: 4, content: 'J.K. Rowlings' },
      { id: 5, content: 'J. K. Rowlings' },
      { id: 6, content: 'jk Rowlings' },
    ]);
    await settle(client, (await index.updateDictionary(['J.R.R.', 'J. R. R.'])).taskUid);
    await settle(
      client,
      (
        await index.updateSynonyms({
          'J.R.R.': ['jrr', 'J. R. R.'],
          'J. R. R.': ['jrr', 'J.R.R.'],
          jrr: ['J.R.R.', 'J. R. R.'],
          'J.K.': ['jk', 'J. K.'],
          'J. K.': ['jk', 'J.K.'],
          jk: ['J.K.', 'J. K.'],
        })
      ).taskUid,
    );
  }, 60_000);

  it('keeps a dictionary entry one word, so synonyms keyed on it apply', async () => {
    expect(await highlighted(index, 'J.R.R.')).toEqual([
      [1, '<em>J.R.R.</em> Tolkien'],
      [2, '<em>J. R. R.</em> Tolkien'],
      [3, '<em>jrr</em> Tolkien'],
    ]);
    expect(await highlighted(index, 'jrr')).toEqual([
      [3, '<em>jrr</em> Tolkien'],
      [1, '<em>J.R.R.</em> Tolkien'],
      [2, '<em>J. R. R.</em> Tolkien'],
    ]);
    expect(await ids(index, 'J. R. R.')).toEqual([2, 1, 3]);
  });

  it('re-reads the synonyms with a new dictionary', async () => {
    await settle(client, (await index.updateDictionary(['J.R.R.', 'J. R. R.', 'J.K.', 'J. K.'])).taskUid);
    expect(await highlighted(index, 'jk')).toEqual([
      [6, '<em>jk</em> Rowlings'],
      [4, '<em>J.K.</em> Rowlings'],
      [5, '<em>J. K.</em> Rowlings'],
    ]);
    expect(await ids(index, 'J.K.')).toEqual([4, 5, 6]);
  });
});
