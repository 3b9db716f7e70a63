// The dashboard's polling pages (indexes, tasks) in headless Chromium against Quarry (no master
// key): a page left stops polling, whether it is left while its first answer or a later one is on
// the way, and a page whose server cannot be reached for a while (a restart) shows the failure and
// recovers by itself once it answers again. `/stats` is answered with an index being indexed, so
// that the indexes page polls every second.
import { Meilisearch } from 'meilisearch';
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { settle } from '../helpers/client.js';
import { startServer, type TestServer } from '../helpers/server.js';

const CHROMIUM_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let quarry: TestServer;
let browser: Browser;
let page: Page;
/** When each `/stats` request was sent (performance.now() of this process). */
let statsRequests: number[] = [];
/** `/stats` answers are held until this resolves (set by a test), then given `isIndexing: true`. */
let hold: Promise<void> = Promise.resolve();

async function answerStats(route: Route): Promise<void> {
  statsRequests.push(performance.now());
  await hold;
  try {
    const response = await route.fetch();
    const stats = (await response.json()) as { indexes: Record<string, Record<string, unknown>> };
    for (const index of Object.values(stats.indexes)) index.isIndexing = true;
    await route.fulfill({ response, json: stats });
  } catch {
    // the page went away while the answer was held
  }
}

beforeAll(async () => {
  quarry = await startServer();
  const client = new Meilisearch({ host: quarry.url });
  await settle(client, (await client.index('books').addDocuments([{ id: 1, title: 'one' }], { primaryKey: 'id' })).taskUid);
  browser = await launchChromium(CHROMIUM_ARGS);
  page = await browser.newPage();
  await page.route(`${quarry.url}/stats`, answerStats);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await quarry?.dispose();
});

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 10_000, interval: 50 });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Leaves the indexes page for the tasks page while a `/stats` answer is held (the first one when
 * `arrive` opens the indexes page first, else the next poll's), then releases it; returns when it left.
 */
async function leaveWhileStatsHeld(arrive = false): Promise<number> {
  let release!: () => void;
  hold = new Promise((resolve) => (release = resolve));
  const before = statsRequests.length;
  if (arrive) await page.evaluate(() => (location.hash = '#/indexes'));
  await poll(() => statsRequests.length).toBeGreaterThan(before);
  await page.evaluate(() => (location.hash = '#/tasks'));
  await poll(() => page.getByRole('heading', { name: 'Tasks and batches' }).isVisible()).toBe(true);
  const left = performance.now();
  release();
  hold = Promise.resolve();
  return left;
}

describe("the dashboard's polling pages", () => {
  it('polls the indexes every second while one is indexing', async () => {
    await page.goto(`${quarry.url}/#/indexes`);
    await poll(() => page.getByRole('row', { name: /books/ }).isVisible()).toBe(true);
    const seen = statsRequests.length;
    await poll(() => statsRequests.length).toBeGreaterThanOrEqual(seen + 2);
  });

  it('stops polling the indexes when left while a later answer is on the way', async () => {
    const left = await leaveWhileStatsHeld();
    await wait(2500);
    expect(statsRequests.filter((at) => at > left)).toEqual([]);
  });

  it('stops polling the indexes when left while its first answer is on the way', async () => {
    const left = await leaveWhileStatsHeld(true);
    await wait(2500);
    expect(statsRequests.filter((at) => at > left)).toEqual([]);
  });

  it('shows that the server cannot be reached, and recovers when it answers again', async () => {
    await page.route(`${quarry.url}/batches?*`, (route) => route.abort('connectionrefused'));
    await poll(() => page.getByRole('alert').textContent()).toBe('Failed to fetch');
    await page.unroute(`${quarry.url}/batches?*`);
    await poll(() => page.locator('tr[data-batch-row]').count()).toBeGreaterThan(0);
    await page.unroute(`${quarry.url}/stats`);
    await page.route(`${quarry.url}/stats`, (route) => route.abort('connectionrefused'));
    await page.evaluate(() => (location.hash = '#/indexes'));
    await poll(() => page.getByRole('alert').textContent()).toBe('Failed to fetch');
    await page.unroute(`${quarry.url}/stats`);
    await poll(() => page.getByRole('row', { name: /books/ }).isVisible()).toBe(true);
  });
});
