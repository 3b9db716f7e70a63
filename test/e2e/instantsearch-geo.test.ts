/// <reference lib="dom" />
// InstantSearch's geo parameters and facet search through @meilisearch/instant-meilisearch against
// Quarry (no master key), in headless Chromium: the page (instantsearch/index.html with the script
// instantsearch/geo.js) takes its geo search (`aroundLatLng` + `aroundRadius`, `insideBoundingBox`) from the query string, which
// instant-meilisearch turns into `_geoRadius` and `_geoBoundingBox` filters; a sort by `_geoPoint`
// and a searchable refinement list (`/facet-search`) are driven as a user does. What the page shows
// is checked against what Quarry's own API answers for the same search.
import { Meilisearch, type Index } from 'meilisearch';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { settle } from '../helpers/client.js';
import { serveInstantSearch, type InstantSearchSite } from '../helpers/instantsearch-site.js';
import { startServer, type TestServer } from '../helpers/server.js';

interface Place {
  id: number;
  name: string;
  kind: string;
  _geo: { lat: number; lng: number };
}

const CHROMIUM_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const KINDS = ['museum', 'music hall', 'park', 'cafe'];
/** 60 places on a grid around Paris (48.80–48.98 N, 2.25–2.45 E). */
const PLACES: Place[] = Array.from({ length: 60 }, (_, i) => ({
  id: i,
  name: `Place ${i}`,
  kind: KINDS[i % KINDS.length]!,
  _geo: { lat: 48.8 + (i % 10) * 0.02, lng: 2.25 + Math.floor(i / 10) * 0.04 },
}));

let quarry: TestServer;
let index: Index<Place>;
let site: InstantSearchSite;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  quarry = await startServer();
  const client = new Meilisearch({ host: quarry.url });
  index = client.index<Place>('places');
  await settle(client, (await index.addDocuments(PLACES, { primaryKey: 'id' })).taskUid);
  await settle(client, (await index.updateSettings({ filterableAttributes: ['kind', '_geo'], sortableAttributes: ['_geo'] })).taskUid);
  site = await serveInstantSearch(new URL('./instantsearch/geo.js', import.meta.url));
  browser = await launchChromium(CHROMIUM_ARGS);
  page = await browser.newPage();
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => response.status() >= 400 && problems.push(`HTTP ${response.status()}: ${response.url()}`));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  site?.close();
  await quarry?.dispose();
});

async function open(geo: Record<string, unknown>): Promise<void> {
  await page.goto(`${site.url}/?${new URLSearchParams({ host: quarry.url, geo: JSON.stringify(geo) })}`);
}

/** The hits the page shows: id, latitude (from `_geoloc`) and `_geoDistance`, in order. */
function shown(): Promise<[number, number, string][]> {
  return page.locator('#hits article').evaluateAll((articles) =>
    articles.map((article) => {
      const { id, lat, distance } = (article as HTMLElement).dataset;
      return [Number(id), Number(lat), distance!] as [number, number, string];
    }),
  );
}

function poll<T>(fn: () => T | Promise<T>) {
  return expect.poll(fn, { timeout: 10_000, interval: 50 });
}

describe('InstantSearch geo search and facet search with instant-meilisearch against Quarry', () => {
  it('shows the places within aroundRadius of aroundLatLng, with their coordinates as _geoloc', async () => {
    await open({ aroundLatLng: '48.85, 2.35', aroundRadius: 5000 });
    const expected = await index.search('', { filter: '_geoRadius(48.85, 2.35, 5000)', limit: 100 });
    expect(expected.hits.length).toBeGreaterThan(3);
    expect(expected.hits.length).toBeLessThan(PLACES.length / 2);
    await poll(shown).toEqual(expected.hits.map((hit) => [hit.id, hit._geo.lat, '']));
  });

  it('shows the places inside insideBoundingBox', async () => {
    await open({ insideBoundingBox: '48.9, 2.4, 48.84, 2.3' });
    const expected = await index.search('', { filter: '_geoBoundingBox([48.9, 2.4], [48.84, 2.3])', limit: 100 });
    expect(expected.hits.length).toBeGreaterThan(3);
    await poll(shown).toEqual(expected.hits.map((hit) => [hit.id, hit._geo.lat, '']));
  });

  it('orders the hits by distance, with their _geoDistance, when the geo sort is chosen', async () => {
    await open({ aroundLatLng: '48.85, 2.35', aroundRadius: 5000 });
    await poll(async () => (await shown()).length).toBeGreaterThan(0);
    await page.locator('#sort select').selectOption('places:_geoPoint(48.85,2.35):asc');
    const expected = await index.search('', { filter: '_geoRadius(48.85, 2.35, 5000)', sort: ['_geoPoint(48.85,2.35):asc'], limit: 100 });
    // nearest first (v1.50 buckets distances within 1 m together, in docid order)
    const distances = expected.hits.map((hit) => (hit as Place & { _geoDistance: number })._geoDistance);
    expect(distances.every((distance, i) => i === 0 || distance >= distances[i - 1]! - 1)).toBe(true);
    await poll(shown).toEqual(expected.hits.map((hit, i) => [hit.id, hit._geo.lat, String(distances[i])]));
  });

  it('searches the facet values as the user types in the refinement list, then refines by the one clicked', async () => {
    await open({});
    const box = page.locator('#genres .ais-SearchBox-input');
    await box.pressSequentially('mus');
    const { facetHits } = await index.searchForFacetValues({ facetName: 'kind', facetQuery: 'mus' });
    expect(facetHits.map((hit) => hit.value)).toEqual(['museum', 'music hall']);
    const values = () =>
      page.locator('#genres .ais-RefinementList-item').evaluateAll((items) =>
        items.map((item) => [item.querySelector('.ais-RefinementList-labelText')!.textContent, Number(item.querySelector('.ais-RefinementList-count')!.textContent)]),
      );
    await poll(values).toEqual(facetHits.map((hit) => [hit.value, hit.count]));
    await page.locator('#genres input[value="music hall"]').click();
    const expected = await index.search('', { filter: 'kind = "music hall"', limit: 100 });
    await poll(async () => (await shown()).map(([id]) => id)).toEqual(expected.hits.map((hit) => hit.id));
  });

  it('ran without console errors, failed requests or error responses', () => {
    expect(problems).toEqual([]);
  });
});
