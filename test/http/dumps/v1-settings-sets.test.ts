/**
 * A v1 dump (v0.20) stores displayed attributes and stop words as sets, and its
 * `attributesForFaceting` becomes v2's filterable and sortable sets: v1.50's reader answers them
 * sorted and without duplicates (BTreeSet), whatever order the dump wrote them in.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { jsonl, writeArchive } from '../../helpers/dump-archive.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

/** A server started from a v1 dump of the index `movies` with `settings` and `updates`. */
async function fromV1Dump(settings: object, updates: object[]): Promise<TestServer> {
  const file = path.join(tempDir(), 'v1.dump');
  await writeArchive(file, {
    'metadata.json': JSON.stringify({ indexes: [{ name: 'movies', uid: 'movies', createdAt: '2021-09-08T09:34:15Z', updatedAt: '2021-09-08T09:34:48Z', primaryKey: 'id' }], dbVersion: '0.20.0', dumpVersion: 'V1' }),
    'movies/settings.json': JSON.stringify(settings),
    'movies/documents.jsonl': jsonl([{ id: 1, title: 'Alien', genres: 'SF', release_date: 1979 }]),
    'movies/updates.jsonl': jsonl(updates),
  });
  return startServer({ args: ['--import-dump', file] });
}

describe('a v1 dump’s set settings', () => {
  it('settings.json: displayed attributes, stop words and attributes for faceting sorted and deduplicated', async () => {
    const server = await fromV1Dump({ displayedAttributes: ['title', 'id', 'genres', 'id'], stopWords: ['the', 'of', 'the'], attributesForFaceting: ['release_date', 'genres', 'genres'], synonyms: {} }, []);
    try {
      expect((await call(server, 'GET', '/indexes/movies/settings')).body).toMatchObject({
        displayedAttributes: ['genres', 'id', 'title'],
        stopWords: ['of', 'the'],
        filterableAttributes: ['genres', 'release_date'],
        sortableAttributes: ['genres', 'release_date'],
      });
    } finally {
      await server.dispose();
    }
  });

  it('a settings update: the same, in its task details', async () => {
    const update = {
      status: 'processed',
      updateId: 0,
      type: {
        name: 'Settings',
        settings: {
          ranking_rules: 'Nothing', distinct_attribute: 'Nothing', primary_key: 'Nothing', searchable_attributes: 'Nothing', synonyms: 'Nothing',
          displayed_attributes: { Update: ['title', 'id', 'title'] }, stop_words: { Update: ['of', 'the', 'a'] }, attributes_for_faceting: { Update: ['release_date', 'genres', 'release_date'] },
        },
      },
      duration: 0.5,
      enqueuedAt: '2021-09-08T09:34:16Z',
      processedAt: '2021-09-08T09:34:17Z',
    };
    const server = await fromV1Dump({}, [update]);
    try {
      const [task] = (await call(server, 'GET', '/tasks?types=settingsUpdate')).body.results;
      expect(task.details).toMatchObject({ displayedAttributes: ['id', 'title'], stopWords: ['a', 'of', 'the'], filterableAttributes: ['genres', 'release_date'], sortableAttributes: ['genres', 'release_date'] });
    } finally {
      await server.dispose();
    }
  });
});
