/**
 * Delivery of finished tasks to the webhooks (tasks-batches.md §10): after each committed batch,
 * one POST per webhook whose body is the gzip-compressed NDJSON of the batch's tasks as
 * `GET /tasks/{uid}` shows them, with the headers Meilisearch's own receivers check. Fire and
 * forget: the scheduler does not wait, and a failure (address refused by the IP policy, refused
 * connection, error status, 30 s timeout) is only logged, as in Meilisearch.
 */
import { gzipSync } from 'node:zlib';
import { taskView } from '../http/views/task-view.js';
import type { OutgoingClient } from '../outgoing/client.js';
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
    const body = gzipSync(tasks.map((task) => `${JSON.stringify(taskView(task))}\n`).join(''));
    for (const { url, headers } of targets) {
      client
        .request(url, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/x-ndjson', 'Content-Encoding': 'gzip', 'Accept-Encoding': 'gzip' },
          body,
          timeoutMs: TIMEOUT_MS,
        })
        .then((res) => {
          if (!res.ok) log(`the webhook ${url} answered ${res.status}: ${res.body.toString('utf8')}`);
        })
        .catch((err: unknown) => log(`could not send the batch's tasks to the webhook ${url}`, err));
    }
  };
}

