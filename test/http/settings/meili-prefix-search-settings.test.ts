// Port of Meilisearch's crates/meilisearch/tests/settings/prefix_search_settings.rs: with prefixSearch
// disabled the last query word is never a prefix, whether documents were added before or after the
// setting; enabling or resetting it again brings prefix matches (and their highlighting) back. Each
// scenario has its own index.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { uniqueUid } from '../../helpers/api.js';
import { expectJson, searchBoth, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DOCUMENTS = [
  { id: 1, a: 'Soup of the day', b: 'manythefishou' },
  { id: 2, a: 'Soup of day so', b: 'manythe manythelazyfish' },
  { id: 3, a: 'the Soup of day', b: 'manythelazyfish' },
];
const RULES = ['words', 'typo', 'proximity'];
const DISABLED = { prefixSearch: 'disabled', rankingRules: RULES };

let server: TestServer;
const index = {
  addThenDisable: uniqueUid('add-disable'),
  disableThenAdd: uniqueUid('disable-add'),
  enabled: uniqueUid('enabled'),
  reset: uniqueUid('reset'),
  defaults: uniqueUid('defaults'),
};

/** Applies each step in turn: an array adds documents, an object patches the settings. */
async function prepare(uid: string, ...steps: object[]): Promise<void> {
  for (const step of steps) {
    if (Array.isArray(step)) await succeed(server, 'POST', `/indexes/${uid}/documents`, step);
    else await succeed(server, 'PATCH', `/indexes/${uid}/settings`, step);
  }
}

beforeAll(async () => {
  server = await startServer();
  await prepare(index.addThenDisable, DOCUMENTS, DISABLED);
  await prepare(index.disableThenAdd, DISABLED, DOCUMENTS);
  await prepare(index.enabled, DISABLED, DOCUMENTS, { prefixSearch: 'indexingTime', rankingRules: RULES });
  await prepare(index.reset, DISABLED, DOCUMENTS, { prefixSearch: null, rankingRules: RULES });
  await prepare(index.defaults, { rankingRules: RULES }, DOCUMENTS);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const formatted = (id: number, a: string, b: string) => ({ ...DOCUMENTS[id - 1], _formatted: { id: String(id), a, b } });

/** Only document 2 has the whole words `so` and `manythe`. */
const EXACT_ONLY = {
  so: [formatted(2, 'Soup of day <em>so</em>', 'manythe manythelazyfish')],
  manythe: [formatted(2, 'Soup of day so', '<em>manythe</em> manythelazyfish')],
};

/** With prefixes, every document matches and the prefix is highlighted inside longer words. */
const WITH_PREFIXES = {
  so: [
    formatted(1, '<em>So</em>up of the day', 'manythefishou'),
    formatted(2, '<em>So</em>up of day <em>so</em>', 'manythe manythelazyfish'),
    formatted(3, 'the <em>So</em>up of day', 'manythelazyfish'),
  ],
  manythe: [
    formatted(1, 'Soup of the day', '<em>manythe</em>fishou'),
    formatted(2, 'Soup of day so', '<em>manythe</em> <em>manythe</em>lazyfish'),
    formatted(3, 'the Soup of day', '<em>manythe</em>lazyfish'),
  ],
};

const expectHits = (uid: string, q: 'so' | 'manythe', expected: Record<'so' | 'manythe', unknown[]>) =>
  searchBoth(server, uid, { q, attributesToHighlight: ['a', 'b'] }, (answer) => expectJson(answer.hits, expected[q]));

describe.each([
  ['add_docs_and_disable', 'addThenDisable', EXACT_ONLY],
  ['disable_and_add_docs', 'disableThenAdd', EXACT_ONLY],
  ['disable_add_docs_and_enable', 'enabled', WITH_PREFIXES],
  ['disable_add_docs_and_reset', 'reset', WITH_PREFIXES],
  ['default_behavior', 'defaults', WITH_PREFIXES],
] as const)('%s', (_name, key, expected) => {
  const disabled = expected === EXACT_ONLY;
  it(`"so" ${disabled ? 'matches only the whole word' : 'also matches as a prefix of Soup'}`, () => expectHits(index[key], 'so', expected));
  it(`"manythe" ${disabled ? 'matches only the whole word' : 'also matches as a prefix of longer words'}`, () => expectHits(index[key], 'manythe', expected));
});
