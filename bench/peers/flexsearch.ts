/** FlexSearch: in-memory document index with forward (prefix) tokenisation; no typo tolerance. */
import FlexSearch from 'flexsearch';
import { matchesFilter, type Dataset, type Doc, type Query } from '../datasets.js';
import type { Engine } from './engine.js';

export function flexSearch(): Engine {
  let index: InstanceType<typeof FlexSearch.Document> | null = null;
  let byId = new Map<number, Doc>();
  return {
    name: 'FlexSearch',
    async index(dataset: Dataset) {
      index = new FlexSearch.Document({ document: { id: 'id', index: dataset.searchable }, tokenize: 'forward' } as never);
      for (const doc of dataset.docs) index.add(doc as never);
      byId = new Map(dataset.docs.map((doc) => [doc.id, doc]));
    },
    search(query: Query) {
      const results = index!.search(query.q, { limit: query.filter === undefined ? 20 : 1000 } as never) as unknown as { result: number[] }[];
      const ids = new Set(results.flatMap((r) => r.result));
      let count = 0;
      for (const id of ids) if (matchesFilter(byId.get(id)!, query.filter)) count++;
      return Math.min(count, 20);
    },
    diskBytes: () => null,
    async close() {
      index = null;
    },
  };
}
