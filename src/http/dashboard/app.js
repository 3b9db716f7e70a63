// The dashboard's shell: hash routes → pages, the API key dialog, focus on navigation.
import { api, ApiError, forgetKey, keyRequired, storedKey, storeKey } from './api.js';
import { el } from './format.js';
import * as indexesPage from './pages/indexes.js';
import * as searchPage from './pages/search.js';
import * as settingsPage from './pages/settings.js';
import * as tasksPage from './pages/tasks.js';

const ROUTES = [
  { pattern: /^#\/indexes\/([^/]+)\/search$/, page: searchPage, section: 'indexes' },
  { pattern: /^#\/indexes\/([^/]+)\/settings$/, page: settingsPage, section: 'indexes' },
  { pattern: /^#\/tasks$/, page: tasksPage, section: 'tasks' },
  { pattern: /^#\/indexes$/, page: indexesPage, section: 'indexes' },
];

const main = document.getElementById('main');
const dialog = document.getElementById('key-dialog');
let cleanup = null;
let firstRender = true;
/** Counts renders: a page still loading when another is asked for is stopped once it has loaded. */
let renders = 0;

function needsKey() {
  return keyRequired() && !storedKey();
}

function askForKey(reason) {
  document.getElementById('key-reason').textContent = reason ?? 'This server needs an API key. It stays in this browser only.';
  document.getElementById('key-error').hidden = true;
  document.getElementById('key-input').value = '';
  if (!dialog.open) dialog.showModal();
}

/** Shows an API failure in the page; a key problem reopens the key dialog. */
export function showFailure(container, error) {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
    askForKey(`${error.message} Enter another key.`);
  }
  container.replaceChildren(el('p', { class: 'error', role: 'alert' }, error.message));
}

async function render() {
  const mine = ++renders;
  cleanup?.();
  cleanup = null;
  const hash = location.hash || '#/indexes';
  const route = ROUTES.find((r) => r.pattern.test(hash)) ?? ROUTES.at(-1);
  const params = route.pattern.exec(hash)?.slice(1).map(decodeURIComponent) ?? [];
  for (const link of document.querySelectorAll('nav a[data-section]')) {
    if (link.dataset.section === route.section) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  main.replaceChildren();
  if (needsKey()) {
    main.append(el('p', {}, 'Enter an API key to see this server.'));
    askForKey();
    return;
  }
  const stop = (await route.page.render(main, params, { showFailure })) ?? null;
  if (mine !== renders) {
    // left while it loaded: its polls must not go on behind the page now shown
    stop?.();
    return;
  }
  cleanup = stop;
  // A new page: move focus to its heading so keyboard and screen-reader users start there,
  // unless they are already inside it (typing in the search box while the page loaded).
  if (!firstRender && !main.contains(document.activeElement)) {
    const heading = main.querySelector('h1');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus();
  }
  firstRender = false;
}

document.getElementById('key-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const key = document.getElementById('key-input').value.trim();
  const error = document.getElementById('key-error');
  try {
    // every page lists or reads indexes: a key without `indexes.get` (a search key) shows nothing,
    // and the server answers it 403 invalid_api_key as it does an unknown key, as v1.50 does
    await api('GET', '/indexes?limit=1', undefined, key);
  } catch (e) {
    error.textContent = e.message;
    error.hidden = false;
    return;
  }
  storeKey(key, document.getElementById('key-remember').checked);
  dialog.close();
  render();
});
document.getElementById('key-forget').addEventListener('click', () => {
  forgetKey();
  dialog.close();
  render();
});
document.getElementById('key-button').addEventListener('click', () => askForKey());
window.addEventListener('hashchange', render);
render();
