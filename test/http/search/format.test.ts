// Highlighting, cropping and match positions through the real server (search.md §8.2–§8.6): the
// `meilisearch` client for what users call, raw HTTP for key order and GET parameters.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DOCS = [
  {
    id: 852,
    title: 'Le Petit Prince',
    overview: 'Natalie risk her future to build a world with the boy she loves.',
    doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }],
    cattos: 'pésti',
    secret: 'prince of nothing',
  },
  { id: 1, title: 'Hello World', overview: 'A quick brown fox can not jump 32 feet, right? Brr, it is cold!', doggos: [], cattos: 'simba', secret: 'x' },
];

let server: TestServer;
let client: Meilisearch;
let index: Index;

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
  index = client.index('format');
  await client.tasks.waitForTask((await index.addDocuments(DOCS)).taskUid, { interval: 20, timeout: 60_000 });
  const task = await client.tasks.waitForTask((await index.updateSettings({ displayedAttributes: ['id', 'title', 'overview', 'doggos', 'cattos'] })).taskUid, {
    interval: 20,
    timeout: 60_000,
  });
  expect(task.status).toBe('succeeded');
}, 120_000);
afterAll(async () => {
  await server.dispose();
});

describe('_formatted', () => {
  it('highlights, stringifies numbers and keeps nested structure', async () => {
    const { hits } = await index.search('prince bobby', { attributesToHighlight: ['*'] });
    expect(hits[0]!._formatted).toEqual({
      id: '852',
      title: 'Le Petit <em>Prince</em>',
      overview: DOCS[0]!.overview,
      doggos: [{ name: '<em>bobby</em>', age: '2' }, { name: 'buddy', age: '4' }],
      cattos: 'pésti',
    });
  });

  it('never shows undisplayed attributes', async () => {
    const { hits } = await index.search('prince', { attributesToHighlight: ['secret'] });
    expect(hits[0]).not.toHaveProperty('_formatted');
    expect(hits[0]).not.toHaveProperty('secret');
  });

  it('highlights the typed part of a prefix and whole typo words, with custom tags', async () => {
    const { hits } = await index.search('wrold pri', { attributesToHighlight: ['title', 'overview'], highlightPreTag: '[', highlightPostTag: ']' });
    const byId = new Map(hits.map((hit) => [hit.id, hit._formatted]));
    expect(byId.get(852)!.title).toBe('Le Petit [Pri]nce');
    expect(byId.get(852)!.overview).toBe('Natalie risk her future to build a [world] with the boy she loves.');
    expect(byId.get(1)!.title).toBe('Hello [World]');
  });

  it('highlights a typo word of the last query word on the typed length only, as a prefix', async () => {
    // `natak` is one typo from `natal`, a prefix of `Natalie`: milli highlights the 5 typed characters
    const { hits } = await index.search('natak', { attributesToHighlight: ['overview'] });
    expect(hits.map((hit) => hit._formatted!.overview)).toEqual(['<em>Natal</em>ie risk her future to build a world with the boy she loves.']);
  });

  it('crops around the best window with per-attribute lengths and markers', async () => {
    const { hits } = await index.search('the world', { attributesToCrop: ['overview', 'title:2'], attributesToRetrieve: ['id'], cropMarker: '…' });
    const hit = hits.find((h) => h.id === 852)!;
    expect(hit._formatted).toEqual({ id: '852', title: 'Le Petit…', overview: '…future to build a world with the boy she loves…' });
  });

  it('puts _formatted and _matchesPosition between the fields and the ranking score', async () => {
    const reply = await call(server, 'POST', '/indexes/format/search', {
      q: 'pésti',
      attributesToRetrieve: ['id'],
      attributesToHighlight: ['cattos'],
      showMatchesPosition: true,
      showRankingScore: true,
    });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body.hits[0])).toEqual(['id', '_formatted', '_matchesPosition', '_rankingScore']);
    expect(reply.body.hits[0]._formatted).toEqual({ id: '852', cattos: '<em>pésti</em>' });
    // byte starts and byte lengths in the original text (`pésti`: 6 bytes); `petit` is a one-typo
    // derivation of the prefix term `pesti`, so it matches too
    expect(reply.body.hits[0]._matchesPosition).toEqual({ title: [{ start: 3, length: 5 }], cattos: [{ start: 0, length: 6 }] });
    // v1.50 keys them in a BTreeMap: by path, not in the document's order
    expect(Object.keys(reply.body.hits[0]._matchesPosition)).toEqual(['cattos', 'title']);
  });

  it('takes the parameters from a GET query string', async () => {
    const reply = await call(server, 'GET', '/indexes/format/search?q=prince&attributesToHighlight=title&attributesToRetrieve=id&highlightPreTag=%3Cb%3E&highlightPostTag=%3C%2Fb%3E');
    expect(reply.status).toBe(200);
    expect(reply.body.hits[0]._formatted).toEqual({ id: '852', title: 'Le Petit <b>Prince</b>' });
  });
});

describe('_matchesPosition', () => {
  it('lists matches of every displayed attribute, with indices inside arrays', async () => {
    const { hits } = await index.search('buddy', { showMatchesPosition: true, attributesToRetrieve: ['id'] });
    expect(hits[0]!._matchesPosition).toEqual({ 'doggos.name': [{ start: 0, length: 5, indices: [1] }] });
  });

  it('lists the matches of a field named `__proto__` like any other field', async () => {
    const added = await call(server, 'POST', '/indexes/proto/documents', '[{"id": 1, "__proto__": "le petit prince"}]');
    await client.tasks.waitForTask(added.body.taskUid, { interval: 20, timeout: 60_000 });
    const reply = await call(server, 'POST', '/indexes/proto/search', { q: 'prince', showMatchesPosition: true });
    expect(reply.status).toBe(200);
    expect(Object.getOwnPropertyDescriptor(reply.body.hits[0]._matchesPosition, '__proto__')?.value).toEqual([{ start: 9, length: 6 }]);
  });

  it('is an empty object on a placeholder search', async () => {
    const { hits } = await index.search('', { showMatchesPosition: true });
    expect(hits[0]!._matchesPosition).toEqual({});
  });

  it('rejects a bad value with Meilisearch’s error', async () => {
    const reply = await call(server, 'POST', '/indexes/format/search', { q: 'x', showMatchesPosition: 'yes' });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('invalid_search_show_matches_position');
  });
});

describe('a page of large documents', () => {
  // two documents of ~600 KB: a page of both (1.2 MB) formats each a run of its fields at a time,
  // a page of one formats it in one call; both must answer alike, fields in their order
  const large = (id: number) => {
    const doc: Record<string, unknown> = { id };
    for (let f = 0; f < 3000; f++) doc[`f${String(f).padStart(4, '0')}`] = `${f % 7 === 0 ? 'alpha ' : ''}${'lorem ipsum dolor sit amet '.repeat(7)}${f % 5 === 0 ? 'alpha' : 'omega'} ${f}`;
    doc.nested = { a: 'alpha beta', list: ['alpha', 'gamma alpha', 7] };
    doc.last = 'the last alpha field';
    return doc;
  };

  it('formats a large document by parts exactly as whole', async () => {
    const text = `[${[1, 2].map((id) => JSON.stringify(large(id)).replace('{"id"', `{"__proto__":"alpha proto","id"`)).join(',')}]`;
    const added = await call(server, 'POST', '/indexes/large/documents', text);
    const task = await client.tasks.waitForTask(added.body.taskUid, { interval: 50, timeout: 60_000 });
    expect(task.error).toBeNull();
    const body = { q: 'alpha', attributesToHighlight: ['*'], attributesToCrop: ['f0005', 'nested.a'], cropLength: 3, showMatchesPosition: true };
    const one = await call(server, 'POST', '/indexes/large/search', { ...body, limit: 1 });
    const both = await call(server, 'POST', '/indexes/large/search', { ...body, limit: 2 });
    expect(both.body, both.text.slice(0, 300)).toHaveProperty('hits');
    expect(both.body.hits).toHaveLength(2);
    // JSON.parse keeps the keys' order and `__proto__` as a field: the texts compare the order too
    expect(JSON.stringify(both.body.hits[0])).toBe(JSON.stringify(one.body.hits[0]));
    const hit = one.body.hits[0];
    expect(Object.keys(hit._formatted).slice(0, 3)).toEqual(['__proto__', 'id', 'f0000']);
    expect(Object.getOwnPropertyDescriptor(hit._formatted, '__proto__')?.value).toBe('<em>alpha</em> proto');
    expect(hit._formatted.f0005).toBe('…amet <em>alpha</em> 5');
    // the last matching value of the array, as v1.50 keeps one value's matches per path (meilisearch#5658)
    expect(hit._matchesPosition['nested.list']).toEqual([{ start: 6, length: 5, indices: [1] }]);
  }, 120_000);
});
