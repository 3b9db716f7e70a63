// The index the indexer writes answers the datasets' query files as it did when the fixtures were
// made (test/fixtures/indexer/, written by this test from the indexer before the one-pipeline
// refactor of issue 20): a slice of movies and of debdocs, indexed through the real write path
// (additions, merge updates, deletions, a settings re-index) and searched with every query of
// their query file: top-20 ids and hit count per query, plus facet distributions.
// Regenerate (only for a deliberate change of results): QUARRY_WRITE_INDEXER_FIXTURES=1 npx vitest run …
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineSearch } from '../../../../bench/engine-search.js';
import { loadDataset, type Dataset, type Doc } from '../../../../bench/datasets.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { computeFacets } from '../../../../src/engine/facets/distribution.js';
import { parseFilter } from '../../../../src/engine/filter-parser/index.js';
import { applyIndexWrite } from '../../../../src/engine/indexer/commit.js';
import type { DocumentOp } from '../../../../src/engine/indexer/document-batch.js';
import { INDEX_UPDATERS } from '../../../../src/engine/indexer/registry.js';
import type { IndexEnv } from '../../../../src/engine/index-env.js';
import { readSettings } from '../../../../src/engine/index-settings.js';
import { defaultSettings, type IndexSettings } from '../../../../src/types/settings.js';
import { closeBatchIndex, openBatchIndex, type BatchIndex } from './batch-index.js';

const SLICE = 3_000;
/** queries whose facet distribution (over every filterable attribute) is compared too */
const FACETED_QUERIES = 4;
const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/indexer');
const WRITE = process.env.QUARRY_WRITE_INDEXER_FIXTURES === '1';

interface Answer {
  /** the query's id in its query file */
  id: number;
  hits: number;
  top: string[];
  facets?: Record<string, Record<string, number>>;
}

let index: BatchIndex | undefined;
afterEach(async () => {
  if (index !== undefined) await closeBatchIndex(index);
  index = undefined;
});

function datasetSettings(dataset: Dataset): IndexSettings {
  return { ...defaultSettings(), searchableAttributes: dataset.searchable, filterableAttributes: dataset.filterable, sortableAttributes: dataset.sortable };
}

let files = 0;
function add(dir: string, docs: readonly object[], method: 'replace' | 'update'): DocumentOp {
  const file = path.join(dir, `payload-${files++}.ndjson`);
  writeFileSync(file, docs.map((doc) => JSON.stringify(doc)).join('\n'));
  return { op: 'add', source: { file }, method, primaryKey: null, skipMissing: false };
}

function writeSettingsOf(env: IndexEnv, settings: IndexSettings): void {
  applyIndexWrite(env, { kind: 'settings', settings, clear: false, rebuild: INDEX_UPDATERS.map((updater) => updater.name) });
}

/**
 * Indexes the slice in two document batches: most documents, then the rest with merge updates of
 * a few hundred indexed ones (a changed searchable and filterable field) and deletions.
 * `settingsFirst`: the settings are set on the empty index; otherwise after the documents (a re-index).
 */
function indexSlice(dataset: Dataset, settingsFirst: boolean): IndexEnv {
  index = openBatchIndex('quarry-same-results-', []);
  const { dir, env } = index;
  const settings = datasetSettings(dataset);
  if (settingsFirst) writeSettingsOf(env, settings);
  const docs = dataset.docs;
  const first = docs.slice(0, SLICE - 500);
  const rest = docs.slice(SLICE - 500);
  const [text, facet] = [dataset.searchable[0]!, dataset.filterable[0]!];
  const updates = first.filter((_, i) => i % 10 === 3).map((doc: Doc) => ({ id: doc.id, [text]: `${String(doc[text] ?? '')} revised edition`, [facet]: 'revised' }));
  const deleted = first.filter((_, i) => i % 25 === 7).map((doc) => String(doc.id));
  let outcome = applyIndexWrite(env, { kind: 'documents', ops: [add(dir, first.slice(0, 1_000), 'replace'), add(dir, first.slice(1_000), 'replace')], primaryKey: null });
  expect(outcome.results.every((result) => 'count' in result)).toBe(true);
  outcome = applyIndexWrite(env, { kind: 'documents', ops: [add(dir, rest, 'replace'), add(dir, updates, 'update'), { op: 'delete', ids: deleted }], primaryKey: outcome.primaryKey });
  expect(outcome.results.every((result) => 'count' in result)).toBe(true);
  if (!settingsFirst) writeSettingsOf(env, settings);
  return env;
}

function answers(env: IndexEnv, dataset: Dataset): Answer[] {
  const settings = readSettings(env);
  const store = new DocumentStore(env);
  return dataset.queries.map((query, i) => {
    const filter = query.meiliFilter === undefined ? null : parseFilter(query.meiliFilter, { code: 'invalid_search_filter' });
    const outcome = engineSearch(env, settings, query.q, filter);
    const answer: Answer = { id: query.id, hits: outcome.totalHits, top: outcome.hits.map((hit) => String(store.byDocid(hit.docid)?.id)) };
    if (i < FACETED_QUERIES) answer.facets = computeFacets(env, settings, outcome.candidates, dataset.filterable).distribution;
    return answer;
  });
}

describe.each([
  { name: 'movies' as const, settingsFirst: true },
  { name: 'debdocs' as const, settingsFirst: false },
])('the indexed $name slice', ({ name, settingsFirst }) => {
  it('answers every query of its query file as the fixture recorded', () => {
    const dataset = loadDataset(name, SLICE);
    const got = answers(indexSlice(dataset, settingsFirst), dataset);
    const file = path.join(FIXTURES, `${name}.json`);
    if (WRITE) writeFileSync(file, `[\n${got.map((answer) => JSON.stringify(answer)).join(',\n')}\n]\n`);
    const expected = JSON.parse(readFileSync(file, 'utf8')) as Answer[];
    // the fixture is not trivial: most queries match something
    expect(expected.filter((answer) => answer.hits > 0).length).toBeGreaterThan(expected.length / 2);
    expect(got).toEqual(expected);
  }, 60_000);
});
