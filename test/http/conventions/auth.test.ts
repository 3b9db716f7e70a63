import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

const MASTER_KEY = 'MASTER_KEY_OF_AT_LEAST_16_BYTES';
const missingHeader = {
  message: 'The Authorization header is missing. It must use the bearer authorization method.',
  code: 'missing_authorization_header',
  type: 'auth',
  link: 'https://docs.meilisearch.com/errors#missing_authorization_header',
};
const invalidKey = {
  message: 'The provided API key is invalid.',
  code: 'invalid_api_key',
  type: 'auth',
  link: 'https://docs.meilisearch.com/errors#invalid_api_key',
};

async function call(server: TestServer, path: string, authorization?: string) {
  const res = await fetch(`${server.url}${path}`, { headers: authorization === undefined ? {} : { authorization } });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

describe('with a master key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ masterKey: MASTER_KEY });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('GET /health needs no key', async () => {
    expect((await call(server, '/health')).status).toBe(200);
  });

  it('a route without Authorization header answers 401 missing_authorization_header', async () => {
    expect(await call(server, '/version')).toEqual({ status: 401, body: missingHeader });
  });

  it('a scheme other than exactly Bearer answers 401 missing_authorization_header', async () => {
    expect(await call(server, '/version', `Basic ${MASTER_KEY}`)).toEqual({ status: 401, body: missingHeader });
    expect(await call(server, '/version', `bearer ${MASTER_KEY}`)).toEqual({ status: 401, body: missingHeader });
  });

  it('Bearer without a token answers 403 invalid_api_key', async () => {
    expect(await call(server, '/version', 'Bearer')).toEqual({ status: 403, body: invalidKey });
  });

  it('an unknown token answers 403 invalid_api_key', async () => {
    expect(await call(server, '/version', 'Bearer doggo')).toEqual({ status: 403, body: invalidKey });
    expect(await call(server, '/version', `Bearer  ${MASTER_KEY}`)).toEqual({ status: 403, body: invalidKey });
  });

  it('the master key is accepted', async () => {
    expect((await call(server, '/version', `Bearer ${MASTER_KEY}`)).status).toBe(200);
  });
});

describe('without a master key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('routes are open with or without a token', async () => {
    expect((await call(server, '/version')).status).toBe(200);
    expect((await call(server, '/version', 'Bearer anything')).status).toBe(200);
  });

  it('a malformed Authorization header is still refused', async () => {
    expect(await call(server, '/version', 'Basic abc')).toEqual({ status: 401, body: missingHeader });
    expect(await call(server, '/version', 'Bearer')).toEqual({ status: 403, body: invalidKey });
  });
});
