/**
 * `/dynamic-search-rules` through the real server (docs/dynamic-search-rules.md): the feature
 * gate, the five routes with v1.50's bodies and errors, the `dsrUpdate`/`dsrClear` tasks, and the
 * same calls through the `meilisearch` client.
 */
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run, waitTask } from '../../helpers/api.js';
import { settle } from '../../helpers/client.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let disabled: TestServer;

beforeAll(async () => {
  [server, disabled] = await Promise.all([startServer(), startServer()]);
  expect((await call(server, 'PATCH', '/experimental-features', { dynamicSearchRules: true })).status).toBe(200);
});
afterAll(async () => {
  await Promise.all([server?.dispose(), disabled?.dispose()]);
});

const pin = (id: string, position: number, indexUid?: string) => ({ selector: indexUid === undefined ? { id } : { indexUid, id }, action: { type: 'pin', position } });

async function put(uid: string, body: unknown, target = server): Promise<any> {
  return run(target, 'PATCH', `/dynamic-search-rules/${uid}`, body);
}

const feature = (action: string) =>
  `${action} requires enabling the \`dynamic search rules\` experimental feature. See https://github.com/orgs/meilisearch/discussions/884`;

describe('the dynamicSearchRules gate', () => {
  it('refuses every route while the feature is off, in v1.50 words', async () => {
    expectError(await call(disabled, 'POST', '/dynamic-search-rules', {}), 400, 'feature_not_enabled', feature('Calling the `POST /dynamic-search-rules` route'));
    expectError(await call(disabled, 'GET', '/dynamic-search-rules/a'), 400, 'feature_not_enabled', feature('Calling the `GET /dynamic-search-rules/{:ruleUid}` route'));
    for (const [method, path, body] of [['PATCH', '/dynamic-search-rules/a', {}], ['DELETE', '/dynamic-search-rules/a'], ['DELETE', '/dynamic-search-rules']] as const) {
      expectError(await call(disabled, method, path, body), 400, 'feature_not_enabled', feature('Using the `/dynamic-search-rules` routes'));
    }
  });

  it('checks the body before the feature', async () => {
    expectError(await call(disabled, 'POST', '/dynamic-search-rules', { offset: -1 }), 400, 'invalid_dynamic_search_rule_offset', 'Invalid value type at `.offset`: expected a positive integer, but found a negative integer: `-1`');
  });
});

describe('rules', () => {
  it('creates, shows, merges, deletes and clears rules through dsrUpdate and dsrClear tasks', async () => {
    const created = await call(server, 'PATCH', '/dynamic-search-rules/black-friday?customMetadata=promo', {
      description: 'Black Friday 2025 rules',
      precedence: 10,
      active: true,
      conditions: { query: { isEmpty: true }, time: { start: '2025-11-28T00:00:00.000Z', end: '2025-11-28T23:59:59+01:00' } },
      actions: [pin('123', 1, 'products'), pin('789', 3)],
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ indexUid: '.meili_dsr', status: 'enqueued', type: 'dsrUpdate' });
    const task = await waitTask(server, created.body.taskUid);
    expect(task).toMatchObject({ status: 'succeeded', type: 'dsrUpdate', indexUid: '.meili_dsr', customMetadata: 'promo' });
    expect(task.details).toEqual({
      rule: {
        description: 'Black Friday 2025 rules',
        precedence: 10,
        active: true,
        conditions: { time: { start: '2025-11-28T00:00:00Z', end: '2025-11-28T23:59:59+01:00' }, query: { isEmpty: true } },
        actions: [pin('123', 1, 'products'), pin('789', 3)],
      },
      updatedRules: 1,
    });
    const shown = await call(server, 'GET', '/dynamic-search-rules/black-friday');
    expect(shown.status).toBe(200);
    expect(shown.text).toBe(
      JSON.stringify({
        uid: 'black-friday',
        description: 'Black Friday 2025 rules',
        precedence: 10,
        active: true,
        conditions: { time: { start: '2025-11-28T00:00:00Z', end: '2025-11-28T23:59:59+01:00' }, query: { isEmpty: true } },
        actions: [pin('123', 1, 'products'), pin('789', 3)],
      }),
    );

    // top-level fields replace, absent ones stay, null resets
    await put('black-friday', { description: null, conditions: { query: { words: 'sale' } }, active: false });
    expect((await call(server, 'GET', '/dynamic-search-rules/black-friday')).body).toEqual({
      uid: 'black-friday',
      precedence: 10,
      active: false,
      conditions: { query: { words: 'sale' } },
      actions: [pin('123', 1, 'products'), pin('789', 3)],
    });

    const minimal = await put('minimal', {});
    expect(minimal.details).toEqual({ rule: {}, updatedRules: 1 });
    expect((await call(server, 'GET', '/dynamic-search-rules/minimal')).body).toEqual({ uid: 'minimal', active: true, conditions: {}, actions: [] });

    const deletion = await run(server, 'DELETE', '/dynamic-search-rules/minimal');
    expect(deletion).toMatchObject({ status: 'succeeded', type: 'dsrUpdate', details: { updatedRules: 1 } });
    expect(deletion.details).not.toHaveProperty('rule');
    expectError(await call(server, 'GET', '/dynamic-search-rules/minimal'), 404, 'dynamic_search_rule_not_found', 'Dynamic search rule `minimal` not found.');
    // deleting a rule that does not exist succeeds
    expect((await run(server, 'DELETE', '/dynamic-search-rules/phantom')).status).toBe('succeeded');

    await put('other', { actions: [pin('1', 0)] });
    const clear = await run(server, 'DELETE', '/dynamic-search-rules');
    expect(clear).toMatchObject({ status: 'succeeded', type: 'dsrClear', indexUid: '.meili_dsr', details: { deletedDocuments: 2 } });
    expect((await call(server, 'POST', '/dynamic-search-rules', {})).body).toEqual({ results: [], offset: 0, limit: 20, total: 0 });
  });

  it('lists rules in creation order (v1.50\'s document ids), an update keeping a rule\'s place, paginated, filtered by active and by a query on descriptions and words', async () => {
    await run(server, 'DELETE', '/dynamic-search-rules');
    for (const [uid, active] of [['promo-active', true], ['promo-inactive', false], ['standard-active', true]] as const) {
      await put(uid, { description: uid, active, actions: [pin('1', 0)] });
    }
    const uids = (reply: any) => reply.body.results.map((rule: any) => rule.uid);
    const page = await call(server, 'POST', '/dynamic-search-rules', { offset: 1, limit: 1 });
    expect(page.body).toEqual({
      results: [{ uid: 'promo-inactive', description: 'promo-inactive', active: false, conditions: {}, actions: [pin('1', 0)] }],
      offset: 1,
      limit: 1,
      total: 3,
    });
    expect(uids(await call(server, 'POST', '/dynamic-search-rules', {}))).toEqual(['promo-active', 'promo-inactive', 'standard-active']);
    expect(uids(await call(server, 'POST', '/dynamic-search-rules', { filter: { query: 'promo' } }))).toEqual(['promo-active', 'promo-inactive']);
    expect(uids(await call(server, 'POST', '/dynamic-search-rules', { filter: { active: true } }))).toEqual(['promo-active', 'standard-active']);
    // an update keeps the rule's place
    await put('promo-active', { active: true });
    expect(uids(await call(server, 'POST', '/dynamic-search-rules', {}))).toEqual(['promo-active', 'promo-inactive', 'standard-active']);
    // the rule shows no date
    expect(Object.keys((await call(server, 'GET', '/dynamic-search-rules/promo-active')).body)).toEqual(['uid', 'description', 'active', 'conditions', 'actions']);
    const both = await call(server, 'POST', '/dynamic-search-rules', { filter: { query: 'promo', active: true } });
    expect(uids(both)).toEqual(['promo-active']);
    expect(both.body.total).toBe(1);
    // the words of `conditions.query.words` are searched too
    await put('worded', { conditions: { query: { words: 'batman' } } });
    expect(uids(await call(server, 'POST', '/dynamic-search-rules', { filter: { query: 'Batman' } }))).toEqual(['worded']);
  });
});

describe('null updates', () => {
  it('store `active: null`, a rule in neither active listing, shown as stored where v1.50 fails to read it; null conditions and actions read as none', async () => {
    await run(server, 'DELETE', '/dynamic-search-rules');
    await put('nulled', { description: 'nulled', active: true, conditions: { query: { words: 'sale' } }, actions: [pin('1', 0)] });
    const task = await put('nulled', { active: null, conditions: null, actions: null });
    expect(task.details).toEqual({ rule: { active: null, conditions: null, actions: null }, updatedRules: 1 });
    const rule = { uid: 'nulled', description: 'nulled', active: null, conditions: {}, actions: [] };
    expect((await call(server, 'GET', '/dynamic-search-rules/nulled')).body).toEqual(rule);
    expect((await call(server, 'POST', '/dynamic-search-rules', {})).body).toEqual({ results: [rule], offset: 0, limit: 20, total: 1 });
    for (const active of [true, false]) expect((await call(server, 'POST', '/dynamic-search-rules', { filter: { active } })).body.total).toBe(0);
    await put('nulled', { active: true });
    expect((await call(server, 'POST', '/dynamic-search-rules', { filter: { active: true } })).body.total).toBe(1);
  });
});

describe('errors', () => {
  it('refuses bodies as v1.50 does', async () => {
    const patch = (body: unknown) => call(server, 'PATCH', '/dynamic-search-rules/r', body);
    expectError(
      await patch({ unknownField: true }),
      400,
      'bad_request',
      'Unknown field `unknownField`: expected one of `description`, `precedence`, `active`, `conditions`, `actions`',
    );
    expectError(
      await patch({ conditions: { query: { isEmpty: true, words: 'batman' } } }),
      400,
      'bad_request',
      'Invalid value at `.conditions.query`: either `isEmpty` or `words` can be used, not both at once',
    );
    expectError(
      await patch({ conditions: { time: { start: '2025-11-29T00:00:00Z', end: '2025-11-28T23:59:59.5Z' } } }),
      400,
      'bad_request',
      'Invalid value at `.conditions.time`: `end` (`2025-11-28 23:59:59.5 +00:00:00`) should be later than `start` (`2025-11-29 0:00:00.0 +00:00:00`)',
    );
    expectError(
      await patch({ conditions: { time: { start: 'tomorrow' } } }),
      400,
      'invalid_dynamic_search_rule_conditions',
      "Invalid value at `.conditions.time.start`: `tomorrow` is not a valid date. It should follow the RFC 3339 format to represents a date or datetime in the future or specified as a null value. e.g. 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.\n",
    );
    expectError(await patch({ description: 1 }), 400, 'invalid_dynamic_search_rule_description', 'Invalid value type at `.description`: expected a string, but found a positive integer: `1`');
    expectError(await patch({ precedence: 'high' }), 400, 'invalid_dynamic_search_rule_priority', 'Invalid value type at `.precedence`: expected a positive integer, but found a string: `"high"`');
    expectError(await patch({ active: 'yes' }), 400, 'invalid_dynamic_search_rule_active', 'Invalid value type at `.active`: expected a boolean, but found a string: `"yes"`');
    // v1.50's conditions are `time` and `query` only
    expectError(
      await patch({ conditions: { filter: { values: { genres: 'action' } } } }),
      400,
      'invalid_dynamic_search_rule_conditions',
      'Unknown field `filter` inside `.conditions`: expected one of `time`, `query`',
    );
    expect((await patch({ actions: [{ selector: {}, action: { type: 'pin', position: 0 } }] })).body.code).toBe('invalid_dynamic_search_rule_actions');
    expect((await patch({ actions: [{ selector: { id: '1' }, action: { type: 'boost', position: 0 } }] })).body.code).toBe('invalid_dynamic_search_rule_actions');
    expect((await patch({ actions: [{ selector: { id: '1', indexUid: 'not valid' }, action: { type: 'pin', position: 0 } }] })).body.code).toBe('invalid_dynamic_search_rule_actions');
  });

  it('refuses list bodies and rule uids as v1.50 does', async () => {
    const list = (body: unknown) => call(server, 'POST', '/dynamic-search-rules', body);
    expectError(await list({ limit: 'ten' }), 400, 'invalid_dynamic_search_rule_limit', 'Invalid value type at `.limit`: expected a positive integer, but found a string: `"ten"`');
    expectError(await list({ filter: 3 }), 400, 'invalid_dynamic_search_rule_filter', 'Invalid value type at `.filter`: expected an object, but found a positive integer: `3`');
    expectError(await list({ filter: { query: 3 } }), 400, 'invalid_dynamic_search_rule_filter_query', 'Invalid value type at `.filter.query`: expected a string, but found a positive integer: `3`');
    expectError(await list({ filter: { active: 'no' } }), 400, 'invalid_dynamic_search_rule_filter_active', 'Invalid value type at `.filter.active`: expected a boolean, but found a string: `"no"`');
    const badUid = await call(server, 'GET', '/dynamic-search-rules/not%20valid');
    expect(badUid.status).toBe(400);
    expect(badUid.body.code).toBe('invalid_index_uid');
  });
});

describe('through the meilisearch client', () => {
  it('creates, lists, reads and deletes rules', async () => {
    const client = new Meilisearch({ host: server.url });
    await settle(client, (await client.deleteAllDynamicSearchRules()).taskUid);
    await settle(client, (await client.updateDynamicSearchRule('client-rule', { description: 'from the client', actions: [pin('7', 2)] as never })).taskUid);
    expect(await client.getDynamicSearchRule('client-rule')).toEqual({ uid: 'client-rule', description: 'from the client', active: true, conditions: {}, actions: [pin('7', 2)] });
    const listed = await client.getDynamicSearchRules({ filter: { query: 'client' } });
    expect(listed.results.map((rule) => rule.uid)).toEqual(['client-rule']);
    await settle(client, (await client.deleteDynamicSearchRule('client-rule')).taskUid);
    await expect(client.getDynamicSearchRule('client-rule')).rejects.toMatchObject({ cause: { code: 'dynamic_search_rule_not_found' } });
  });
});
