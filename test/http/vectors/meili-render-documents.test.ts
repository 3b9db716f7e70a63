// Port of Meilisearch's crates/meilisearch/tests/documents/render_documents.rs: POST /render-template
// — the renderRoute gate, the template and input parameter checks per kind, templates fetched from an
// index's embedder (document template, indexing and search fragments, the chat document template) or
// inline, rendered against a stored document, an inline document or an inline search, and its errors.
//
// The Rust tests' shared fragments index (tests/common/mod.rs `init_fragments_index`) is built once
// here on the mock of `fragment_mock_server`; its uid, a uuid there, is redacted as `[uuid]` in
// messages. The two cases on a huggingFace embedder (all-MiniLM-L6-v2 at a pinned revision) run on a
// stand-in tiny model cached under that name and revision in HF_HOME: they only read its template.
import path from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid, type Reply } from '../../helpers/api.js';
import { expectJson, succeed } from '../../helpers/meili-datasets.js';
import { createMock, fragmentMockServer, fragmentsEmbedder, FRAGMENTS_DOCUMENTS, type MockEmbedder } from '../../helpers/meili-rest-mock.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';
import { writeTinyModel } from '../../fixtures/hf/tiny-model.js';
import { mockEmbedder } from '../../unit/embedders/mock-embedder.js';

let server: TestServer;
let home: string;
const mocks: MockEmbedder[] = [];

const render = (body: unknown): Promise<Reply> => call(server, 'POST', '/render-template', body);
const features = (body: Record<string, boolean>) => call(server, 'PATCH', '/experimental-features', body);
const err = (code: string, message: string) => ({ message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` });

/** Status and exact body; `uid` (the Rust test's uuid) redacted as `[uuid]` in the message. */
function expectReply(reply: Reply, status: number, body: unknown, uid?: string): void {
  expect(reply.status, reply.text).toBe(status);
  const actual = uid !== undefined && typeof reply.body?.message === 'string' ? { ...reply.body, message: reply.body.message.replaceAll(uid, '[uuid]') } : reply.body;
  expectJson(actual, body);
}

const CHAT_TEMPLATE =
  '{% for field in fields %}{% if field.is_searchable and field.value != nil %}{{ field.name }}: {{ field.value }}\n{% endif %}{% endfor %}';

const HF_DOGGO = {
  source: 'huggingFace',
  model: 'sentence-transformers/all-MiniLM-L6-v2',
  revision: 'e4ce9877abf3edfe10b0d82785e83bdcb973e22e',
  documentTemplate: 'This is a document template {{doc.doggo}}',
};

beforeAll(async () => {
  home = tempDir('quarry-hf-home-');
  writeTinyModel(path.join(home, 'hub'), { model: HF_DOGGO.model, sha: HF_DOGGO.revision, revision: null });
  server = await startServer({ args: ['--experimental-allowed-ip-networks', 'any'], env: { HF_HOME: home } });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
  for (const mock of mocks) await mock.close();
  rmSync(home, { recursive: true, force: true });
});

// First, while every experimental feature is still off (a new server in the Rust test).
it('wrong_params: the renderRoute gate, then each missing, unknown or disallowed template parameter', async () => {
  expectReply(
    await render({ template: { kind: 'documentTemplate', indexUid: 'test', embedder: 'rest' } }),
    400,
    err('feature_not_enabled', 'calling the /render-template route requires enabling the `render_route` experimental feature. See https://github.com/orgs/meilisearch/discussions/888'),
  );
  expect((await features({ renderRoute: true })).status).toBe(200);

  expectReply(await render({}), 400, err('bad_request', 'Missing field `template`'));
  expectReply(await render({ template: {} }), 400, err('invalid_render_template', 'Missing field `kind` inside `.template`'));
  expectReply(
    await render({ template: { kind: 'bad' } }),
    400,
    err(
      'invalid_render_template',
      'Unknown value `bad` at `.template.kind`: expected one of `documentTemplate`, `chatDocumentTemplate`, `indexingFragment`, `searchFragment`, `inlineDocumentTemplate`, `inlineFragment`',
    ),
  );
  expectReply(
    await render({ template: { kind: 'documentTemplate' } }),
    400,
    err('invalid_render_template', 'error while fetching template: parameter `index_uid` missing for kind `documentTemplate`'),
  );
  expectReply(
    await render({ template: { kind: 'documentTemplate', embedder: 'test' } }),
    400,
    err('invalid_render_template', 'error while fetching template: parameter `index_uid` missing for kind `documentTemplate`'),
  );
  expectReply(
    await render({ template: { kind: 'documentTemplate', indexUid: 'test', embedder: 'test', fragment: 'bad' } }),
    400,
    err('invalid_render_template', 'error while fetching template: parameter `fragment` disallowed for kind `documentTemplate`'),
  );
  expectReply(
    await render({ template: { kind: 'documentTemplate', indexUid: 'test', embedder: 'test', inline: 'bad' } }),
    400,
    err('invalid_render_template', 'error while fetching template: parameter `inline` disallowed for kind `documentTemplate`'),
  );
  expectReply(
    await render({ template: { kind: 'inlineDocumentTemplate' } }),
    400,
    err('invalid_render_template', 'error while fetching template: parameter `inline` missing for kind `inlineDocumentTemplate`'),
  );
  expectReply(
    await render({ template: { kind: 'inlineDocumentTemplate', indexUid: 'test' } }),
    400,
    err('invalid_render_template', 'error while fetching template: parameter `index_uid` disallowed for kind `inlineDocumentTemplate`'),
  );
  expectReply(
    await render({ template: { kind: 'inlineDocumentTemplate', embedder: 'test' } }),
    400,
    err('invalid_render_template', 'error while fetching template: parameter `embedder` disallowed for kind `inlineDocumentTemplate`'),
  );
  expectReply(
    await render({ template: { kind: 'inlineDocumentTemplate', fragment: 'test' } }),
    400,
    err('invalid_render_template', 'error while fetching template: parameter `fragment` disallowed for kind `inlineDocumentTemplate`'),
  );
});

describe('on the shared fragments index', () => {
  let uid: string;
  beforeAll(async () => {
    const mock = await fragmentMockServer();
    mocks.push(mock);
    expect((await features({ multimodal: true, renderRoute: true })).status).toBe(200);
    uid = uniqueUid('fragments');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { rest: fragmentsEmbedder(mock.url) } });
    await succeed(server, 'POST', `/indexes/${uid}/documents`, FRAGMENTS_DOCUMENTS);
  }, 60_000);

  it('wrong_embedder: an embedder the index lacks', async () => {
    expectReply(
      await render({ template: { kind: 'documentTemplate', indexUid: uid, embedder: 'wrong' } }),
      400,
      err('invalid_render_template', 'error while fetching template: cannot find embedder `wrong` in index `[uuid]`'),
      uid,
    );
  });

  it('document_template_on_fragmented_embedder: a fragment embedder has no document template', async () => {
    expectReply(
      await render({ template: { kind: 'documentTemplate', indexUid: uid, embedder: 'rest' } }),
      400,
      err('invalid_render_template', 'error while fetching template: embedder `rest` in index `[uuid]` does not use a document template.'),
      uid,
    );
  });

  it('wrong_fragment_name: an unknown indexing or search fragment', async () => {
    expectReply(
      await render({ template: { kind: 'indexingFragment', indexUid: uid, embedder: 'rest', fragment: 'bad' } }),
      400,
      err('invalid_render_template', 'error while fetching template: cannot find indexing fragment `bad` for embedder `rest` in index `[uuid]`'),
      uid,
    );
    expectReply(
      await render({ template: { kind: 'searchFragment', indexUid: uid, embedder: 'rest', fragment: 'bad' } }),
      400,
      err('invalid_render_template', 'error while fetching template: cannot find search fragment `bad` for embedder `rest` in index `[uuid]`'),
      uid,
    );
  });

  it('fragment_retrieval: a fragment without input answers its template and rendered null', async () => {
    expectReply(await render({ template: { kind: 'indexingFragment', indexUid: uid, embedder: 'rest', fragment: 'withBreed' } }), 200, {
      template: '{{ doc.name }} is a {{ doc.breed }}',
      rendered: null,
    });
    expectReply(await render({ template: { kind: 'searchFragment', indexUid: uid, embedder: 'rest', fragment: 'justBreed' } }), 200, {
      template: "It's a {{ media.breed }}",
      rendered: null,
    });
  });

  it('render_document_kefir: a stored document renders the fragment; a field it lacks is template_rendering_error', async () => {
    expectReply(
      await render({
        template: { kind: 'indexingFragment', indexUid: uid, embedder: 'rest', fragment: 'basic' },
        input: { kind: 'indexDocument', indexUid: uid, id: '0' },
      }),
      200,
      { template: '{{ doc.name }} is a dog', rendered: 'kefir is a dog' },
    );
    const reply = await render({
      template: { kind: 'indexingFragment', indexUid: uid, embedder: 'rest', fragment: 'withBreed' },
      input: { kind: 'indexDocument', indexUid: uid, id: '0' },
    });
    expect(reply.status, reply.text).toBe(400);
    expect(typeof reply.body.message).toBe('string');
    expectJson({ ...reply.body, message: '[ignored]' }, err('template_rendering_error', '[ignored]'));
  });

  it('render_inline_document_iko: inline documents and an inline search render the fragments', async () => {
    expectReply(
      await render({
        template: { kind: 'indexingFragment', indexUid: uid, embedder: 'rest', fragment: 'basic' },
        input: { kind: 'inlineDocument', inline: { name: 'iko', breed: 'jack russell' } },
      }),
      200,
      { template: '{{ doc.name }} is a dog', rendered: 'iko is a dog' },
    );
    expectReply(
      await render({
        template: { kind: 'indexingFragment', indexUid: uid, embedder: 'rest', fragment: 'withBreed' },
        input: { kind: 'inlineDocument', inline: { name: 'iko', breed: 'jack russell' } },
      }),
      200,
      { template: '{{ doc.name }} is a {{ doc.breed }}', rendered: 'iko is a jack russell' },
    );
    expectReply(
      await render({
        template: { kind: 'searchFragment', indexUid: uid, embedder: 'rest', fragment: 'justBreed' },
        input: { kind: 'inlineSearch', inline: { media: { name: 'iko', breed: 'jack russell' }, filter: 'ignored', q: 'unused' } },
      }),
      200,
      { template: "It's a {{ media.breed }}", rendered: "It's a jack russell" },
    );
  });

  it('document_not_found: a stored document that does not exist is 404 render_document_not_found', async () => {
    expectReply(
      await render({
        template: { kind: 'indexingFragment', indexUid: uid, embedder: 'rest', fragment: 'basic' },
        input: { kind: 'indexDocument', indexUid: uid, id: '9999' },
      }),
      404,
      err('render_document_not_found', 'error while fetching input: document `9999` not found in `[uuid]`'),
      uid,
    );
  });

  it('bad_template: an inline template that does not parse is template_parsing_error in liquid\'s frame', async () => {
    const reply = await render({ template: { kind: 'inlineDocumentTemplate', inline: '{{ doc.name' }, input: { kind: 'indexDocument', indexUid: uid, id: '0' } });
    // v1.50's reason and column come from Rust liquid's pest grammar (`--> 1:4 … = expected Literal`),
    // Quarry's from liquidjs: the README's compatibility table lists the difference
    expect(reply.status, reply.text).toBe(400);
    expect(Object.keys(reply.body)).toEqual(['message', 'code', 'type', 'link']);
    expect(reply.body).toMatchObject({ code: 'template_parsing_error', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#template_parsing_error' });
    expect(reply.body.message).toMatch(/^error while fetching template: user error: cannot parse template: liquid: {2}--> 1:\d+\n {2}\|\n1 \| \{\{ doc\.name\n {2}\| +\^---\n {2}\|\n {2}= .+\n$/);
  });

  it('inline_nested: an inline template reads nested fields of an inline document', async () => {
    expectReply(
      await render({
        template: { kind: 'inlineDocumentTemplate', inline: '{{ doc.name }} is a {{ doc.breed.name }} ({{ doc.breed.kind }})' },
        input: { kind: 'inlineDocument', inline: { name: 'iko', breed: { name: 'jack russell', kind: 'terrier' } } },
      }),
      200,
      { template: '{{ doc.name }} is a {{ doc.breed.name }} ({{ doc.breed.kind }})', rendered: 'iko is a jack russell (terrier)' },
    );
  });
});

it('fragment_on_document_template_embedder: asking a document-template embedder for a fragment', async () => {
  expect((await features({ renderRoute: true })).status).toBe(200);
  const uid = uniqueUid('hf');
  await features({ multimodal: true });
  await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { doggo_embedder: HF_DOGGO } });
  expectReply(
    await render({ template: { kind: 'indexingFragment', indexUid: uid, embedder: 'doggo_embedder', fragment: 'bad' } }),
    400,
    err('invalid_render_template', 'error while fetching template: embedder `doggo_embedder` in index `[uuid]` does not use fragments.'),
    uid,
  );
});

it('chat_completions_template_retrieval: an index answers the default chat document template', async () => {
  const uid = uniqueUid('chat');
  await succeed(server, 'POST', '/indexes', { uid });
  expect((await features({ chatCompletions: true, renderRoute: true })).status).toBe(200);
  expectReply(await render({ template: { kind: 'chatDocumentTemplate', indexUid: uid } }), 200, { template: CHAT_TEMPLATE, rendered: null });
});

it('retrieve_document_template: a huggingFace embedder answers its document template', async () => {
  expect((await features({ renderRoute: true })).status).toBe(200);
  const uid = uniqueUid('hf');
  const task = await run(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { doggo_embedder: HF_DOGGO } });
  expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
  expectReply(await render({ template: { kind: 'documentTemplate', indexUid: uid, embedder: 'doggo_embedder' } }), 200, {
    template: 'This is a document template {{doc.doggo}}',
    rendered: null,
  });
});

it('render_doc_not_object: an inline document must be a map and present', async () => {
  expect((await features({ renderRoute: true })).status).toBe(200);
  expectReply(
    await render({ template: { kind: 'inlineDocumentTemplate', inline: '{{ doc }}' }, input: { kind: 'inlineDocument', inline: "that's not an object, that's a string" } }),
    400,
    err(
      'invalid_render_input',
      'error while fetching input: parsing inline document: invalid type: string "that\'s not an object, that\'s a string", expected a map at line 1 column 39\n  - Note: the inline document must be a JSON map',
    ),
  );
  expectReply(
    await render({ template: { kind: 'inlineDocumentTemplate', inline: 'nothing to render' }, input: { kind: 'inlineDocument', inline: null } }),
    400,
    err('invalid_render_input', 'error while fetching input: parameter `inline` missing for kind `inlineDocument`'),
  );
});

it('render_search_not_object: an inline search must be a map and present', async () => {
  expect((await features({ multimodal: true, renderRoute: true })).status).toBe(200);
  expectReply(
    await render({ template: { kind: 'inlineFragment', inline: '{{ q }}: {{ media }}' }, input: { kind: 'inlineSearch', inline: "that's not an object, that's a string" } }),
    400,
    err(
      'invalid_render_input',
      'error while fetching input: parsing inline search: invalid type: string "that\'s not an object, that\'s a string", expected a map at line 1 column 39\n  - Note: the inline search query must be a JSON map containing `q` and/or `media`',
    ),
  );
  expectReply(
    await render({ template: { kind: 'inlineFragment', inline: 'default' }, input: { kind: 'inlineSearch', inline: null } }),
    400,
    err('invalid_render_input', 'error while fetching input: parameter `inline` missing for kind `inlineSearch`'),
  );
});

it('chat_completions: the chat document template renders a stored and an inline document', async () => {
  expect((await features({ renderRoute: true })).status).toBe(200);
  const uid = uniqueUid('chat');
  await succeed(server, 'POST', '/indexes', { uid });
  await succeed(server, 'POST', `/indexes/${uid}/documents`, [{ id: '0', name: 'kefir' }]);
  await features({ chatCompletions: true });
  expectReply(
    await render({ template: { kind: 'chatDocumentTemplate', indexUid: uid }, input: { kind: 'indexDocument', id: '0', indexUid: uid } }),
    200,
    { template: CHAT_TEMPLATE, rendered: 'id: 0\nname: kefir\n' },
  );
  expectReply(
    await render({ template: { kind: 'chatDocumentTemplate', indexUid: uid }, input: { kind: 'inlineDocument', inline: { name: 'iko', breed: 'jack russell' } } }),
    200,
    { template: CHAT_TEMPLATE, rendered: 'name: iko\nbreed: jack russell\n' },
  );
});

it("embedder_document_template: a rest embedder's document template renders a stored document", async () => {
  const { mock, setting } = await createMock();
  mocks.push(mock);
  const uid = uniqueUid('doggo');
  expect((await features({ renderRoute: true })).status).toBe(200);
  await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { rest: setting } });
  await succeed(server, 'POST', `/indexes/${uid}/documents`, [{ id: 0, name: 'kefir' }]);
  expectReply(
    await render({ template: { kind: 'documentTemplate', indexUid: uid, embedder: 'rest' }, input: { kind: 'indexDocument', indexUid: uid, id: '0' } }),
    200,
    { template: '{{doc.name}}', rendered: 'kefir' },
  );
});

it('ugly_embedder_and_fragment_names: names with quotes, dots and brackets are looked up as given', async () => {
  expect((await features({ renderRoute: true })).status).toBe(200);
  const uid = uniqueUid('ugly');
  expect((await features({ multimodal: true })).status).toBe(200);
  const mock = await mockEmbedder(() => ({ text: '{"data":[0.1,0.2,0.3]}' }));
  mocks.push(mock);
  await succeed(server, 'PATCH', `/indexes/${uid}/settings`, {
    embedders: {
      'Open AI "3.1"': {
        source: 'rest',
        url: mock.url,
        dimensions: 3,
        request: '{{fragment}}',
        response: { data: '{{embedding}}' },
        indexingFragments: { 'ugly fragment "name".': { value: '{{ doc.name }} processed by AI' } },
        searchFragments: { 'search with [brackets]': { value: "It's a {{ media.breed }}" } },
      },
    },
  });
  expectReply(await render({ template: { kind: 'indexingFragment', indexUid: uid, embedder: 'Open AI "3.1"', fragment: 'ugly fragment "name".' } }), 200, {
    template: '{{ doc.name }} processed by AI',
    rendered: null,
  });
  expectReply(await render({ template: { kind: 'searchFragment', indexUid: uid, embedder: 'Open AI "3.1"', fragment: 'search with [brackets]' } }), 200, {
    template: "It's a {{ media.breed }}",
    rendered: null,
  });
});
