// The vector store on a real index environment, driven as the index writer drives it (document
// batches and settings writes): searches and their scores, incremental deletes, filtered searches
// returning `limit` hits, quantization, persistence across reopening, the missing-vectors error,
// embedder removal writing vectors back, and generated embeddings re-made only for changed texts,
// each run stored as the embedder hands it over.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../../src/errors/api-error.js';
import { fromSorted, fromUnsorted } from '../../../../src/engine/docset.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import { readSettings, writeSettings } from '../../../../src/engine/index-settings.js';
import { applyDocumentBatch, type DocumentOp } from '../../../../src/engine/indexer/document-batch.js';
import { applyIndexWrite } from '../../../../src/engine/indexer/commit.js';
import { useDocumentEmbedder } from '../../../../src/engine/vectors/embed-hook.js';
import { documentEmbeddings, embedderDimensions, embeddingCounts, searchVectors } from '../../../../src/engine/vectors/index.js';
import { defaultSettings, type EmbedderSettings } from '../../../../src/types/settings.js';
import { clusteredVectors } from './clustered.js';

let dir: string;
let envs: IndexEnvs;
let env: IndexEnv;
let files = 0;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-vectors-'));
  envs = new IndexEnvs(dir);
  env = envs.get('index');
});
afterEach(async () => {
  useDocumentEmbedder(null);
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

function add(docs: object[], method: 'replace' | 'update' = 'replace'): DocumentOp {
  const file = path.join(dir, `update-${files++}.ndjson`);
  writeFileSync(file, docs.map((doc) => JSON.stringify(doc)).join('\n'));
  return { op: 'add', source: { file }, method, primaryKey: 'id', skipMissing: false };
}

const never = () => {};

function setEmbedders(embedders: Record<string, EmbedderSettings>, extra: object = {}): void {
  applyIndexWrite(env, { kind: 'settings', settings: { ...readSettings(env), ...extra, embedders }, clear: false, rebuild: [] });
}

/** Applies `ops`; answers the first failure's error. */
function batch(...ops: DocumentOp[]): { code: string; message: string } | null {
  try {
    const outcome = applyDocumentBatch(env, ops, 'id', never);
    const failed = outcome.results.find((r) => 'error' in r);
    return failed !== undefined && 'error' in failed ? failed.error : null;
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, message: err.message };
    throw err;
  }
}

const settings = () => readSettings(env);
const docid = (id: string) => new DocumentStore(env).docidOf(id)!;
const manual = { manual: { source: 'userProvided', dimensions: 2 } };

describe('vector store', () => {
  it('answers the nearest documents with Meilisearch scores, and their embeddings', () => {
    setEmbedders(manual);
    expect(batch(add([{ id: 'a', _vectors: { manual: [2, 3] } }, { id: 'b', _vectors: { manual: [[-1, 0], [1, 0.9]] } }, { id: 'c', _vectors: { manual: null } }]))).toBeNull();
    const hits = searchVectors(env, settings(), 'manual', Float32Array.of(1, 1), 10, null);
    expect(hits.map((hit) => hit.docid)).toEqual([docid('b'), docid('a')]);
    // query [1, 1] against [2, 3]: (1 + cos) / 2 in f32 (vectors.md §8.1)
    expect(hits[1]!.score).toBe(Math.fround(0.990290343761444));
    expect(documentEmbeddings(env, settings(), 'manual', docid('a'))).toEqual({ embeddings: [Float32Array.of(2, 3)], regenerate: false });
    expect(documentEmbeddings(env, settings(), 'manual', docid('c'))).toEqual({ embeddings: [], regenerate: false });
    expect(embedderDimensions(env, settings(), 'manual')).toBe(2);
    expect(embeddingCounts(env)).toEqual({ numberOfEmbeddings: 3, numberOfEmbeddedDocuments: 2 });
    expect(new DocumentStore(env).get('a')).toEqual({ id: 'a' });
  });

  it('counts a document embedded by several embedders once', () => {
    setEmbedders({ ...manual, other: { source: 'userProvided', dimensions: 1 } });
    batch(add([{ id: 'a', _vectors: { manual: [1, 0], other: [1] } }, { id: 'b', _vectors: { manual: null, other: [[1], [2]] } }]));
    expect(embeddingCounts(env)).toEqual({ numberOfEmbeddings: 4, numberOfEmbeddedDocuments: 2 });
  });

  it('applies the distribution shift to scores', () => {
    setEmbedders({ manual: { ...manual.manual, distribution: { mean: 0.7, sigma: 0.3 } } });
    batch(add([{ id: 'a', _vectors: { manual: [2, 3] } }]));
    expect(searchVectors(env, settings(), 'manual', Float32Array.of(1, 1), 1, null)[0]!.score).toBeCloseTo((0.4 / 0.3) * 0.990290343761444 + 0.5 - (0.4 * 0.7) / 0.3, 6);
  });

  it('keeps vectors on updates without `_vectors`, replaces them when sent, and forgets deleted documents', () => {
    setEmbedders(manual);
    batch(add([{ id: 'a', title: 'x', _vectors: { manual: [1, 0] } }, { id: 'b', _vectors: { manual: [0, 1] } }]));
    batch(add([{ id: 'a', title: 'y' }], 'update'), add([{ id: 'b', _vectors: { manual: { regenerate: false } } }]));
    expect(documentEmbeddings(env, settings(), 'manual', docid('a'))!.embeddings).toEqual([Float32Array.of(1, 0)]);
    expect(documentEmbeddings(env, settings(), 'manual', docid('b'))!.embeddings).toEqual([Float32Array.of(0, 1)]);
    batch(add([{ id: 'a', _vectors: { manual: [0.5, 0.5] } }]), { op: 'delete', ids: ['b'] });
    expect(searchVectors(env, settings(), 'manual', Float32Array.of(0, 1), 10, null).map((hit) => hit.docid)).toEqual([docid('a')]);
    expect(embeddingCounts(env)).toEqual({ numberOfEmbeddings: 1, numberOfEmbeddedDocuments: 1 });
  });

  it('keeps what an earlier task of the batch sent for a document that a later one sends again without vectors', () => {
    setEmbedders(manual);
    expect(batch(add([{ id: 'a', _vectors: { manual: [1, 0] } }]), add([{ id: 'a', title: 'x' }], 'update'), add([{ id: 'a', title: 'y' }]))).toBeNull();
    expect(new DocumentStore(env).get('a')).toEqual({ id: 'a', title: 'y' });
    expect(documentEmbeddings(env, settings(), 'manual', docid('a'))!.embeddings).toEqual([Float32Array.of(1, 0)]);
  });

  it('fails the batch for documents without vectors for a userProvided embedder, naming the first and hinting typos', () => {
    setEmbedders(manual);
    expect(batch(add([{ id: 40 }, { id: 41 }, { id: 42 }]))).toEqual({
      code: 'vector_embedding_error',
      message:
        'While embedding documents for embedder `manual`: no vectors provided for document `40` and at least 2 other document(s)\n- Note: `manual` has `source: userProvided`, so documents must provide embeddings as an array in `_vectors.manual`.\n- Hint: opt-out for a document with `_vectors.manual: null`',
    });
    expect(batch(add([{ id: 42, _vector: { manaul: [0, 0] } }]))?.message).toMatch(/no vectors provided for document `42`\n.*\n- Hint: try replacing `_vector` by `_vectors` in 1 document\(s\)\.$/);
    expect(batch(add([{ id: 42, _vectors: { manaul: [0, 0] } }]))?.message).toMatch(/- Hint: try replacing `_vectors\.manaul` by `_vectors\.manual` in 1 document\(s\)\.$/);
    expect(new DocumentStore(env).count()).toBe(0);
  });

  it('drops every vector when the index is cleared, and deletes by a `_vectors` filter', () => {
    setEmbedders(manual);
    batch(add([{ id: 'a', _vectors: { manual: [1, 0] } }, { id: 'b', _vectors: { manual: null } }, { id: 'c', _vectors: { manual: [0, 1] } }]));
    expect(batch({ op: 'deleteByFilter', filter: '_vectors.manual.userProvided EXISTS AND NOT _vectors.manual EXISTS', indexUid: 'index' })).toBeNull();
    expect(new DocumentStore(env).get('b')).toBeUndefined();
    batch({ op: 'clear' });
    expect(embeddingCounts(env)).toEqual({ numberOfEmbeddings: 0, numberOfEmbeddedDocuments: 0 });
    expect(searchVectors(env, settings(), 'manual', Float32Array.of(1, 0), 10, null)).toEqual([]);
    batch(add([{ id: 'd', _vectors: { manual: [1, 1] } }]));
    expect(searchVectors(env, settings(), 'manual', Float32Array.of(1, 0), 10, null).map((hit) => hit.docid)).toEqual([docid('d')]);
  });

  it('refuses a vector whose dimensions differ from the stored ones', () => {
    setEmbedders({ manual: { source: 'userProvided' } });
    batch(add([{ id: 'a', _vectors: { manual: [1, 2, 3] } }]));
    expect(batch(add([{ id: 'b', _vectors: { manual: [1, 2] } }]))).toEqual({
      code: 'invalid_vector_dimensions',
      message: 'Invalid vector dimensions in document with id `b` in `._vectors.manual`.\n  - note: embedding #0 has dimensions 2\n  - note: embedder `manual` requires 3',
    });
  });

  it('patches a loaded graph with the journal of later writes instead of reloading it', () => {
    setEmbedders({ manual: { source: 'userProvided', dimensions: 16 } });
    const vectors = clusteredVectors(400, 16, 8);
    batch(add(vectors.slice(0, 300).map((v, i) => ({ id: i, _vectors: { manual: Array.from(v) } }))));
    searchVectors(env, settings(), 'manual', vectors[0]!, 10, null);
    const loads = vi.spyOn(env.vectorItems, 'getRange');
    batch(add(vectors.slice(300).map((v, i) => ({ id: 300 + i, _vectors: { manual: Array.from(v) } }))), { op: 'delete', ids: ['0', '1', '2'] });
    batch(add([{ id: 350, _vectors: { manual: Array.from(vectors[0]!) } }]));
    const hits = searchVectors(env, settings(), 'manual', vectors[0]!, 10, null);
    expect(searchVectors(env, settings(), 'manual', vectors[399]!, 1, null)[0]!.docid).toBe(docid('399'));
    expect(loads).not.toHaveBeenCalled();
    loads.mockRestore();
    // the vector of deleted document 0 now belongs to document 350 alone
    expect(hits[0]).toMatchObject({ docid: docid('350'), distance: 0 });
    expect(hits.some((hit) => hit.docid === 0 && new DocumentStore(env).get('0') === undefined)).toBe(false);
  });

  it('keeps its data across reopening the environment', async () => {
    setEmbedders({ manual: { source: 'userProvided', dimensions: 16 } });
    const vectors = clusteredVectors(300, 16, 3);
    batch(add(vectors.map((v, i) => ({ id: i, _vectors: { manual: Array.from(v) } }))));
    const query = clusteredVectors(1, 16, 4)[0]!;
    const before = searchVectors(env, settings(), 'manual', query, 10, null);
    await envs.closeAll();
    envs = new IndexEnvs(dir);
    env = envs.get('index');
    expect(searchVectors(env, settings(), 'manual', query, 10, null)).toEqual(before);
  });

  it('returns `limit` filtered hits from the graph when many candidates match, and the exact ones when few do', { timeout: 60_000 }, () => {
    setEmbedders({ manual: { source: 'userProvided', dimensions: 8 } });
    const vectors = clusteredVectors(12_000, 8, 5);
    batch(add(vectors.map((v, i) => ({ id: i, _vectors: { manual: Array.from(v) } }))));
    const query = clusteredVectors(1, 8, 6)[0]!;
    const even = fromSorted(Array.from({ length: 6000 }, (_, i) => docid(String(2 * i))));
    const hits = searchVectors(env, settings(), 'manual', query, 20, even);
    expect(hits).toHaveLength(20);
    for (const hit of hits) expect(even.includes(hit.docid)).toBe(true);
    const few = fromSorted([docid('1'), docid('3'), docid('5')]);
    expect(searchVectors(env, settings(), 'manual', query, 20, few).map((hit) => hit.docid).sort()).toEqual([...few].sort());
  });

  it('scans a small store exactly, the filter checked on the nearest vectors', () => {
    setEmbedders({ manual: { source: 'userProvided', dimensions: 4 } });
    const vectors = clusteredVectors(3000, 4, 9);
    batch(add(vectors.map((v, i) => ({ id: i, _vectors: { manual: [Array.from(v), Array.from(v).map((x) => -x)] } }))));
    // more candidates than EXACT_CANDIDATES, fewer vectors than EXACT_BELOW
    const kept = fromUnsorted(Array.from({ length: 3000 }, (_, i) => i).filter((i) => i % 6 !== 0).map((i) => docid(String(i))));
    expect(kept.length).toBe(2500);
    const hits = searchVectors(env, settings(), 'manual', vectors[7]!, 25, kept);
    expect(hits).toHaveLength(25);
    expect(hits[0]).toMatchObject({ docid: docid('7'), distance: 0 });
    expect(new Set(hits.map((hit) => hit.docid)).size).toBe(25);
    for (const hit of hits) expect(kept.includes(hit.docid)).toBe(true);
    expect(searchVectors(env, settings(), 'manual', vectors[6]!, 5, kept).map((hit) => hit.docid)).not.toContain(docid('6'));
  });

  it('quantizes stored vectors when binaryQuantized is turned on', () => {
    setEmbedders({ manual: { source: 'userProvided', dimensions: 3 } });
    batch(add([{ id: 'a', _vectors: { manual: [0.5, -0.2, 0] } }, { id: 'b', _vectors: { manual: [-1, 1, 1] } }]));
    setEmbedders({ manual: { source: 'userProvided', dimensions: 3, binaryQuantized: true } });
    expect(documentEmbeddings(env, settings(), 'manual', docid('a'))!.embeddings).toEqual([Float32Array.of(1, 0, 0)]);
    const [nearest] = searchVectors(env, settings(), 'manual', Float32Array.of(1, -1, -1), 1, null);
    expect(nearest!.docid).toBe(docid('a'));
    batch(add([{ id: 'c', _vectors: { manual: [0.1, 0.1, 0.1] } }]));
    expect(documentEmbeddings(env, settings(), 'manual', docid('c'))!.embeddings).toEqual([Float32Array.of(1, 1, 1)]);
  });

  it('writes user-provided vectors back into the documents when the embedder is removed, and takes them again when re-added', () => {
    setEmbedders(manual);
    batch(add([{ id: 'a', _vectors: { manual: [0.1, 0.2] } }, { id: 'b', _vectors: { manual: { embeddings: [1, 1], regenerate: true } } }]));
    setEmbedders({});
    expect(new DocumentStore(env).get('a')).toEqual({ id: 'a', _vectors: { manual: { regenerate: false, embeddings: [[Math.fround(0.1), Math.fround(0.2)]] } } });
    expect(new DocumentStore(env).get('b')).toEqual({ id: 'b' });
    expect(embeddingCounts(env)).toEqual({ numberOfEmbeddings: 0, numberOfEmbeddedDocuments: 0 });
    expect(() => setEmbedders(manual)).toThrow(/no vectors provided for document `b`/);
    batch({ op: 'delete', ids: ['b'] });
    setEmbedders(manual);
    expect(new DocumentStore(env).get('a')).toEqual({ id: 'a' });
    expect(documentEmbeddings(env, settings(), 'manual', docid('a'))).toEqual({ embeddings: [Float32Array.of(0.1, 0.2)], regenerate: false });
  });

  it('embeds generated vectors from the rendered template, again only for documents whose text changed', () => {
    const calls: string[][] = [];
    useDocumentEmbedder((_name, _embedder, texts, take) => {
      calls.push(texts.map(String));
      take(0, texts.map((text) => Float32Array.of(String(text).length, 1)));
    });
    const rest = { source: 'rest', url: 'http://127.0.0.1:1/embed', request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' }, documentTemplate: 'title: {{ doc.title }}' };
    env.root.transactionSync(() => writeSettings(env, { ...defaultSettings(), embedders: { rest } }));
    batch(add([{ id: 'a', title: 'one' }, { id: 'b', title: 'three' }, { id: 'c', title: 'mine', _vectors: { rest: [9, 9] } }]));
    expect(calls).toEqual([['title: one', 'title: three']]);
    batch(add([{ id: 'a', title: 'one' }, { id: 'b', title: 'four' }], 'update'));
    expect(calls[1]).toEqual(['title: four']);
    expect(documentEmbeddings(env, settings(), 'rest', docid('b'))).toEqual({ embeddings: [Float32Array.of(11, 1)], regenerate: true });
    expect(documentEmbeddings(env, settings(), 'rest', docid('c'))).toEqual({ embeddings: [Float32Array.of(9, 9)], regenerate: false });
    setEmbedders({ rest: { ...rest, documentTemplate: 'T {{ doc.title }}' } });
    expect(calls[2]).toEqual(['T one', 'T four']);
  });

  it('stores each run of generated vectors as the embedder hands it over, before the next run is answered', () => {
    // the embedder hands one vector a run; before each run, how many documents' vectors are stored
    const storedBefore: number[] = [];
    const stored = () => Array.from(env.vectorDocs.getKeys()).length;
    useDocumentEmbedder((_name, _embedder, texts, take) => {
      texts.forEach((text, i) => {
        storedBefore.push(stored());
        take(i, [Float32Array.of(JSON.stringify(text).length, i + 1)]);
      });
    });
    const ids = ['a', 'b', 'c'];
    const rest = { source: 'rest', url: 'http://127.0.0.1:1/embed', request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' }, documentTemplate: '{{ doc.title }}' };
    env.root.transactionSync(() => writeSettings(env, { ...defaultSettings(), embedders: { rest } }));
    batch(add(ids.map((id) => ({ id, title: `title ${id}` }))));
    expect(storedBefore).toEqual([0, 1, 2]);
    expect(documentEmbeddings(env, settings(), 'rest', docid('c'))).toEqual({ embeddings: [Float32Array.of(9, 3)], regenerate: true });
    // and a fragment embedder's, which a settings write adds (its documents embedded as it reconciles the store)
    storedBefore.length = 0;
    const { documentTemplate: _, ...withoutTemplate } = rest;
    setEmbedders({ fragments: { ...withoutTemplate, request: { input: '{{fragment}}' }, indexingFragments: { title: { value: 'new {{ doc.title }}' } } } });
    const before = storedBefore[0]!;
    expect(storedBefore).toEqual([before, before + 1, before + 2]);
    expect(documentEmbeddings(env, settings(), 'fragments', docid('c'))).toEqual({ embeddings: [Float32Array.of(13, 3)], regenerate: true });
  });
});
