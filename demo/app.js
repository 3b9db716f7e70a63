// The demo page: searches the movies bundle as you type, in this page, with Quarry's browser build
// (quarry.js, served from dist/browser/). Genre facets with their counts filter the hits (several
// genres: movies of any of them), the year fields bound `year`, titles are highlighted, overviews
// cropped around the matches, and each hit shows its ranking score on hover. Hit text is escaped
// before the highlight tags (two control characters no document holds) become <mark>.
import { openBundle } from './quarry.js';

const PRE = '\u0002';
const POST = '\u0003';
const $ = (id) => document.getElementById(id);
const input = $('q');
const status = $('status');
const selected = new Set();
let movies;
let latest = 0;

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A `_formatted` value as HTML: escaped, then the highlight markers turned into <mark>. */
function marked(text) {
  return escapeHtml(String(text ?? '')).replaceAll(PRE, '<mark>').replaceAll(POST, '</mark>');
}

function yearBound(field) {
  const value = $(field).value.trim();
  return /^-?\d+$/.test(value) ? Number(value) : null;
}

function filter() {
  const parts = [];
  if (selected.size > 0) parts.push(`genres IN [${[...selected].map((genre) => JSON.stringify(genre)).join(', ')}]`);
  const from = yearBound('year-from');
  const to = yearBound('year-to');
  if (from !== null) parts.push(`year >= ${from}`);
  if (to !== null) parts.push(`year <= ${to}`);
  return parts.join(' AND ');
}

function renderGenres(distribution) {
  const counts = Object.entries(distribution ?? {});
  // a selected genre stays listed even when no hit of the current query has it
  for (const genre of selected) if (!(genre in (distribution ?? {}))) counts.push([genre, 0]);
  counts.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  $('genres').replaceChildren(
    ...counts.map(([genre, count]) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.genre = genre;
      button.setAttribute('aria-pressed', String(selected.has(genre)));
      button.innerHTML = `<span>${escapeHtml(genre)}</span><span class="count">${count}</span>`;
      button.addEventListener('click', () => {
        if (selected.has(genre)) selected.delete(genre);
        else selected.add(genre);
        search();
      });
      item.append(button);
      return item;
    }),
  );
}

function renderHits(hits) {
  $('hits').replaceChildren(
    ...hits.map((hit) => {
      const item = document.createElement('li');
      item.dataset.id = String(hit.id);
      item.title = `ranking score ${hit._rankingScore.toFixed(4)}`;
      item.dataset.score = item.title;
      const f = hit._formatted;
      item.innerHTML =
        `<h2><span class="title">${marked(f.title)}</span> <span class="year">${escapeHtml(String(hit.year))}</span></h2>` +
        `<div class="genres">${escapeHtml(hit.genres.join(' · '))}</div>` +
        `<p class="overview">${marked(f.overview)}</p>`;
      return item;
    }),
  );
}

async function search() {
  const mine = ++latest;
  const started = performance.now();
  let answer;
  try {
    answer = await movies.search(input.value, {
      limit: 20,
      filter: filter(),
      facets: ['genres', 'year'],
      attributesToHighlight: ['title', 'overview'],
      attributesToCrop: ['overview'],
      cropLength: 28,
      highlightPreTag: PRE,
      highlightPostTag: POST,
      showRankingScore: true,
    });
  } catch (error) {
    if (mine === latest) status.textContent = `Error: ${error.message}`;
    return;
  }
  if (mine !== latest) return;
  const ms = performance.now() - started;
  status.textContent = `${answer.estimatedTotalHits.toLocaleString('en')} movies · ${ms.toFixed(1)} ms in this page`;
  renderGenres(answer.facetDistribution?.genres);
  renderHits(answer.hits);
  document.body.dataset.searches = String(Number(document.body.dataset.searches ?? 0) + 1);
}

async function start() {
  const loadStarted = performance.now();
  movies = await openBundle(new URL('movies.bundle', location.href));
  const first = await movies.search('', { limit: 0, facets: ['year'] });
  const years = first.facetStats?.year;
  if (years !== undefined) {
    $('year-from').placeholder = String(years.min);
    $('year-to').placeholder = String(years.max);
  }
  input.disabled = false;
  input.focus();
  input.addEventListener('input', search);
  for (const field of ['year-from', 'year-to']) $(field).addEventListener('input', search);
  await search();
  document.body.dataset.ready = String(Math.round(performance.now() - loadStarted));
}

start().catch((error) => {
  status.textContent = `Could not load the bundle: ${error.message}`;
  console.error(error);
});
