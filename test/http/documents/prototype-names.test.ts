// Names users choose that are also members of Object.prototype (`constructor`, `toString`,
// `__proto__`) are ordinary names: as fields in the field distribution, as facet values and
// facet fields in search and federated facets, as an index uid in batch stats, as document keys
// at any depth. They were read through the prototype (a count of "function Object() { [native
// code] }1"), set it (a facet value `__proto__` missing from the distribution), or came back from
// the store renamed `__proto_` (msgpackr's decoder). Synonyms and network remotes named so were
// dropped: copied by assignment, which set the prototype.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await run(server, 'PATCH', '/indexes/constructor/settings', { filterableAttributes: ['g', 'constructor', 'toString'] });
  await run(server, 'POST', '/indexes/constructor/documents', [
    { id: 1, g: ['constructor', '__proto__', 'toString', 'x'], constructor: 'a', toString: 5 },
    { id: 2, g: 'constructor', toString: 7 },
  ]);
});
afterAll(async () => {
  await server.stop();
});

// compared as JSON text: in an object literal, `__proto__: 1` would set the prototype, not a key
const DISTRIBUTION = '{"constructor":{"a":1},"g":{"__proto__":1,"constructor":2,"toString":1,"x":1},"toString":{"5":1,"7":1}}';

describe('names of Object.prototype members', () => {
  it('count as fields in the field distribution', async () => {
    const { body } = await call(server, 'GET', '/indexes/constructor/stats');
    expect(body.fieldDistribution).toEqual({ constructor: 1, g: 2, id: 2, toString: 2 });
  });

  it('count as facet values and facet fields in a search', async () => {
    const { body } = await call(server, 'POST', '/indexes/constructor/search', { facets: ['g', 'constructor', 'toString'] });
    expect(JSON.stringify(body.facetDistribution)).toBe(DISTRIBUTION);
    expect(body.facetStats).toEqual({ toString: { min: 5, max: 7 } });
  });

  it('count in federated facets', async () => {
    const { body } = await call(server, 'POST', '/multi-search', {
      federation: { facetsByIndex: { constructor: ['g', 'toString'] }, mergeFacets: {} },
      queries: [{ indexUid: 'constructor', q: '' }],
    });
    expect(JSON.stringify(body.facetDistribution)).toBe('{"g":{"__proto__":1,"constructor":2,"toString":1,"x":1},"toString":{"5":1,"7":1}}');
    expect(body.facetStats).toEqual({ toString: { min: 5, max: 7 } });
  });

  it('stay document keys at any depth, stored, searched, merged and counted', async () => {
    const text = '{"id":3,"__proto__":{"a":1},"n":{"__proto__":"x","__proto_":"y"},"l":[{"__proto__":2}]}';
    // sent as text: a `__proto__` key of an object literal would set its prototype
    await run(server, 'POST', '/indexes/protos/documents', JSON.parse(`[${text}]`));
    expect((await call(server, 'GET', '/indexes/protos/documents/3')).text).toBe(text);
    expect(JSON.stringify((await call(server, 'POST', '/indexes/protos/search', { q: '' })).body.hits)).toBe(`[${text}]`);
    await run(server, 'PUT', '/indexes/protos/documents', [{ id: 3, m: 1 }]);
    expect((await call(server, 'GET', '/indexes/protos/documents/3')).text).toBe(`${text.slice(0, -1)},"m":1}`);
    expect(JSON.stringify((await call(server, 'GET', '/indexes/protos/stats')).body.fieldDistribution)).toBe('{"__proto__":1,"id":1,"l":1,"m":1,"n":1}');
  });

  it('stay document keys in a document stored reordered, picked by `fields`, retrieved, formatted and federated', async () => {
    // `__proto__` first where the index's field ids put it last: the store reorders the document
    await run(server, 'POST', '/indexes/protos-order/documents', JSON.parse('[{"id":1,"title":"a","__proto__":"first"}]'));
    await run(server, 'POST', '/indexes/protos-order/documents', JSON.parse('[{"__proto__":{"k":"deep"},"title":"b","id":2}]'));
    expect((await call(server, 'GET', '/indexes/protos-order/documents/2')).text).toBe('{"id":2,"title":"b","__proto__":{"k":"deep"}}');
    expect((await call(server, 'GET', '/indexes/protos-order/documents/2?fields=__proto__,id')).text).toBe('{"id":2,"__proto__":{"k":"deep"}}');
    const { body } = await call(server, 'POST', '/indexes/protos-order/search', { q: 'b', attributesToRetrieve: ['__proto__'], attributesToHighlight: ['*'] });
    expect(JSON.stringify(body.hits)).toBe('[{"__proto__":{"k":"deep"},"_formatted":{"id":"2","title":"<em>b</em>","__proto__":{"k":"deep"}}}]');
    const federated = await call(server, 'POST', '/multi-search', { federation: {}, queries: [{ indexUid: 'protos-order', q: 'b' }] });
    expect(JSON.stringify(federated.body.hits[0])).toMatch(/^\{"id":2,"title":"b","__proto__":\{"k":"deep"\},"_federation":/);
  });

  it('name `_vectors` entries of a document, shown with retrieveVectors and kept by an update', async () => {
    await run(server, 'POST', '/indexes/protos-vectors/documents', JSON.parse('[{"id":1,"_vectors":{"__proto__":[0.5,1]}}]'));
    // an embedder the index does not have: its entry shown as sent
    const shown = '{"id":1,"_vectors":{"__proto__":[0.5,1]}}';
    expect((await call(server, 'GET', '/indexes/protos-vectors/documents/1?retrieveVectors=true')).text).toBe(shown);
    // an update merges the stored `_vectors` with the sent one
    await run(server, 'PUT', '/indexes/protos-vectors/documents', JSON.parse('[{"id":1,"_vectors":{"other":[2]}}]'));
    expect((await call(server, 'GET', '/indexes/protos-vectors/documents/1?retrieveVectors=true')).text).toBe('{"id":1,"_vectors":{"__proto__":[0.5,1],"other":[2]}}');
  });

  it('count as an index uid in batch stats', async () => {
    const { body } = await call(server, 'GET', '/batches?indexUids=constructor&limit=1');
    expect(body.results[0].stats.indexUids).toEqual({ constructor: 1 });
  });

  it('are synonyms: stored, shown in the task and the settings, and used by search', async () => {
    const task = await run(server, 'PATCH', '/indexes/constructor/settings', { synonyms: JSON.parse('{"__proto__":["x"],"constructor":["y"]}') });
    expect(JSON.stringify(task.details)).toBe('{"synonyms":{"__proto__":["x"],"constructor":["y"]}}');
    const synonyms = await call(server, 'GET', '/indexes/constructor/settings/synonyms');
    expect(JSON.stringify(synonyms.body)).toBe('{"__proto__":["x"],"constructor":["y"]}');
    // document 1 holds no `__proto__` word in a searchable field but `x`, its synonym
    await run(server, 'POST', '/indexes/synonym-names/documents', [{ id: 1, text: 'an x' }, { id: 2, text: 'nothing' }]);
    await run(server, 'PATCH', '/indexes/synonym-names/settings', { synonyms: JSON.parse('{"__proto__":["x"]}') });
    const { body } = await call(server, 'POST', '/indexes/synonym-names/search', { q: '__proto__' });
    expect(body.hits.map((hit: { id: number }) => hit.id)).toEqual([1]);
  });

  it('name network remotes, kept across a restart', async () => {
    const own = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
    try {
      await call(own, 'PATCH', '/experimental-features', { network: true });
      const remotes = JSON.parse('{"__proto__":{"url":"http://127.0.0.1:9"},"constructor":{"url":"http://127.0.0.1:8"},"a":{"url":"http://127.0.0.1:7"}}');
      const patched = await call(own, 'PATCH', '/network', { self: 'a', remotes });
      expect(patched.status).toBe(200);
      const names = (body: { remotes: Record<string, { url: string }> }) => Object.entries(body.remotes).map(([name, remote]) => [name, remote.url]);
      const expected = [['__proto__', 'http://127.0.0.1:9'], ['a', 'http://127.0.0.1:7'], ['constructor', 'http://127.0.0.1:8']];
      expect(names(patched.body)).toEqual(expected);
      await own.stop();
      const again = await startServer({ dbPath: own.dbPath, args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
      try {
        expect(names((await call(again, 'GET', '/network')).body)).toEqual(expected);
      } finally {
        await again.dispose();
      }
    } finally {
      await own.dispose();
    }
  });
});
