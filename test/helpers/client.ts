/**
 * Helpers for tests that drive a test server through the real `meilisearch` client (raw HTTP
 * helpers are in api.ts).
 */
import type { Meilisearch } from 'meilisearch';
import { expect } from 'vitest';

/** Waits for a task the client enqueued and asserts that it succeeded. */
export async function settle(client: Meilisearch, taskUid: number, timeout = 60_000): Promise<void> {
  const task = await client.tasks.waitForTask(taskUid, { interval: 20, timeout });
  expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
}
