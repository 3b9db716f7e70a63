/** SQLite FTS5 through better-sqlite3: on-disk, BM25 ranking, prefix on the last word, no typos. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Dataset, Query } from '../datasets.js';
import type { Engine } from './engine.js';

function ftsQuery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (words === null) return null;
  return words.map((w, i) => (i === words.length - 1 ? `"${w}"*` : `"${w}"`)).join(' ');
}

export function sqliteFts5(): Engine {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-fts5-'));
  const file = path.join(dir, 'db.sqlite');
  let db: Database.Database | null = null;
  let statements: { text: Database.Statement; all: Database.Statement } | null = null;
  let filterable: string[] = [];
  return {
    name: 'SQLite FTS5',
    async index(dataset: Dataset) {
      db = new Database(file);
      db.pragma('journal_mode = WAL');
      filterable = dataset.filterable;
      db.exec(`CREATE VIRTUAL TABLE docs USING fts5(${dataset.searchable.join(', ')}, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')`);
      db.exec(`CREATE TABLE facets (rowid INTEGER PRIMARY KEY, ${filterable.map((f) => `"${f}"`).join(', ')})`);
      const insert = db.prepare(`INSERT INTO docs (rowid, ${dataset.searchable.join(', ')}) VALUES (?, ${dataset.searchable.map(() => '?').join(', ')})`);
      const facet = db.prepare(`INSERT INTO facets VALUES (?, ${filterable.map(() => '?').join(', ')})`);
      const load = db.transaction(() => {
        for (const doc of dataset.docs) {
          insert.run(doc.id, ...dataset.searchable.map((f) => (doc[f] === undefined ? null : String(doc[f]))));
          facet.run(doc.id, ...filterable.map((f) => (Array.isArray(doc[f]) ? JSON.stringify(doc[f]) : (doc[f] ?? null))));
        }
      });
      load();
      statements = {
        text: db.prepare('SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 20'),
        all: db.prepare('SELECT rowid FROM docs LIMIT 20'),
      };
    },
    search(query: Query) {
      const match = ftsQuery(query.q);
      if (query.filter !== undefined) {
        const clauses: string[] = [];
        const params: unknown[] = [];
        for (const c of query.filter) {
          if (c.op === 'any') {
            clauses.push(`(${c.values!.map(() => `(f."${c.field}" = ? OR f."${c.field}" LIKE ?)`).join(' OR ')})`);
            for (const v of c.values!) params.push(v, `%"${v}"%`);
          } else {
            const op = { eq: '=', gte: '>=', gt: '>', lte: '<=', lt: '<' }[c.op];
            clauses.push(`(f."${c.field}" ${op} ? OR (${c.op === 'eq' ? `f."${c.field}" LIKE ?` : '0'}))`);
            params.push(c.value, ...(c.op === 'eq' ? [`%"${c.value}"%`] : []));
          }
        }
        const sql =
          match === null
            ? `SELECT f.rowid FROM facets f WHERE ${clauses.join(' AND ')} LIMIT 20`
            : `SELECT docs.rowid FROM docs JOIN facets f ON f.rowid = docs.rowid WHERE docs MATCH ? AND ${clauses.join(' AND ')} ORDER BY bm25(docs) LIMIT 20`;
        return db!.prepare(sql).all(...(match === null ? params : [match, ...params])).length;
      }
      return (match === null ? statements!.all.all() : statements!.text.all(match)).length;
    },
    diskBytes: () => {
      let total = 0;
      for (const suffix of ['', '-wal', '-shm']) {
        try {
          total += statSync(file + suffix).size;
        } catch {
          // absent
        }
      }
      return total;
    },
    async close() {
      db?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
