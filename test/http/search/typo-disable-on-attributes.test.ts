// typoTolerance.disableOnAttributes selects fields as milli's field metadata does (`exact` is
// `is_faceted_by(field, entry)` in fields_ids_map/metadata.rs, `contained_in` in the word extractor):
// an entry covers the field of that exact name and every field nested under it, and nothing else —
// `*`, `prefix*` and `*suffix` are plain names there, not patterns. Words of a covered field are
// indexed exact (ranking.md §4), so a typo of them finds nothing in that field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { search, seed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await seed(
    server,
    'fields',
    [
      { id: 1, meta: { name: 'Marvel' } },
      { id: 2, meta: 'Marvel' },
      { id: 3, title_en: 'Marvel' },
      { id: 4, main_text: 'Marvel' },
      { id: 5, plain: 'Marvel' },
    ],
    { typoTolerance: { disableOnAttributes: ['meta', 'title_*', '*_text'] } },
  );
  await seed(server, 'star', [{ id: 1, plain: 'Marvel' }], { typoTolerance: { disableOnAttributes: ['*'] } });
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

/** The ids a query finds, sorted (which documents match is the point here, not their order). */
async function idsOf(uid: string, q: string): Promise<number[]> {
  const { hits } = await search(server, uid, { q });
  return hits.map((hit: { id: number }) => hit.id).sort((a: number, b: number) => a - b);
}

describe('typoTolerance.disableOnAttributes', () => {
  it('the exact word is found in every field, covered or not', async () => {
    expect(await idsOf('fields', 'Marvel')).toEqual([1, 2, 3, 4, 5]);
  });

  it('a typo finds nothing in the named field nor in a field nested under it', async () => {
    expect(await idsOf('fields', 'Marivel')).not.toContain(1);
    expect(await idsOf('fields', 'Marivel')).not.toContain(2);
  });

  it('prefix* and *suffix entries are names, not patterns: the fields they would match keep their typos', async () => {
    expect(await idsOf('fields', 'Marivel')).toEqual([3, 4, 5]);
  });

  it('a * entry is a name too: it does not turn typos off everywhere', async () => {
    expect(await idsOf('star', 'Marivel')).toEqual([1]);
  });
});
