// Wires instant-meilisearch and InstantSearch widgets to the Quarry named in the page's query
// string (`host`, `key`). The test reads the rendered DOM, so templates mark what it reads with
// classes and data attributes.
import { instantMeiliSearch } from '@meilisearch/instant-meilisearch';

const params = new URLSearchParams(location.search);
const { searchClient } = instantMeiliSearch(params.get('host'), params.get('key'));
const { searchBox, sortBy, stats, refinementList, rangeInput, hits, pagination, configure } = instantsearch.widgets;

const search = instantsearch({ indexName: 'movies', searchClient });
search.addWidgets([
  configure({ hitsPerPage: 5 }),
  searchBox({ container: '#searchbox', placeholder: 'Search movies' }),
  sortBy({
    container: '#sort',
    items: [
      { label: 'Relevance', value: 'movies' },
      { label: 'Newest first', value: 'movies:year:desc' },
      { label: 'Oldest first', value: 'movies:year:asc' },
    ],
  }),
  stats({ container: '#stats', templates: { text: ({ nbHits }, { html }) => html`<span class="nb-hits">${nbHits}</span>` } }),
  refinementList({ container: '#genres', attribute: 'genres', limit: 8 }),
  rangeInput({ container: '#year', attribute: 'year' }),
  hits({
    container: '#hits',
    templates: {
      item: (hit, { html, components }) =>
        html`<article data-id="${hit.id}">
          <h3 class="title">${components.Highlight({ hit, attribute: 'title' })}</h3>
          <span class="year">${hit.year}</span>
        </article>`,
    },
  }),
  pagination({ container: '#pagination' }),
]);
search.start();
