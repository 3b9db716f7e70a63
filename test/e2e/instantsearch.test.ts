/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// InstantSearch end to end: the page in test/e2e/instantsearch/ (instantsearch.js widgets over
// @meilisearch/instant-meilisearch, both from node_modules, page and Quarry on different origins so
// every call is a CORS request with a search key) runs in headless Chromium (Debian's or the one
// bundled in @sparticuz/chromium, see ../helpers/browser.ts). Each step drives a widget the way a
// user does and checks what the page renders against what Quarry's own search API answers for the
// same query, filters, sort and page.
import { Meilisearch, type Index } from 'meilisearch';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { settle } from '../helpers/client.js';
import { serveInstantSearch, type InstantSearchSite } from '../helpers/instantsearch-site.js';
import { readMovies, type Movie } from '../helpers/movies.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** What the page shows: hit count, hits (title with its <mark>s) and the genre list. */
interface View {
  nbHits: number;
  hits: { id: number; title: string }[];
  /** [genre, count, selected], as the refinement list orders them */
  genres: [string, number, boolean][];
}

/** What the user has set through the widgets. */
interface Refinements {
  q: string;
  genre?: string;
  years?: [number, number];
  sort?: string;
  /** 0-based, as InstantSearch counts */
  page?: number;
}

const CHROMIUM_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Set by the page's `configure` widget. */
const HITS_PER_PAGE = 5;
/** The page's refinement list `limit`. */
const GENRES_SHOWN = 8;
const MASTER_KEY = 'instantsearch-e2e-master-key';

let quarry: TestServer;
let index: Index<Movie>;
let site: InstantSearchSite;
let browser: Browser;
let page: Page;
/** Console errors, page errors, failed and refused requests seen by the browser. */
const problems: string[] = [];

/** 400 movies with an overview and genres, spread evenly over the data set's years. */
function movies(): Movie[] {
  const usable = readMovies().filter((movie) => movie.overview !== '' && movie.genres.length > 0);
  const step = Math.floor(usable.length / 400);
  return usable.filter((_, i) => i % step === 0).slice(0, 400);
}

/** Reads the rendered widgets; highlighted parts of a title come back wrapped in <mark></mark>. */
function readView(): Promise<View> {
  return page.evaluate(() => ({
    nbHits: Number(document.querySelector('.nb-hits')?.textContent),
    hits: [...document.querySelectorAll<HTMLElement>('#hits article')].map((article) => ({
      id: Number(article.dataset.id),
      title: [...article.querySelector('.ais-Highlight')!.childNodes]
        .map((node) => (node.nodeName === 'MARK' ? `<mark>${node.textContent}</mark>` : node.textContent))
        .join(''),
    })),
    genres: [...document.querySelectorAll('#genres .ais-RefinementList-item')].map(
      (item) =>
        [
          item.querySelector('.ais-RefinementList-labelText')!.textContent!,
          Number(item.querySelector('.ais-RefinementList-count')!.textContent),
          item.classList.contains('ais-RefinementList-item--selected'),
        ] as [string, number, boolean],
    ),
  }));
}

/**
 * What Quarry's search API answers for the same refinements. The genre counts come from a search
 * without the genre filter: a refinement list is disjunctive, so it shows the alternatives too.
 */
async function quarryView(r: Refinements): Promise<View> {
  const years = r.years && `year >= ${r.years[0]} AND year <= ${r.years[1]}`;
  const genre = r.genre && `genres = "${r.genre}"`;
  const main = await index.search(r.q, {
    filter: [genre, years].filter(Boolean).join(' AND ') || undefined,
    sort: r.sort === undefined ? undefined : [r.sort],
    offset: (r.page ?? 0) * HITS_PER_PAGE,
    limit: HITS_PER_PAGE,
    attributesToHighlight: ['title'],
    highlightPreTag: '<mark>',
    highlightPostTag: '</mark>',
  });
  const facets = await index.search(r.q, { filter: years, facets: ['genres'], limit: 0 });
  const genres = Object.entries(facets.facetDistribution!.genres!)
    .map(([name, count]): [string, number, boolean] => [name, count, name === r.genre])
    // The refinement list's default order: selected first, then by count, then by name.
    .sort((a, b) => Number(b[2]) - Number(a[2]) || b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, GENRES_SHOWN);
  return {
    nbHits: main.estimatedTotalHits!,
    hits: main.hits.map((hit) => ({ id: hit.id, title: hit._formatted!.title! })),
    genres,
  };
}

/** Waits until the page shows what Quarry answers for `r` (the widgets render asynchronously). */
async function expectPageToShow(r: Refinements): Promise<View> {
  const expected = await quarryView(r);
  await expect.poll(readView, { timeout: 5_000, interval: 50 }).toEqual(expected);
  return expected;
}

// 60 s: on a machine without /usr/bin/chromium the first run also unpacks the bundled Chromium.
beforeAll(async () => {
  quarry = await startServer({ masterKey: MASTER_KEY });
  const admin = new Meilisearch({ host: quarry.url, apiKey: MASTER_KEY });
  index = admin.index<Movie>('movies');
  await settle(admin, (await index.addDocuments(movies(), { primaryKey: 'id' })).taskUid);
  await settle(admin, (await index.updateSettings({ searchableAttributes: ['title', 'overview'], filterableAttributes: ['genres', 'year'], sortableAttributes: ['year'] })).taskUid);
  const { key } = await admin.createKey({ actions: ['search'], indexes: ['movies'], expiresAt: null });

  site = await serveInstantSearch(new URL('./instantsearch/app.js', import.meta.url));
  browser = await launchChromium(CHROMIUM_ARGS);
  page = await browser.newPage();
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()} ${message.location().url}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => response.status() >= 400 && problems.push(`HTTP ${response.status()}: ${response.request().method()} ${response.url()}`));
  await page.goto(`${site.url}/?${new URLSearchParams({ host: quarry.url, key })}`);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  site?.close();
  await quarry?.dispose();
});

describe('InstantSearch with instant-meilisearch against Quarry', () => {
  it('renders the placeholder search: first hits, genre counts and the year bounds from facetStats', async () => {
    await expectPageToShow({ q: '' });
    const { facetStats } = await index.search('', { facets: ['year'], limit: 0 });
    await expect.poll(() => page.locator('#year input').evaluateAll((inputs) => inputs.map((input) => [Number(input.getAttribute('min')), Number(input.getAttribute('max'))]))).toEqual([
      [facetStats!.year!.min, facetStats!.year!.max],
      [facetStats!.year!.min, facetStats!.year!.max],
    ]);
  });

  it('searches as the user types and highlights the matched prefix in <mark>', async () => {
    await page.locator('.ais-SearchBox-input').pressSequentially('war');
    const { hits, nbHits } = await expectPageToShow({ q: 'war' });
    expect(nbHits).toBeGreaterThan(2 * HITS_PER_PAGE);
    const marks = hits.flatMap((hit) => [...hit.title.matchAll(/<mark>(.*?)<\/mark>/g)].map((match) => match[1]!.toLowerCase()));
    expect(marks.length).toBeGreaterThan(0);
    expect(new Set(marks)).toEqual(new Set(['war']));
  });

  it('narrows the hits to a clicked genre and keeps the other genres with their counts', async () => {
    const before = await readView();
    const [genre] = before.genres[0]!;
    await page.locator(`#genres input[value="${genre}"]`).click();
    const after = await expectPageToShow({ q: 'war', genre });
    expect(after.nbHits).toBeLessThan(before.nbHits);
    expect(after.genres.map(([name, count]) => [name, count])).toEqual(before.genres.map(([name, count]) => [name, count]));
  });

  it('narrows the hits to a year range and recounts the genres within it', async () => {
    const { genres } = await readView();
    await page.locator('#year .ais-RangeInput-input--min').fill('1940');
    await page.locator('#year .ais-RangeInput-input--max').fill('1999');
    await page.locator('#year .ais-RangeInput-submit').click();
    const view = await expectPageToShow({ q: 'war', genre: genres[0]![0], years: [1940, 1999] });
    expect(view.nbHits).toBeGreaterThan(HITS_PER_PAGE);
  });

  it('orders the hits by year when a sort is chosen', async () => {
    const { genres } = await readView();
    await page.locator('#sort select').selectOption('movies:year:desc');
    await expectPageToShow({ q: 'war', genre: genres[0]![0], years: [1940, 1999], sort: 'year:desc' });
    const years = await page.locator('#hits .year').allTextContents();
    expect(years.map(Number)).toEqual(years.map(Number).sort((a, b) => b - a));
  });

  it('shows the next hits on page 2', async () => {
    const { genres } = await readView();
    await page.locator('#pagination a[aria-label="Page 2"]').click();
    const view = await expectPageToShow({ q: 'war', genre: genres[0]![0], years: [1940, 1999], sort: 'year:desc', page: 1 });
    expect(view.hits.length).toBeGreaterThan(0);
  });

  it('ran without console errors, failed requests or error responses', () => {
    expect(problems).toEqual([]);
  });
});
