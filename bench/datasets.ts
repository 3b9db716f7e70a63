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
  /**
   * The documents as every engine's indexing input: NDJSON text in chunks of INPUT_CHUNK_DOCS,
   * made before timing starts. Quarry posts the chunks; a library engine parses them
   * (`parseInput`) inside its timed indexing, so each starts from the same bytes.
   */
  ndjson: string[];
  queries: Query[];
}

export const INPUT_CHUNK_DOCS = 10_000;

function ndjsonChunks(docs: readonly Doc[]): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < docs.length; at += INPUT_CHUNK_DOCS) chunks.push(docs.slice(at, at + INPUT_CHUNK_DOCS).map((doc) => JSON.stringify(doc)).join('\n'));
  return chunks;
}

/** The documents read from the dataset's NDJSON input, as a library engine reads its input. */
export function parseInput(dataset: Dataset): Doc[] {
  return dataset.ndjson.flatMap((chunk) => chunk.split('\n').map((line) => JSON.parse(line) as Doc));
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
      ndjson: ndjsonChunks(docs),
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
    ndjson: ndjsonChunks(docs),
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

/**
 * Loads a dataset, hands it to `index` (which indexes its documents), and returns its queries and
 * document count with what `index` returned; the parsed documents are unreachable afterwards, so
 * the timed searches' garbage collections do not walk them (debdocs: 300+ MB of a 400 MB heap,
 * which made each mark-compact of the search loop a 35-60 ms pause, most of the p99).
 */
export async function indexThenRelease<T>(name: Dataset['name'], limit: number, index: (dataset: Dataset) => Promise<T>): Promise<{ queries: Query[]; docCount: number; indexed: T }> {
  const dataset = loadDataset(name, limit);
  return { queries: dataset.queries, docCount: dataset.docs.length, indexed: await index(dataset) };
}
