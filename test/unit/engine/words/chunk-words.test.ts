// A document batch's words extracted chunk by chunk by extraction workers: a batch that adopts
// them leaves exactly the word index (and facets) that extracting everything in the write leaves,
// whatever the chunks, threads, field order, updates and failed payloads; chunks whose words never
// come only mean local extraction; workers only get the documents the batch stores.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decode } from '../../../../src/engine/docset.js';
import type { JsonObject } from '../../../../src/engine/document-id.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { readFacetFields } from '../../../../src/engine/facets/store.js';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import { writeSettings } from '../../../../src/engine/index-settings.js';
import { applyDocumentBatch, type DocumentOp } from '../../../../src/engine/indexer/document-batch.js';
import { ChunkWords, ChunkWordsExtractor, type ChunkExtractor } from '../../../../src/engine/words/chunk-words.js';
import type { ShippedWords } from '../../../../src/engine/words/shipped-words.js';
import { defaultSettings, type IndexSettings } from '../../../../src/types/settings.js';
import { mulberry32 } from '../../../helpers/random.js';
import { wordIndexSnapshot } from '../search/harness.js';

let dir: string;
let envs: IndexEnvs;
let files = 0;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-chunk-words-'));
  envs = new IndexEnvs(dir);
});
afterEach(async () => {
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

function add(lines: string[], method: 'replace' | 'update' = 'replace'): DocumentOp {
  const file = path.join(dir, `update-${files++}.ndjson`);
  writeFileSync(file, lines.join('\n'));
  return { op: 'add', source: { file }, method, primaryKey: 'id', skipMissing: false };
}

/** Chunks cut small, so that batches of a few thousand documents make many. */
const CHUNK_BYTES = 64 << 10;

/** What `threads` extraction workers do, done in this thread as chunks are posted; `lost` chunks never come. */
class InThread implements ChunkExtractor {
  private workers: ChunkWordsExtractor[] = [];
  private readonly words = new Map<number, ShippedWords | null>();
  /** documents posted, in every chunk */
  posted = 0;

  constructor(
    private readonly threads = 1,
    private readonly lost: (seq: number) => boolean = () => false,
  ) {}

  start(settings: IndexSettings, fields: readonly string[]): void {
    this.workers = Array.from({ length: this.threads }, () => new ChunkWordsExtractor(settings, fields));
  }

  post(seq: number, bytes: Uint8Array): void {
    const words = this.workers[seq % this.threads]!.extract(bytes);
    this.posted += words.docStarts.length - 1;
    this.words.set(seq, this.lost(seq) ? null : words);
  }

  take(seq: number): ShippedWords | null {
    const words = this.words.get(seq) ?? null;
    this.words.delete(seq);
    return words;
  }

  drop(seq: number): void {
    for (const key of this.words.keys()) if (key < seq) this.words.delete(key);
  }
}

/** The facet index as plain data: field ids, and every key (latin1) with its documents. */
function facetSnapshot(env: IndexEnv) {
  return {
    fields: readFacetFields(env),
    keys: Object.fromEntries([...env.facetDocids.getRange()].map(({ key, value }) => [key.toString('latin1'), Array.from(decode(value))])),
  };
}

/** Applies `batches` (each a list of ops, built fresh per run) to a new index; answers its snapshot and how many documents were adopted. */
function run(name: string, settings: Partial<IndexSettings>, batches: (() => DocumentOp[])[], extractor?: () => ChunkExtractor) {
  const env: IndexEnv = envs.get(name);
  env.root.transactionSync(() => writeSettings(env, { ...defaultSettings(), ...settings }));
  // documents whose words were taken, and how often words were asked for: a write chunk of new
  // documents adopts whole words (adopted-chunk.ts) asking once per document, and when it cannot,
  // asks again per document
  const adopted = new Set<object>();
  let takes = 0;
  for (const batch of batches) {
    const ops = batch();
    let chunks: ChunkWords | undefined;
    if (extractor !== undefined) {
      chunks = new ChunkWords(extractor(), CHUNK_BYTES);
      const take = chunks.take.bind(chunks);
      chunks.take = (doc) => {
        const shipped = take(doc);
        takes++;
        if (shipped !== undefined) adopted.add(doc);
        return shipped;
      };
    }
    applyDocumentBatch(env, ops, new DocumentStore(env).count() === 0 ? null : 'id', () => {}, undefined, chunks);
  }
  return { snapshot: { words: wordIndexSnapshot(env), facets: facetSnapshot(env) }, adopted: adopted.size, takes };
}

const WORDS = ['dragon', 'fire', 'Ünïcode', '東京タワー', 'night', 'river', 'stone', 'the', 'a', 'C#', 'naïve', 'quick', 'brown', 'fox', '42'];

function randomDocs(seed: number, count: number, from = 0): object[] {
  const random = mulberry32(seed);
  const text = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(random() < 0.2 ? ', ' : ' ');
  return Array.from({ length: count }, (_, i) => {
    const doc: Record<string, unknown> = { id: from + i };
    // shapes vary, so fields first appear in different orders and documents get reordered
    if (random() < 0.7) doc.title = text(1 + Math.floor(random() * 4));
    if (random() < 0.5) doc.tags = [text(1), text(2)];
    if (random() < 0.3) doc[`extra${Math.floor(random() * 3)}`] = { inner: text(3), n: Math.floor(random() * 100) };
    if (random() < 0.8) doc.body = text(Math.floor(random() * 30));
    return random() < 0.5 ? Object.fromEntries(Object.entries(doc).reverse()) : doc;
  });
}

const lines = (docs: object[]) => docs.map((doc) => JSON.stringify(doc));

describe('documents extracted in chunks', { timeout: 60_000 }, () => {
  it.each([1, 3])('leave the indexes extracting in the write leaves, updates, replacements and edits included, with %i extraction threads', (threads) => {
    const first = randomDocs(1, 4_123); // ids 0–4122
    const batches = [
      () => [add(lines(first))],
      () => [
        // ids 3800–4799: updates of stored documents up to 4122, new ones after
        add(lines(randomDocs(2, 1_000, 3_800)), 'update'),
        { op: 'delete', ids: ['7', '8'] } as DocumentOp,
        // ids 4500–5499, replacing what the update just sent from 4500 on
        add(lines(randomDocs(3, 1_000, 4_500))),
        // edited documents (an edition's write): ids 100–199 changed, 200 deleted
        { op: 'put', changes: new Map<string, JsonObject | null>([...randomDocs(18, 100, 100).map((doc): [string, JsonObject] => [String((doc as { id: number }).id), doc as JsonObject]), ['200', null]]) } as DocumentOp,
      ],
    ];
    const settings = { stopWords: ['the', 'a'], separatorTokens: [', '], filterableAttributes: ['tags', 'title', 'extra1', 'extra2.n', 'body'] };
    const local = run('local', settings, batches);
    const chunked = run('chunked', settings, batches, () => new InThread(threads));
    expect(chunked.snapshot).toEqual(local.snapshot);
    expect(Object.keys(chunked.snapshot.facets.keys).length).toBeGreaterThan(50);
    // every document stored adopts its words, merged updates and edits too: ids 3800–5499 and 100–199 in the second batch
    expect(chunked.adopted).toBe(first.length + 1_700 + 100);
  });

  it('renumber fields the write meets in another order than a worker did', () => {
    const docs = randomDocs(4, 6_000);
    // the write already knows `body` and `tags` (in that order) when the workers start
    const batches = [() => [add(lines([{ id: 'seed', body: 'river', tags: ['x'] }]))], () => [add(lines(docs))]];
    const settings = { filterableAttributes: ['extra0', 'tags', 'title'] };
    const local = run('local', settings, batches);
    const chunked = run('chunked', settings, batches, () => new InThread());
    expect(chunked.snapshot).toEqual(local.snapshot);
    expect(chunked.snapshot.facets.fields.length).toBeGreaterThan(2);
    expect(chunked.adopted).toBe(1 + docs.length);
  });

  it('fall back to extracting in the write the chunks whose words never come, and post no document of a failed payload', () => {
    const docs = randomDocs(5, 8_000);
    const batches = [() => [add(lines(docs)), add(['{"title": "no id"}', '{"id": 2}']), add(lines(randomDocs(6, 500, 10_000)))]];
    const settings = { filterableAttributes: ['title', 'tags'] };
    const local = run('local', settings, batches);
    // the second chunk is lost, as if its worker had died
    let extractor: InThread | undefined;
    const chunked = run('chunked', settings, batches, () => (extractor = new InThread(2, (seq) => seq === 1)));
    expect(chunked.snapshot).toEqual(local.snapshot);
    expect(extractor!.posted).toBe(docs.length + 500);
    expect(chunked.adopted).toBeGreaterThan(0);
    expect(chunked.adopted).toBeLessThan(docs.length + 500);
  });

  it.each(['indexingTime', 'disabled'] as const)('adopt whole words of new documents across write chunks and extraction chunks (prefixSearch %s)', (prefixSearch) => {
    // id 500 comes twice in a row: the second line is the document, the first is left out
    const small = randomDocs(12, 1_000);
    const first = [...small.slice(0, 501), { ...(small[500] as object), body: 'night dragon' }, ...small.slice(501)];
    // the write's chunks end after 20,000 documents, inside the second addition
    const batches = [() => [add(lines(first)), add(lines(randomDocs(13, 20_000, 50_000)))], () => [add(lines(randomDocs(14, 2_000, 80_000)))]];
    const settings = { prefixSearch, stopWords: ['the'], filterableAttributes: ['title'] };
    const local = run('local', settings, batches);
    const chunked = run('chunked', settings, batches, () => new InThread());
    expect(chunked.snapshot).toEqual(local.snapshot);
    expect(Object.keys(chunked.snapshot.words.prefixes).length > 0).toBe(prefixSearch === 'indexingTime');
    expect(chunked.adopted).toBe(1_000 + 20_000 + 2_000);
    // one ask per document: every write chunk adopted whole words
    expect(chunked.takes).toBe(chunked.adopted);
  });

  it('adopt document by document a write chunk where a later line replaced a document out of order', () => {
    const docs = randomDocs(15, 2_500);
    const batches = [() => [add(lines([...docs, { id: 3, body: 'stone' }]))]];
    const local = run('local', {}, batches);
    const chunked = run('chunked', {}, batches, () => new InThread());
    expect(chunked.snapshot).toEqual(local.snapshot);
    expect(chunked.adopted).toBe(docs.length);
    expect(chunked.takes).toBeGreaterThan(chunked.adopted);
  });

  it('adopt document by document a write chunk whose extraction chunks numbered a field otherwise', () => {
    // two workers: the second meets `late` without knowing `early`, which the write met first
    const early = randomDocs(16, 2_000).map((doc) => ({ ...doc, early: 'stone river' }));
    const late = randomDocs(17, 2_000, 2_000).map((doc) => ({ ...doc, late: 'quick fox' }));
    const batches = [() => [add(lines([...early, ...late]))]];
    const local = run('local', {}, batches);
    const chunked = run('chunked', {}, batches, () => new InThread(2));
    expect(chunked.snapshot).toEqual(local.snapshot);
    expect(chunked.adopted).toBe(4_000);
    expect(chunked.takes).toBeGreaterThan(chunked.adopted);
  });
});
