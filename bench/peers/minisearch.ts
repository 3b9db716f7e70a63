/** MiniSearch: in-memory, typo tolerance by fuzzy edit distance, prefix search. */
import MiniSearch from 'minisearch';
import { matchesFilter, type Dataset, type Doc, type Query } from '../datasets.js';
import type { Engine } from './engine.js';

export function miniSearch(): Engine {
  let index: MiniSearch<Doc> | null = null;
  let byId = new Map<number, Doc>();
  return {
    name: 'MiniSearch',
    async index(dataset: Dataset) {
      index = new MiniSearch<Doc>({ fields: dataset.searchable, idField: 'id' });
      index.addAll(dataset.docs);
      byId = new Map(dataset.docs.map((doc) => [doc.id, doc]));
    },
    search(query: Query) {
      const hits = index!.search(query.q === '' ? MiniSearch.wildcard : query.q, {
        fuzzy: 0.2,
        prefix: true,
        filter: query.filter === undefined ? undefined : (hit) => matchesFilter(byId.get(hit.id as number)!, query.filter),
      });
      return Math.min(hits.length, 20);
    },
    diskBytes: () => null,
    async close() {
      index = null;
    },
  };
}
