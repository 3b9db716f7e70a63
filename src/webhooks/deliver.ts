/**
 * Delivery of finished tasks to the webhooks (tasks-batches.md §10): after each committed batch,
 * one POST per webhook whose body is the gzip-compressed NDJSON of the batch's tasks as
 * `GET /tasks/{uid}` shows them, in uid order, with the headers Meilisearch's own receivers check. Fire and
 * forget: the scheduler does not wait, and a failure (address refused by the IP policy, refused
 * connection, error status, 30 s timeout) is only logged, worded as in Meilisearch (whose webhooks
 * go through ureq), by uuid: a URL may carry a secret.
 */
import { gzipSync } from 'node:zlib';
import { taskView } from '../tasks/views/task-view.js';
import type { OutgoingClient } from '../outgoing/client.js';
import { RejectedIp } from '../outgoing/ip-policy.js';
import type { Task } from '../types/task.js';
import type { WebhookStore } from './store.js';

const TIMEOUT_MS = 30_000;

export function webhookSender(
  webhooks: WebhookStore,
  client: OutgoingClient,
  log: (message: string, err?: unknown) => void,
): (tasks: readonly Task[]) => void {
  return (tasks) => {
    const targets = webhooks.targets();
    if (targets.length === 0 || tasks.length === 0) return;
    // in uid order, as v1.50 walks the batch's task ids (a cancelation after the tasks it canceled)
    const ordered = [...tasks].sort((a, b) => a.uid - b.uid);
    const body = gzipSync(ordered.map((task) => `${JSON.stringify(taskView(task))}\n`).join(''));
    for (const { uuid, url, headers } of targets) {
      const failed = `While sending data to the webhook ${uuid}`;
      client
        .request(url, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/x-ndjson', 'Content-Encoding': 'gzip', 'Accept-Encoding': 'gzip' },
          body,
          // streamed by v1.50's ureq from a reader: no length
          chunked: true,
          // v1.50 makes a new ureq agent for each batch it reports: new connections
          connection: 'own',
          timeoutMs: TIMEOUT_MS,
        })
        .then((res) => {
          // ureq, which v1.50's webhooks use, takes 4xx and 5xx answers for errors.
          if (res.status >= 400) log(`${failed}: http status: ${res.status}`);
        })
        .catch((err: unknown) => log(`${failed}: ${err instanceof RejectedIp ? err.ureqMessage : (err as Error).message}`, err));
    }
  };
}

