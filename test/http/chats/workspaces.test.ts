// The chat workspace routes (chats.md §2–§3, §6) on a server with a master key: the meilisearch-js
// chat-workspaces scenario, the `chatCompletions` gate and its texts, authentication before
// parsing before the gate, the settings' error codes, `GET /chats` pagination, and workspaces
// kept across a restart, a dump → import round trip (apiKey in clear in the dump), a snapshot,
// and the import of a Meilisearch dump's settings files.
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_SEARCH_FILTER_PARAM_PROMPT, DEFAULT_CHAT_SYSTEM_PROMPT } from '../../../src/chats/default-prompts.js';
import { defaultWorkspaceSettings } from '../../../src/chats/workspace-settings.js';
import { extractArchive } from '../../../src/store/archive.js';
import { expectError, INVALID_UID, type Reply } from '../../helpers/api.js';
import { writeArchive } from '../../helpers/dump-archive.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

const MASTER = 'chat-workspaces-master-key-01234';
const FEATURE_LINK = 'https://github.com/orgs/meilisearch/discussions/835';
/** the server started first, whose db path the restart reuses */
let first: TestServer;
let server: TestServer;

async function send(method: string, route: string, body?: unknown, key: string | null = MASTER): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), text };
}

const setFeature = async (on: boolean) => expect((await send('PATCH', '/experimental-features', { chatCompletions: on })).status).toBe(200);

async function defaultKey(name: string): Promise<string> {
  const keys = (await send('GET', '/keys')).body.results as { name: string; key: string }[];
  return keys.find((key) => key.name === name)!.key;
}

async function waitTask(uid: number): Promise<any> {
  for (;;) {
    const task = (await send('GET', `/tasks/${uid}`)).body;
    if (['succeeded', 'failed', 'canceled'].includes(task.status)) return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const uids = async (query = '') => (await send('GET', `/chats${query}`)).body;

beforeAll(async () => {
  first = server = await startServer({ masterKey: MASTER });
  await setFeature(true);
});

afterAll(async () => {
  await server.dispose();
  if (server !== first) await first.dispose(); // removes the db path the restart reused
});

describe('the meilisearch-js chat-workspaces scenario', () => {
  const settings = {
    source: 'openAi',
    orgId: 'some-org-id',
    projectId: 'some-project-id',
    apiVersion: 'some-api-version',
    deploymentId: 'some-deployment-id',
    baseUrl: 'https://baseurl.com',
    apiKey: 'sk-test-placeholder-api-key',
    prompts: { system: 'You are a helpful assistant that answers questions based on the provided context.' },
  };
  const masked = { ...defaultWorkspaceSettings(), ...settings, apiKey: 'sk-XXXXX...', prompts: { ...defaultWorkspaceSettings().prompts, ...settings.prompts } };
  let admin: string;

  beforeAll(async () => {
    admin = await defaultKey('Default Admin API Key');
  });

  it('creates the workspace with PATCH and answers the merged settings, apiKey masked, every key in order', async () => {
    const patched = await send('PATCH', '/chats/myWorkspace/settings', settings, admin);
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toEqual(masked);
    expect(Object.keys(patched.body)).toEqual(['source', 'orgId', 'projectId', 'apiVersion', 'deploymentId', 'baseUrl', 'apiKey', 'prompts']);
    expect(Object.keys(patched.body.prompts)).toEqual(['system', 'searchDescription', 'searchQParam', 'searchFilterParam', 'searchIndexUidParam']);
  });

  it('answers the same settings on GET, the workspace on GET /chats/{uid}, and lists it', async () => {
    const got = await send('GET', '/chats/myWorkspace/settings', undefined, admin);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(masked);
    expect((await send('GET', '/chats/myWorkspace', undefined, admin)).body).toEqual({ uid: 'myWorkspace' });
    expect((await send('GET', '/chats', undefined, admin)).body).toEqual({ results: [{ uid: 'myWorkspace' }], offset: 0, limit: 20, total: 1 });
  });

  it('resets the settings on DELETE /chats/{uid}/settings, answering the defaults, and keeps the workspace', async () => {
    const reset = await send('DELETE', '/chats/myWorkspace/settings', undefined, admin);
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual(defaultWorkspaceSettings());
    expect(reset.body.prompts.system).toBe(DEFAULT_CHAT_SYSTEM_PROMPT);
    expect((await send('GET', '/chats/myWorkspace/settings', undefined, admin)).body).toEqual(defaultWorkspaceSettings());
    expect((await send('GET', '/chats', undefined, admin)).body.results).toEqual([{ uid: 'myWorkspace' }]);
  });

  it('deletes the workspace with 204, after which each route answers chat_not_found in its own words', async () => {
    const deleted = await send('DELETE', '/chats/myWorkspace', undefined, admin);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expectError(await send('GET', '/chats/myWorkspace', undefined, admin), 404, 'chat_not_found', 'chat myWorkspace not found');
    expectError(await send('DELETE', '/chats/myWorkspace', undefined, admin), 404, 'chat_not_found', 'chat myWorkspace not found');
    expectError(await send('GET', '/chats/myWorkspace/settings', undefined, admin), 404, 'chat_not_found', 'Chat `myWorkspace` not found');
    expectError(await send('DELETE', '/chats/myWorkspace/settings', undefined, admin), 404, 'chat_not_found', 'Chat `myWorkspace` not found');
    expect((await send('GET', '/chats', undefined, admin)).body.results).toEqual([]);
  });
});

describe('the chatCompletions feature', () => {
  const settingsRoute = 'using the /chats/settings route';
  const routes: [string, string, string, unknown?][] = [
    ['GET', '/chats', 'listing the chats'],
    ['GET', '/chats/gated', 'displaying a chat'],
    ['DELETE', '/chats/gated', 'deleting a chat'],
    ['GET', '/chats/gated/settings', settingsRoute],
    ['PATCH', '/chats/gated/settings', settingsRoute, { apiKey: 'key' }],
    ['DELETE', '/chats/gated/settings', settingsRoute],
  ];

  it('off, every workspace route answers feature_not_enabled with its action, and nothing is written', async () => {
    await setFeature(false);
    try {
      for (const [method, route, action, body] of routes) {
        expectError(await send(method, route, body), 400, 'feature_not_enabled', `${action} requires enabling the \`chat completions\` experimental feature. See ${FEATURE_LINK}`);
      }
    } finally {
      await setFeature(true);
    }
    expect((await uids()).results).toEqual([]);
  });

  it('is checked after authentication and after the query string and the body', async () => {
    await setFeature(false);
    try {
      expectError(await send('GET', '/chats', undefined, null), 401, 'missing_authorization_header', 'The Authorization header is missing. It must use the bearer authorization method.', 'auth');
      expectError(await send('GET', '/chats?offset=x'), 400, 'invalid_index_offset', 'Invalid value in parameter `offset`: could not parse `x` as a positive integer');
      expectError(
        await send('PATCH', '/chats/gated/settings', { apiKey: 1 }),
        400,
        'invalid_chat_completion_api_key',
        'Invalid value type at `.apiKey`: expected a string, but found a positive integer: `1`',
      );
    } finally {
      await setFeature(true);
    }
  });
});

describe('authentication', () => {
  it('answers 401 without a key and 403 with the default search key on every workspace route', async () => {
    const search = await defaultKey('Default Search API Key');
    const chat = await defaultKey('Default Chat API Key');
    for (const [method, route] of [
      ['GET', '/chats'],
      ['GET', '/chats/ws'],
      ['DELETE', '/chats/ws'],
      ['GET', '/chats/ws/settings'],
      ['PATCH', '/chats/ws/settings'],
      ['DELETE', '/chats/ws/settings'],
    ] as const) {
      const body = method === 'PATCH' ? {} : undefined;
      expectError(await send(method, route, body, null), 401, 'missing_authorization_header', 'The Authorization header is missing. It must use the bearer authorization method.', 'auth');
      for (const key of [search, chat]) expectError(await send(method, route, body, key), 403, 'invalid_api_key', 'The provided API key is invalid.', 'auth');
    }
    expect((await uids()).results).toEqual([]);
  });

  it('lets a key with chatsSettings.update but not chats.get write settings, not list them', async () => {
    const created = await send('POST', '/keys', { actions: ['chatsSettings.update'], indexes: ['*'], expiresAt: null });
    expect(created.status, created.text).toBe(201);
    expect((await send('PATCH', '/chats/scoped/settings', {}, created.body.key)).status).toBe(200);
    expectError(await send('GET', '/chats', undefined, created.body.key), 403, 'invalid_api_key', 'The provided API key is invalid.', 'auth');
    expect((await send('DELETE', '/chats/scoped')).status).toBe(204);
  });
});

describe('PATCH /chats/{uid}/settings', () => {
  const ws = '/chats/patching/settings';

  it('merges: a value sets, null resets to the default, an absent key is kept, inside prompts too', async () => {
    await send('PATCH', ws, { source: 'mistral', orgId: 'org', apiKey: 'short', prompts: { system: 'sys', searchQParam: 'q' } });
    const merged = await send('PATCH', ws, { orgId: null, projectId: 'project', prompts: { system: null, searchFilterParam: 'filter' } });
    const defaults = defaultWorkspaceSettings();
    expect(merged.body).toEqual({
      ...defaults,
      source: 'mistral',
      projectId: 'project',
      apiKey: 'XXX...',
      prompts: { ...defaults.prompts, searchQParam: 'q', searchFilterParam: 'filter' },
    });
    const reset = await send('PATCH', ws, { source: null, prompts: null, apiKey: null });
    expect(reset.body).toEqual({ ...defaults, projectId: 'project' });
  });

  it('refuses azureOpenAi and vLlm without the fields they need, with bad_request, and stores nothing', async () => {
    const before = (await send('GET', ws)).body;
    expectError(await send('PATCH', ws, { source: 'azureOpenAi', baseUrl: 'https://azure.example' }), 400, 'bad_request', 'azureOpenAi requires setting a valid `baseUrl`, `deploymentId`, and `apiVersion`');
    expectError(await send('PATCH', ws, { source: 'vLlm' }), 400, 'bad_request', 'vLlm requires setting a valid `baseUrl`');
    expectError(await send('PATCH', '/chats/never-created/settings', { source: 'vLlm' }), 400, 'bad_request', 'vLlm requires setting a valid `baseUrl`');
    expect((await send('GET', ws)).body).toEqual(before);
    expect((await uids()).results).toEqual([{ uid: 'patching' }]);
    const azure = await send('PATCH', ws, { source: 'azureOpenAi', baseUrl: 'https://azure.example', deploymentId: 'd', apiVersion: '2024-02-01' });
    expect(azure.status).toBe(200);
    expect(azure.body).toMatchObject({ source: 'azureOpenAi', baseUrl: 'https://azure.example', deploymentId: 'd', apiVersion: '2024-02-01' });
  });

  it('answers unknown fields and a wrong source with bad_request and the expected names', async () => {
    expectError(
      await send('PATCH', ws, { model: 'gpt' }),
      400,
      'bad_request',
      'Unknown field `model`: expected one of `source`, `orgId`, `projectId`, `apiVersion`, `deploymentId`, `baseUrl`, `apiKey`, `prompts`',
    );
    expectError(
      await send('PATCH', ws, { prompts: { user: 'x' } }),
      400,
      'bad_request',
      'Unknown field `user` inside `.prompts`: expected one of `system`, `searchDescription`, `searchQParam`, `searchFilterParam`, `searchIndexUidParam`',
    );
    expectError(await send('PATCH', ws, { source: 'gemini' }), 400, 'bad_request', 'Unknown value `gemini` at `.source`: expected one of `openAi`, `mistral`, `azureOpenAi`, `vLlm`');
    expectError(await send('PATCH', ws, { source: 1 }), 400, 'bad_request', 'Invalid value type at `.source`: expected a string, but found a positive integer: `1`');
    expectError(await send('PATCH', ws, { prompts: 'x' }), 400, 'bad_request', 'Invalid value type at `.prompts`: expected an object, but found a string: `"x"`');
    expectError(await send('PATCH', ws, []), 400, 'bad_request', 'Invalid value type: expected an object, but found an array: `[]`');
  });

  it('answers a wrong type with the field code', async () => {
    const codes: [string, string][] = [
      ['orgId', 'invalid_chat_completion_org_id'],
      ['projectId', 'invalid_chat_completion_project_id'],
      ['apiVersion', 'invalid_chat_completion_api_version'],
      ['deploymentId', 'invalid_chat_completion_deployment_id'],
      ['baseUrl', 'invalid_chat_completion_base_api'],
      ['apiKey', 'invalid_chat_completion_api_key'],
    ];
    for (const [field, code] of codes) {
      expectError(await send('PATCH', ws, { [field]: true }), 400, code, `Invalid value type at \`.${field}\`: expected a string, but found a boolean: \`true\``);
    }
    const prompts: [string, string][] = [
      ['system', 'invalid_chat_completion_system_prompt'],
      ['searchDescription', 'invalid_chat_completion_search_description_prompt'],
      ['searchQParam', 'invalid_chat_completion_search_query_param_prompt'],
      ['searchFilterParam', 'invalid_chat_completion_search_filter_param_prompt'],
      ['searchIndexUidParam', 'invalid_chat_completion_search_index_uid_param_prompt'],
    ];
    for (const [field, code] of prompts) {
      expectError(await send('PATCH', ws, { prompts: { [field]: 1 } }), 400, code, `Invalid value type at \`.prompts.${field}\`: expected a string, but found a positive integer: \`1\``);
    }
  });

  it('takes any path segment as a name; only GET /chats/{uid} checks it as an index uid', async () => {
    expect((await send('PATCH', '/chats/not%20a%20uid!/settings', {})).status).toBe(200);
    expect((await send('GET', '/chats/not%20a%20uid!/settings')).status).toBe(200);
    expectError(await send('GET', '/chats/not%20a%20uid!'), 400, 'invalid_index_uid', INVALID_UID('not a uid!'));
    expect((await send('DELETE', '/chats/not%20a%20uid!')).status).toBe(204);
    expect((await send('DELETE', '/chats/patching')).status).toBe(204);
  });
});

describe('GET /chats', () => {
  const names = ['b-ws', 'a-ws', 'C-ws', 'c-ws'];

  beforeAll(async () => {
    for (const name of names) expect((await send('PATCH', `/chats/${name}/settings`, {})).status).toBe(200);
  });
  afterAll(async () => {
    for (const name of names) await send('DELETE', `/chats/${name}`);
  });

  it('lists the workspaces in byte order of their names, 20 from 0 unless told', async () => {
    expect(await uids()).toEqual({ results: [{ uid: 'C-ws' }, { uid: 'a-ws' }, { uid: 'b-ws' }, { uid: 'c-ws' }], offset: 0, limit: 20, total: 4 });
  });

  it('pages with offset and limit, total counting every workspace', async () => {
    expect(await uids('?offset=1&limit=2')).toEqual({ results: [{ uid: 'a-ws' }, { uid: 'b-ws' }], offset: 1, limit: 2, total: 4 });
    expect(await uids('?offset=10')).toEqual({ results: [], offset: 10, limit: 20, total: 4 });
    expect(await uids('?limit=0')).toEqual({ results: [], offset: 0, limit: 0, total: 4 });
  });

  it('answers invalid_index_offset, invalid_index_limit and bad_request for an unknown parameter', async () => {
    expectError(await send('GET', '/chats?offset=-1'), 400, 'invalid_index_offset', 'Invalid value in parameter `offset`: could not parse `-1` as a positive integer');
    expectError(await send('GET', '/chats?limit=many'), 400, 'invalid_index_limit', 'Invalid value in parameter `limit`: could not parse `many` as a positive integer');
    expectError(await send('GET', '/chats?from=1'), 400, 'bad_request', 'Unknown parameter `from`: expected one of `offset`, `limit`');
  });
});

describe('persistence', () => {
  const kept = { source: 'vLlm', baseUrl: 'http://127.0.0.1:1/v1', apiKey: 'sk-kept-across-restarts-and-dumps-0123', prompts: { system: 'kept' } };
  const keptView = () => ({ ...defaultWorkspaceSettings(), ...kept, apiKey: 'sk-keXXXXXX...', prompts: { ...defaultWorkspaceSettings().prompts, system: 'kept' } });

  beforeAll(async () => {
    expect((await send('PATCH', '/chats/kept/settings', kept)).status).toBe(200);
    expect((await send('PATCH', '/chats/other/settings', {})).status).toBe(200);
  });

  it('keeps the workspaces and their settings across a restart', async () => {
    await server.stop();
    server = await startServer({ masterKey: MASTER, dbPath: first.dbPath, args: ['--snapshot-dir', path.join(first.dbPath, '..', 'snapshots')] });
    expect((await uids()).results).toEqual([{ uid: 'kept' }, { uid: 'other' }]);
    expect((await send('GET', '/chats/kept/settings')).body).toEqual(keptView());
  });

  it('writes them in a dump, apiKey in clear, and an import brings them back', async () => {
    const dump = await send('POST', '/dumps');
    expect(dump.status).toBe(202);
    const task = await waitTask(dump.body.taskUid);
    expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
    const file = path.join(first.dbPath, '..', 'dumps', `${task.details.dumpUid}.dump`);

    const extracted = tempDir('quarry-chat-dump-');
    const imported = path.join(tempDir(), 'imported.ms');
    try {
      await extractArchive(file, extracted);
      const folder = path.join(extracted, 'chat-completions-settings');
      expect(readdirSync(folder).sort()).toEqual(['kept.json', 'other.json']);
      const text = readFileSync(path.join(folder, 'kept.json'), 'utf8');
      expect(JSON.parse(text)).toEqual({ ...keptView(), apiKey: kept.apiKey });
      expect(text).not.toContain('\n');

      const other = await startServer({ masterKey: MASTER, dbPath: imported, args: ['--import-dump', file] });
      try {
        const otherUids = await fetch(`${other.url}/chats`, { headers: { authorization: `Bearer ${MASTER}` } });
        expect(await otherUids.json()).toEqual({ results: [{ uid: 'kept' }, { uid: 'other' }], offset: 0, limit: 20, total: 2 });
        const settings = await fetch(`${other.url}/chats/kept/settings`, { headers: { authorization: `Bearer ${MASTER}` } });
        expect(await settings.json()).toEqual(keptView());
      } finally {
        await other.dispose();
      }
    } finally {
      rmSync(extracted, { recursive: true, force: true });
      rmSync(path.dirname(imported), { recursive: true, force: true });
    }
  });

  it('travels in a snapshot, with the instance environment', async () => {
    const snapshot = await send('POST', '/snapshots');
    expect(snapshot.status).toBe(202);
    expect((await waitTask(snapshot.body.taskUid)).status).toBe('succeeded');
    const restoredPath = path.join(tempDir(), 'restored.ms');
    const restored = await startServer({ masterKey: MASTER, dbPath: restoredPath, args: ['--import-snapshot', path.join(first.dbPath, '..', 'snapshots', 'data.ms.snapshot')] });
    try {
      const settings = await fetch(`${restored.url}/chats/kept/settings`, { headers: { authorization: `Bearer ${MASTER}` } });
      expect(await settings.json()).toEqual(keptView());
    } finally {
      await restored.dispose();
      rmSync(path.dirname(restoredPath), { recursive: true, force: true });
    }
  });

  it("imports a Meilisearch dump's settings files by their stem, a v1.15 one without searchFilterParam, other files skipped", async () => {
    const dir = tempDir('quarry-meili-chat-dump-');
    const file = path.join(dir, 'meili.dump');
    const v115 = { source: 'mistral', apiKey: 'mistral-key-0123', prompts: { system: 's', searchDescription: 'd', searchQParam: 'q', searchIndexUidParam: 'i' } };
    await writeArchive(file, {
      'metadata.json': JSON.stringify({ dumpVersion: 'V6', dbVersion: '1.15.2', dumpDate: '2025-06-01T10:00:00.000000000Z' }),
      'keys.jsonl': '',
      'tasks/queue.jsonl': '',
      'experimental-features.json': JSON.stringify({ chatCompletions: true }),
      'chat-completions-settings/my.workspace.json': JSON.stringify(v115),
      'chat-completions-settings/notes.txt': 'not settings',
    });
    const imported = await startServer({ masterKey: MASTER, dbPath: path.join(dir, 'db'), args: ['--import-dump', file] });
    try {
      const get = async (route: string) => (await fetch(`${imported.url}${route}`, { headers: { authorization: `Bearer ${MASTER}` } })).json();
      expect((await get('/chats')).results).toEqual([{ uid: 'my.workspace' }]);
      expect(await get('/chats/my.workspace/settings')).toEqual({
        ...defaultWorkspaceSettings(),
        source: 'mistral',
        apiKey: 'miXXXX...',
        prompts: { ...v115.prompts, searchFilterParam: DEFAULT_CHAT_SEARCH_FILTER_PARAM_PROMPT },
      });
    } finally {
      await imported.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
