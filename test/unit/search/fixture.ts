// The search service's context over real index environments (test/unit/engine/search/harness.ts):
// each test index is registered under its uid, so the service finds it as a request would.
import { afterEach } from 'vitest';
import type { JsonObject } from '../../../src/engine/document-id.js';
import type { FeatureName } from '../../../src/types/features.js';
import { IndexReader } from '../../../src/indexes/reader.js';
import type { IndexRecord } from '../../../src/indexes/registry.js';
import type { SearchContext } from '../../../src/search/context.js';
import { SearchQueue } from '../../../src/search/search-queue.js';
import { DEFAULT_RULE_LIMITS } from '../../../src/search-rules/limits.js';
import type { SearchRule } from '../../../src/search-rules/rule.js';
import type { IndexSettings } from '../../../src/types/settings.js';
import { openTestIndex, type TestIndex } from '../engine/search/harness.js';

export interface SearchFixture {
  ctx: SearchContext;
  index(uid: string): TestIndex;
  close(): Promise<void>;
}

export type FixtureIndexes = Record<string, { settings?: Partial<IndexSettings>; docs: JsonObject[] }>;

/**
 * Indexes by uid, each with its settings and documents (keyed by `id`); `features` are the
 * experimental features on, `rules` the dynamic search rules.
 */
export function openSearchFixture(indexes: FixtureIndexes, features: readonly FeatureName[] = [], rules: readonly SearchRule[] = []): SearchFixture {
  const opened = new Map<string, TestIndex>();
  for (const [uid, { settings, docs }] of Object.entries(indexes)) {
    const index = openTestIndex(settings);
    index.write(Object.fromEntries(docs.map((doc) => [String(doc.id), doc])));
    opened.set(uid, index);
  }
  const record = (uid: string): IndexRecord | undefined =>
    opened.has(uid) ? { uid, uuid: uid, createdAt: 0n, updatedAt: 0n, primaryKey: 'id' } : undefined;
  const envOf = (uuid: string) => opened.get(uuid)!.env;
  const reader = new IndexReader({ get: record }, { get: envOf, acquire: (uuid) => ({ env: envOf(uuid), release: () => {} }) });
  return {
    ctx: {
      indexReader: reader,
      features: { enabled: (name) => features.includes(name) },
      network: {
        names: () => ({ self: null, remotes: [] }),
        remoteAddress: () => null,
        sharding: () => false,
        current: () => ({ self: null, remotes: {}, shards: {}, version: '00000000-0000-0000-0000-000000000000' }),
        availability: { status: () => 'available', markFailed: () => {} },
      },
      remoteSearch: { send: () => Promise.reject(new Error('no remote in unit tests')) },
      searchQueue: new SearchQueue(1000, 8, 60_000),
      searchRules: { all: () => rules, limits: DEFAULT_RULE_LIMITS },
    },
    index: (uid) => opened.get(uid)!,
    async close() {
      await Promise.all([...opened.values()].map((index) => index.close()));
    },
  };
}

/** For a test file: an opener of fixtures, each closed after the test that opened it. */
export function searchFixtures(): (indexes: FixtureIndexes, features?: readonly FeatureName[], rules?: readonly SearchRule[]) => SearchFixture {
  let current: SearchFixture | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return (indexes, features, rules) => (current = openSearchFixture(indexes, features, rules));
}
