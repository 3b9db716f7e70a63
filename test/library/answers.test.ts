// What the library answers is what the `meilisearch` client reads from the server's JSON: integers
// past 2^53 as numbers (JSON.parse's), plain objects, and nothing of the engine's own that a
// caller changing an answer could change for the next one.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Quarry } from '../../dist/src/library/index.js';
import { tempDir } from '../helpers/server.js';

let dir: string | undefined;
let quarry: Quarry | undefined;

afterEach(async () => {
  await quarry?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  quarry = undefined;
  dir = undefined;
});

/** Every BigInt in `value`, by path. */
function bigints(value: unknown, at = ''): string[] {
  if (typeof value === 'bigint') return [at];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => bigints(inner, `${at}.${key}`));
}

describe('library answers', () => {
  it('read numbers past 2^53 as numbers and objects as plain ones, as the client reads the server', async () => {
    dir = tempDir();
    quarry = await Quarry.open({ dbPath: path.join(dir, 'data.ms'), logLevel: 'WARN' });
    const index = quarry.index('big');
    await index.updateSettings({ filterableAttributes: ['big'] }).waitTask({ timeout: 30_000 });
    await index.addDocuments([{ id: 1, big: 2 ** 60, text: 'hello' }]).waitTask({ timeout: 30_000 });
    await index.updatePagination({ maxTotalHits: 2 ** 60 }).waitTask({ timeout: 30_000 });
    const answers = [
      await index.getDocument(1),
      await index.getDocuments(),
      await index.search('hello', { facets: ['big'] }),
      await quarry.multiSearch({ queries: [{ indexUid: 'big', q: 'hello' }] }),
      await index.getPagination(),
      await quarry.getTasks(),
    ];
    expect(answers.flatMap((answer) => bigints(answer))).toEqual([]);
    expect(((await index.getDocument(1)) as { big: number }).big).toBe(2 ** 60);
    const { facetDistribution } = await index.search('hello', { facets: ['big'] });
    expect(Object.getPrototypeOf(facetDistribution)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(answers[2]))).toEqual(answers[2]);
  }, 60_000);

  it('give each call its own answer: changing one leaves the next as it was', async () => {
    dir = tempDir();
    quarry = await Quarry.open({ dbPath: path.join(dir, 'data.ms'), logLevel: 'WARN' });
    const index = quarry.index('owned');
    await index.updateSettings({ searchableAttributes: ['title'], stopWords: ['the'] }).waitTask({ timeout: 30_000 });
    const settings = await index.getSettings();
    settings.searchableAttributes!.push('secret');
    settings.stopWords!.length = 0;
    expect(await index.getSettings()).toMatchObject({ searchableAttributes: ['title'], stopWords: ['the'] });
  }, 60_000);
});
