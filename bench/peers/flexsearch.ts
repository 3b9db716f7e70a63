/** FlexSearch: in-memory document index with forward (prefix) tokenisation; no typo tolerance. */
import FlexSearch from 'flexsearch';
import { matchesFilter, parseInput, type Dataset, type Doc, type Query } from '../datasets.js';
import { countValues } from './count-values.js';
import type { Engine, EngineOptions, HighlightRequest } from './engine.js';

// FlexSearch's boundary counts characters: about 6 per English word with its space.
const CHARS_PER_WORD = 6;

export function flexSearch(options: EngineOptions = { features: false }): Engine {
  let index: InstanceType<typeof FlexSearch.Document> | null = null;
  let byId = new Map<number, Doc>();
  /** Ids matching the query (field results in order, then its filter), at most `limit` before filtering. */
  const matches = (query: Query, limit: number): number[] => {
    // FlexSearch has no placeholder search: an empty query lists the documents, as an application would.
    const found =
      query.q.trim() === ''
        ? byId.keys()
        : new Set((index!.search(query.q, { limit } as never) as unknown as { result: number[] }[]).flatMap((r) => r.result));
    return [...found].filter((id) => matchesFilter(byId.get(id)!, query.filter));
  };
  return {
    name: 'FlexSearch',
    how: {
      faceted: 'JS count over every matching id',
      filtered: 'post-filter over the top 1000 per field',
      highlighted: '`highlight` with a boundary (document store on)',
      'multi-search': '3 sequential searches',
    },
    async index(dataset: Dataset) {
      // the document store is what highlighting reads; the plain benchmark runs without it
      const store = options.features ? { store: dataset.searchable } : {};
      index = new FlexSearch.Document({ document: { id: 'id', index: dataset.searchable, ...store }, tokenize: 'forward' } as never);
      const docs = parseInput(dataset);
      for (const doc of docs) index.add(doc as never);
      byId = new Map(docs.map((doc) => [doc.id, doc]));
    },
    search(query: Query) {
      return matches(query, query.filter === undefined ? 20 : 1000).slice(0, 20);
    },
    facets(query: Query, field: string) {
      const all = matches(query, byId.size);
      return { ids: all.slice(0, 20), distribution: countValues(all, byId, field) };
    },
    highlight(query: Query, request: HighlightRequest) {
      const template = '<em>$1</em>';
      // FlexSearch formats the fields a hit matched in only; the cropped one is cut from its start otherwise, as Meilisearch does
      const unmatched = (text: string, field: string) => {
        const words = text.split(/\s+/);
        return field === request.crop && words.length > request.cropWords ? `${words.slice(0, request.cropWords).join(' ')}…` : text;
      };
      const hits = index!.search({
        query: query.q,
        limit: 20,
        enrich: true,
        merge: true,
        index: request.attributes.map((field) =>
          field === request.crop ? { field, highlight: { template, boundary: request.cropWords * CHARS_PER_WORD } } : { field, highlight: template },
        ),
      } as never) as unknown as { id: number; doc: Record<string, string>; highlight?: Record<string, string> }[];
      return hits
        .filter((hit) => matchesFilter(byId.get(hit.id)!, query.filter))
        .slice(0, 20)
        .map((hit) => ({ id: hit.id, formatted: Object.fromEntries(request.attributes.map((field) => [field, hit.highlight?.[field] ?? unmatched(hit.doc[field] ?? '', field)])) }));
    },
    diskBytes: () => null,
    async close() {
      index = null;
    },
  };
}
