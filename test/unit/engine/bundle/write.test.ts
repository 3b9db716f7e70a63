// A bundle written with a field projection keeps only those fields of each document (and the
// primary key, the distinct attribute and `_geo`, which search reads), while every other database
// is copied whole: a search over it still matches and ranks on the fields it dropped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { openBundle } from '../../../../src/engine/bundle/reader.js';
import { writeBundle } from '../../../../src/engine/bundle/write.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { IndexEnvs } from '../../../../src/engine/index-env.js';
import { INDEX_UPDATERS } from '../../../../src/engine/indexer/registry.js';
import { searchSettings, writeSettings } from '../../../../src/engine/index-settings.js';
import type { IndexReadEnv } from '../../../../src/engine/index-read-env.js';
import { defaultSettings } from '../../../../src/types/settings.js';
import { searchEnv } from '../search/harness.js';

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-bundle-write-'));
const envs = new IndexEnvs(dir);
afterAll(async () => {
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

const DOCS = [
  { id: 1, title: 'The Matrix', overview: 'A hacker learns the truth', studio: 'WB', _geo: { lat: 1, lng: 2 } },
  { id: 2, title: 'The Matrix Reloaded', overview: 'Neo fights agents', studio: 'WB' },
  { id: 3, title: 'Speed', overview: 'A bus must not slow down', studio: 'Fox' },
];

const env = envs.get('index');
const settings = { ...defaultSettings(), distinctAttribute: 'studio', filterableAttributes: ['_geo'] };
env.root.transactionSync(() => {
  writeSettings(env, settings);
  const applied = new DocumentStore(env).apply(new Map(DOCS.map((doc) => [String(doc.id), doc])), false);
  for (const updater of INDEX_UPDATERS) updater.apply(env, settings, applied);
});

function docids(on: IndexReadEnv, q: string): number[] {
  return searchEnv(on, searchSettings(on), q, { need: 10 }).hits.map((hit) => hit.docid);
}

describe('writeBundle with fields', () => {
  const bundle = openBundle(
    writeBundle({ env, index: { uid: 'movies', primaryKey: 'id', createdAt: 'c', updatedAt: 'u' }, features: {}, fields: ['title'], distinctAttribute: 'studio' }, 'now'),
  );

  it('keeps the listed fields, the primary key, the distinct attribute and _geo', () => {
    expect([...bundle.env.documents.getRange({})].map(({ value }) => value)).toEqual([
      { id: 1, title: 'The Matrix', studio: 'WB', _geo: { lat: 1, lng: 2 } },
      { id: 2, title: 'The Matrix Reloaded', studio: 'WB' },
      { id: 3, title: 'Speed', studio: 'Fox' },
    ]);
    expect(bundle.toc.fields).toEqual(['title', 'id', 'studio', '_geo']);
  });

  it('still finds documents by the words of the fields it dropped', () => {
    expect(docids(bundle.env, 'agents')).toEqual(docids(env, 'agents'));
    expect(docids(bundle.env, 'agents')).toHaveLength(1);
    expect(docids(bundle.env, 'matrix bus')).toEqual(docids(env, 'matrix bus'));
  });
});
