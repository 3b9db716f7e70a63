// Multimodal embedders (experimental `multimodal`): a REST embedder with indexing and search
// fragments, served by a mock on loopback (--experimental-allowed-ip-networks), after v1.50's
// tests/vector/fragments.rs: each document gets one vector per fragment that renders for it, a
// search embeds the one search fragment its `q`/`media` renders, fragment changes re-embed only
// what changed; the settings checks and the feature gate answer v1.50's errors.
import { createServer, type Server } from 'node:http';
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let mock: Server;
let url: string;
let server: TestServer;
/** the bodies the mock received, in order */
const received: unknown[] = [];

/** milli's fragment mock: the embedding is the sum of the vectors of the words the body contains. */
const WORDS: [string, number[]][] = [
  ['kefir', [0.5, -0.5, 0]],
  ['intel', [1, 1, 0]],
  ['dustin', [-0.5, 0.5, 0]],
  ['bulldog', [0, 0, 1]],
  ['labrador', [0, 0, -1]],
];

function embeddingOf(body: string): number[] {
  const out = [0, 0, 0];
  for (const [word, vector] of WORDS) if (body.includes(word)) vector.forEach((x, i) => (out[i]! += x));
  return out;
}

const FRAGMENT_EMBEDDER = () => ({
  source: 'rest',
  url,
  dimensions: 3,
  request: '{{fragment}}',
  response: { data: '{{embedding}}' },
  indexingFragments: {
    withBreed: { value: '{{ doc.name }} is a {{ doc.breed }}' },
    basic: { value: '{{ doc.name }} is a dog' },
  },
  searchFragments: {
    justBreed: { value: "It's a {{ media.dog.breed }}" },
    justName: { value: '{{ media.dog.name }} is a dog' },
    query: { value: 'Some pre-prompt for query {{ q }}' },
  },
});

const DOCUMENTS = [
  { id: 0, name: 'kefir' },
  { id: 1, name: 'echo', _vectors: { rest: [1, 1, 1] } },
  { id: 2, name: 'intel', breed: 'labrador' },
  { id: 3, name: 'dustin', breed: 'bulldog' },
];

/** An index with the fragment embedder and the four documents; answers its uid. */
async function fragmentsIndex(): Promise<string> {
  const uid = uniqueUid('frag');
  const settings = await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { rest: FRAGMENT_EMBEDDER() } });
  expect(settings.status, JSON.stringify(settings.error)).toBe('succeeded');
  const added = await run(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
  expect(added.status, JSON.stringify(added.error)).toBe('succeeded');
  return uid;
}

/** Each document's id and `_vectors.rest.embeddings`. */
async function embeddings(uid: string): Promise<Record<number, number[][]>> {
  const reply = await call(server, 'GET', `/indexes/${uid}/documents?retrieveVectors=true`);
  expect(reply.status, reply.text).toBe(200);
  return Object.fromEntries(reply.body.results.map((doc: any) => [doc.id, doc._vectors.rest.embeddings]));
}

beforeAll(async () => {
  mock = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: embeddingOf(body) }));
    });
  });
  await new Promise<void>((resolve) => mock.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(mock.address() as { port: number }).port}/`;
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
}, 60_000);
afterAll(async () => {
  await server.dispose();
  await new Promise((resolve) => mock.close(resolve));
});

describe('without the multimodal feature', () => {
  it('refuses fragments in settings and media in a search', async () => {
    const uid = uniqueUid('off');
    const reply = await call(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { rest: FRAGMENT_EMBEDDER() } });
    expectError(reply, 400, 'feature_not_enabled', 'setting `indexingFragments` requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846');
    expect((await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1 }])).status).toBe('succeeded');
    const search = await call(server, 'POST', `/indexes/${uid}/search`, { media: { a: 1 }, hybrid: { embedder: 'rest', semanticRatio: 0 } });
    expectError(
      search,
      400,
      'feature_not_enabled',
      'passing `media` in a search query requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846',
    );
  });
});

describe('with the multimodal feature', () => {
  let uid: string;
  beforeAll(async () => {
    expect((await call(server, 'PATCH', '/experimental-features', { multimodal: true })).status).toBe(200);
    uid = await fragmentsIndex();
  }, 60_000);

  describe('settings', () => {
    it('refuses fragments next to a documentTemplate', async () => {
      const reply = await call(server, 'PATCH', `/indexes/${uniqueUid('both')}/settings`, {
        embedders: { rest: { ...FRAGMENT_EMBEDDER(), searchFragments: { justBreed: { value: "It's a {{ media.breed }}" } }, documentTemplate: '{{ doc.name }} is a dog' } },
      });
      expectError(
        reply,
        400,
        'vector_embedding_error',
        'Error while generating embeddings: user error: cannot pass both fragments and a document template.\n  - Note: 2 fragments declared in `indexingFragments` and 1 fragments declared in `search_fragments_len`.\n  - Hint: remove the declared fragments or remove the `documentTemplate`',
      );
    });

    it('refuses a request with {{text}} when fragments are used, and a fragment that is no Liquid', async () => {
      const text = await call(server, 'PATCH', `/indexes/${uniqueUid('text')}/settings`, { embedders: { rest: { ...FRAGMENT_EMBEDDER(), request: { input: '{{text}}' } } } });
      expectError(
        text,
        400,
        'vector_embedding_error',
        'Error while generating embeddings: user error: in `request`: "{{fragment}}" not found\n  - Note: this template is using fragments, and so expects to contain the placeholder "{{fragment}}" rathern than "{{text}}"',
      );
      const liquid = await call(server, 'PATCH', `/indexes/${uniqueUid('liquid')}/settings`, {
        embedders: { rest: { ...FRAGMENT_EMBEDDER(), indexingFragments: { bad: { value: { a: ['{{ doc.name '] } } } } },
      });
      expect(liquid.status, liquid.text).toBe(400);
      expect(liquid.body.code).toBe('vector_embedding_error');
      expect(liquid.body.message).toMatch(/^Error while generating embeddings: user error: in ``\.indexingFragments\.bad\.a\[0\]``, error while parsing template: liquid: /);
    });

    it('fails the task of an embedder with fragments on one side only', async () => {
      const { searchFragments: _none, ...indexingOnly } = FRAGMENT_EMBEDDER();
      const one = uniqueUid('one');
      const task = await run(server, 'PATCH', `/indexes/${one}/settings`, { embedders: { rest: indexingOnly } });
      expect(task.status).toBe('failed');
      expect(task.error).toMatchObject({
        code: 'vector_embedding_error',
        message:
          `Index \`${one}\`: Error while generating embeddings: user error: inconsistent fragments: \`searchFragments\` is empty, but \`indexingFragments\` declares 2 fragments: basic, withBreed\n - Hint: declare at least one fragment in \`searchFragments\` or remove fragments from \`indexingFragments\` by setting them to \`null\``,
      });
    });

    it('shows the fragments and no document template', async () => {
      const reply = await call(server, 'GET', `/indexes/${uid}/settings/embedders`);
      const { indexingFragments, searchFragments, request, response } = FRAGMENT_EMBEDDER();
      const expected = {
        rest: {
          source: 'rest',
          dimensions: 3,
          url,
          indexingFragments: { basic: indexingFragments.basic, withBreed: indexingFragments.withBreed },
          searchFragments,
          request,
          response,
          headers: {},
        },
      };
      // v1.50's key order; fragments by name
      expect(reply.text).toBe(JSON.stringify(expected));
      expect(await new Meilisearch({ host: server.url }).index(uid).getEmbedders()).toEqual(expected);
    });
  });

  describe('indexing', () => {
    it('gives each document one vector per fragment that renders for it, in fragment order', async () => {
      expect(await embeddings(uid)).toEqual({
        0: [[0.5, -0.5, 0]],
        1: [[1, 1, 1]],
        2: [[1, 1, 0], [1, 1, -1]],
        3: [[-0.5, 0.5, 0], [-0.5, 0.5, 1]],
      });
      const doc = await call(server, 'GET', `/indexes/${uid}/documents/0?retrieveVectors=true`);
      expect(doc.body._vectors).toEqual({ rest: { embeddings: [[0.5, -0.5, 0]], regenerate: true } });
      const stats = await call(server, 'GET', `/indexes/${uid}/stats`);
      expect(stats.body).toMatchObject({ numberOfEmbeddings: 6, numberOfEmbeddedDocuments: 4 });
    });

    it('filters on the documents having a fragment vector', async () => {
      const reply = await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { filter: '_vectors.rest.fragments.withBreed EXISTS' });
      expect(reply.body.results.map((doc: any) => doc.id)).toEqual([2, 3]);
      // an embedder name within two typos of a configured one is suggested as a fragment's is (milli's DidYouMean)
      const embedder = await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { filter: '_vectors.ret EXISTS' });
      expect(embedder.body.message).toBe('The embedder `ret` does not exist. Available embedders are: `rest`. Did you mean `rest`?\n10:13 _vectors.ret EXISTS');
      const far = await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { filter: '_vectors.other EXISTS' });
      expect(far.body.message).toBe('The embedder `other` does not exist. Available embedders are: `rest`.\n10:15 _vectors.other EXISTS');
      const unknown = await call(server, 'POST', `/indexes/${uid}/documents/fetch`, { filter: '_vectors.rest.fragments.withBred EXISTS' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe(
        'The fragment `withBred` does not exist on embedder `rest`. Available fragments on this embedder are: `basic`, `withBreed`. Did you mean `withBreed`?\n25:33 _vectors.rest.fragments.withBred EXISTS',
      );
      // a search re-reads the filter in its canonical text, names quoted (filters.rs vector_filter_non_existant_fragment)
      const searched = await call(server, 'POST', `/indexes/${uid}/search`, { filter: '_vectors.rest.fragments.withBred EXISTS' });
      expect(searched.status).toBe(400);
      expect(searched.body.message).toBe(
        `Index \`${uid}\`: The fragment \`withBred\` does not exist on embedder \`rest\`. Available fragments on this embedder are: \`basic\`, \`withBreed\`. Did you mean \`withBreed\`?\n28:36 _vectors."rest".fragments."withBred" EXISTS`,
      );
    });

    it('re-embeds only the fragments whose rendering a document change changes', async () => {
      const own = await fragmentsIndex();
      const before = received.length;
      expect((await run(server, 'POST', `/indexes/${own}/documents`, [{ id: 0, name: 'kefir', breed: 'sorry-I-forgot' }])).status).toBe('succeeded');
      expect(received.slice(before)).toEqual(['kefir is a sorry-I-forgot']);
      expect((await embeddings(own))[0]).toEqual([[0.5, -0.5, 0], [0.5, -0.5, 0]]);
    });
  });

  describe('fragment changes', () => {
    it('removing a fragment removes its vectors and embeds nothing', async () => {
      const own = await fragmentsIndex();
      const before = received.length;
      const task = await run(server, 'PATCH', `/indexes/${own}/settings`, { embedders: { rest: { indexingFragments: { basic: null } } } });
      expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
      expect(task.details.embedders.rest.indexingFragments).toEqual({ basic: null });
      expect(received.length).toBe(before);
      expect(await embeddings(own)).toEqual({ 0: [], 1: [[1, 1, 1]], 2: [[1, 1, -1]], 3: [[-0.5, 0.5, 1]] });
      const settings = await call(server, 'GET', `/indexes/${own}/settings/embedders`);
      expect(settings.body.rest.indexingFragments).toEqual({ withBreed: { value: '{{ doc.name }} is a {{ doc.breed }}' } });
    });

    it('swapping two fragments keeps their ids: each document\'s vectors follow the fragment names', async () => {
      const own = await fragmentsIndex();
      const { indexingFragments } = FRAGMENT_EMBEDDER();
      const task = await run(server, 'PATCH', `/indexes/${own}/settings`, {
        embedders: { rest: { indexingFragments: { basic: indexingFragments.withBreed, withBreed: indexingFragments.basic } } },
      });
      expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
      expect(await embeddings(own)).toEqual({ 0: [[0.5, -0.5, 0]], 1: [[1, 1, 1]], 2: [[1, 1, -1], [1, 1, 0]], 3: [[-0.5, 0.5, 1], [-0.5, 0.5, 0]] });
    });

    it('changing a fragment re-embeds that fragment only; an added one takes the next id', async () => {
      const own = await fragmentsIndex();
      let before = received.length;
      const changed = await run(server, 'PATCH', `/indexes/${own}/settings`, {
        embedders: { rest: { indexingFragments: { basic: { value: '{{ doc.name }} is a dog (maybe bulldog?)' } } } },
      });
      expect(changed.status, JSON.stringify(changed.error)).toBe('succeeded');
      expect(received.slice(before).sort()).toEqual(['dustin is a dog (maybe bulldog?)', 'intel is a dog (maybe bulldog?)', 'kefir is a dog (maybe bulldog?)']);
      expect(await embeddings(own)).toEqual({ 0: [[0.5, -0.5, 1]], 1: [[1, 1, 1]], 2: [[1, 1, 1], [1, 1, -1]], 3: [[-0.5, 0.5, 1], [-0.5, 0.5, 1]] });
      before = received.length;
      const added = await run(server, 'PATCH', `/indexes/${own}/settings`, {
        embedders: { rest: { indexingFragments: { complex: { value: { breed: '{{ doc.breed }}', breeds: ['{{ doc.breed }}', { breed: '{{ doc.breed }}' }] } } } } },
      });
      expect(added.status, JSON.stringify(added.error)).toBe('succeeded');
      expect(received.slice(before)).toHaveLength(2);
      expect(received.slice(before)).toContainEqual({ breed: 'labrador', breeds: ['labrador', { breed: 'labrador' }] });
      expect(await embeddings(own)).toEqual({
        0: [[0.5, -0.5, 1]],
        1: [[1, 1, 1]],
        2: [[1, 1, 1], [1, 1, -1], [0, 0, -1]],
        3: [[-0.5, 0.5, 1], [-0.5, 0.5, 1], [0, 0, 1]],
      });
    });
  });

  describe('search', () => {
    const search = (body: Record<string, unknown>) => call(server, 'POST', `/indexes/${uid}/search`, body);
    const hybrid = { semanticRatio: 1, embedder: 'rest' };

    it('embeds the search fragment its media renders', async () => {
      const reply = await search({ media: { dog: { breed: 'labrador' } }, hybrid, limit: 1 });
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ hits: [{ id: 2, name: 'intel', breed: 'labrador' }], query: '', estimatedTotalHits: 4, semanticHitCount: 1 });
    });

    it('embeds the search fragment its q renders', async () => {
      const reply = await search({ q: 'bulldog', hybrid, limit: 1 });
      expect(reply.body).toMatchObject({ hits: [{ id: 3 }], query: 'bulldog', semanticHitCount: 1 });
    });

    it('refuses a query matching several search fragments, or none', async () => {
      expectError(
        await search({ media: { dog: { name: 'dustin', breed: 'labrador' } }, hybrid, limit: 1 }),
        400,
        'vector_embedding_error',
        'Error while generating embeddings: user error: Query matches multiple search fragments.\n  - Note: First matched fragment `justBreed`.\n  - Note: Second matched fragment `justName`.\n  - Note: {"q":null,"media":{"dog":{"name":"dustin","breed":"labrador"}}}',
      );
      expectError(
        await search({ media: { ticker: 'GME', section: 'portfolio' }, hybrid, limit: 1 }),
        400,
        'vector_embedding_error',
        'Error while generating embeddings: user error: Query matches no search fragment.\n  - Note: {"q":null,"media":{"ticker":"GME","section":"portfolio"}}',
      );
      expectError(
        await search({ vector: [1, 1, 1], media: { dog: { breed: 'labrador' } }, hybrid }),
        400,
        'invalid_search_media_and_vector',
        'Invalid request: both `media` and `vector` parameters are present.',
      );
    });

    it('embeds with the fragments of a composite embedder: indexing and search sides', async () => {
      expect((await call(server, 'PATCH', '/experimental-features', { compositeEmbedders: true })).status).toBe(200);
      const { indexingFragments, searchFragments, ...shared } = FRAGMENT_EMBEDDER();
      const own = uniqueUid('composite');
      const settings = await run(server, 'PATCH', `/indexes/${own}/settings`, {
        embedders: { rest: { source: 'composite', searchEmbedder: { ...shared, searchFragments }, indexingEmbedder: { ...shared, indexingFragments } } },
      });
      expect(settings.status, JSON.stringify(settings.error)).toBe('succeeded');
      expect((await run(server, 'POST', `/indexes/${own}/documents`, DOCUMENTS)).status).toBe('succeeded');
      expect((await embeddings(own))[3]).toEqual([[-0.5, 0.5, 0], [-0.5, 0.5, 1]]);
      const reply = await call(server, 'POST', `/indexes/${own}/search`, { q: 'bulldog', hybrid, limit: 1 });
      expect(reply.body).toMatchObject({ hits: [{ id: 3 }], semanticHitCount: 1 });
    });

    it('searches with media through the meilisearch client and in a multi-search', async () => {
      const client = new Meilisearch({ host: server.url });
      const found = await client.index(uid).search(null, { media: { dog: { breed: 'bulldog' } }, hybrid, limit: 1 });
      expect(found.hits.map((hit) => hit.id)).toEqual([3]);
      const multi = await call(server, 'POST', '/multi-search', {
        queries: [{ indexUid: uid, media: { dog: { breed: 'labrador' } }, hybrid, limit: 1 }],
      });
      expect(multi.body.results[0].hits.map((hit: any) => hit.id)).toEqual([2]);
    });
  });
});
