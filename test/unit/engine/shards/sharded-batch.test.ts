// A document batch on a real index environment with a sharded network (network.md §5): only
// documents of owned shards are kept and counted, each recorded in its shard; deletions by id
// skip ids of other shards; deletions, clears and edits keep shard-docids consistent; without a
// sharded network nothing is recorded.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import { readSettings, writeSettings } from '../../../../src/engine/index-settings.js';
import { defaultSettings } from '../../../../src/types/settings.js';
import { applyIndexWrite } from '../../../../src/engine/indexer/commit.js';
import { applyDocumentBatch, type DocumentOp } from '../../../../src/engine/indexer/document-batch.js';
import { readShardDocids } from '../../../../src/engine/shards/shard-docids.js';
import { shardOf, type Sharding } from '../../../../src/engine/shards/shard-of.js';
import { extractAheadParts } from '../../../../src/engine/words/extract-ahead.js';
import { AheadParts, type AheadPart, type AheadPartSource } from '../../../../src/engine/words/ahead-parts.js';
import { ownsDocument } from '../../../../src/engine/shards/shard-of.js';
import { documentId, type JsonObject } from '../../../../src/engine/document-id.js';
import { wordIndexSnapshot } from '../search/harness.js';
import { closeBatchIndex, openBatchIndex } from '../indexer/batch-index.js';

let dir: string;
let envs: IndexEnvs;
let env: IndexEnv;
let files = 0;

beforeEach(() => {
  ({ dir, envs, env } = openBatchIndex('quarry-sharded-batch-', ['genre']));
});
afterEach(() => closeBatchIndex({ dir, envs }));

function add(docs: object[], method: 'replace' | 'update' = 'replace'): DocumentOp {
  const file = path.join(dir, `update-${files++}.ndjson`);
  writeFileSync(file, docs.map((doc) => JSON.stringify(doc)).join('\n'));
  return { op: 'add', source: { file }, method, primaryKey: null, skipMissing: false };
}

const never = () => {};
const ids = () => [...new DocumentStore(env).all()].map((doc) => doc.id);
/** shard → the external ids recorded in it */
function recorded(): Record<string, string[]> {
  const byDocid = new Map([...env.externalIds.getRange({})].map(({ key, value }) => [value, key]));
  return Object.fromEntries([...readShardDocids(env)].map(([name, docids]) => [name, [...docids].map((docid) => byDocid.get(docid)!).sort()]));
}

// v1.50's test vector: A, B → ms1; C, E → ms2; D → ms0
const OWNS_MS1: Sharding = { shards: ['ms0', 'ms1', 'ms2'], owned: new Set(['ms1']) };
const FIVE = ['A', 'B', 'C', 'D', 'E'].map((id) => ({ id, genre: 'g' }));

describe('a document batch with a sharded network', () => {
  it('keeps and counts only the documents of owned shards, each recorded in its shard, every shard known', () => {
    const outcome = applyDocumentBatch(env, [add(FIVE)], null, never, undefined, undefined, false, undefined, OWNS_MS1);
    expect(outcome.results).toEqual([{ count: 2 }]);
    expect(ids()).toEqual(['A', 'B']);
    expect(recorded()).toEqual({ ms0: [], ms1: ['A', 'B'], ms2: [] });
  });

  it('routes numeric ids by their decimal form', () => {
    const docs = Array.from({ length: 40 }, (_, i) => ({ id: i }));
    const sharding: Sharding = { shards: ['a', 'b'], owned: new Set(['a']) };
    applyDocumentBatch(env, [add(docs)], null, never, undefined, undefined, false, undefined, sharding);
    const expected = docs.filter((doc) => shardOf(String(doc.id), ['a', 'b']) === 'a').map((doc) => doc.id);
    expect(expected.length).toBeGreaterThan(5);
    expect(ids()).toEqual(expected);
    expect(recorded().a).toEqual(expected.map(String).sort());
  });

  it('validates documents of other shards too: a bad id among them fails the task', () => {
    const outcome = applyDocumentBatch(env, [add([{ id: 'A' }, { id: 'C' }, { id: 'bad id' }])], null, never, undefined, undefined, false, undefined, OWNS_MS1);
    expect(outcome.results[0]).toMatchObject({ error: { code: 'invalid_document_id' } });
    expect(ids()).toEqual([]);
  });

  it('skips deletions by id of other shards, and deleted documents leave their shard', () => {
    const both: Sharding = { shards: ['ms0', 'ms1', 'ms2'], owned: new Set(['ms1', 'ms2']) };
    applyDocumentBatch(env, [add(FIVE)], null, never, undefined, undefined, false, undefined, both);
    expect(recorded()).toEqual({ ms0: [], ms1: ['A', 'B'], ms2: ['C', 'E'] });
    const outcome = applyDocumentBatch(env, [{ op: 'delete', ids: ['A', 'C', 'D'] }], 'id', never, undefined, undefined, false, undefined, OWNS_MS1);
    // C belongs to ms2, which this instance no longer owns: skipped; D is not stored
    expect(outcome.results).toEqual([{ count: 1 }]);
    expect(ids()).toEqual(['B', 'C', 'E']);
    expect(recorded()).toEqual({ ms0: [], ms1: ['B'], ms2: ['C', 'E'] });
  });

  it('deletes local documents by filter whatever their shard, and clears keep the shards emptied', () => {
    const both: Sharding = { shards: ['ms0', 'ms1', 'ms2'], owned: new Set(['ms1', 'ms2']) };
    applyDocumentBatch(env, [add(FIVE)], null, never, undefined, undefined, false, undefined, both);
    const byFilter = applyDocumentBatch(env, [{ op: 'deleteByFilter', filter: 'genre = g AND _shard != ms1', indexUid: 'index' }], 'id', never, undefined, undefined, false, undefined, OWNS_MS1);
    // C and E are of ms2, which this instance no longer owns: still deleted, being local
    expect(byFilter.results).toEqual([{ count: 2 }]);
    expect(recorded()).toEqual({ ms0: [], ms1: ['A', 'B'], ms2: [] });
    const cleared = applyDocumentBatch(env, [{ op: 'clear' }, add([{ id: 'A' }])], 'id', never, undefined, undefined, false, undefined, OWNS_MS1);
    expect(cleared.results).toEqual([{ count: 2 }, { count: 1 }]);
    expect(recorded()).toEqual({ ms0: [], ms1: ['A'], ms2: [] });
  });

  it('lets a deletion by _shard filter see the documents added earlier in the same batch', () => {
    const outcome = applyDocumentBatch(env, [add(FIVE), { op: 'deleteByFilter', filter: '_shard = ms1', indexUid: 'index' }], null, never, undefined, undefined, false, undefined, OWNS_MS1);
    expect(outcome.results).toEqual([{ count: 2 }, { count: 2 }]);
    expect(ids()).toEqual([]);
    expect(recorded()).toEqual({ ms0: [], ms1: [], ms2: [] });
  });

  it('empties every shard, keeping them, when a settings write clears the index', () => {
    applyDocumentBatch(env, [add(FIVE)], null, never, undefined, undefined, false, undefined, OWNS_MS1);
    applyIndexWrite(env, { kind: 'settings', settings: readSettings(env), clear: true, rebuild: [] });
    expect(ids()).toEqual([]);
    expect(recorded()).toEqual({ ms0: [], ms1: [], ms2: [] });
  });

  it('keeps an edited document in its shard and removes an edition-deleted one', () => {
    applyDocumentBatch(env, [add(FIVE)], null, never, undefined, undefined, false, undefined, OWNS_MS1);
    applyDocumentBatch(env, [{ op: 'put', deletions: ['B'], replacements: { bytes: Buffer.from(`${JSON.stringify({ id: 'A', genre: 'h' })}\n`) }, primaryKey: 'id' }], 'id', never);
    expect(ids()).toEqual(['A']);
    expect(recorded()).toEqual({ ms0: [], ms1: ['A'], ms2: [] });
  });

  it('records nothing without a sharded network, and a reused docid is not left in an old shard', () => {
    applyDocumentBatch(env, [add(FIVE)], null, never, undefined, undefined, false, undefined, OWNS_MS1);
    const outcome = applyDocumentBatch(env, [{ op: 'delete', ids: ['A'] }, add([{ id: 'C' }, { id: 'D' }])], 'id', never);
    expect(outcome.results).toEqual([{ count: 1 }, { count: 2 }]);
    expect(ids().sort()).toEqual(['B', 'C', 'D']);
    expect(recorded()).toEqual({ ms0: [], ms1: ['B'], ms2: [] });
  });

  it('deletes the documents of every shard not owned (deleteUnowned), through the deletion path', () => {
    const all: Sharding = { shards: ['ms0', 'ms1', 'ms2'], owned: new Set(['ms0', 'ms1', 'ms2']) };
    applyDocumentBatch(env, [add(FIVE)], null, never, undefined, undefined, false, undefined, all);
    const outcome = applyDocumentBatch(env, [{ op: 'deleteUnowned', owned: ['ms1'] }], 'id', never);
    expect(outcome.results).toEqual([{ count: 3 }]);
    expect(ids()).toEqual(['A', 'B']);
    expect(recorded()).toEqual({ ms0: [], ms1: ['A', 'B'], ms2: [] });
  });

  it('takes words extracted ahead, other shards\' documents extracted as empty ones, as if extracted in the write', () => {
    const sharding: Sharding = { shards: ['a', 'b', 'c'], owned: new Set(['b']) };
    const docs = Array.from({ length: 5000 }, (_, i) => ({ id: i, title: `river ${i % 7 === 0 ? 'dragon' : 'stone'} ${i}` }));
    const snapshot = (ahead: boolean) => {
      const target = envs.get(ahead ? 'ahead' : 'inline');
      target.root.transactionSync(() => writeSettings(target, defaultSettings()));
      const ops = [add(docs)];
      let extracted = 0;
      let parts: Generator<AheadPart> | undefined;
      const source: AheadPartSource = {
        extracts: () => true,
        noted() {},
        start(settings, fields) {
          const drops = (doc: JsonObject) => !ownsDocument(sharding, documentId(doc, 'id'));
          parts = extractAheadParts({ sources: ops.map((op) => (op.op === 'add' ? op.source : null)), thread: 0, threads: 1 }, settings, fields, drops);
        },
        next() {
          const got = parts!.next();
          if (got.done === true) return null;
          extracted++;
          return got.value;
        },
      };
      const taken = ahead ? new AheadParts(source) : undefined;
      const outcome = applyDocumentBatch(target, ops, 'id', never, undefined, taken, false, undefined, sharding);
      if (ahead) expect(extracted).toBeGreaterThan(0);
      return { results: outcome.results, words: wordIndexSnapshot(target) };
    };
    const inline = snapshot(false);
    expect(inline.results[0]).toEqual({ count: docs.filter((doc) => ownsDocument(sharding, String(doc.id))).length });
    expect(snapshot(true)).toEqual(inline);
  });
});
