// The script of the geo InstantSearch test (instantsearch-geo.test.ts), in the page index.html:
// instant-meilisearch wired to the Quarry named in the query string (`host`), with the geo search
// parameters of `geo` (JSON: aroundLatLng and aroundRadius, or insideBoundingBox, as InstantSearch's
// `configure` takes them), a geo sort and a searchable refinement list of `kind` (in #genres).
// The test reads the rendered DOM.
import { instantMeiliSearch } from '@meilisearch/instant-meilisearch';

const params = new URLSearchParams(location.search);
const { searchClient } = instantMeiliSearch(params.get('host'), '');
const { sortBy, stats, refinementList, hits, configure } = instantsearch.widgets;

const search = instantsearch({ indexName: 'places', searchClient });
search.addWidgets([
  configure({ hitsPerPage: 100, ...JSON.parse(params.get('geo') ?? '{}') }),
  sortBy({
    container: '#sort',
    items: [
      { label: 'Relevance', value: 'places' },
      { label: 'Nearest first', value: 'places:_geoPoint(48.85,2.35):asc' },
    ],
  }),
  stats({ container: '#stats', templates: { text: ({ nbHits }, { html }) => html`<span class="nb-hits">${nbHits}</span>` } }),
  refinementList({ container: '#genres', attribute: 'kind', searchable: true }),
  hits({
    container: '#hits',
    templates: {
      item: (hit, { html }) =>
        html`<article data-id="${hit.id}" data-lat="${hit._geoloc?.lat}" data-distance="${hit._geoDistance ?? ''}">${hit.name}</article>`,
    },
  }),
]);
search.start();
