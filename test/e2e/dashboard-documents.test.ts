// The dashboard's search preview (no master key: no key asked) on documents a person does not
// choose: markup in field names and values, nested objects and arrays, a long text matched near its
// end, facets on an attribute whose name has a space, facet values that differ only by a space or
// an underscore, values too long for the facet column, a filterable `_geo`; then documents with
// more fields and more hits than the page first shows. What the page shows is checked against what
// the API answers for the same request. Any console error, page error, dialog (a script run
// from a document) or failed request fails the test.
import { Meilisearch, type Index } from 'meilisearch';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { settle } from '../helpers/client.js';
import { startServer, type TestServer } from '../helpers/server.js';

const CHROMIUM_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const MARKUP_FIELD = '<b onmouseover="alert(2)">field</b>';
const LONG_VALUE = 'x'.repeat(120);
const LONG_TEXT = `${'lorem ipsum dolor sit amet '.repeat(100)}needle at the end`;

interface Doc {
  id: number;
  title: string;
  [field: string]: unknown;
}

const DOCS: Doc[] = [
  {
    id: 1,
    title: '<img src=x onerror="alert(1)">',
    [MARKUP_FIELD]: '<script>alert(3)</script>',
    nested: { a: { b: [1, 2, { c: '<i>deep</i>' }] }, html: "<svg onload='alert(4)'>" },
    tags: ['<a href="javascript:alert(5)">link</a>', 'two'],
    'release year': 'nineteen',
    kind: 'a b',
  },
  { id: 2, title: 'plain', 'release year': 'twenty', kind: 'a_b', tags: ['two'], _geo: { lat: 48.85, lng: 2.35 } },
  { id: 3, title: 'long', body: LONG_TEXT, 'release year': 'twenty', kind: LONG_VALUE },
  { id: 4, title: 'y'.repeat(300), kind: 'rare' },
];
/** 45 documents of 10 fields each (9 besides the title): more hits and more fields than the page first shows. */
const WIDE_DOCS = Array.from({ length: 45 }, (_, id) => ({ id, title: `wide ${id}`, ...Object.fromEntries(Array.from({ length: 8 }, (_, f) => [`field${f}`, `value ${f}`])) }));

let quarry: TestServer;
let index: Index<Doc>;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  quarry = await startServer();
  const client = new Meilisearch({ host: quarry.url });
  index = client.index<Doc>('odd');
  await settle(client, (await index.addDocuments(DOCS, { primaryKey: 'id' })).taskUid);
  await settle(client, (await index.updateSettings({ filterableAttributes: ['release year', 'kind', 'tags', '_geo'] })).taskUid);
  await settle(client, (await client.index('wide').addDocuments(WIDE_DOCS, { primaryKey: 'id' })).taskUid);
  browser = await launchChromium(CHROMIUM_ARGS);
  page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => response.status() >= 400 && problems.push(`HTTP ${response.status()}: ${response.url()}`));
  await page.goto(`${quarry.url}/#/indexes/odd/search`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await quarry?.dispose();
});

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 10_000, interval: 50 });
}

function shownIds(): Promise<number[]> {
  return page.locator('#hits > li .hit-id').evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-id'))));
}

const facet = (attribute: string) => page.getByRole('group', { name: attribute, exact: true });

describe('the dashboard search preview on odd documents', () => {
  it('shows the index without asking for a key when the server has none', async () => {
    await poll(shownIds).toEqual([1, 2, 3, 4]);
    expect(await page.getByRole('dialog', { name: 'API key' }).isVisible()).toBe(false);
  });

  it('lists a facet per filterable attribute but `_geo`, whose values are coordinates', async () => {
    await poll(() => page.getByRole('group').locator('legend').allTextContents()).toEqual(['release year', 'kind', 'tags']);
  });

  it('shows markup in field names and values, nested or in arrays, as text', async () => {
    const hit = page.locator('#hits > li').first();
    expect(await hit.locator('.hit-title').textContent()).toBe(DOCS[0]!.title);
    expect(await hit.locator('dt').allTextContents()).toContain(MARKUP_FIELD);
    const text = await hit.textContent();
    for (const fragment of ['<script>alert(3)</script>', '<i>deep</i>', "<svg onload='alert(4)'>", '<a href="javascript:alert(5)">link</a>']) expect(text).toContain(fragment);
    // nothing of the documents became an element
    expect(await page.locator('#hits img, #hits script, #hits svg, #hits i, #hits b, #hits a').count()).toBe(0);
    expect(await facet('tags').locator('label').allTextContents()).toContain('<a href="javascript:alert(5)">link</a>');
  });

  it('shows a long text around its match, highlighted, even past its first characters', async () => {
    await page.getByLabel('Search odd').fill('needle');
    await poll(shownIds).toEqual([3]);
    const body = page.locator('#hits > li').first().locator('dd', { has: page.locator('mark') });
    expect(await body.locator('mark').allTextContents()).toEqual(['needle']);
    expect(await body.textContent()).toMatch(/^….*needle at the end$/);
    await page.getByLabel('Search odd').fill('');
    await poll(shownIds).toEqual([1, 2, 3, 4]);
  });

  it('narrows the hits by a facet whose attribute name has a space', async () => {
    await facet('release year').getByLabel('twenty', { exact: true }).check();
    const expected = await index.search('', { filter: '"release year" = "twenty"' });
    expect(expected.hits.map((hit) => hit.id)).toEqual([2, 3]);
    await poll(shownIds).toEqual([2, 3]);
    await facet('release year').getByLabel('twenty', { exact: true }).uncheck();
    await poll(shownIds).toEqual([1, 2, 3, 4]);
  });

  it('ticks the value whose label is clicked when two values differ only by a space and an underscore', async () => {
    await facet('kind').getByText('a_b', { exact: true }).click();
    await poll(shownIds).toEqual([2]);
    expect(await facet('kind').getByLabel('a_b', { exact: true }).isChecked()).toBe(true);
    expect(await facet('kind').getByLabel('a b', { exact: true }).isChecked()).toBe(false);
  });

  it('keeps a ticked value listed, with 0, when the query leaves it no hit, so that it can be unticked', async () => {
    await page.getByLabel('Search odd').fill('needle');
    await poll(() => page.getByRole('status').textContent()).toMatch(/^0 results/);
    const ticked = facet('kind').locator('.facet-value', { has: page.getByLabel('a_b', { exact: true }) });
    await poll(() => ticked.textContent()).toBe('a_b0');
    // click, not uncheck: once unticked the value has no hit and leaves the list (uncheck would wait for it)
    await ticked.getByRole('checkbox').click();
    await poll(shownIds).toEqual([3]);
    await page.getByLabel('Search odd').fill('');
    await poll(shownIds).toEqual([1, 2, 3, 4]);
  });

  it('keeps long values and titles within their column', async () => {
    const aside = (await page.getByRole('complementary', { name: 'Facets' }).boundingBox())!;
    const label = (await facet('kind').getByText(LONG_VALUE).boundingBox())!;
    expect(label.x + label.width).toBeLessThanOrEqual(aside.x + aside.width);
    const overflowing = await page.locator('#hits > li').evaluateAll((items) => items.filter((item) => item.scrollWidth > item.clientWidth).length);
    expect(overflowing).toBe(0);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1000);
  });

  it('shows six fields of a hit and the others on demand', async () => {
    await page.goto(`${quarry.url}/#/indexes/wide/search`);
    const first = page.locator('#hits > li').first();
    await poll(() => first.locator(':scope > .hit-fields dt').allTextContents()).toEqual(['field0', 'field1', 'field2', 'field3', 'field4', 'field5']);
    const more = first.locator('details.more-fields');
    expect(await more.locator('summary').textContent()).toBe('2 more fields');
    await more.locator('summary').click();
    expect(await more.locator('dt').allTextContents()).toEqual(['field6', 'field7']);
    expect(await more.locator('dd').allTextContents()).toEqual(['value 6', 'value 7']);
  });

  it('shows 20 more hits on demand, until there are no more, and the first 20 again for a new query', async () => {
    const button = page.getByRole('button', { name: 'Show 20 more hits' });
    const all = (await (await fetch(`${quarry.url}/indexes/wide/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ limit: 45 }) })).json()) as { hits: { id: number }[] };
    const ids = all.hits.map((hit) => hit.id);
    await poll(shownIds).toEqual(ids.slice(0, 20));
    await button.click();
    await poll(shownIds).toEqual(ids.slice(0, 40));
    await button.click();
    await poll(shownIds).toEqual(ids);
    expect(await button.isVisible()).toBe(false);
    await page.getByLabel('Search wide').fill('value');
    await poll(async () => (await shownIds()).length).toBe(20);
    expect(await button.isVisible()).toBe(true);
  });

  it('met no console error, page error, dialog or failed request', () => {
    expect(problems).toEqual([]);
  });
});
