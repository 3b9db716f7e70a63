// POST /chats/{workspace}/chat/completions against a scripted OpenAI-compatible provider on
// loopback (allowed with --experimental-allowed-ip-networks): the request checks in v1.50's
// order, the provider request (system prompt, the search tool with the indexes and their facet
// values), the LLM's search run here with the notifications the client asked for, the second
// round with the tool results, which failures of a search are error events too (the engine's
// refusals are not) and in whose words (the index lookup, serde_json's for the arguments), when
// pending searches run and which chunks are relayed, how much search results one completion may
// gather, provider errors and refused addresses as error events, a key without `search` on the index, streams of garbage and cut streams that still end
// with [DONE], a client going away, and the chat metric families.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../helpers/random.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const MASTER = 'chat-completions-master-key-0123';
let llm: Server;
let llmPort: number;
let server: TestServer;
/** what the provider received, per call */
const calls: { url: string; headers: IncomingHttpHeaders; body: any }[] = [];
/** the scripted answers, one per call: SSE chunks, or an error status and body */
let script: ({ chunks: unknown[] } | { status: number; body: string } | { stall: true } | { raw: string; cut?: boolean })[] = [];
/** resolves when the provider's stalled answer is closed (its client went away) */
let stalledClosed: Promise<void> = Promise.resolve();

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1747922647,
  model: 'gpt-4o-mini',
  system_fingerprint: 'fp_1',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usage = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1747922647, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } };

/** A round where the LLM asks for one search, its arguments split over two deltas. */
const searchRound = (args: string) => ({
  chunks: [
    chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_abc', type: 'function', function: { name: '_meiliSearchInIndex', arguments: args.slice(0, 10) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(10) } }] }),
    chunk({}, 'tool_calls'),
    usage,
  ],
});
const answerRound = { chunks: [chunk({ role: 'assistant', content: 'Here are' }), chunk({ content: ' two movies' }), chunk({}, 'stop'), usage] };

async function api(method: string, path: string, body?: unknown, key = MASTER): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function waitTask(uid: number): Promise<void> {
  for (;;) {
    const task = await api('GET', `/tasks/${uid}`);
    if (task.body.status === 'succeeded') return;
    if (task.body.status === 'failed') throw new Error(JSON.stringify(task.body.error));
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The completion's raw reply and its `data:` events (JSON parsed, `[DONE]` kept as is). */
async function complete(workspace: string, body: Record<string, unknown>, key = MASTER): Promise<{ status: number; type: string | null; text: string; events: any[] }> {
  const res = await fetch(`${server.url}/chats/${workspace}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const events = text
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => block.slice(6))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data)));
  return { status: res.status, type: res.headers.get('content-type'), text, events };
}

const NOTIFY = ['_meiliSearchProgress', '_meiliSearchSources', '_meiliAppendConversationMessage'].map((name) => ({ type: 'function', function: { name, description: '', parameters: {} } }));
const ask = (extra: Record<string, unknown> = {}) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Which movies have dragons?' }], stream: true, ...extra });

beforeAll(async () => {
  llm = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      calls.push({ url: req.url!, headers: req.headers, body: JSON.parse(body) });
      const next = script.shift() ?? answerRound;
      if ('stall' in next) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: 'Thinking' }))}\n\n`);
        stalledClosed = new Promise((resolve) => res.once('close', () => resolve()));
        return;
      }
      if ('raw' in next) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        if (next.cut === true) res.write(next.raw, () => res.destroy());
        else res.end(next.raw);
        return;
      }
      if ('status' in next) {
        res.writeHead(next.status, { 'content-type': 'application/json' }).end(next.body);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const c of next.chunks) res.write(`data: ${JSON.stringify(c)}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => llm.listen(0, '127.0.0.1', resolve));
  llmPort = (llm.address() as { port: number }).port;
  server = await startServer({ masterKey: MASTER, args: ['--experimental-allowed-ip-networks', '127.0.0.0/8'] });
  expect((await api('PATCH', '/experimental-features', { chatCompletions: true })).status).toBe(200);
  await waitTask((await api('PATCH', '/indexes/movies/settings', { filterableAttributes: ['genre'], displayedAttributes: ['id', 'title', 'genre'], chat: { description: 'Movies with their genres', documentTemplate: 'Title: {{ doc.title }}' } })).body.taskUid);
  const docs = [
    { id: 1, title: 'How to Train Your Dragon', genre: 'animation', secret: 's1' },
    { id: 2, title: 'Dragonheart', genre: 'fantasy', secret: 's2' },
    { id: 3, title: 'Heat', genre: 'crime', secret: 's3' },
    { id: 4, title: 'Frozen', genre: 'animation', secret: 's4' },
  ];
  await waitTask((await api('POST', '/indexes/movies/documents', docs)).body.taskUid);
  const patched = await api('PATCH', '/chats/assistant/settings', { source: 'openAi', baseUrl: `http://127.0.0.1:${llmPort}/v1`, apiKey: 'sk-test-placeholder-api-key', prompts: { system: 'Be brief.' } });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
}, 60_000);

afterAll(async () => {
  await server?.dispose();
  await new Promise((resolve) => llm?.close(resolve));
});

describe('chat completions', () => {
  it('runs the search the LLM asks for, notifies the client, and sends the results back to the LLM', async () => {
    calls.length = 0;
    script = [searchRound('{"index_uid":"movies","q":"dragon","filter":""}'), answerRound];
    const reply = await complete('assistant', ask({ tools: NOTIFY, temperature: 0.2, unknownField: 1 }));
    expect(reply.status).toBe(200);
    expect(reply.type).toMatch(/^text\/event-stream/);
    expect(reply.text.startsWith('retry: 10000\n\n')).toBe(true);
    expect(reply.events.at(-1)).toBe('[DONE]');

    // the first provider call: the system prompt first, the search tool, the fields passed on
    expect(calls).toHaveLength(2);
    const [first, second] = calls;
    expect(first!.url).toBe('/v1/chat/completions');
    expect(first!.headers.authorization).toBe('Bearer sk-test-placeholder-api-key');
    expect(first!.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(first!.body.messages[1]).toEqual({ role: 'user', content: 'Which movies have dragons?' });
    expect(first!.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true }, temperature: 0.2 });
    expect(first!.body.unknownField).toBeUndefined();
    expect(first!.body.tools).toHaveLength(1);
    const tool = first!.body.tools[0].function;
    expect(tool.name).toBe('_meiliSearchInIndex');
    expect(tool.description).toContain('\n\n - movies: Movies with their genres\n\n');
    expect(tool.parameters.properties.index_uid.enum).toEqual(['movies']);
    expect(tool.parameters.properties.filter.description).toContain('\n## Facet distributions of the movies index\ngenre: animation, crime, fantasy.\n');
    expect(tool.parameters.required).toEqual(['index_uid', 'q', 'filter']);

    // the second call carries the LLM's tool call and the rendered hits
    const sent = second!.body.messages;
    expect(sent.at(-2)).toEqual({ role: 'assistant', tool_calls: [{ id: 'call_abc', type: 'function', function: { name: '_meiliSearchInIndex', arguments: '{"index_uid":"movies","q":"dragon","filter":""}' } }] });
    expect(sent.at(-1).role).toBe('tool');
    expect(sent.at(-1).tool_call_id).toBe('call_abc');
    expect(sent.at(-1).content.split('\n').sort()).toEqual(['Title: Dragonheart', 'Title: How to Train Your Dragon']);

    // the client sees the notifications, then the answer; no tool-call delta is relayed
    const named = (name: string) => reply.events.filter((e) => e !== '[DONE]' && e.choices?.[0]?.delta?.tool_calls?.[0]?.function?.name === name);
    const progress = named('_meiliSearchProgress');
    expect(progress).toHaveLength(1);
    expect(JSON.parse(progress[0].choices[0].delta.tool_calls[0].function.arguments)).toEqual({ call_id: 'call_abc', function_name: '_meiliSearchInIndex', function_arguments: '{"index_uid":"movies","q":"dragon","filter":""}' });
    expect(progress[0]).toMatchObject({ id: 'chatcmpl-1', created: 1747922647, model: 'gpt-4o-mini', system_fingerprint: 'fp_1', object: 'chat.completion.chunk' });
    const sources = JSON.parse(named('_meiliSearchSources')[0].choices[0].delta.tool_calls[0].function.arguments);
    expect(sources.call_id).toBe('call_abc');
    // displayed fields only
    expect(sources.sources.map((doc: any) => Object.keys(doc).sort())).toEqual([['genre', 'id', 'title'], ['genre', 'id', 'title']]);
    const appended = named('_meiliAppendConversationMessage').map((e) => JSON.parse(e.choices[0].delta.tool_calls[0].function.arguments));
    expect(appended.map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(named('_meiliSearchInIndex')).toHaveLength(0);
    // nor the chunk that ended the turn of tool calls: its searches stand for it
    expect(reply.events.filter((e) => e !== '[DONE]' && e.choices?.[0]?.finish_reason === 'tool_calls')).toHaveLength(0);
    // the notifications of one search, in v1.50's order
    const order = reply.events
      .filter((e) => e !== '[DONE]' && e.choices?.[0]?.delta?.tool_calls)
      .map((e) => {
        const fn = e.choices[0].delta.tool_calls[0].function;
        return fn.name === '_meiliAppendConversationMessage' ? `append ${JSON.parse(fn.arguments).role}` : fn.name;
      });
    expect(order).toEqual(['_meiliSearchProgress', 'append assistant', '_meiliSearchSources', 'append tool']);
    const contents = reply.events.filter((e) => e !== '[DONE]' && typeof e.choices?.[0]?.delta?.content === 'string').map((e) => e.choices[0].delta.content);
    expect(contents).toEqual(['Here are', ' two movies']);
    const relayed = reply.events.find((e) => e !== '[DONE]' && e.choices?.[0]?.delta?.content === 'Here are');
    expect(Object.keys(relayed)).toEqual(['id', 'choices', 'created', 'model', 'service_tier', 'system_fingerprint', 'object', 'usage']);
    expect(Object.keys(relayed.choices[0].delta)).toEqual(['content', 'function_call', 'tool_calls', 'role', 'refusal']);
  });

  it('sends no notification the client did not declare, and a failed search as an error event and tool result', async () => {
    calls.length = 0;
    script = [searchRound('{"index_uid":"nope","q":"x","filter":""}'), answerRound];
    const reply = await complete('assistant', ask());
    expect(reply.status).toBe(200);
    const errors = reply.events.filter((e) => e !== '[DONE]' && e.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].error).toEqual({ type: 'response_error', code: '404', message: 'Index `nope` not found.', param: null, event_id: null });
    expect(reply.events.some((e) => e !== '[DONE]' && e.choices?.[0]?.delta?.tool_calls)).toBe(false);
    expect(calls[1]!.body.messages.at(-1).content).toBe('the search tool call failed with Index `nope` not found.');
    expect(reply.events.at(-1)).toBe('[DONE]');
  });

  it('reports a document the index\'s chat template cannot render as a failed search, naming the document', async () => {
    await waitTask((await api('PATCH', '/indexes/strict/settings', { chat: { documentTemplate: '{{ doc.nope }}' } })).body.taskUid);
    await waitTask((await api('POST', '/indexes/strict/documents', [{ id: 7, title: 'dragon' }])).body.taskUid);
    calls.length = 0;
    script = [searchRound('{"index_uid":"strict","q":"dragon","filter":""}'), answerRound];
    const reply = await complete('assistant', ask());
    const errors = reply.events.filter((e) => e !== '[DONE]' && e.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].error).toMatchObject({ type: 'response_error', code: '400' });
    expect(errors[0].error.message).toMatch(/^user error: missing field in document `7`: /);
    expect(calls[1]!.body.messages.at(-1).content).toBe(`the search tool call failed with ${errors[0].error.message}`);
    await waitTask((await api('DELETE', '/indexes/strict')).body.taskUid);
  });

  it('gives the LLM the engine\'s words for a search the index refuses, with no source and no error event', async () => {
    await waitTask((await api('PATCH', '/indexes/sorted/settings', { chat: { searchParameters: { sort: ['title:asc'] } } })).body.taskUid);
    await waitTask((await api('POST', '/indexes/sorted/documents', [{ id: 1, title: 'dragon' }])).body.taskUid);
    calls.length = 0;
    script = [searchRound('{"index_uid":"sorted","q":"dragon","filter":""}'), answerRound];
    const reply = await complete('assistant', ask({ tools: NOTIFY }));
    expect(reply.events.filter((e) => e !== '[DONE]' && e.type === 'error')).toHaveLength(0);
    const text = calls[1]!.body.messages.at(-1).content as string;
    expect(text).toMatch(/^Attribute `title` is not sortable/);
    const sources = reply.events.filter((e) => e !== '[DONE]' && e.choices?.[0]?.delta?.tool_calls?.[0]?.function?.name === '_meiliSearchSources');
    expect(JSON.parse(sources[0].choices[0].delta.tool_calls[0].function.arguments).sources).toEqual([]);
    await waitTask((await api('DELETE', '/indexes/sorted')).body.taskUid);
  });

  it('lists every filterable field of the field map in the filter description, one without values by its name alone', async () => {
    await waitTask((await api('PATCH', '/indexes/sparse/settings', { filterableAttributes: ['genre', 'year', 'rating'] })).body.taskUid);
    await waitTask((await api('POST', '/indexes/sparse/documents', [{ id: 1, genre: 'drama', year: null }])).body.taskUid);
    calls.length = 0;
    script = [answerRound];
    await complete('assistant', ask());
    // `rating` is in no document, so not in the field map
    expect(calls[0]!.body.tools[0].function.parameters.properties.filter.description).toContain('\n## Facet distributions of the sparse index\ngenre: drama.\nyear: \n\n');
    await waitTask((await api('DELETE', '/indexes/sparse')).body.taskUid);
  });

  it('gives the LLM the engine\'s words alone for a filter on an attribute that is not filterable, with no source and no error event', async () => {
    calls.length = 0;
    script = [searchRound('{"index_uid":"movies","q":"","filter":"title = x"}'), answerRound];
    const reply = await complete('assistant', ask({ tools: NOTIFY }));
    expect(reply.events.filter((e) => e !== '[DONE]' && e.type === 'error')).toHaveLength(0);
    expect(calls[1]!.body.messages.at(-1).content).toBe('Attribute `title` is not filterable. Available filterable attribute patterns are: `genre`.\n2:7 "title" = "x"');
    const sources = reply.events.filter((e) => e !== '[DONE]' && e.choices?.[0]?.delta?.tool_calls?.[0]?.function?.name === '_meiliSearchSources');
    expect(JSON.parse(sources[0].choices[0].delta.tool_calls[0].function.arguments)).toEqual({ call_id: 'call_abc', sources: [] });
  });

  it('reports a filter that does not parse, or uses a feature that is off, as a failed search naming the index', async () => {
    for (const [filter, message] of [
      ['genre =', 'Index `movies`: Was expecting a value but instead got nothing.\n8:8 genre ='],
      ['genre CONTAINS a', 'Index `movies`: Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763\n7:15 genre CONTAINS a'],
    ]) {
      calls.length = 0;
      script = [searchRound(JSON.stringify({ index_uid: 'movies', q: '', filter })), answerRound];
      const reply = await complete('assistant', ask({ tools: NOTIFY }));
      const errors = reply.events.filter((e) => e !== '[DONE]' && e.type === 'error');
      expect(errors.map((e) => e.error)).toEqual([{ type: 'response_error', code: '400', message, param: null, event_id: null }]);
      expect(calls[1]!.body.messages.at(-1).content).toBe(`the search tool call failed with ${message}`);
      expect(reply.events.some((e) => e !== '[DONE]' && e.choices?.[0]?.delta?.tool_calls?.[0]?.function?.name === '_meiliSearchSources')).toBe(false);
    }
  });

  it('looks the LLM\'s index up as written, refusing only a reserved uid', async () => {
    for (const [uid, code, message] of [
      ['bad uid', '404', 'Index `bad uid` not found.'],
      ['.meili_dsr', '400', '.meili_dsr is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 400 bytes.'],
    ]) {
      calls.length = 0;
      script = [searchRound(JSON.stringify({ index_uid: uid, q: 'x', filter: '' })), answerRound];
      const reply = await complete('assistant', ask());
      const errors = reply.events.filter((e) => e !== '[DONE]' && e.type === 'error');
      expect(errors.map((e) => e.error)).toEqual([{ type: 'response_error', code, message, param: null, event_id: null }]);
      expect(calls[1]!.body.messages.at(-1).content).toBe(`the search tool call failed with ${message}`);
    }
  });

  it('answers arguments that do not read as the search parameters in serde_json\'s words, with no error event', async () => {
    calls.length = 0;
    script = [searchRound('{"q":"dragon","filter":""}'), searchRound('{"index_uid":"movies","q":5}'), searchRound('notjson'), answerRound];
    const reply = await complete('assistant', ask({ tools: NOTIFY }));
    expect(reply.events.filter((e) => e !== '[DONE]' && e.type === 'error')).toHaveLength(0);
    expect(reply.events.some((e) => e !== '[DONE]' && e.choices?.[0]?.delta?.tool_calls?.[0]?.function?.name === '_meiliSearchSources')).toBe(false);
    expect(calls.slice(1).map((call) => call.body.messages.at(-1).content)).toEqual([
      'missing field `index_uid` at line 1 column 26',
      'invalid type: integer `5`, expected a string at line 1 column 28',
      'expected ident at line 1 column 2',
    ]);
  });

  it('relays no chunk with tool calls, even an empty list, and runs pending searches when a chunk without tool calls comes', async () => {
    const searchCall = { index: 0, id: 'call_late', type: 'function', function: { name: '_meiliSearchInIndex', arguments: '{"index_uid":"movies","q":"dragon","filter":""}' } };
    calls.length = 0;
    script = [
      { chunks: [chunk({ role: 'assistant', content: 'Hi', tool_calls: [] }), chunk({ tool_calls: [searchCall] }, 'tool_calls')] },
      answerRound,
    ];
    const reply = await complete('assistant', ask({ tools: NOTIFY }));
    const contents = reply.events.filter((e) => e !== '[DONE]' && typeof e.choices?.[0]?.delta?.content === 'string').map((e) => e.choices[0].delta.content);
    // `Hi` came with an empty list of tool calls; `Here are` ran the search left pending by the first call
    expect(contents).toEqual([' two movies']);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Which movies have dragons?' });
    const progress = reply.events.find((e) => e !== '[DONE]' && e.choices?.[0]?.delta?.tool_calls?.[0]?.function?.name === '_meiliSearchProgress');
    expect(JSON.parse(progress.choices[0].delta.tool_calls[0].function.arguments).call_id).toBe('call_late');

    // a turn of calls none of which is the search still adds its (empty) assistant message
    calls.length = 0;
    script = [{ chunks: [chunk({ tool_calls: [{ index: 0, id: 'call_w', type: 'function', function: { name: 'weather', arguments: '{}' } }] }), chunk({}, 'tool_calls')] }, answerRound];
    await complete('assistant', ask());
    expect(calls[1]!.body.messages.at(-1)).toEqual({ role: 'assistant', tool_calls: [] });
  });

  it('cuts the results at 16 Mi characters, runs no more searches past them, and tells the LLM so', async () => {
    // 20 documents of 100,000 characters: a search's rendered hits are 2 M characters, so the
    // ninth search reaches the bound and the three after it are not run
    await waitTask((await api('PATCH', '/indexes/big/settings', { chat: { description: 'Long texts', documentTemplate: 'Title: {{ doc.title }}', searchParameters: { limit: 20 } } })).body.taskUid);
    const docs = Array.from({ length: 20 }, (_, id) => ({ id, title: `${id} ${'x'.repeat(100_000)}` }));
    await waitTask((await api('POST', '/indexes/big/documents', docs)).body.taskUid);
    const args = '{"index_uid":"big","q":"","filter":""}';
    const searches = Array.from({ length: 12 }, (_, index) => ({ index, id: `call_${index}`, type: 'function', function: { name: '_meiliSearchInIndex', arguments: args } }));
    calls.length = 0;
    script = [{ chunks: [chunk({ role: 'assistant', content: null, tool_calls: searches }), chunk({}, 'tool_calls'), usage] }, answerRound];
    const reply = await complete('assistant', ask());
    expect(reply.status).toBe(200);
    expect(reply.events.at(-1)).toBe('[DONE]');
    const results = calls[1]!.body.messages.filter((message: { role: string }) => message.role === 'tool');
    expect(results.map((message: { tool_call_id: string }) => message.tool_call_id)).toEqual(searches.map((search) => search.id));
    expect(results.slice(0, 8).every((message: { content: string }) => message.content.length > 2_000_000)).toBe(true);
    // the ninth search's hits are cut where the results reach the bound
    expect(results.slice(0, 9).reduce((sum: number, message: { content: string }) => sum + message.content.length, 0)).toBe(16 * 1024 * 1024);
    expect(results.slice(9).map((message: { content: string }) => message.content)).toEqual(
      Array(3).fill('This search was not run: the searches of this conversation already returned 16777216 characters of results. Answer with them.'),
    );
    await waitTask((await api('DELETE', '/indexes/big')).body.taskUid);
  }, 60_000);

  it('renders a search\'s hits within one time budget, a hit failing the search once it is spent', async () => {
    // three million loop turns take longer than a hit's 250 ms here: v1.50 renders them all
    await waitTask((await api('PATCH', '/indexes/slow/settings', { chat: { documentTemplate: '{% for i in (1..3000000) %}{% endfor %}{{ doc.title }}', searchParameters: { limit: 20 } } })).body.taskUid);
    await waitTask((await api('POST', '/indexes/slow/documents', Array.from({ length: 20 }, (_, id) => ({ id, title: `dragon ${id}` })))).body.taskUid);
    calls.length = 0;
    script = [searchRound('{"index_uid":"slow","q":"dragon","filter":""}'), answerRound];
    const reply = await complete('assistant', ask());
    const errors = reply.events.filter((e) => e !== '[DONE]' && e.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].error).toMatchObject({ type: 'response_error', code: '400' });
    expect(errors[0].error.message).toMatch(/^user error: missing field in document `\d+`: liquid: template render limit exceeded/);
    await waitTask((await api('DELETE', '/indexes/slow')).body.taskUid);
  }, 60_000);

  it('cuts a hit whose rendering passes the result bound at the bound', async () => {
    // each document renders 20 M characters from a 100-character text: liquidjs' memory bound
    // does not count output
    const template = `{% capture a %}{% for i in (1..1000) %}${'x'.repeat(100)}{% endfor %}{% endcapture %}{% for i in (1..200) %}{{ a }}{% endfor %}`;
    await waitTask((await api('PATCH', '/indexes/wide/settings', { chat: { documentTemplate: template, searchParameters: { limit: 3 } } })).body.taskUid);
    await waitTask((await api('POST', '/indexes/wide/documents', [{ id: 1 }, { id: 2 }, { id: 3 }])).body.taskUid);
    calls.length = 0;
    script = [searchRound('{"index_uid":"wide","q":"","filter":""}'), answerRound];
    const reply = await complete('assistant', ask());
    expect(reply.events.at(-1)).toBe('[DONE]');
    expect(calls[1]!.body.messages.at(-1).content).toHaveLength(16 * 1024 * 1024);
    await waitTask((await api('DELETE', '/indexes/wide')).body.taskUid);
  }, 60_000);

  it('ends the conversation with a stream_ended error when the provider closes its stream before [DONE]', async () => {
    calls.length = 0;
    const events = searchRound('{"index_uid":"movies","q":"dragon","filter":""}').chunks.slice(0, 3);
    script = [{ raw: events.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') }, answerRound];
    const reply = await complete('assistant', ask());
    const errors = reply.events.filter((e) => e !== '[DONE]' && e.type === 'error');
    expect(errors.map((e) => e.error)).toEqual([{ type: 'stream_ended', code: null, message: 'Stream ended', param: null, event_id: null }]);
    expect(calls).toHaveLength(1);
    expect(reply.events.at(-1)).toBe('[DONE]');
  });

  it('refuses an answer streaming more than 16 Mi characters of tool-call arguments, and reads large ones under it', async () => {
    // 2.8 M characters a piece, each event under the 4 MiB bound: five pass, six do not
    const piece = 'dragon '.repeat(400_000);
    const round = (pieces: number) => ({
      chunks: [
        chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: 'call_big', type: 'function', function: { name: '_meiliSearchInIndex', arguments: '{"index_uid":"movies","filter":"","q":"' } }] }),
        ...Array.from({ length: pieces }, () => chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"}' } }] }),
        chunk({}, 'tool_calls'),
        usage,
      ],
    });
    calls.length = 0;
    script = [round(5), answerRound];
    const read = await complete('assistant', ask());
    expect(read.events.filter((e) => e !== '[DONE]' && e.type === 'error')).toEqual([]);
    expect(calls).toHaveLength(2);
    calls.length = 0;
    script = [round(6)];
    const refused = await complete('assistant', ask());
    const errors = refused.events.filter((e) => e !== '[DONE]' && e.type === 'error');
    expect(errors.map((e) => e.error)).toEqual([
      { type: 'transport_error', code: null, message: "the tool calls of the provider's answer have more than 16777216 characters of arguments", param: null, event_id: null },
    ]);
    expect(calls).toHaveLength(1);
    expect((await api('GET', '/health')).status).toBe(200);
  }, 60_000);

  it('answers a provider error as an error event, then ends', async () => {
    calls.length = 0;
    script = [{ status: 401, body: JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } }) }];
    const reply = await complete('assistant', ask());
    expect(reply.status).toBe(200);
    expect(calls).toHaveLength(1);
    expect(reply.events).toHaveLength(2);
    expect(reply.events[0]).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided', param: null, event_id: null } });
    expect(reply.events[1]).toBe('[DONE]');
  });

  it('refuses a provider address outside the allowed networks', async () => {
    await api('PATCH', '/chats/private/settings', { baseUrl: 'http://10.1.2.3:9/v1' });
    const reply = await complete('private', ask());
    expect(reply.status).toBe(200);
    expect(reply.events[0]).toMatchObject({ type: 'error', error: { type: 'transport_error', code: null } });
    expect(reply.events[1]).toBe('[DONE]');
  });

  it('runs the search with the caller key, which needs `search` on the index', async () => {
    const key = await api('POST', '/keys', { actions: ['chatCompletions'], indexes: ['*'], expiresAt: null });
    calls.length = 0;
    script = [searchRound('{"index_uid":"movies","q":"dragon","filter":""}'), answerRound];
    const reply = await complete('assistant', ask(), key.body.key);
    expect(reply.status).toBe(200);
    const errors = reply.events.filter((e) => e !== '[DONE]' && e.type === 'error');
    expect(errors[0].error).toMatchObject({ type: 'response_error', code: '403' });
  });

  it('counts the searches it ran and the tokens the provider reported in /metrics', async () => {
    await api('PATCH', '/experimental-features', { metrics: true });
    const sample = async (line: string) => {
      const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${MASTER}` } })).text();
      const found = text.split('\n').find((l) => l.startsWith(`${line} `));
      return found === undefined ? 0 : Number(found.slice(line.length + 1));
    };
    const series = {
      searches: 'meilisearch_chat_searches_total{type="internal"}',
      prompt: 'meilisearch_chat_prompt_tokens_total{model="gpt-4o-mini",workspace="assistant"}',
      completion: 'meilisearch_chat_completion_tokens_total{model="gpt-4o-mini",workspace="assistant"}',
      total: 'meilisearch_chat_tokens_total{model="gpt-4o-mini",workspace="assistant"}',
    };
    const before = Object.fromEntries(await Promise.all(Object.entries(series).map(async ([k, line]) => [k, await sample(line)])));
    script = [searchRound('{"index_uid":"movies","q":"dragon","filter":""}'), answerRound];
    expect((await complete('assistant', ask())).status).toBe(200);
    const after = Object.fromEntries(await Promise.all(Object.entries(series).map(async ([k, line]) => [k, await sample(line)])));
    // one search; two provider calls of 10 + 5 tokens each
    expect({ searches: after.searches - before.searches, prompt: after.prompt - before.prompt, completion: after.completion - before.completion, total: after.total - before.total }).toEqual({
      searches: 1,
      prompt: 20,
      completion: 10,
      total: 30,
    });
  });

  it('ends every stream with [DONE] whatever the provider streams', async () => {
    const random = mulberry32(11);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const call = (args: string) => ({ index: 0, id: 'c', type: 'function', function: { name: '_meiliSearchInIndex', arguments: args } });
    const payloads = [
      '{', 'null', '[]', '"x"', '{"choices":null}', '{"choices":[{}]}', '{"choices":[{"delta":{"tool_calls":[{}]}}]}',
      '{"choices":[{"delta":{"tool_calls":[{"index":"a","function":{"arguments":5}}]},"finish_reason":"tool_calls"}]}',
      JSON.stringify(chunk({ tool_calls: [call('{"index_uid":"movies","q":"dragon","filter":"genre ="}')] })),
      JSON.stringify(chunk({ tool_calls: [call('{"index_uid":"movies","q":5}')] })),
      JSON.stringify(chunk({ tool_calls: [call('not json')] })),
      JSON.stringify(chunk({}, 'tool_calls')),
      JSON.stringify(chunk({ content: 'hi' }, 'stop')),
      '{"choices":[],"usage":{"prompt_tokens":"x"}}',
      '[DONE]',
    ];
    for (let round = 0; round < 40; round++) {
      const events = Array.from({ length: 1 + Math.floor(random() * 6) }, () => (random() < 0.1 ? 'a line that is no field\n' : `data: ${pick(payloads)}\n\n`));
      // every later call of the conversation gets a plain answer
      script = [{ raw: events.join(''), cut: random() < 0.2 }];
      const reply = await complete('assistant', ask({ tools: NOTIFY }));
      expect(reply.status).toBe(200);
      expect(reply.text.endsWith('data: [DONE]\n\n'), reply.text).toBe(true);
    }
    expect((await api('GET', '/health')).status).toBe(200);
  });

  it('stops calling the provider when the client goes away', async () => {
    script = [{ stall: true }];
    const gone = new AbortController();
    const res = await fetch(`${server.url}/chats/assistant/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
      body: JSON.stringify(ask()),
      signal: gone.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('Thinking')) text += new TextDecoder().decode((await reader.read()).value);
    gone.abort();
    await expect(Promise.race([stalledClosed.then(() => 'closed'), new Promise((r) => setTimeout(() => r('still open'), 3_000))])).resolves.toBe('closed');
    // the server still answers
    expect((await api('GET', '/chats/assistant/settings')).status).toBe(200);
  });

  it('checks the request in v1.50 order before anything streams', async () => {
    const bad = async (workspace: string, body: unknown, status: number, code: string, message: string) => {
      const res = await api('POST', `/chats/${workspace}/chat/completions`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body).toMatchObject({ code, message });
    };
    await bad('assistant', { messages: [] }, 400, 'bad_request', 'Json deserialize error: missing field `model` at line 1 column 15');
    await bad('assistant', ask({ n: 2 }), 501, 'unimplemented_multi_choice_chat_completions', 'You tried to specify n = 2 but only single choices are supported (n = 1).');
    await bad('assistant', ask({ stream: false }), 501, 'unimplemented_non_streaming_chat_completions', 'Non-streamed chat completions is not implemented');
    await bad('nope', ask(), 404, 'chat_not_found', 'Chat `nope` not found');
    await bad('assistant', ask({ tools: [{ type: 'function', function: { name: '_meiliSearchInIndex' } }] }), 400, 'bad_request', '_meiliSearchInIndex function is already defined.');
    await bad('assistant', ask({ tools: [{ type: 'function', function: { name: 'weather' } }] }), 501, 'unimplemented_external_function_calling', 'weather: External functions are not supported yet.');
    await api('PATCH', '/experimental-features', { chatCompletions: false });
    try {
      await bad('assistant', ask(), 400, 'feature_not_enabled', 'using the /chats chat completions route requires enabling the `chat completions` experimental feature. See https://github.com/orgs/meilisearch/discussions/835');
    } finally {
      await api('PATCH', '/experimental-features', { chatCompletions: true });
    }
  });
});
