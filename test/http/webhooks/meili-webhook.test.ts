// Port of Meilisearch's crates/meilisearch/tests/tasks/webhook.rs and batches/webhook.rs: what a
// webhook receiver gets (the request headers Meilisearch's receiver asserts, one NDJSON line per
// finished task, customMetadata included), every webhook receiving each batch, the command-line
// webhook listed masked, and the header limit reached through PATCH. The Rust tests use three
// receiver servers; here one local receiver tells the webhooks apart by path. Covered by
// webhooks.test.ts: reserved_names, post_get_delete, create_and_patch, invalid_url_and_headers,
// invalid_uuid, forbidden_fields and the webhook-count part of over_limits. Left to the dumps
// sweep: cli_with_dumps. The server allows `any` address, as Meilisearch's test server does, so the
// loopback receiver is reachable (ip-policy.test.ts covers the refusal).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, stable } from '../../helpers/api.js';
import { expectJson, finishedTask } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  tasks: any[];
}

let receiver: Server;
let receiverUrl: string;
const deliveries: Delivery[] = [];
let server: TestServer;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const lines = gunzipSync(Buffer.concat(chunks)).toString('utf8').split('\n');
      const tasks = lines.filter((line) => line !== '').map((line) => JSON.parse(line));
      deliveries.push({ path: req.url ?? '', headers: req.headers, tasks });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  server = await startServer({
    args: ['--task-webhook-url', `${receiverUrl}/cli`, '--task-webhook-authorization-header', 'Bearer a-secret-token', '--experimental-allowed-ip-networks', 'any'],
  });
});
afterAll(async () => {
  await server.dispose();
  await new Promise((resolve) => receiver.close(resolve));
});

const NIL = '00000000-0000-0000-0000-000000000000';

async function createWebhook(path: string): Promise<string> {
  const reply = await call(server, 'POST', '/webhooks', { url: `${receiverUrl}${path}` });
  expect(reply.status).toBe(201);
  expectJson({ ...reply.body, uuid: '[uuid]', url: '[ignored]' }, { uuid: '[uuid]', isEditable: true, url: '[ignored]', headers: {} });
  return reply.body.uuid;
}

/** The deliveries made to `path`, once `count` tasks have reached it (or 5 s have passed). */
async function receivedAt(path: string, count: number): Promise<Delivery[]> {
  const at = () => deliveries.filter((delivery) => delivery.path === path);
  const deadline = Date.now() + 5000;
  while (at().flatMap((delivery) => delivery.tasks).length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return at();
}

/** The task of a successful one-document addition to `tamo`, masked as the Rust snapshots mask it. */
function additionTask(extra: object = {}) {
  const task = { uid: '[uid]', indexUid: 'tamo', status: 'succeeded', type: 'documentAdditionOrUpdate', details: { receivedDocuments: 1, indexedDocuments: 1 } };
  return { ...finishedTask(task), ...extra };
}

/** `stable` knows the twelve keys of every task; `customMetadata` comes last when a request set one. */
function masked(task: any): any {
  const { customMetadata, ...rest } = task;
  return { ...stable(rest), uid: '[uid]', ...(customMetadata === undefined ? {} : { customMetadata }) };
}

describe('the command-line webhook', () => {
  // First of the file, while no other webhook exists.
  it('cli_only: it is listed alone, not editable, its authorization masked', async () => {
    const reply = await call(server, 'GET', '/webhooks');
    expect(reply.status).toBe(200);
    expectJson(reply.body, { results: [{ uuid: NIL, isEditable: false, url: `${receiverUrl}/cli`, headers: { Authorization: 'Bearer a-XXXX...' } }] });
  });
});

describe('delivery', () => {
  it('single_receives_data and test_basic_webhook: every finished task reaches the webhook, once', async () => {
    const uuid = await createWebhook('/single');
    for (let i = 0; i < 5; i++) expect((await call(server, 'POST', '/indexes/tamo/documents', { id: i, doggo: 'bone' })).status).toBe(202);
    const received = (await receivedAt('/single', 5)).flatMap((delivery) => delivery.tasks);
    expect(received).toHaveLength(5);
    for (const task of received) expectJson(masked(task), additionTask());
    expect(new Set(received.map((task) => task.uid)).size).toBe(5);
    await call(server, 'DELETE', `/webhooks/${uuid}`);
  });

  it('sends gzip NDJSON with the headers Meilisearch receivers check', async () => {
    const uuid = await createWebhook('/headers-check');
    expect((await call(server, 'POST', '/indexes/tamo/documents', { id: 1, doggo: 'bone' })).status).toBe(202);
    const [delivery] = await receivedAt('/headers-check', 1);
    await call(server, 'DELETE', `/webhooks/${uuid}`);
    expect(delivery!.headers['content-type']).toBe('application/x-ndjson');
    expect(delivery!.headers['content-encoding']).toBe('gzip');
    expect(delivery!.headers['accept-encoding']).toBe('gzip');
    expect(delivery!.headers['transfer-encoding']).toBe('chunked');
  });

  it('multiple_receive_data: one batch reaches each webhook exactly once, the command-line one included', async () => {
    const uuids = [await createWebhook('/first'), await createWebhook('/second')];
    const before = deliveries.filter((delivery) => delivery.path === '/cli').length;
    expect((await call(server, 'POST', '/indexes/tamo/documents', { id: 1, doggo: 'bone' })).status).toBe(202);
    await receivedAt('/first', 1);
    await receivedAt('/second', 1);
    // Give a second delivery the time to show up, were there one.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await receivedAt('/first', 1)).length).toBe(1);
    expect((await receivedAt('/second', 1)).length).toBe(1);
    expect(deliveries.filter((delivery) => delivery.path === '/cli').length).toBe(before + 1);
    for (const uuid of uuids) await call(server, 'DELETE', `/webhooks/${uuid}`);
  });

  it('receive_custom_metadata: the summary and every delivered task end with customMetadata', async () => {
    const uuids = [await createWebhook('/meta-1'), await createWebhook('/meta-2')];
    const before = deliveries.filter((delivery) => delivery.path === '/cli').length;
    const reply = await call(server, 'POST', '/indexes/tamo/documents?customMetadata=test_meta', { id: 1, doggo: 'bone' });
    expect(reply.status).toBe(202);
    expect(Object.keys(reply.body)).toEqual(['taskUid', 'indexUid', 'status', 'type', 'enqueuedAt', 'customMetadata']);
    expect(reply.body).toMatchObject({ indexUid: 'tamo', status: 'enqueued', type: 'documentAdditionOrUpdate', customMetadata: 'test_meta' });
    for (const path of ['/meta-1', '/meta-2']) {
      const [delivery] = await receivedAt(path, 1);
      expectJson(delivery!.tasks.map(masked), [additionTask({ customMetadata: 'test_meta' })]);
    }
    const cli = deliveries.filter((delivery) => delivery.path === '/cli');
    expect(cli).toHaveLength(before + 1);
    expectJson(cli.at(-1)!.tasks.map(masked), [additionTask({ customMetadata: 'test_meta' })]);
    for (const uuid of uuids) await call(server, 'DELETE', `/webhooks/${uuid}`);
  });
});

describe('over_limits', () => {
  it('a 201st header added by PATCH is refused', async () => {
    const uuid = await createWebhook('/headers');
    for (let i = 0; i < 200; i++) expect((await call(server, 'PATCH', `/webhooks/${uuid}`, { headers: { [`header_${i}`]: '' } })).status).toBe(200);
    const refused = await call(server, 'PATCH', `/webhooks/${uuid}`, { headers: { header_200: '' } });
    expect(refused.status).toBe(400);
    expectJson(
      refused.body,
      errorBody(
        'invalid_webhook_headers',
        `Too many headers for the webhook \`${uuid}\`. Please limit the number of headers to 200. Hint: To remove an already defined header set its value to \`null\``,
      ),
    );
  });
});
