// Indexes: document counts, sizes and field distribution (`/stats`, `/indexes`), refreshed while
// an index is indexing; tried again while the server cannot be reached (restarting).
import { api, ApiError } from '../api.js';
import { bytes, count, el, when } from '../format.js';

const RETRY_MS = 2000;

export async function render(main, _params, { showFailure }) {
  const body = el('div', {}, el('p', { class: 'muted' }, 'Loading…'));
  main.append(el('h1', {}, 'Indexes'), body);
  let timer = null;
  let stopped = false;
  const load = async () => {
    try {
      const [stats, list] = await Promise.all([api('GET', '/stats'), api('GET', '/indexes?limit=1000')]);
      // the page was left while the answer came: no redraw, no next poll
      if (stopped) return;
      body.replaceChildren(summary(stats), table(list.results, stats.indexes));
      const indexing = Object.values(stats.indexes).some((s) => s.isIndexing);
      timer = setTimeout(load, indexing ? 1000 : 5000);
    } catch (error) {
      if (stopped) return;
      showFailure(body, error);
      // a refused key waits for another; a server out of reach is asked again
      if (!(error instanceof ApiError)) timer = setTimeout(load, RETRY_MS);
    }
  };
  await load();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function summary(stats) {
  return el('p', { class: 'muted' },
    `Database ${bytes(stats.databaseSize)} (${bytes(stats.usedDatabaseSize)} used) · last update ${when(stats.lastUpdate)}`);
}

function table(indexes, stats) {
  if (indexes.length === 0) return el('p', {}, 'No index yet. Add documents through the API to create one.');
  const rows = indexes.map((index) => {
    const s = stats[index.uid] ?? {};
    const fields = Object.entries(s.fieldDistribution ?? {}).sort((a, b) => b[1] - a[1]);
    return el('tr', {},
      el('th', { scope: 'row' }, el('a', { href: `#/indexes/${encodeURIComponent(index.uid)}/search` }, index.uid)),
      el('td', { class: 'num' }, count(s.numberOfDocuments)),
      el('td', { class: 'num' }, bytes(s.rawDocumentDbSize)),
      el('td', { class: 'wide' }, index.primaryKey ?? '—'),
      el('td', {}, s.isIndexing ? el('span', { class: 'status-processing' }, 'indexing') : 'idle'),
      el('td', {}, fields.length === 0 ? '—' : el('details', {},
        el('summary', {}, `${fields.length} fields`),
        el('table', {}, el('tbody', {}, fields.map(([name, n]) => el('tr', {}, el('td', {}, name), el('td', { class: 'num' }, count(n)))))))),
      el('td', {}, el('a', { href: `#/indexes/${encodeURIComponent(index.uid)}/settings`, 'aria-label': `Settings of ${index.uid}` }, 'Settings')),
    );
  });
  return el('div', { class: 'scroll panel' }, el('table', {},
    el('caption', { class: 'muted' }, `${indexes.length} index${indexes.length === 1 ? '' : 'es'}`),
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, 'Index'), el('th', { scope: 'col', class: 'num' }, 'Documents'),
      el('th', { scope: 'col', class: 'num' }, 'Size'), el('th', { scope: 'col', class: 'wide' }, 'Primary key'),
      el('th', { scope: 'col' }, 'State'), el('th', { scope: 'col' }, 'Field distribution'), el('th', { scope: 'col' }, 'Settings'))),
    el('tbody', {}, rows)));
}
