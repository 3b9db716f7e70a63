// The startup warm-up of the search path runs the real facet search on a temporary index under the
// OS's temp folder, whose files are gone while it searches (a killed process leaves nothing).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';

const seen = vi.hoisted(() => ({ facetHits: [] as unknown[][], tempEntries: [] as number[], tempDir: '' }));

vi.mock('../../../src/engine/facets/facet-search.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/engine/facets/facet-search.js')>();
  const { readdirSync: list } = await import('node:fs');
  return {
    ...original,
    searchFacetValues: (...args: Parameters<typeof original.searchFacetValues>) => {
      seen.tempEntries.push(list(seen.tempDir).length);
      const hits = original.searchFacetValues(...args);
      seen.facetHits.push(hits);
      return hits;
    },
  };
});

const { warmUpSearchPath } = await import('../../../src/search/thread-warm-up.js');

let previousTmp: string | undefined;
beforeEach(() => {
  previousTmp = process.env.TMPDIR;
  seen.tempDir = mkdtempSync(path.join(tmpdir(), 'quarry-warm-up-test-'));
  process.env.TMPDIR = seen.tempDir;
  seen.facetHits = [];
  seen.tempEntries = [];
});
afterEach(() => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  rmSync(seen.tempDir, { recursive: true, force: true });
});

it('runs facet searches over a temporary index whose files are already unlinked from the temp folder', async () => {
  const errors: unknown[] = [];
  await warmUpSearchPath((err) => errors.push(err));
  expect(errors).toEqual([]);
  // the five facet searches ran (each round), on an index holding the warm-up's documents
  expect(seen.facetHits.length).toBeGreaterThanOrEqual(5);
  expect(seen.facetHits[0]).toEqual([
    { value: 'action', count: 1 },
    { value: 'adventure', count: 2 },
    { value: 'comedy', count: 1 },
    { value: 'romance', count: 2 },
  ]);
  expect(seen.tempEntries.every((entries) => entries === 0)).toBe(true);
  expect(readdirSync(seen.tempDir)).toEqual([]);
});

it('reports a failure to its callback, never throws, and still leaves nothing behind', async () => {
  const errors: unknown[] = [];
  process.env.TMPDIR = path.join(seen.tempDir, 'missing', 'folder');
  await expect(warmUpSearchPath((err) => errors.push(err))).resolves.toBeUndefined();
  expect(errors).toHaveLength(1);
  expect(seen.facetHits).toEqual([]);
  expect(readdirSync(seen.tempDir)).toEqual([]);
});

it('stops at its next turn once aborted, and still leaves nothing behind', async () => {
  const errors: unknown[] = [];
  const stop = new AbortController();
  const warmedUp = warmUpSearchPath((err) => errors.push(err), stop.signal);
  // its first turn has passed: the temporary index is being written or searched
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  stop.abort();
  await warmedUp;
  expect(errors).toEqual([]);
  // five facet searches a round: the warm-up stopped before the first round's
  expect(seen.facetHits.length).toBeLessThan(5);
  expect(readdirSync(seen.tempDir)).toEqual([]);
});
