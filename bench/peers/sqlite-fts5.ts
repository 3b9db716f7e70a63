/** SQLite FTS5 through better-sqlite3: on-disk, BM25 ranking, prefix on the last word, no typos. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parseInput, type Dataset, type FilterClause, type Query } from '../datasets.js';
import type { Engine, EngineOptions, HighlightRequest } from './engine.js';

function ftsQuery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (words === null) return null;
  return words.map((w, i) => (i === words.length - 1 ? `"${w}"*` : `"${w}"`)).join(' ');
}

/** SQL conditions on the `facets` table (alias `f`); arrays are JSON text there, matched with LIKE. */
function whereOf(filter: readonly FilterClause[]): { clauses: string[]; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const c of filter) {
    if (c.op === 'any') {
      clauses.push(`(${c.values!.map(() => `(f."${c.field}" = ? OR f."${c.field}" LIKE ?)`).join(' OR ')})`);
      for (const v of c.values!) params.push(v, `%"${v}"%`);
    } else {
      const op = { eq: '=', gte: '>=', gt: '>', lte: '<=', lt: '<' }[c.op];
      clauses.push(`(f."${c.field}" ${op} ? OR (${c.op === 'eq' ? `f."${c.field}" LIKE ?` : '0'}))`);
      params.push(c.value, ...(c.op === 'eq' ? [`%"${c.value}"%`] : []));
    }
  }
  return { clauses, params };
}

interface Matching {
  /** FROM and WHERE of the matching rows */
  from: string;
  rowid: string;
  params: unknown[];
  /** whether there is an FTS match to rank by (and highlight) */
  ranked: boolean;
}

/** The rows matching `query`: its FTS match, its filter, both or neither. */
function matchingRows(query: Query): Matching {
  const match = ftsQuery(query.q);
  const filter = query.filter === undefined ? null : whereOf(query.filter);
  const conditions = [...(match === null ? [] : ['docs MATCH ?']), ...(filter?.clauses ?? [])];
  const params = [...(match === null ? [] : [match]), ...(filter?.params ?? [])];
  const table = match === null ? (filter === null ? 'docs' : 'facets f') : filter === null ? 'docs' : 'docs JOIN facets f ON f.rowid = docs.rowid';
  return {
    from: `FROM ${table}${conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`}`,
    rowid: match === null && filter !== null ? 'f.rowid' : 'docs.rowid',
    params,
    ranked: match !== null,
  };
}

/** Bytes of the database at `file` with its WAL and shared-memory files. */
function sizeOf(file: string): number {
  let total = 0;
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      total += statSync(file + suffix).size;
    } catch {
      // absent
    }
  }
  return total;
}

export function sqliteFts5(options: EngineOptions = { features: false }): Engine {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-fts5-'));
  const file = path.join(dir, 'db.sqlite');
  let db: Database.Database | null = null;
  let searchable: string[] = [];
  // Statements are prepared once per distinct SQL text (the filter's shape), as an application would.
  const statements = new Map<string, Database.Statement>();
  const run = (sql: string, params: unknown[]) => {
    let statement = statements.get(sql);
    if (statement === undefined) statements.set(sql, (statement = db!.prepare(sql)));
    return statement.all(...params) as Record<string, unknown>[];
  };
  /** A database at `at` holding the dataset's documents (and facet values with `features`). */
  const build = (at: string, dataset: Dataset): Database.Database => {
    const built = new Database(at);
    built.pragma('journal_mode = WAL');
    searchable = dataset.searchable;
    const filterable = dataset.filterable;
    built.exec(`CREATE VIRTUAL TABLE docs USING fts5(${dataset.searchable.join(', ')}, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`);
    built.exec(`CREATE TABLE facets (rowid INTEGER PRIMARY KEY, ${filterable.map((f) => `"${f}"`).join(', ')})`);
    // one row per value of each filterable field (arrays unrolled), for facet counts
    if (options.features) built.exec('CREATE TABLE facet_values (rowid INTEGER, field TEXT, value)');
    const insert = built.prepare(`INSERT INTO docs (rowid, ${dataset.searchable.join(', ')}) VALUES (?, ${dataset.searchable.map(() => '?').join(', ')})`);
    const facet = built.prepare(`INSERT INTO facets VALUES (?, ${filterable.map(() => '?').join(', ')})`);
    const facetValue = options.features ? built.prepare('INSERT INTO facet_values VALUES (?, ?, ?)') : null;
    const docs = parseInput(dataset);
    const load = built.transaction(() => {
      for (const doc of docs) {
        insert.run(doc.id, ...dataset.searchable.map((f) => (doc[f] === undefined ? null : String(doc[f]))));
        facet.run(doc.id, ...filterable.map((f) => (Array.isArray(doc[f]) ? JSON.stringify(doc[f]) : (doc[f] ?? null))));
        for (const f of facetValue === null ? [] : filterable) {
          for (const value of [doc[f] ?? []].flat()) facetValue!.run(doc.id, f, value);
        }
      }
    });
    load();
    if (options.features) built.exec('CREATE INDEX facet_values_by_row ON facet_values (rowid, field, value)');
    return built;
  };
  const top20 = (m: Matching, columns = '') => `SELECT ${m.rowid} AS id${columns} ${m.from}${m.ranked ? ' ORDER BY bm25(docs)' : ''} LIMIT 20`;
  return {
    name: 'SQLite FTS5',
    how: {
      faceted: 'GROUP BY over a facet-value table joined to the match',
      filtered: 'WHERE on a joined column table',
      highlighted: '`highlight()`, `snippet()`',
      'multi-search': '3 sequential searches',
    },
    async index(dataset: Dataset) {
      db = build(file, dataset);
    },
    async indexAgain(dataset: Dataset) {
      const again = path.join(dir, 'again.sqlite');
      const built = build(again, dataset);
      const diskBytes = sizeOf(again);
      built.close();
      return { diskBytes };
    },
    search(query: Query) {
      const m = matchingRows(query);
      return run(top20(m), m.params).map((row) => row.id as number);
    },
    facets(query: Query, field: string) {
      const m = matchingRows(query);
      const counts = run(
        `SELECT v.value AS value, count(*) AS n FROM (SELECT ${m.rowid} AS id ${m.from}) hits JOIN facet_values v ON v.rowid = hits.id AND v.field = ? GROUP BY v.value`,
        [...m.params, field],
      );
      return {
        ids: run(top20(m), m.params).map((row) => row.id as number),
        distribution: Object.fromEntries(counts.map((row) => [String(row.value), row.n as number])),
      };
    },
    highlight(query: Query, request: HighlightRequest) {
      const m = matchingRows(query);
      if (!m.ranked) throw new Error('SQLite highlights FTS matches only: the query needs words');
      const columns = request.attributes.map((attribute) => {
        const column = searchable.indexOf(attribute);
        return attribute === request.crop
          ? `, snippet(docs, ${column}, '<em>', '</em>', '…', ${request.cropWords}) AS "${attribute}"`
          : `, highlight(docs, ${column}, '<em>', '</em>') AS "${attribute}"`;
      });
      return run(top20(m, columns.join('')), m.params).map(({ id, ...formatted }) => ({ id: id as number, formatted: formatted as Record<string, string> }));
    },
    diskBytes: () => sizeOf(file),
    async close() {
      db?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
