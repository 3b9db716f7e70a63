// Port of Meilisearch's crates/meilisearch/tests/settings/distinct.rs: distinctAttribute set and reset
// through PATCH /settings and through its own sub-route, on an index the first update creates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, uniqueUid } from '../../helpers/api.js';
import { succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

describe('distinctAttribute', () => {
  it('set_and_reset_distinct_attribute: PATCH /settings sets it, and null resets it to null', async () => {
    const uid = uniqueUid();
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { distinctAttribute: 'test' });
    expect((await call(server, 'GET', `/indexes/${uid}/settings`)).body.distinctAttribute).toBe('test');
    await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { distinctAttribute: null });
    expect((await call(server, 'GET', `/indexes/${uid}/settings`)).body.distinctAttribute).toBeNull();
  });

  it('set_and_reset_distinct_attribute_with_dedicated_route: PUT sets it, and PUT null resets it', async () => {
    const uid = uniqueUid();
    // `call` sends a string body as is: this one is the JSON string "test"
    await succeed(server, 'PUT', `/indexes/${uid}/settings/distinct-attribute`, '"test"');
    expect((await call(server, 'GET', `/indexes/${uid}/settings/distinct-attribute`)).body).toBe('test');
    await succeed(server, 'PUT', `/indexes/${uid}/settings/distinct-attribute`, null);
    expect((await call(server, 'GET', `/indexes/${uid}/settings/distinct-attribute`)).text).toBe('null');
  });
});
