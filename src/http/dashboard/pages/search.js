// Search preview of one index: search as you type, facets with counts (from filterableAttributes),
// highlighted hits (`_formatted`, long texts cropped around their matches; six fields shown, the
// others on demand), 20 hits at a time with more on demand, ranking score details on demand, and
// a semantic ratio slider (hybrid search) when the index has embedders.
import { api } from '../api.js';
import { count, el, short } from '../format.js';

// Highlight markers from the private-use area: the hit text is inserted as text, never as HTML.
const PRE = '\uE000';
const POST = '\uE001';
const TITLE_FIELDS = ['title', 'name', 'label', 'headline'];
const SHOWN_FIELDS = 6;
const HITS_PER_STEP = 20;
const CROP_WORDS = 40;
const FACET_VALUES = 12;

export async function render(main, [uid], { showFailure }) {
  main.append(
    el('h1', {}, `Search · ${uid}`),
    el('nav', { class: 'tabs', 'aria-label': 'Index pages' },
      el('a', { href: `#/indexes/${encodeURIComponent(uid)}/search`, 'aria-current': 'page' }, 'Search'),
      el('a', { href: `#/indexes/${encodeURIComponent(uid)}/settings` }, 'Settings')),
  );
  const body = el('div', {});
  main.append(body);
  let index, settings;
  try {
    [index, settings] = await Promise.all([api('GET', `/indexes/${encodeURIComponent(uid)}`), api('GET', `/indexes/${encodeURIComponent(uid)}/settings`)]);
  } catch (error) {
    showFailure(body, error);
    return;
  }
  const state = { q: '', selected: new Map(), details: false, hybrid: null, limit: HITS_PER_STEP };
  const facets = facetAttributes(settings.filterableAttributes ?? []);
  // a user-provided embedder cannot embed the query text: only the others can serve the slider
  const embedders = Object.entries(settings.embedders ?? {}).filter(([, embedder]) => embedder.source !== 'userProvided').map(([name]) => name);

  const input = el('input', { id: 'q', type: 'search', autocomplete: 'off', placeholder: 'Type to search…', 'aria-controls': 'hits' });
  const summary = el('p', { id: 'summary', role: 'status', 'aria-live': 'polite', class: 'muted' });
  const facetBox = el('aside', { 'aria-label': 'Facets' });
  const hitList = el('ol', { id: 'hits', class: 'hits', 'aria-label': 'Hits' });
  const detailsToggle = el('input', { id: 'score-details', type: 'checkbox' });
  const options = el('div', { class: 'options' }, el('label', { for: 'score-details' }, detailsToggle, 'Ranking score details'));
  if (embedders.length > 0) options.append(hybridControls(embedders, state, () => restart()));
  const more = el('button', { type: 'button', class: 'quiet', hidden: true }, `Show ${HITS_PER_STEP} more hits`);
  more.addEventListener('click', () => {
    state.limit += HITS_PER_STEP;
    search();
  });
  body.append(
    el('div', { class: 'search-box' }, el('label', { for: 'q' }, `Search ${uid}`), input),
    options,
    el('div', { class: 'search-layout' }, facetBox, el('section', { 'aria-label': 'Results' }, summary, hitList, more)),
  );

  let sequence = 0;
  let debounce = null;
  async function search() {
    const mine = ++sequence;
    const request = {
      q: state.q,
      limit: state.limit,
      attributesToHighlight: ['*'],
      highlightPreTag: PRE,
      highlightPostTag: POST,
      // a long text is shown around its matches, not cut after its first characters
      attributesToCrop: ['*'],
      cropLength: CROP_WORDS,
      showRankingScore: true,
      showRankingScoreDetails: state.details,
    };
    if (facets.length > 0) request.facets = facets;
    const filter = filterOf(state.selected);
    if (filter.length > 0) request.filter = filter;
    if (state.hybrid !== null) request.hybrid = { ...state.hybrid };
    // A facet with ticked values keeps showing its other values: its counts come from the same
    // search without its own condition (one more query of a multi-search per such facet).
    const ticked = [...state.selected].filter(([, values]) => values.size > 0).map(([attribute]) => attribute);
    try {
      let answer;
      const distribution = {};
      if (ticked.length === 0) {
        answer = await api('POST', `/indexes/${encodeURIComponent(uid)}/search`, request);
      } else {
        const counts = ticked.map((attribute) => {
          const query = { indexUid: uid, q: state.q, facets: [attribute], limit: 0 };
          const others = filterOf(state.selected, attribute);
          if (others.length > 0) query.filter = others;
          if (request.hybrid !== undefined) query.hybrid = request.hybrid;
          return query;
        });
        const { results } = await api('POST', '/multi-search', { queries: [{ indexUid: uid, ...request }, ...counts] });
        answer = results[0];
        ticked.forEach((attribute, i) => (distribution[attribute] = results[i + 1].facetDistribution?.[attribute] ?? {}));
      }
      if (mine !== sequence) return;
      summary.textContent = `${count(answer.estimatedTotalHits ?? answer.totalHits)} results in ${answer.processingTimeMs} ms`;
      hitList.replaceChildren(...answer.hits.map((hit) => renderHit(hit, index.primaryKey)));
      more.hidden = answer.hits.length < state.limit || answer.hits.length >= (answer.estimatedTotalHits ?? answer.totalHits);
      facetBox.replaceChildren(...renderFacets(facets, { ...answer.facetDistribution, ...distribution }, state, restart));
    } catch (error) {
      if (mine === sequence) summary.replaceChildren(el('span', { class: 'error', role: 'alert' }, error.message));
    }
  }
  /** A new query or filter: its first hits again. */
  function restart() {
    state.limit = HITS_PER_STEP;
    search();
  }
  input.addEventListener('input', () => {
    state.q = input.value;
    clearTimeout(debounce);
    debounce = setTimeout(restart, 120);
  });
  detailsToggle.addEventListener('change', () => {
    state.details = detailsToggle.checked;
    search();
  });
  await search();
  // the box has the focus, unless the user already moved it within the page
  if (!main.contains(document.activeElement)) input.focus();
  return () => clearTimeout(debounce);
}

/** The filter of the ticked facet values (OR within a facet, AND between facets), `except` one facet. */
function filterOf(selected, except) {
  return [...selected]
    .filter(([attribute, values]) => attribute !== except && values.size > 0)
    .map(([attribute, values]) => [...values].map((value) => `${quoted(attribute)} = ${quoted(value)}`));
}

/** A filter operand in double quotes: any attribute name or value (spaces, `<`, `AND`…) reads as itself. */
function quoted(text) {
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * Facetable attributes: plain names and exact patterns (a wildcard names no attribute to count),
 * but `_geo` and `_geojson`, filterable for geo filters and sorts, whose values are no facet values.
 */
function facetAttributes(filterable) {
  const names = filterable.flatMap((entry) => (typeof entry === 'string' ? [entry] : entry.attributePatterns ?? []));
  return names.filter((name) => !name.includes('*') && name !== '_geo' && name !== '_geojson');
}

function hybridControls(embedders, state, search) {
  const slider = el('input', { id: 'semantic-ratio', type: 'range', min: '0', max: '1', step: '0.05', value: '0.5' });
  const output = el('output', { for: 'semantic-ratio' }, 'not used');
  const select = el('select', { id: 'embedder', 'aria-label': 'Embedder' }, embedders.map((name) => el('option', { value: name }, name)));
  const update = () => {
    state.hybrid = { embedder: select.value, semanticRatio: Number(slider.value) };
    output.textContent = `${slider.value} (0 keyword, 1 semantic)`;
    search();
  };
  slider.addEventListener('input', update);
  select.addEventListener('change', () => state.hybrid !== null && update());
  return el('div', { class: 'options' },
    embedders.length > 1 ? select : null,
    el('label', { for: 'semantic-ratio' }, 'Semantic ratio'), slider, output);
}

function renderFacets(facets, distribution, state, search) {
  let boxes = 0;
  return facets.map((attribute) => {
    const counts = distribution[attribute] ?? {};
    const selected = state.selected.get(attribute) ?? new Set();
    // a ticked value stays listed (counted 0 when the query leaves it no hit) so it can be unticked
    const values = Object.entries(counts).slice(0, FACET_VALUES);
    for (const value of selected) if (!values.some(([shown]) => shown === value)) values.push([value, counts[value] ?? 0]);
    const fieldset = el('fieldset', {}, el('legend', {}, attribute));
    if (values.length === 0) fieldset.append(el('p', { class: 'muted' }, 'No value'));
    for (const [value, n] of values) {
      // numbered: ids made of the value's text collide (`a b` and `a_b`) and tie a label to another box
      const id = `facet-value-${++boxes}`;
      const box = el('input', { type: 'checkbox', id, checked: selected.has(value) });
      box.addEventListener('change', () => {
        if (box.checked) selected.add(value);
        else selected.delete(value);
        state.selected.set(attribute, selected);
        search();
      });
      fieldset.append(el('div', { class: 'facet-value' }, box, el('label', { for: id }, value), el('span', { class: 'count' }, count(n))));
    }
    return fieldset;
  });
}

/** Text with the highlight markers turned into <mark> elements. */
function highlighted(value) {
  const text = typeof value === 'string' ? value : Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : short(v, 80))).join(', ') : short(value);
  const nodes = [];
  let rest = short(text, 400);
  for (;;) {
    const start = rest.indexOf(PRE);
    if (start === -1) break;
    const end = rest.indexOf(POST, start);
    if (end === -1) break;
    nodes.push(rest.slice(0, start), el('mark', {}, rest.slice(start + 1, end)));
    rest = rest.slice(end + 1);
  }
  nodes.push(rest.replaceAll(PRE, '').replaceAll(POST, ''));
  return nodes;
}

function renderHit(hit, primaryKey) {
  const formatted = hit._formatted ?? hit;
  const fields = Object.keys(hit).filter((k) => !k.startsWith('_'));
  const titleField = TITLE_FIELDS.find((f) => typeof hit[f] === 'string') ?? primaryKey ?? fields[0];
  const rest = fields.filter((f) => f !== titleField && f !== primaryKey);
  const fieldList = (names) => el('dl', { class: 'hit-fields' }, names.flatMap((f) => [el('dt', {}, f), el('dd', {}, highlighted(formatted[f] ?? hit[f]))]));
  const hidden = rest.length - SHOWN_FIELDS;
  const item = el('li', {},
    el('div', { class: 'hit-title' }, highlighted(formatted[titleField] ?? hit[titleField] ?? '')),
    el('div', { class: 'muted hit-id', 'data-id': hit[primaryKey] }, `${primaryKey ?? 'id'} ${hit[primaryKey] ?? ''}`, typeof hit._rankingScore === 'number' ? ` · score ${hit._rankingScore.toFixed(4)}` : ''),
    fieldList(rest.slice(0, SHOWN_FIELDS)),
    hidden > 0 ? el('details', { class: 'more-fields' }, el('summary', {}, `${hidden} more field${hidden === 1 ? '' : 's'}`), fieldList(rest.slice(SHOWN_FIELDS))) : null,
  );
  if (hit._rankingScoreDetails !== undefined) {
    item.append(el('details', {}, el('summary', {}, 'Ranking score details'), el('pre', {}, JSON.stringify(hit._rankingScoreDetails, null, 2))));
  }
  return item;
}
