/** Orama: in-memory, typo tolerance by `tolerance`, filters with `where`, `facets`; no highlighter in its core. */
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import { parseInput, type Dataset, type FilterClause, type Query } from '../datasets.js';
import type { Engine } from './engine.js';

type Schema = Record<string, string>;

// Exact-value fields (filterable, not searchable) are enums: a `string`/`string[]` would be
// tokenised, and Orama's `containsAny` only applies to `enum[]`.
function schemaOf(dataset: Dataset): Schema {
  const sample = dataset.docs[0]!;
  const schema: Schema = {};
  for (const field of [...dataset.searchable, ...dataset.filterable]) {
    const value = sample[field];
    const exact = dataset.filterable.includes(field) && !dataset.searchable.includes(field);
    schema[field] = typeof value === 'number' ? 'number' : `${exact ? 'enum' : 'string'}${Array.isArray(value) ? '[]' : ''}`;
  }
  return schema;
}

/** Orama's `where` for an engine-neutral filter; the operator depends on the field's index. */
function where(filter: readonly FilterClause[], schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of filter) {
    const values = c.op === 'any' ? c.values! : [c.value!];
    const type = schema[c.field]!;
    if (type === 'enum[]') out[c.field] = { containsAny: values };
    else if (type === 'enum') out[c.field] = c.op === 'any' ? { in: values } : { eq: c.value };
    else if (type.startsWith('string')) out[c.field] = values; // a term match on the searchable text
    else out[c.field] = c.op === 'any' ? { in: values } : { [c.op]: c.value };
  }
  return out;
}

export function orama(): Engine {
  let db: AnyOrama | null = null;
  let searchable: string[] = [];
  let schema: Schema = {};
  const run = (query: Query, extra: Record<string, unknown> = {}) =>
    search(db!, {
      term: query.q,
      properties: searchable as never,
      tolerance: 1,
      limit: 20,
      ...(query.filter === undefined ? {} : { where: where(query.filter, schema) as never }),
      ...extra,
    });
  const idsOf = (hits: { id: string }[]) => hits.map((hit) => Number(hit.id));
  return {
    name: 'Orama',
    how: {
      faceted: '`facets`',
      filtered: '`where`',
      'multi-search': '3 sequential searches',
    },
    async index(dataset: Dataset) {
      searchable = dataset.searchable;
      schema = schemaOf(dataset);
      db = create({ schema: schema as never });
      await insertMultiple(db, parseInput(dataset).map(({ id, ...rest }) => ({ ...rest, id: String(id) })) as never, 1000);
    },
    async search(query: Query) {
      return idsOf((await run(query)).hits);
    },
    async facets(query: Query, field: string) {
      // Orama lists 10 values per facet unless told
      const result = await run(query, { facets: { [field]: { limit: 1000 } } });
      return { ids: idsOf(result.hits), distribution: (result.facets?.[field]?.values ?? {}) as Record<string, number> };
    },
    diskBytes: () => null,
    async close() {
      db = null;
    },
  };
}
