// The document batch on a real index environment: task-order semantics across chunks, per-op
// failures that change nothing (withdrawn from the changes held, or the write run again without
// them when a chunk was written since they began), and an interrupted batch that
// rolls back whole; the same for a small payload and one larger than a chunk's bytes, each read
// once; chunks sized by the indexing memory budget.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import { writeSettings } from '../../../../src/engine/index-settings.js';
import { applyDocumentBatch, chunkBytes, type DocumentOp } from '../../../../src/engine/indexer/document-batch.js';
import { defaultSettings } from '../../../../src/types/settings.js';
import { wordIndexSnapshot } from '../search/harness.js';
import { closeBatchIndex, openBatchIndex } from './batch-index.js';
import { expectSame } from '../../../helpers/same.js';

let dir: string;
let envs: IndexEnvs;
let env: IndexEnv;
let files = 0;

beforeEach(() => {
  ({ dir, envs, env } = openBatchIndex('quarry-doc-batch-', ['genre']));
});
afterEach(() => closeBatchIndex({ dir, envs }));

/** `pad` blanks after the first document make the payload that many bytes bigger. */
function add(docs: object[], method: 'replace' | 'update' = 'replace', primaryKey: string | null = null, pad = 0): DocumentOp {
  const file = path.join(dir, `update-${files++}.ndjson`);
  const lines = docs.map((doc) => JSON.stringify(doc));
  if (pad > 0) lines[0] += ' '.repeat(pad);
  writeFileSync(file, lines.join('\n'));
  return { op: 'add', source: { file }, method, primaryKey, skipMissing: false };
}

const never = () => {};
const store = () => new DocumentStore(env);

describe('applyDocumentBatch', () => {
  it('applies operations in task order, merging updates across chunks of a large payload', () => {
    const many = Array.from({ length: 45_000 }, (_, i) => ({ id: i % 30_000, [`v${Math.floor(i / 30_000)}`]: i }));
    const outcome = applyDocumentBatch(env, [add([{ id: 1, genre: 'a' }]), add(many, 'update'), { op: 'delete', ids: ['2', '2', 'missing'] }], null, never);
    expect(outcome.primaryKey).toBe('id');
    expect(outcome.results).toEqual([{ count: 1 }, { count: 30_000 }, { count: 1 }]);
    expect(store().get('1')).toEqual({ id: 1, genre: 'a', v0: 1, v1: 30_001 });
    expect(store().get('2')).toBeUndefined();
    expect(store().count()).toBe(29_999);
  });

  it('counts the distinct documents of an addition whose ids repeat across chunks, an earlier addition\'s ids new to it', () => {
    // 50,000 lines over 3 chunks: ids 0-24,999, each twice (in the first and second or the
    // second and third chunk), and id 7 a third time at the very end
    const lines = Array.from({ length: 50_000 }, (_, i) => ({ id: i % 25_000, n: i }));
    lines.push({ id: 7, n: -1 });
    const outcome = applyDocumentBatch(env, [add([{ id: 7, first: true }, { id: 30_000 }]), add(lines, 'update')], null, never);
    expect(outcome.results).toEqual([{ count: 2 }, { count: 25_000 }]);
    expect(store().get('7')).toEqual({ id: 7, first: true, n: -1 });
    expect(store().count()).toBe(25_001);
  });

  it('counts the documents skipCreation skips once each, however far apart they repeat', () => {
    applyDocumentBatch(env, [add([{ id: 1, a: 1 }, { id: 40_000, a: 1 }])], null, never);
    // 45,000 lines, ids i % 30,000: 29,999 missing ids skipped (each twice or once), 1 updated
    const lines = Array.from({ length: 45_000 }, (_, i) => ({ id: i % 30_000, b: i }));
    const skip: DocumentOp = { ...(add(lines, 'update') as Extract<DocumentOp, { op: 'add' }>), skipMissing: true };
    const outcome = applyDocumentBatch(env, [skip], 'id', never);
    expect(outcome.results).toEqual([{ count: 30_000 }]);
    expect(store().count()).toBe(2);
    expect(store().get('1')).toEqual({ id: 1, a: 1, b: 30_001 });
  });

  it('ends a chunk once its payload lines reach the indexing memory budget\'s share, and writes the same index', () => {
    // 400 documents of about 2 KB: 800 KB of payload, a 256 KiB chunk under a 4 MiB budget
    const docs = Array.from({ length: 400 }, (_, i) => ({ id: i, genre: `g${i % 7}`, text: `word${i % 13} `.repeat(280) }));
    const other = envs.get('other');
    other.root.transactionSync(() => writeSettings(other, { ...defaultSettings(), filterableAttributes: ['genre'] }));
    const chunks = vi.spyOn(DocumentStore.prototype, 'apply');
    expect(applyDocumentBatch(env, [add(docs)], null, never).results).toEqual([{ count: 400 }]);
    expect(chunks).toHaveBeenCalledTimes(1);
    chunks.mockClear();
    expect(applyDocumentBatch(other, [add(docs)], null, never, undefined, undefined, false, undefined, null, 4 * 2 ** 20).results).toEqual([{ count: 400 }]);
    expect(chunkBytes(4 * 2 ** 20)).toBe(256 * 1024);
    expect(chunks.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(chunks.mock.calls.length).toBeLessThanOrEqual(4);
    chunks.mockRestore();
    expectSame(wordIndexSnapshot(other), wordIndexSnapshot(env));
    expect([...new DocumentStore(other).all()]).toEqual([...store().all()]);
  });

  it('bounds a chunk by the budget\'s share of at least 256 KiB, whatever the budget', () => {
    expect(chunkBytes(0)).toBe(256 * 1024);
    expect(chunkBytes(16 * 2 ** 30)).toBe(2 ** 28);
  });

  it('reads each stored document once when a batch updates it', () => {
    const docs = Array.from({ length: 100 }, (_, i) => ({ id: i, genre: 'a' }));
    applyDocumentBatch(env, [add(docs)], null, never);
    const reads = vi.spyOn(env.documents, 'get');
    const outcome = applyDocumentBatch(env, [add(docs.map((doc) => ({ id: doc.id, title: `t${doc.id}` })), 'update')], 'id', never);
    expect(outcome.results).toEqual([{ count: 100 }]);
    expect(reads).toHaveBeenCalledTimes(100);
    reads.mockRestore();
    expect(store().get('7')).toEqual({ id: 7, genre: 'a', title: 't7' });
  });

  it('applies a payload kept as bytes (a small request) like one in a file, across the batch', () => {
    const bytes = { op: 'add', source: { bytes: new Uint8Array(Buffer.from('{"id":1,"a":1}\n{"id":2}\n')) }, method: 'update', primaryKey: null, skipMissing: false } as const;
    const outcome = applyDocumentBatch(env, [add([{ id: 1, b: 2 }]), bytes], null, never);
    expect(outcome.results).toEqual([{ count: 1 }, { count: 2 }]);
    expect(store().get('1')).toEqual({ id: 1, a: 1, b: 2 });
    expect(store().count()).toBe(2);
  });

  it('fails only the addition with a bad payload, which changes nothing', () => {
    const outcome = applyDocumentBatch(env, [add([{ id: 1 }]), add([{ id: 2 }, { id: 'bad id' }]), add([{ id: 3 }])], null, never);
    expect(outcome.results[0]).toEqual({ count: 1 });
    expect(outcome.results[1]).toMatchObject({ error: { code: 'invalid_document_id' } });
    expect(outcome.results[2]).toEqual({ count: 1 });
    expect(store().get('2')).toBeUndefined();
    expect(store().count()).toBe(2);
  });

  describe('an addition refused among many small ones', () => {
    /** Runs `ops` and answers the outcome and the write transactions it took. */
    const counted = (ops: DocumentOp[]) => {
      const transactions = vi.spyOn(env.root, 'transactionSync');
      try {
        return { outcome: applyDocumentBatch(env, ops, null, never), runs: transactions.mock.calls.length };
      } finally {
        transactions.mockRestore();
      }
    };

    it('is withdrawn from the changes held: the write runs once and the rest applies', () => {
      const ops = Array.from({ length: 40 }, (_, t) => add([{ id: `${t}-a` }, t % 4 === 1 ? { id: 'bad id' } : { id: `${t}-b` }]));
      const { outcome, runs } = counted(ops);
      expect(runs).toBe(1);
      expect(outcome.results.filter((result) => 'error' in result)).toHaveLength(10);
      expect(outcome.results[1]).toMatchObject({ error: { code: 'invalid_document_id' } });
      expect(store().count()).toBe(60);
      expect(store().get('1-a')).toBeUndefined();
      expect(store().get('2-b')).toEqual({ id: '2-b' });
    });

    it('restores what it replaced in the batch: an update withdrawn leaves the earlier version, as sent', () => {
      const { outcome, runs } = counted([add([{ id: 1, genre: 'a' }]), add([{ id: 1, year: 2 }, { id: 'bad id' }], 'update'), add([{ id: 2 }])]);
      expect(runs).toBe(1);
      expect(outcome.results).toEqual([{ count: 1 }, expect.objectContaining({ error: expect.objectContaining({ code: 'invalid_document_id' }) }), { count: 1 }]);
      expect(store().get('1')).toEqual({ id: 1, genre: 'a' });
      expect(store().fieldIds()).toEqual(['id', 'genre']);
    });

    it('fails alone when a document it makes has an invalid `_geo`, with the error named in its index', () => {
      env.root.transactionSync(() => writeSettings(env, { ...defaultSettings(), filterableAttributes: ['_geo'] }));
      const withIndex = (op: DocumentOp): DocumentOp => ({ ...op, indexUid: 'index' }) as DocumentOp;
      const { outcome, runs } = counted([
        withIndex(add([{ id: 1, _geo: { lat: 1, lng: 2 } }])),
        withIndex(add([{ id: 2, _geo: { lat: 1, lng: 2 } }, { id: 3, _geo: { lat: 'x', lng: 2 } }])),
        withIndex(add([{ id: 3, _geo: { lat: 3, lng: 4 } }])),
      ]);
      expect(runs).toBe(1);
      expect(outcome.results).toEqual([
        { count: 1 },
        { error: { code: 'invalid_document_geo_field', message: expect.stringMatching(/^Index `index`: Could not parse latitude in the document with the id: `"3"`/) } },
        { count: 1 },
      ]);
      expect(store().count()).toBe(2);
      expect(store().get('2')).toBeUndefined();
    });
  });

  describe('field limit', () => {
    /** A document with `id` and the numbered fields from `from` up to `to` (excluded). */
    const wide = (id: string, from: number, to: number) => {
      const doc: Record<string, unknown> = { id };
      for (let i = from; i < to; i++) doc[String(i)] = 'I am a text!';
      return doc;
    };
    const limitError = { error: { code: 'max_fields_limit_exceeded', message: 'A document cannot contain more than 65,535 fields.' } };

    it('fails only the addition of a document with more than 65,536 fields; the rest of the batch applies', () => {
      const outcome = applyDocumentBatch(env, [add([wide('wow', 0, 65_536)]), add([{ id: 1, genre: 'a' }])], null, never);
      expect(outcome.results).toEqual([limitError, { count: 1 }]);
      expect(outcome.primaryKey).toBe('id');
      expect(store().count()).toBe(1);
      expect(store().fieldIds()).toEqual(['id', 'genre']);
    });

    it('counts the fields the index already has, and a failed addition leaves none of its own for later ones', () => {
      expect(applyDocumentBatch(env, [add([wide('wow', 0, 32_767)])], null, never).results).toEqual([{ count: 1 }]);
      const outcome = applyDocumentBatch(env, [add([wide('waw', 32_767, 65_536)]), add([{ id: 'later', extra: 1 }])], 'id', never);
      expect(outcome.results).toEqual([limitError, { count: 1 }]);
      expect(store().get('waw')).toBeUndefined();
      expect(store().get('later')).toEqual({ id: 'later', extra: 1 });
      expect(store().fieldIds()).toHaveLength(32_769);
    });

    it('counts the fields an earlier addition of the same batch adds', () => {
      const outcome = applyDocumentBatch(env, [add([wide('wow', 0, 32_767)]), add([wide('waw', 32_767, 65_536)]), add([wide('full', 32_767, 65_535)])], null, never);
      expect(outcome.results).toEqual([{ count: 1 }, limitError, { count: 1 }]);
      expect(store().fieldIds()).toHaveLength(65_536);
    });
  });

  it('refuses a second primary key and keeps the first', () => {
    const outcome = applyDocumentBatch(env, [add([{ id: 1, ref: 'x' }], 'replace', 'id'), add([{ id: 2, ref: 'y' }], 'replace', 'ref')], null, never);
    expect(outcome.results[1]).toMatchObject({ error: { code: 'index_primary_key_already_exists', message: 'Index already has a primary key: `id`.' } });
    expect(outcome.primaryKey).toBe('id');
  });

  it('deletes by filter what earlier operations of the batch wrote, and fails a refused filter alone', () => {
    const outcome = applyDocumentBatch(
      env,
      [add([{ id: 1, genre: 'a' }, { id: 2, genre: 'b' }]), { op: 'deleteByFilter', filter: 'genre = a', indexUid: 'index' }, { op: 'deleteByFilter', filter: 'year > 2', indexUid: 'index' }],
      null,
      never,
    );
    expect(outcome.results[1]).toEqual({ count: 1 });
    expect(outcome.results[2]).toMatchObject({ error: { code: 'invalid_document_filter' } });
    expect((outcome.results[2] as { error: { message: string } }).error.message).toMatch(/^Index `index`: Attribute `year` is not filterable/);
    expect(store().count()).toBe(1);
  });

  it('counts a clear as the documents it removed', () => {
    applyDocumentBatch(env, [add([{ id: 1 }, { id: 2 }])], null, never);
    const outcome = applyDocumentBatch(env, [{ op: 'clear' }, add([{ id: 3 }])], 'id', never);
    expect(outcome.results).toEqual([{ count: 2 }, { count: 1 }]);
    expect(store().count()).toBe(1);
  });

  it('rolls the whole batch back when interrupted', () => {
    applyDocumentBatch(env, [add([{ id: 1 }])], null, never);
    let calls = 0;
    const interrupt = () => {
      if (++calls > 3) throw new Error('interrupted');
    };
    const many = Array.from({ length: 50_000 }, (_, i) => ({ id: i + 10 }));
    expect(() => applyDocumentBatch(env, [{ op: 'delete', ids: ['1'] }, add(many)], 'id', interrupt)).toThrow('interrupted');
    expect(store().count()).toBe(1);
    expect(store().get('1')).toEqual({ id: 1 });
  });

  it('answers a rehearsal\'s outcome and writes nothing', () => {
    applyDocumentBatch(env, [add([{ id: 1 }])], null, never);
    const outcome = applyDocumentBatch(env, [{ op: 'delete', ids: ['1'] }, add([{ id: 2 }, { id: 3 }])], 'id', never, undefined, undefined, true);
    expect(outcome.results).toEqual([{ count: 1 }, { count: 2 }]);
    expect(store().count()).toBe(1);
    expect(store().get('1')).toEqual({ id: 1 });
  });

  it('deletes nothing under an id no document can have, however long', () => {
    applyDocumentBatch(env, [add([{ id: 1 }])], null, never);
    const outcome = applyDocumentBatch(env, [{ op: 'delete', ids: ['x'.repeat(100_000), 'é'.repeat(256), '', '1'] }], 'id', never);
    expect(outcome.results).toEqual([{ count: 1 }]);
    expect(store().get('x'.repeat(5_000))).toBeUndefined();
  });

  it('fails only the addition holding a document nested deeper than serde_json reads', () => {
    const file = path.join(dir, `update-${files++}.ndjson`);
    writeFileSync(file, `{"id":1}\n{"id":2,"f":${'['.repeat(20_000)}${']'.repeat(20_000)}}\n`);
    const deep: DocumentOp = { op: 'add', source: { file }, method: 'replace', primaryKey: null, skipMissing: false };
    const outcome = applyDocumentBatch(env, [add([{ id: 3 }]), deep, add([{ id: 4 }])], null, never);
    expect(outcome.results).toEqual([
      { count: 1 },
      // `{"id":2,"f":` is 12 bytes: the 128th `[` opens level 129 at column 12 + 128
      { error: { code: 'malformed_payload', message: "The `ndjson` payload provided is malformed. `Couldn't serialize document value: recursion limit exceeded at line 2 column 140`." } },
      { count: 1 },
    ]);
    expect(store().count()).toBe(2);
  });
});

// A large payload's first line is longer than the 1 MiB block a payload file is read in, which
// then grows twice (documents/ndjson-payload.ts). It was 17 MiB, past a bound on the payloads
// whose documents were kept parsed, which the batch no longer has (its tests took 54 s, now 14).
describe.each([
  ['a small payload', 0],
  ['a large payload', 3 * 1024 * 1024],
])('applyDocumentBatch with %s', { timeout: 60_000 }, (_size, pad) => {
  const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: from + i }));

  it('fails the addition with an invalid document late in it and applies none of its documents', () => {
    const failing = add([...ids(100, 25_000), { id: 'bad id' }], 'replace', null, pad);
    const outcome = applyDocumentBatch(env, [add([{ id: 1 }]), failing, add([{ id: 2 }])], null, never);
    expect(outcome.results).toEqual([{ count: 1 }, expect.objectContaining({ error: expect.objectContaining({ code: 'invalid_document_id' }) }), { count: 1 }]);
    expect(store().get('100')).toBeUndefined();
    expect(store().count()).toBe(2);
  });

  it('fails each addition refused, wherever its bad document is, and applies the rest as if they were absent', () => {
    const outcome = applyDocumentBatch(
      env,
      [add([{ id: 1 }], 'replace', null, pad), add([...ids(100, 21_000), { id: 'bad id' }], 'replace', null, pad), add([{ id: 2 }]), add([{ id: 3 }, { nope: 1 }]), add([{ id: 100, late: true }])],
      null,
      never,
    );
    expect(outcome.results).toEqual([
      { count: 1 },
      expect.objectContaining({ error: expect.objectContaining({ code: 'invalid_document_id' }) }),
      { count: 1 },
      expect.objectContaining({ error: expect.objectContaining({ code: 'missing_document_id' }) }),
      { count: 1 },
    ]);
    expect(store().count()).toBe(3);
    expect(store().get('100')).toEqual({ id: 100, late: true });
    expect(store().get('3')).toBeUndefined();
  });

  it('settles no primary key with a failing addition: a later one infers its own', () => {
    const outcome = applyDocumentBatch(env, [add([{ uid: 1 }, { uid: 'bad id' }], 'replace', null, pad), add([{ sku_id: 'a' }], 'replace', null, pad)], null, never);
    expect(outcome.results[0]).toMatchObject({ error: { code: 'invalid_document_id' } });
    expect(outcome.results[1]).toEqual({ count: 1 });
    expect(outcome.primaryKey).toBe('sku_id');
    expect(store().get('a')).toEqual({ sku_id: 'a' });
  });

  it('applies exactly the valid operations of a batch mixing a failing addition, a deletion by filter and valid additions', () => {
    const outcome = applyDocumentBatch(
      env,
      [
        add([{ id: 1, genre: 'a' }, { id: 2, genre: 'b' }], 'replace', null, pad),
        add([{ id: 4, genre: 'b' }, { id: 5, genre: 'a' }, { id: 'bad id' }], 'replace', null, pad),
        { op: 'deleteByFilter', filter: 'genre = a', indexUid: 'index' },
        add([{ id: 3, genre: 'a' }, { id: 2, year: 2 }], 'update', null, pad),
      ],
      null,
      never,
    );
    expect(outcome.results).toEqual([
      { count: 2 },
      expect.objectContaining({ error: expect.objectContaining({ code: 'invalid_document_id' }) }),
      { count: 1 },
      { count: 2 },
    ]);
    expect(outcome.primaryKey).toBe('id');
    expect(store().count()).toBe(2);
    expect(store().get('2')).toEqual({ id: 2, genre: 'b', year: 2 });
    expect(store().get('3')).toEqual({ id: 3, genre: 'a' });
  });

  it('parses each document once, its primary key inferred from the first', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      applyDocumentBatch(env, [add(ids(1, 3).map((doc) => ({ ...doc, tag: 'counted' })), 'replace', null, pad)], null, never);
      expect(parse.mock.calls.filter(([text]) => typeof text === 'string' && text.includes('counted'))).toHaveLength(3);
    } finally {
      parse.mockRestore();
    }
    expect(store().count()).toBe(3);
  });
});
