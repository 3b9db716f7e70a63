/**
 * The benchmark datasets of ../shared/datasets (never copied into the repository): documents,
 * suggested settings, and the query sets with their engine-neutral filters.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export type Doc = Record<string, unknown> & { id: number };

export interface FilterClause {
  field: string;
  op: 'eq' | 'any' | 'gte' | 'gt' | 'lte' | 'lt';
  value?: string | number;
  values?: (string | number)[];
}

export interface Query {
  id: number;
  type: string;
  q: string;
  filter?: FilterClause[];
  meiliFilter?: string;
}

export interface Dataset {
  name: 'movies' | 'debdocs';
  searchable: string[];
  filterable: string[];
  sortable: string[];
  docs: Doc[];
  queries: Query[];
}

// Works from bench/ (vitest) and from dist/bench/ (compiled runner).
function sharedDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const up of ['../../shared/datasets', '../../../shared/datasets']) {
    const dir = path.resolve(here, up);
    try {
      readFileSync(path.join(dir, 'README.md'));
      return dir;
    } catch {
      // try the next candidate
    }
  }
  throw new Error('../shared/datasets not found beside the checkout');
}

export function loadDataset(name: Dataset['name'], limit = Number.POSITIVE_INFINITY): Dataset {
  const dir = sharedDir();
  if (name === 'movies') {
    const docs = (JSON.parse(gunzipSync(readFileSync(path.join(dir, 'movies.json.gz'))).toString()) as Doc[]).slice(0, limit);
    return {
      name,
      searchable: ['title', 'overview'],
      filterable: ['genres', 'year', 'release_date'],
      sortable: ['release_date'],
      docs,
      queries: JSON.parse(readFileSync(path.join(dir, 'movies.queries.json'), 'utf8')) as Query[],
    };
  }
  const lines = gunzipSync(readFileSync(path.join(dir, 'debdocs.ndjson.gz'))).toString().split('\n');
  const docs: Doc[] = [];
  for (const line of lines) {
    if (docs.length >= limit) break;
    if (line.length > 0) docs.push(JSON.parse(line) as Doc);
  }
  return {
    name,
    searchable: ['title', 'summary', 'heading', 'content'],
    filterable: ['kind', 'category', 'package', 'size', 'tags'],
    sortable: ['size'],
    docs,
    queries: JSON.parse(readFileSync(path.join(dir, 'debdocs.queries.json'), 'utf8')) as Query[],
  };
}

/** Whether a document passes an engine-neutral filter (for engines without their own). */
export function matchesFilter(doc: Doc, filter: readonly FilterClause[] | undefined): boolean {
  if (filter === undefined) return true;
  return filter.every((clause) => {
    const raw = doc[clause.field];
    const values = Array.isArray(raw) ? raw : [raw];
    return values.some((v) => {
      switch (clause.op) {
        case 'eq':
          return v === clause.value;
        case 'any':
          return clause.values!.includes(v as string | number);
        case 'gte':
          return (v as number) >= (clause.value as number);
        case 'gt':
          return (v as number) > (clause.value as number);
        case 'lte':
          return (v as number) <= (clause.value as number);
        case 'lt':
          return (v as number) < (clause.value as number);
      }
    });
  });
}
