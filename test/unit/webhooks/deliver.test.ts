import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { OutgoingClient } from '../../../src/outgoing/client.js';
import type { WebhookStore } from '../../../src/webhooks/store.js';
import { webhookSender } from '../../../src/webhooks/deliver.js';
import { kind, task } from '../tasks/fixtures.js';

describe('webhookSender', () => {
  it("sends a batch's tasks in uid order, a cancelation after the tasks it canceled, as v1.50 walks the batch's ids", async () => {
    const bodies: Buffer[] = [];
    const store = { targets: () => [{ uuid: 'u', url: 'http://127.0.0.1:1/hook', headers: {} }] } as unknown as WebhookStore;
    const client = {
      request: async (_url: string, init: { body: Buffer }) => {
        bodies.push(init.body);
        return { status: 200 };
      },
    } as unknown as OutgoingClient;
    const send = webhookSender(store, client, () => {});
    send([task(13, kind.add('movies', { count: 1 })), task(11, kind.add('movies', { count: 1 })), task(12, kind.add('movies', { count: 1 }))]);
    await new Promise((resolve) => setImmediate(resolve));
    const uids = gunzipSync(bodies[0]!).toString().trim().split('\n').map((line) => (JSON.parse(line) as { uid: number }).uid);
    expect(uids).toEqual([11, 12, 13]);
  });

  it('sends each batch on connections of its own, as v1.50 makes an agent per batch: none kept alive for a receiver to close as it is reused', async () => {
    const asked: unknown[] = [];
    const store = { targets: () => [{ uuid: 'u', url: 'http://127.0.0.1:1/hook', headers: {} }] } as unknown as WebhookStore;
    const client = {
      request: async (_url: string, init: { connection?: string }) => {
        asked.push(init.connection);
        return { status: 200 };
      },
    } as unknown as OutgoingClient;
    webhookSender(store, client, () => {})([task(1, kind.add('movies', { count: 1 }))]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual(['own']);
  });
});
