// Every refusal of a bad vector or hybrid search input through the real server, one per test, with
// Meilisearch's status, code and message (search.md §2, §3, §6; vectors.md §7; tests/search/hybrid.rs).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { call, expectError, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let uid: string;

beforeAll(async () => {
  server = await startServer();
  uid = uniqueUid('vector-errors');
  await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { default: { source: 'userProvided', dimensions: 2 } } });
  await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, title: 'Captain Planet', _vectors: { default: [1, 2] } }]);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const post = (body: unknown) => call(server, 'POST', `/indexes/${uid}/search`, body);
const get = (query: string) => call(server, 'GET', `/indexes/${uid}/search?${query}`);
const RATIO = 'the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.';

describe('vector search errors', () => {
  it('refuses a vector without hybrid', async () => {
    expectError(await post({ q: 'Captain', vector: [1, 0] }), 400, 'missing_search_hybrid', 'Invalid request: missing `hybrid` parameter when `vector` or `media` are present.');
  });

  it('refuses a vector without hybridEmbedder in the GET form', async () => {
    expectError(await get('vector=1,0'), 400, 'missing_search_hybrid', '`hybridEmbedder` is mandatory when `vector` is present');
  });

  it('refuses hybridSemanticRatio without hybridEmbedder in the GET form', async () => {
    expectError(await get('hybridSemanticRatio=0.5'), 400, 'invalid_search_hybrid_query', '`hybridEmbedder` is mandatory when `hybridSemanticRatio` is present');
  });

  it('refuses a semanticRatio above 1', async () => {
    expectError(await post({ q: 'Captain', vector: [1, 1], hybrid: { semanticRatio: 1.2, embedder: 'default' } }), 400, 'invalid_search_semantic_ratio', `Invalid value at \`.hybrid.semanticRatio\`: ${RATIO}`);
  });

  it('refuses a negative semanticRatio in the GET form', async () => {
    expectError(await get('q=Captain&vector=1,1&hybridEmbedder=default&hybridSemanticRatio=-0.2'), 400, 'invalid_search_semantic_ratio', `Invalid value in parameter \`hybridSemanticRatio\`: ${RATIO}`);
  });

  it('refuses an unknown embedder once the search is semantic', async () => {
    expectError(await post({ vector: [1, 1], hybrid: { embedder: 'nope' } }), 400, 'invalid_search_embedder', 'Cannot find embedder with name `nope`.');
  });

  it('refuses an unknown embedder of a hybrid search', async () => {
    expectError(await post({ q: 'Captain', hybrid: { embedder: 'nope', semanticRatio: 0.5 } }), 400, 'invalid_search_embedder', 'Cannot find embedder with name `nope`.');
  });

  it('refuses a vector of the wrong dimensions', async () => {
    expectError(await post({ vector: [1, 0, 1], hybrid: { embedder: 'default', semanticRatio: 1 } }), 400, 'invalid_vector_dimensions', 'Invalid vector dimensions: expected: `2`, found: `3`.');
  });

  it('refuses a vector that is not an array', async () => {
    expectError(await post({ vector: 'doggo', hybrid: { embedder: 'default' } }), 400, 'invalid_search_vector', 'Invalid value type at `.vector`: expected an array, but found a string: `"doggo"`');
  });

  it('refuses a hybrid that is not an object', async () => {
    expectError(await post({ q: 'Captain', hybrid: 'default' }), 400, 'invalid_search_hybrid_query', 'Invalid value type at `.hybrid`: expected an object, but found a string: `"default"`');
  });

  it('refuses a hybrid without embedder', async () => {
    expectError(await post({ q: 'Captain', hybrid: { semanticRatio: 0.5 } }), 400, 'invalid_search_hybrid_query', 'Missing field `embedder` inside `.hybrid`');
  });

  it('refuses a vector holding something else than numbers', async () => {
    expectError(await post({ vector: [1, 'a'], hybrid: { embedder: 'default' } }), 400, 'invalid_search_vector', 'Invalid value type at `.vector[1]`: expected a number, but found a string: `"a"`');
  });

  it('refuses media while the multimodal feature is off', async () => {
    expectError(
      await post({ media: { image: 'x' }, hybrid: { embedder: 'default' } }),
      400,
      'feature_not_enabled',
      'passing `media` in a search query requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846',
    );
  });

  it('refuses media together with a vector', async () => {
    expectError(await post({ media: { image: 'x' }, vector: [1, 1], hybrid: { embedder: 'default' } }), 400, 'invalid_search_media_and_vector', 'Invalid request: both `media` and `vector` parameters are present.');
  });

  it('refuses a semantic search whose query text cannot be embedded', async () => {
    expectError(
      await post({ q: 'Captain', hybrid: { embedder: 'default', semanticRatio: 1 } }),
      400,
      'vector_embedding_error',
      'Error while generating embeddings: user error: attempt to embed the following text in a configuration where embeddings must be user provided:\n  - `Captain`',
    );
  });

  it('prefixes a multi-search query error with its position', async () => {
    const reply = await call(server, 'POST', '/multi-search', { queries: [{ indexUid: uid, q: 'x' }, { indexUid: uid, vector: [1], hybrid: { embedder: 'default' } }] });
    expectError(reply, 400, 'invalid_vector_dimensions', 'Inside `.queries[1]`: Invalid vector dimensions: expected: `2`, found: `1`.');
  });
});
