/**
 * A v6 dump's values are checked as v1.50's typed reader checks them, and a bad one refuses the
 * import (the db path removed): settings the API would refuse (synonyms that are no lists made
 * every search of the index answer 500, a string of stop words became its letters, a negative
 * `maxTotalHits` emptied every search), key uids and actions, webhook uuids, the instance uid
 * (written to a file of the db path), and two indexes of one uid (one environment orphaned).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, writeArchive } from '../../helpers/dump-archive.js';
import { runCli, tempDir } from '../../helpers/server.js';

const METADATA = JSON.stringify({ dumpVersion: 'V6', dbVersion: '1.50.0', dumpDate: '2025-02-04T10:22:31Z' });
const indexFiles = (folder: string, uid: string, settings: object) => ({
  [`indexes/${folder}/metadata.json`]: JSON.stringify({ uid, primaryKey: 'id', createdAt: '2025-02-04T10:15:21Z', updatedAt: '2025-02-04T10:15:21Z' }),
  [`indexes/${folder}/settings.json`]: JSON.stringify(settings),
  [`indexes/${folder}/documents.jsonl`]: jsonl([{ id: 1, title: 'Alien' }]),
});
const key = (fields: object) => jsonl([{ uid: '42092c55-5496-4579-8a51-768ad7866998', actions: ['search'], indexes: ['*'], expires_at: null, created_at: '2025-02-04T10:14:11Z', updated_at: '2025-02-04T10:14:11Z', ...fields }]);

describe('a v6 dump with a value v1.50 refuses', () => {
  it.each([
    ['synonyms that are no lists', indexFiles('movies', 'movies', { synonyms: { a: 'b' } }), 'Index `movies`: settings.json: Invalid value type at `.synonyms.a`: expected an array, but found a string: `"b"`'],
    ['stop words as a string', indexFiles('movies', 'movies', { stopWords: 'the' }), 'Invalid value type at `.stopWords`: expected an array, but found a string: `"the"`'],
    ['a negative maxTotalHits', indexFiles('movies', 'movies', { pagination: { maxTotalHits: -5 } }), 'Index `movies`: settings.json: Invalid value type at `.pagination.maxTotalHits`'],
    ['a ranking rule the API refuses', indexFiles('movies', 'movies', { rankingRules: ['bad:rule'] }), '`bad:rule` ranking rule is invalid'],
    ['a key uid that is no uuid', { 'keys.jsonl': key({ uid: 'not-a-uuid' }) }, 'keys.jsonl: `not-a-uuid` is not a uuid'],
    ['an unknown key action', { 'keys.jsonl': key({ actions: ['fly'] }) }, 'keys.jsonl: key `42092c55-5496-4579-8a51-768ad7866998`: unknown action `fly`'],
    ['a webhook uuid that is no uuid', { 'webhooks.json': JSON.stringify({ webhooks: { 'not-a-uuid': { url: 'https://example.com', headers: {} } } }) }, 'webhooks.json: `not-a-uuid` is not a uuid'],
    ['an instance uid that is no uuid', { 'instance_uid.uuid': '../../etc/x' }, 'instance_uid.uuid: `../../etc/x` is not a uuid'],
    ['two indexes of one uid', { ...indexFiles('a', 'movies', {}), ...indexFiles('b', 'movies', {}) }, 'Index `movies` already exists.'],
  ])('%s: the import is refused, the db path removed', async (_, files, message) => {
    const dir = tempDir();
    const file = path.join(dir, 'bad.dump');
    await writeArchive(file, { 'metadata.json': METADATA, ...files });
    const dbPath = path.join(dir, 'db');
    const { code, stderr } = await runCli(['--db-path', dbPath, '--http-addr', '127.0.0.1:0', '--no-analytics', '--import-dump', file]);
    expect(stderr).toContain('importing the dump failed: ');
    expect(stderr).toContain(message);
    expect(code).toBe(1);
    expect(existsSync(dbPath)).toBe(false);
  });
});
