/** MiniSearch: in-memory, typo tolerance by fuzzy edit distance, prefix search; no highlighter. */
import MiniSearch, { type SearchResult } from 'minisearch';
import { matchesFilter, parseInput, type Dataset, type Doc, type Query } from '../datasets.js';
import { countValues } from './count-values.js';
import type { Engine } from './engine.js';

export function miniSearch(): Engine {
  let index: MiniSearch<Doc> | null = null;
  let byId = new Map<number, Doc>();
  // every match, ranked: MiniSearch has no result limit
  const matches = (query: Query): SearchResult[] =>
    index!.search(query.q === '' ? MiniSearch.wildcard : query.q, {
      fuzzy: 0.2,
      prefix: true,
      filter: query.filter === undefined ? undefined : (hit) => matchesFilter(byId.get(hit.id as number)!, query.filter),
    });
  return {
    name: 'MiniSearch',
    how: {
      faceted: 'JS count over every matching id',
      filtered: '`filter` callback',
      'multi-search': '3 sequential searches',
    },
    async index(dataset: Dataset) {
      index = new MiniSearch<Doc>({ fields: dataset.searchable, idField: 'id' });
      const docs = parseInput(dataset);
      index.addAll(docs);
      byId = new Map(docs.map((doc) => [doc.id, doc]));
    },
    search(query: Query) {
      return matches(query)
        .slice(0, 20)
        .map((hit) => hit.id as number);
    },
    facets(query: Query, field: string) {
      const all = matches(query).map((hit) => hit.id as number);
      return { ids: all.slice(0, 20), distribution: countValues(all, byId, field) };
    },
    diskBytes: () => null,
    async close() {
      index = null;
    },
  };
}
