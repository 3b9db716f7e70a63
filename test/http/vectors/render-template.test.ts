// POST /render-template (misc-routes.md §11; Meilisearch's routes/render.rs and
// tests/documents/render_documents.rs): the renderRoute gate, templates from an index's embedder
// or inline, stored or inline documents, and each error with its stage prefix, code and status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { fakeEmbedding, mockEmbedder, type MockEmbedder } from '../../unit/embedders/mock-embedder.js';

let server: TestServer;
let embedder: MockEmbedder;
const error = (code: string, message: string) => ({ message, code, type: 'invalid_request', link: `https://docs.meilisearch.com/errors#${code}` });
const render = (body: unknown) => call(server, 'POST', '/render-template', body);
const TEMPLATE = '{{ doc.name }} is a {{ doc.breed.name }} ({{ doc.breed.kind }})';

beforeAll(async () => {
  embedder = await mockEmbedder((req) => ({ json: { embedding: fakeEmbedding(String(req.body.input)) } }));
  server = await startServer({ args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
  const rest = { source: 'rest', url: embedder.url, request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' }, dimensions: 3 };
  const settings = await run(server, 'PATCH', '/indexes/doggos/settings', {
    searchableAttributes: ['name'],
    embedders: { rest, manual: { source: 'userProvided', dimensions: 3 } },
  });
  expect(settings.status, JSON.stringify(settings.error)).toBe('succeeded');
  const added = await run(server, 'POST', '/indexes/doggos/documents', [
    { id: '0', name: 'kefir', breed: 'labrador', _vectors: { manual: [1, 2, 3], rest: [1, 1, 1] } },
  ]);
  expect(added.status, JSON.stringify(added.error)).toBe('succeeded');
});
afterAll(async () => {
  await server.dispose();
  await embedder.close();
});

describe('the feature gate', () => {
  it('answers 400 feature_not_enabled while renderRoute is off', async () => {
    const reply = await render({ template: { kind: 'inlineDocumentTemplate', inline: 'x' } });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(
      error('feature_not_enabled', 'calling the /render-template route requires enabling the `render_route` experimental feature. See https://github.com/orgs/meilisearch/discussions/888'),
    );
  });
});

describe('rendering', () => {
  beforeAll(async () => {
    expect((await call(server, 'PATCH', '/experimental-features', { renderRoute: true })).status).toBe(200);
  });

  it('renders an inline template with an inline document', async () => {
    const reply = await render({
      template: { kind: 'inlineDocumentTemplate', inline: TEMPLATE },
      input: { kind: 'inlineDocument', inline: { name: 'iko', breed: { name: 'jack russell', kind: 'terrier' } } },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ template: TEMPLATE, rendered: 'iko is a jack russell (terrier)' });
  });

  it("renders an embedder's default template against a stored document, its searchable fields only", async () => {
    const reply = await render({ template: { kind: 'documentTemplate', indexUid: 'doggos', embedder: 'rest' }, input: { kind: 'indexDocument', indexUid: 'doggos', id: '0' } });
    expect(reply.status).toBe(200);
    expect(reply.body.template).toBe(
      '{% for field in fields %}{% if field.is_searchable and field.value != nil %}{{ field.name }}: {{ field.value }}\n{% endif %}{% endfor %}',
    );
    expect(reply.body.rendered).toBe('name: kefir\n');
  });

  it('answers rendered: null without an input, and never cuts the text to documentTemplateMaxBytes', async () => {
    expect((await render({ template: { kind: 'inlineDocumentTemplate', inline: 'abc' } })).body).toEqual({ template: 'abc', rendered: null });
    const reply = await render({
      template: { kind: 'inlineDocumentTemplate', inline: '{{ doc.text }}', documentTemplateMaxBytes: 2 },
      input: { kind: 'inlineDocument', inline: { text: 'longer than two bytes' } },
    });
    expect(reply.body.rendered).toBe('longer than two bytes');
  });
});

describe('errors', () => {
  const bad = async (body: unknown, status: number, code: string, message: string) => {
    const reply = await render(body);
    expect(reply.status, reply.text).toBe(status);
    expect(reply.body).toEqual(error(code, message));
  };

  it('reports missing and disallowed parameters per kind', async () => {
    await bad({ template: { kind: 'documentTemplate', embedder: 'rest' } }, 400, 'invalid_render_template', 'error while fetching template: parameter `index_uid` missing for kind `documentTemplate`');
    await bad(
      { template: { kind: 'inlineDocumentTemplate', inline: 'x', embedder: 'rest' } },
      400,
      'invalid_render_template',
      'error while fetching template: parameter `embedder` disallowed for kind `inlineDocumentTemplate`',
    );
    await bad(
      { template: { kind: 'inlineDocumentTemplate', inline: 'x' }, input: { kind: 'inlineDocument' } },
      400,
      'invalid_render_input',
      'error while fetching input: parameter `inline` missing for kind `inlineDocument`',
    );
  });

  it('reports unknown indexes, embedders, documents and embedders without templates', async () => {
    await bad({ template: { kind: 'documentTemplate', indexUid: 'nope', embedder: 'rest' } }, 404, 'index_not_found', 'error while fetching template: cannot open index `nope`: Index `nope` not found.');
    await bad({ template: { kind: 'documentTemplate', indexUid: 'doggos', embedder: 'wrong' } }, 400, 'invalid_render_template', 'error while fetching template: cannot find embedder `wrong` in index `doggos`');
    await bad(
      { template: { kind: 'documentTemplate', indexUid: 'doggos', embedder: 'manual' } },
      400,
      'invalid_render_template',
      'error while fetching template: embedder `manual` in index `doggos` does not use a document template.',
    );
    await bad(
      { template: { kind: 'documentTemplate', indexUid: 'doggos', embedder: 'rest' }, input: { kind: 'indexDocument', indexUid: 'doggos', id: '9999' } },
      404,
      'render_document_not_found',
      'error while fetching input: document `9999` not found in `doggos`',
    );
  });

  it('reports a Liquid syntax error, a non-string inline template and a missing field', async () => {
    const parse = await render({ template: { kind: 'inlineDocumentTemplate', inline: '{{ doc.name' } });
    expect(parse.status).toBe(400);
    expect(parse.body.code).toBe('template_parsing_error');
    expect(parse.body.message).toMatch(/^error while fetching template: user error: cannot parse template: liquid: {2}--> 1:\d+\n {2}\|\n1 \| \{\{ doc\.name\n/);
    await bad({ template: { kind: 'inlineDocumentTemplate', inline: 3 } }, 400, 'invalid_render_template', 'error while fetching template: inline document templates must be strings');
    const missing = await render({ template: { kind: 'inlineDocumentTemplate', inline: '{{ doc.missing }}' }, input: { kind: 'inlineDocument', inline: { a: 1 } } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('template_rendering_error');
    expect(missing.body.message).toMatch(/^error while rendering template: user error: missing field in document: liquid: /);
  });

  it('refuses an inline document that is not a map', async () => {
    await bad(
      { template: { kind: 'inlineDocumentTemplate', inline: 'x' }, input: { kind: 'inlineDocument', inline: 'kefir' } },
      400,
      'invalid_render_input',
      'error while fetching input: parsing inline document: invalid type: string "kefir", expected a map at line 1 column 7\n  - Note: the inline document must be a JSON map',
    );
  });

  it('gates fragments and search inputs behind multimodal', async () => {
    await bad(
      { template: { kind: 'inlineFragment', inline: { a: '{{ q }}' } } },
      400,
      'feature_not_enabled',
      'error while fetching template: rendering an inline fragment requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846',
    );
  });

  it('renders fragments against documents and search queries once multimodal is on', async () => {
    expect((await call(server, 'PATCH', '/experimental-features', { multimodal: true })).status).toBe(200);
    const search = await render({ template: { kind: 'inlineFragment', inline: { text: "It's a {{ media.breed }}" } }, input: { kind: 'inlineSearch', inline: { media: { breed: 'jack russell' }, q: 'unused' } } });
    expect(search.body).toEqual({ template: { text: "It's a {{ media.breed }}" }, rendered: { text: "It's a jack russell" } });
    const document = await render({ template: { kind: 'inlineFragment', inline: ['{{ doc.name }}', 3] }, input: { kind: 'indexDocument', indexUid: 'doggos', id: '0' } });
    expect(document.body.rendered).toEqual(['kefir', 3]);
    await bad(
      { template: { kind: 'inlineDocumentTemplate', inline: 'x' }, input: { kind: 'inlineSearch', inline: { q: 'a' } } },
      400,
      'template_rendering_error',
      'error while rendering template: cannot render a document template with a search query',
    );
    await bad({ template: { kind: 'inlineFragment', inline: 'x' }, input: { kind: 'inlineSearch', inline: { q: 1 } } }, 400, 'invalid_render_input', 'error while fetching input: `q` is not a string');
    expect((await call(server, 'PATCH', '/experimental-features', { multimodal: false })).status).toBe(200);
  });

  it('reports body errors with the codes of their part', async () => {
    await bad({}, 400, 'bad_request', 'Missing field `template`');
    await bad({ template: { kind: 'bad' } }, 400, 'invalid_render_template', 'Unknown value `bad` at `.template.kind`: expected one of `documentTemplate`, `chatDocumentTemplate`, `indexingFragment`, `searchFragment`, `inlineDocumentTemplate`, `inlineFragment`');
    await bad({ template: {} }, 400, 'invalid_render_template', 'Missing field `kind` inside `.template`');
  });
});

describe('keys', () => {
  let guarded: TestServer;
  const MASTER = 'a-master-key-of-at-least-16-bytes';
  const post = (key: string | undefined, body: unknown) =>
    fetch(`${guarded.url}/render-template`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) },
      body: JSON.stringify(body),
    });
  const keyWith = async (actions: string[], indexes: string[]) => {
    const res = await fetch(`${guarded.url}/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${MASTER}` },
      body: JSON.stringify({ actions, indexes, expiresAt: null }),
    });
    return ((await res.json()) as { key: string }).key;
  };

  beforeAll(async () => {
    guarded = await startServer({ masterKey: MASTER });
    await fetch(`${guarded.url}/experimental-features`, { method: 'PATCH', headers: { 'content-type': 'application/json', authorization: `Bearer ${MASTER}` }, body: '{"renderRoute":true}' });
  });
  afterAll(async () => guarded.dispose());

  it('needs settings.get and documents.get, and every named index', async () => {
    const inline = { template: { kind: 'inlineDocumentTemplate', inline: 'on {{doc.id}}' }, input: { kind: 'inlineDocument', inline: { id: 'this document' } } };
    expect(await (await post(MASTER, inline)).json()).toEqual({ template: 'on {{doc.id}}', rendered: 'on this document' });
    expect((await post(undefined, inline)).status).toBe(401);
    expect((await post(await keyWith(['search'], ['*']), inline)).status).toBe(403);
    expect((await post(await keyWith(['settings.get'], ['*']), inline)).status).toBe(403);
    const both = await keyWith(['settings.get', 'documents.get'], ['allowed']);
    expect((await post(both, inline)).status).toBe(200);
    const other = await post(both, { template: { kind: 'documentTemplate', indexUid: 'other', embedder: 'e' } });
    expect(other.status).toBe(403);
    expect(await other.json()).toEqual({
      message: 'The provided API key is invalid.',
      code: 'invalid_api_key',
      type: 'auth',
      link: 'https://docs.meilisearch.com/errors#invalid_api_key',
    });
  });
});
