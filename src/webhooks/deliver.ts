/**
 * Delivery of finished tasks to the webhooks (tasks-batches.md §10): after each committed batch,
 * one POST per webhook whose body is the gzip-compressed NDJSON of the batch's tasks as
 * `GET /tasks/{uid}` shows them, with the headers Meilisearch's own receivers check. Fire and
 * forget: the scheduler does not wait, and a failure (refused connection, error status, 30 s
 * timeout) is only logged, as in Meilisearch.
 */
import { gzipSync } from 'node:zlib';
import { taskView } from '../tasks/views/task-view.js';
import type { Task } from '../types/task.js';
import type { WebhookStore } from './store.js';

const TIMEOUT_MS = 30_000;

export function webhookSender(
  webhooks: WebhookStore,
  log: (message: string, err?: unknown) => void,
): (tasks: readonly Task[]) => void {
  return (tasks) => {
    const targets = webhooks.targets();
    if (targets.length === 0 || tasks.length === 0) return;
    const body = gzipSync(tasks.map((task) => `${JSON.stringify(taskView(task))}\n`).join(''));
    for (const { url, headers } of targets) {
      fetch(url, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/x-ndjson', 'Content-Encoding': 'gzip', 'Accept-Encoding': 'gzip' },
        // Meilisearch streams the body, so receivers see it chunked; a stream body makes fetch do the same.
        body: chunked(body),
        duplex: 'half',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
        .then(async (res) => {
          // Drain the answer so the connection is released; only the status matters.
          const text = await res.text();
          if (!res.ok) log(`the webhook ${url} answered ${res.status}: ${text}`);
        })
        .catch((err: unknown) => log(`could not send the batch's tasks to the webhook ${url}`, err));
    }
  };
}

/** `bytes` as a one-chunk stream: fetch sends a stream body with `Transfer-Encoding: chunked`. */
function chunked(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}
