/**
 * Deeply nested JSON (issue 25): serde_json, Meilisearch's reader, stops at 127 open arrays and
 * objects and answers 400 `malformed_payload` (`recursion limit exceeded at line L column C`,
 * the column of the 128th bracket). Every JSON body route answers so before anything walks the
 * value, and a document payload nested past what Meilisearch can index is refused at enqueue.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

const MASTER_KEY = 'nesting-master-key-0123456789';
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
});
afterAll(async () => {
  await server.dispose();
});

async function send(method: string, path: string, body: string, type = 'application/json') {
  const res = await fetch(`${server.url}${path}`, { method, headers: { 'content-type': type, authorization: `Bearer ${MASTER_KEY}` }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function malformed(message: string) {
  return { status: 400, body: { message, code: 'malformed_payload', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#malformed_payload' } };
}

const bodyTooDeep = (column: number) => malformed(`The json payload provided is malformed. \`recursion limit exceeded at line 1 column ${column}\`.`);

const arrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const objects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

describe('JSON bodies nested too deep', () => {
  const DEEP = 10_000;
  const routes: [string, string][] = [
    ['POST', '/indexes/movies/search'],
    ['POST', '/indexes/movies/facet-search'],
    ['POST', '/indexes/movies/documents/fetch'],
    ['POST', '/indexes/movies/documents/delete'],
    ['POST', '/indexes/movies/documents/edit'],
    ['POST', '/indexes/movies/documents/delete-batch'],
    ['POST', '/indexes/movies/fields'],
    ['PATCH', '/indexes/movies'],
    ['PATCH', '/indexes/movies/settings'],
    ['PUT', '/indexes/movies/settings/synonyms'],
    ['POST', '/multi-search'],
    ['POST', '/swap-indexes'],
    ['POST', '/indexes'],
    ['POST', '/keys'],
    ['PATCH', '/keys/0b6c0ae1-6d3e-4d0e-9c1e-4c1f0a9c7c11'],
    ['POST', '/logs/stream'],
    ['PATCH', '/network'],
    ['PATCH', '/experimental-features'],
    ['POST', '/webhooks'],
    ['PATCH', '/webhooks/0b6c0ae1-6d3e-4d0e-9c1e-4c1f0a9c7c11'],
  ];

  it('answers 400 malformed_payload on every route, for arrays and for objects', async () => {
    for (const [method, path] of routes) {
      // `{"q":` opens level 1: the 127th `[` is the 128th bracket, at column 5 + 127
      expect(await send(method, path, `{"q":${arrays(DEEP)}}`), `${method} ${path}`).toEqual(bodyTooDeep(132));
      // each `{"a":` is 5 bytes: the 128th opens at column 5 * 127 + 1
      expect(await send(method, path, objects(DEEP)), `${method} ${path}`).toEqual(bodyTooDeep(636));
    }
  });

  it('reads 127 levels and refuses the 128th, closed or not', async () => {
    expect((await send('POST', '/indexes/movies/search', arrays(127))).body.code).toBe('bad_request');
    expect(await send('POST', '/indexes/movies/search', arrays(128))).toEqual(bodyTooDeep(128));
    expect(await send('POST', '/indexes/movies/search', '['.repeat(129))).toEqual(bodyTooDeep(128));
  });

  it('reports a syntax error met before the limit first, and the limit before a later one', async () => {
    expect(await send('POST', '/multi-search', `{"q":tru, "r":${arrays(DEEP)}}`)).toEqual(
      malformed('The json payload provided is malformed. `expected ident at line 1 column 9`.'),
    );
    expect(await send('POST', '/multi-search', `{"q":${arrays(DEEP)}, tru}`)).toEqual(bodyTooDeep(132));
  });

  it('does not count brackets inside strings', async () => {
    const res = await send('POST', '/indexes/movies/search', JSON.stringify({ q: '['.repeat(DEEP) }));
    expect(res.body.code).toBe('index_not_found');
  });
});

describe('document payloads nested too deep', () => {
  /** A document whose own braces and field `f` nest `depth` levels. */
  const doc = (id: number, depth: number) => `{"id":${id},"f":${arrays(depth - 1)}}`;
  const documentTooDeep = (format: string, column: number) =>
    malformed(`The \`${format}\` payload provided is malformed. \`Couldn't serialize document value: recursion limit exceeded at line 1 column ${column}\`.`);

  async function settles(taskUid: unknown) {
    for (;;) {
      const res = await fetch(`${server.url}/tasks/${String(taskUid)}`, { headers: { authorization: `Bearer ${MASTER_KEY}` } });
      const task = (await res.json()) as { status: string; error: unknown };
      if (task.status !== 'enqueued' && task.status !== 'processing') return task;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('indexes array and NDJSON documents up to 128 levels, as Meilisearch does', async () => {
    for (const [body, type] of [
      [`[${doc(1, 128)}]`, 'application/json'],
      [`${doc(2, 128)}\n`, 'application/x-ndjson'],
    ]) {
      const res = await send('POST', '/indexes/deep/documents', body!, type);
      expect(res.status).toBe(202);
      expect(await settles(res.body.taskUid)).toMatchObject({ status: 'succeeded', error: null });
    }
  });

  it('refuses a deeper array element or NDJSON line at enqueue', async () => {
    // `[{"id":1,"f":` puts the first `[` of f at column 14: its 128th is the document's 129th level
    expect(await send('POST', '/indexes/deep/documents', `[${doc(1, 129)}]`)).toEqual(documentTooDeep('json', 141));
    expect(await send('POST', '/indexes/deep/documents', `[${doc(1, 10_000)}]`)).toEqual(documentTooDeep('json', 141));
    // on NDJSON, both the whole-line path (a newline follows) and the byte-by-byte one (none does)
    expect(await send('POST', '/indexes/deep/documents', `${doc(1, 129)}\n`, 'application/x-ndjson')).toEqual(documentTooDeep('ndjson', 140));
    expect(await send('POST', '/indexes/deep/documents', doc(1, 10_000), 'application/x-ndjson')).toEqual(documentTooDeep('ndjson', 140));
  });

  it('refuses a single-object payload past serde_json limit, which reads it whole', async () => {
    expect((await send('POST', '/indexes/deep/documents', doc(3, 127))).status).toBe(202);
    expect(await send('POST', '/indexes/deep/documents', doc(3, 128))).toEqual(documentTooDeep('json', 139));
  });

  it('still reports a syntax error of a deep document, and a deep non-object as no document', async () => {
    const unclosed = `[{"id":1,"f":${'['.repeat(5000)}${']'.repeat(4999)}}]`;
    expect(await send('POST', '/indexes/deep/documents', unclosed)).toEqual(
      malformed("The `json` payload provided is malformed. `Couldn't serialize document value: expected `,` or `]` at line 1 column 10013`."),
    );
    expect(await send('POST', '/indexes/deep/documents', `[${arrays(5000)}]`)).toEqual(
      malformed("The `json` payload provided is malformed. `Couldn't serialize document value: data are neither an object nor a list of objects`."),
    );
  });

  it('reads a GET filter nested too deep as filter text, as Meilisearch falls back', async () => {
    // the index exists: the documents above were indexed into it
    const filter = arrays(10_000);
    for (const path of ['/indexes/deep/search', '/indexes/deep/documents']) {
      const get = await fetch(`${server.url}${path}?filter=${encodeURIComponent(filter)}`, { headers: { authorization: `Bearer ${MASTER_KEY}` } });
      const post = await send('POST', path === '/indexes/deep/search' ? path : `${path}/fetch`, JSON.stringify({ filter }));
      expect(get.status, path).toBe(400);
      expect(await get.json(), path).toEqual(post.body);
    }
  });
});

describe('tenant tokens nested too deep', () => {
  /** A tenant token signed with the default search key, its search rule's filter given as JSON text. */
  async function token(filter: string): Promise<string> {
    const res = await fetch(`${server.url}/keys`, { headers: { authorization: `Bearer ${MASTER_KEY}` } });
    const { results } = (await res.json()) as { results: { uid: string; key: string; actions: string[] }[] };
    const key = results.find((k) => k.actions.includes('search'))!;
    const b64 = (text: string) => Buffer.from(text).toString('base64url');
    const signed = `${b64('{"alg":"HS256","typ":"JWT"}')}.${b64(`{"apiKeyUid":"${key.uid}","searchRules":{"deep":{"filter":${filter}}}}`)}`;
    return `${signed}.${createHmac('sha256', key.key).update(signed).digest('base64url')}`;
  }

  it('refuses the claims as serde_json does, with 403 invalid_api_key', async () => {
    // the claims, searchRules and rule objects open 3 levels: the filter's 125th bracket is the
    // 128th; the filter starts at column 85 (after `{"apiKeyUid":"<uuid>","searchRules":{"deep":{"filter":`)
    for (const filter of [arrays(125), arrays(10_000), objects(10_000)]) {
      const res = await fetch(`${server.url}/indexes/deep/search`, { headers: { authorization: `Bearer ${await token(filter)}` } });
      expect(res.status).toBe(403);
      const column = filter.startsWith('[') ? 85 + 124 : 85 + 5 * 124;
      expect(await res.json()).toEqual({
        message: `Could not decode tenant token, JSON error: recursion limit exceeded at line 1 column ${column}.`,
        code: 'invalid_api_key',
        type: 'auth',
        link: 'https://docs.meilisearch.com/errors#invalid_api_key',
      });
    }
  });
});
