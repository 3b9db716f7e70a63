// A real index environment in a temporary folder, filled the way the document processor does
// (document store + every index updater in one write transaction), for engine-level tests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { JsonObject } from '../../../../src/engine/document-id.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import type { IndexReadEnv } from '../../../../src/engine/index-read-env.js';
import { INDEX_UPDATERS } from '../../../../src/engine/indexer/registry.js';
import { writeSettings } from '../../../../src/engine/index-settings.js';
import { prefixPostings, readPosting, wordPostings } from '../../../../src/engine/words/posting-blocks.js';
import { decodeForward, type Posting } from '../../../../src/engine/words/postings.js';
import { executeSearch, plainRequest, type SearchRequest } from '../../../../src/engine/search/search.js';
import { readSearchFields } from '../../../../src/engine/words/word-index.js';
import { defaultSettings, type IndexSettings } from '../../../../src/types/settings.js';

export interface TestIndex {
  env: IndexEnv;
  settings: IndexSettings;
  /** Adds or replaces documents (keyed by `id`), `null` deletes. */
  write(docs: Record<string, JsonObject | null>): void;
  /** Rebuilds every derived structure from the stored documents under new settings. */
  reconfigure(settings: Partial<IndexSettings>): void;
  /** The ids of the hits, best first. */
  ids(q: string, request?: Partial<SearchRequest>): unknown[];
  search(q: string, request?: Partial<SearchRequest>): ReturnType<typeof executeSearch>;
  close(): Promise<void>;
}

/** A search of 20 hits of `q` on `env` (any environment object over the index: each keeps its own caches). */
export function searchEnv(env: IndexReadEnv, settings: IndexSettings, q: string, request: Partial<SearchRequest> = {}): ReturnType<typeof executeSearch> {
  return executeSearch(env, settings, { ...plainRequest(q, 20), ...request });
}

export function openTestIndex(settings: Partial<IndexSettings> = {}): TestIndex {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-search-'));
  const envs = new IndexEnvs(dir);
  const env = envs.get('test');
  const index: TestIndex = {
    env,
    settings: { ...defaultSettings(), ...settings },
    write(docs) {
      env.root.transactionSync(() => {
        writeSettings(env, index.settings);
        const changes = new DocumentStore(env).apply(new Map(Object.entries(docs)), false);
        for (const updater of INDEX_UPDATERS) updater.apply(env, index.settings, changes);
      });
    },
    reconfigure(next) {
      index.settings = { ...index.settings, ...next };
      env.root.transactionSync(() => {
        writeSettings(env, index.settings);
        const documents = [...env.documents.getRange()].map(({ key, value }) => ({ docid: key, doc: value }));
        for (const updater of INDEX_UPDATERS) updater.rebuild(env, index.settings, documents);
      });
    },
    search(q, request = {}) {
      return searchEnv(env, index.settings, q, request);
    },
    ids(q, request = {}) {
      const store = new DocumentStore(env);
      return index.search(q, request).hits.map((hit) => store.byDocid(hit.docid)!.id);
    },
    async close() {
      await envs.closeAll();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return index;
}

/** Every stored structure of the word index as plain data, ids replaced by words and field names. */
export function wordIndexSnapshot(env: IndexEnv) {
  const words = new Map<number, string>();
  for (const { key, value } of env.wordIds.getRange()) words.set(value.readUInt32LE(0), key);
  const fields = readSearchFields(env);
  const maskNames = (mask: number) => fields.filter((_, f) => (mask & (1 << f)) !== 0).join('+');
  const posting = (p: Posting) => {
    return Array.from(p.docids, (docid, i) => [docid, maskNames(p.masks[i]!), p.infos[i]]);
  };
  return {
    words: Object.fromEntries([...env.wordDocids.getKeys()].map((key) => [key, posting(readPosting(wordPostings(env), key))])),
    prefixes: Object.fromEntries([...env.prefixDocids.getKeys()].map((key) => [key, posting(readPosting(prefixPostings(env), key))])),
    forward: Object.fromEntries(
      [...env.docWords.getRange()].map(({ key, value }) => {
        const record = decodeForward(value);
        const tokens = Array.from(record.wordIds, (id, i) => `${words.get(id)}@${fields[record.places[i]! >>> 16]}:${record.places[i]! & 0xffff}`).sort();
        return [key, { fields: Object.fromEntries([...record.fieldWords].map(([f, n]) => [fields[f], n])), tokens }];
      }),
    ),
    dictionary: [...words.values()].sort(),
  };
}
