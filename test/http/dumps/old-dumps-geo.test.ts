/**
 * `_geo` values written by Meilisearch v0.27–v0.29 in V5 dumps: those engines checked `_geo` only
 * when it was filterable or sortable, and accepted coordinates as strings. v1.50 imports such
 * documents as its indexing reads them: strings parsed as numbers, a malformed `_geo` kept as
 * it is while `_geo` is not filterable or sortable, and the import stopped on one when it is.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, writeArchive } from '../../helpers/dump-archive.js';
import { runCli, startServer, tempDir } from '../../helpers/server.js';

const UUID = '11111111-2222-4333-8444-555555555555';

/** A V5 dump of one index `places` holding `documents`, with `filterableAttributes`. */
async function v5Dump(documents: unknown[], filterableAttributes: string[]): Promise<{ dir: string; file: string }> {
  const dir = tempDir('quarry-geo-dump-');
  const file = path.join(dir, 'v5.dump');
  const settings = { displayedAttributes: ['*'], searchableAttributes: ['*'], filterableAttributes, sortableAttributes: [], rankingRules: ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness'], stopWords: [], synonyms: {}, distinctAttribute: null };
  const created = [{ Created: '2022-09-01T10:00:00Z' }, { Processing: '2022-09-01T10:00:01Z' }, { Succeeded: { result: { DocumentAddition: { indexed_documents: documents.length } }, timestamp: '2022-09-01T10:00:02Z' } }];
  await writeArchive(file, {
    'metadata.json': JSON.stringify({ dumpVersion: 'V5', dbVersion: '0.29.1', indexDbSize: 1, updateDbSize: 1, dumpDate: '2022-09-01T12:00:00Z' }),
    'index_uuids/data.jsonl': jsonl([{ uid: 'places', index_meta: { uuid: UUID, creation_task_id: 0 } }]),
    [`indexes/${UUID}/meta.json`]: JSON.stringify({ settings, primary_key: 'id' }),
    [`indexes/${UUID}/documents.jsonl`]: jsonl(documents),
    'updates/data.jsonl': jsonl([{ id: 0, content: { DocumentAddition: { index_uid: 'places', content_uuid: UUID, merge_strategy: 'ReplaceDocuments', primary_key: null, documents_count: documents.length, allow_index_creation: true } }, events: created }]),
    keys: '',
  });
  return { dir, file };
}

describe('`_geo` in a v0.27–v0.29 dump', () => {
  it('reads coordinates given as strings when `_geo` is filterable', async () => {
    const { dir, file } = await v5Dump([{ id: 1, _geo: { lat: '48.85', lng: '2.35' } }, { id: 2, _geo: { lat: 40.7, lng: -74 } }], ['_geo']);
    const server = await startServer({ dbPath: path.join(dir, 'db'), args: ['--import-dump', file] });
    try {
      const res = await fetch(`${server.url}/indexes/places/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filter: '_geoRadius(48.85, 2.35, 1000)' }),
      });
      const body = (await res.json()) as { hits: { id: number }[] };
      expect(body.hits.map((hit) => hit.id)).toEqual([1]);
    } finally {
      await server.dispose();
    }
  });

  it('keeps a malformed `_geo` as it is when `_geo` is neither filterable nor sortable', async () => {
    const { dir, file } = await v5Dump([{ id: 1, _geo: { lat: 'north', lng: null } }], []);
    const server = await startServer({ dbPath: path.join(dir, 'db'), args: ['--import-dump', file] });
    try {
      const res = await fetch(`${server.url}/indexes/places/documents/1`);
      expect(await res.json()).toEqual({ id: 1, _geo: { lat: 'north', lng: null } });
    } finally {
      await server.dispose();
    }
  });

  it('stops the import on a malformed `_geo` when `_geo` is filterable, and removes the half-made db path', async () => {
    const { dir, file } = await v5Dump([{ id: 1, _geo: { lat: 'north', lng: 2 } }], ['_geo']);
    const dbPath = path.join(dir, 'db');
    const { code, stderr } = await runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--import-dump', file]);
    expect(code).toBe(1);
    expect(stderr).toContain('Could not parse latitude in the document with the id: `"1"`. Was expecting a finite number but instead got `"north"`.');
    expect(existsSync(dbPath)).toBe(false);
  });
});
