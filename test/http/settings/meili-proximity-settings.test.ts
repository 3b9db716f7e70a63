// Port of Meilisearch's crates/meilisearch/tests/settings/proximity_settings.rs: with proximityPrecision
// byAttribute the proximity rule only knows "same attribute or not", so it no longer separates documents
// whose words sit in one attribute, and a phrase degrades to "all its words in one attribute"
// (settings.md §4); switching back to byWord restores word distances. Each scenario has its own index.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { uniqueUid } from '../../helpers/api.js';
import { expectJson, searchBoth, seed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DOCUMENTS = [
  { id: 1, a: 'Soup of the day', b: 'many the fish' },
  { id: 2, a: 'Soup of day', b: 'many the lazy fish' },
  { id: 3, a: 'the Soup of day', b: 'many the fish' },
];
const RULES = ['words', 'typo', 'proximity'];

let server: TestServer;
const index = { byAttribute: uniqueUid('by-attribute'), swapped: uniqueUid('swapped'), defaults: uniqueUid('defaults') };

beforeAll(async () => {
  server = await startServer();
  await seed(server, index.byAttribute, DOCUMENTS, { proximityPrecision: 'byAttribute', rankingRules: RULES });
  await seed(server, index.swapped, DOCUMENTS, { proximityPrecision: 'byAttribute', rankingRules: RULES }, { proximityPrecision: 'byWord', rankingRules: RULES });
  await seed(server, index.defaults, DOCUMENTS, { proximityPrecision: 'byAttribute' });
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

/** Searches `q` (POST and GET) and expects the documents of `ids`, in that order. */
const expectIds = (uid: string, q: string, ids: number[]) =>
  searchBoth(server, uid, { q }, (answer) =>
    expectJson(
      answer.hits,
      ids.map((id) => DOCUMENTS[id - 1]),
    ),
  );

describe('attribute_scale_search', () => {
  it('"the soup of day" ranks 1 with 3: byAttribute does not see that 3 has the words in order', () => expectIds(index.byAttribute, 'the soup of day', [1, 3, 2]));
  it('"many the fish" keeps id order: every document has the words in attribute b', () => expectIds(index.byAttribute, 'many the fish', [1, 2, 3]));
});

describe('attribute_scale_phrase_search', () => {
  it('the phrase "the soup of day" matches the documents with all its words in one attribute', () => expectIds(index.byAttribute, '"the soup of day"', [1, 3]));
  it('the phrase "many the fish" matches 2 too, its words being in one attribute', () => expectIds(index.byAttribute, '"many the fish"', [1, 2, 3]));
});

describe('word_scale_set_and_reset', () => {
  it('back to byWord, "the soup of day" puts 3 first', () => expectIds(index.swapped, 'the soup of day', [3, 1, 2]));
  it('back to byWord, "many the fish" puts 2 last', () => expectIds(index.swapped, 'many the fish', [1, 3, 2]));
  it('back to byWord, the phrase "the soup of day" matches only 3', () => expectIds(index.swapped, '"the soup of day"', [3]));
  it('back to byWord, the phrase "many the fish" matches 1 and 3', () => expectIds(index.swapped, '"many the fish"', [1, 3]));
});

describe('attribute_scale_default_ranking_rules', () => {
  it('"the soup of day" puts 3 first: the attribute rules see the words in order', () => expectIds(index.defaults, 'the soup of day', [3, 1, 2]));
  it('the phrase "many the fish" still matches 2, ranked last', () => expectIds(index.defaults, '"many the fish"', [1, 3, 2]));
});
