/** Orama: in-memory, typo tolerance by `tolerance`, filters with `where`. */
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import type { Dataset, FilterClause, Query } from '../datasets.js';
import type { Engine } from './engine.js';

function schemaOf(dataset: Dataset): Record<string, string> {
  const sample = dataset.docs[0]!;
  const schema: Record<string, string> = {};
  for (const field of [...dataset.searchable, ...dataset.filterable]) {
    const value = sample[field];
    schema[field] = Array.isArray(value) ? 'string[]' : typeof value === 'number' ? 'number' : dataset.filterable.includes(field) && !dataset.searchable.includes(field) ? 'enum' : 'string';
  }
  return schema;
}

function where(filter: readonly FilterClause[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of filter) {
    if (c.op === 'eq') out[c.field] = typeof c.value === 'number' ? { eq: c.value } : c.value;
    else if (c.op === 'any') out[c.field] = { containsAny: c.values };
    else out[c.field] = { [c.op]: c.value };
  }
  return out;
}

export function orama(): Engine {
  let db: AnyOrama | null = null;
  let searchable: string[] = [];
  return {
    name: 'Orama',
    async index(dataset: Dataset) {
      searchable = dataset.searchable;
      db = create({ schema: schemaOf(dataset) as never });
      await insertMultiple(db, dataset.docs.map(({ id, ...rest }) => ({ ...rest, id: String(id) })) as never, 1000);
    },
    async search(query: Query) {
      const result = await search(db!, {
        term: query.q,
        properties: searchable as never,
        tolerance: 1,
        limit: 20,
        ...(query.filter === undefined ? {} : { where: where(query.filter) as never }),
      });
      return result.hits.length;
    },
    diskBytes: () => null,
    async close() {
      db = null;
    },
  };
}
