// Words and facet entries extracted ahead of a document batch: a batch that takes them leaves
// exactly the word index and facets (geo points too) that extracting everything in the write
// leaves, whatever the parts, threads, field order, updates and failed payloads; parts that never
// come only mean local extraction. So does a settings write's rebuild of the word index that
// takes the words extracted from the stored documents.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decode } from '../../../../src/engine/docset.js';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { readFacetFields } from '../../../../src/engine/facets/store.js';
import { IndexEnvs, type IndexEnv } from '../../../../src/engine/index-env.js';
import { writeSettings } from '../../../../src/engine/index-settings.js';
import { applyDocumentBatch, isPayloadRefused, type DocumentOp } from '../../../../src/engine/indexer/document-batch.js';
import { extractAheadParts, extractStoredParts } from '../../../../src/engine/words/extract-ahead.js';
import { applyIndexWrite } from '../../../../src/engine/indexer/commit.js';
import { AHEAD_PART_DOCS, AheadParts, type AheadPart, type AheadPartSource } from '../../../../src/engine/words/ahead-parts.js';
import { defaultSettings, type IndexSettings } from '../../../../src/types/settings.js';
import { mulberry32 } from '../../../helpers/random.js';
import { wordIndexSnapshot } from '../search/harness.js';
import { expectSame } from '../../../helpers/same.js';
import { extractorFor, SearchFieldIds } from '../../../../src/engine/words/extract.js';
import { WorkerLexicon } from '../../../../src/engine/words/lexicon.js';
import type { JsonObject } from '../../../../src/engine/document-id.js';

let dir: string;
let envs: IndexEnvs;
let files = 0;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-ahead-'));
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

/**
 * The parts as `threads` extraction workers would post them, taken in this thread; the additions
 * `unextracted` names are left to the write, as small ones are.
 */
function inThread(ops: readonly DocumentOp[], threads: number, keep: (part: AheadPart) => boolean = () => true, unextracted: readonly number[] = [], partBytes?: number): AheadPartSource {
  const sources = ops.map((op, i) => (op.op === 'add' && !unextracted.includes(i) ? op.source : null));
  let workers: Generator<AheadPart>[] = [];
  let seq = 0;
  return {
    extracts: (op) => sources[op] !== null,
    // taken in this thread as asked for: nothing held back to release
    noted() {},
    start(settings, searchFields) {
      workers = Array.from({ length: threads }, (_, thread) => extractAheadParts({ sources, thread, threads, partBytes }, settings, searchFields));
    },
    next() {
      for (;;) {
        const got = workers[seq % threads]!.next();
        if (got.done === true) return null;
        seq++;
        if (keep(got.value)) return got.value;
      }
    },
  };
}

/** The facet index as plain data: field ids, every key (latin1) with its documents, and the geo points. */
function facetSnapshot(env: IndexEnv) {
  return {
    fields: readFacetFields(env),
    keys: Object.fromEntries([...env.facetDocids.getRange()].map(({ key, value }) => [key.toString('latin1'), Array.from(decode(value))])),
    points: [...env.geoPoints.getRange()].map(({ key, value }) => [key, Buffer.from(value as Uint8Array).toString('hex')]),
  };
}

/** Applies `batches` (each a list of ops, built fresh per run) to a new index; answers its snapshot and how many documents took words extracted ahead. */
function run(name: string, settings: Partial<IndexSettings>, batches: (() => DocumentOp[])[], source?: (ops: DocumentOp[]) => AheadPartSource, indexingMemory?: number) {
  const env: IndexEnv = envs.get(name);
  env.root.transactionSync(() => writeSettings(env, { ...defaultSettings(), ...settings }));
  // documents whose words were taken, and how often words were asked for: a chunk of new
  // documents takes whole words (ahead-chunk.ts) asking once per document, and when it cannot,
  // asks again per document
  const taken = new Set<object>();
  const facetsTaken = new Set<object>();
  const facetsUsed = new Set<object>();
  let takes = 0;
  // the errors of the additions refused, in order
  const refusals: string[] = [];
  for (const batch of batches) {
    let ops = batch();
    for (;;) {
      // what this run takes, counted once it commits
      const run = { taken: new Set<object>(), facetsTaken: new Set<object>(), facetsUsed: new Set<object>(), takes: 0 };
      let ahead: AheadParts | undefined;
      if (source !== undefined) {
        ahead = new AheadParts(source(ops));
        const take = ahead.take.bind(ahead);
        ahead.take = (doc) => {
          const words = take(doc);
          run.takes++;
          if (words !== undefined) run.taken.add(doc);
          return words;
        };
        const facetsOf = ahead.facetsOf.bind(ahead);
        ahead.facetsOf = (doc) => {
          const found = facetsOf(doc);
          if (found === undefined) return undefined;
          run.facetsTaken.add(doc);
          // the updater reads a document's entries through `docStarts` when it takes them
          const facets = new Proxy(found.facets, { get: (target, key) => (key === 'docStarts' && run.facetsUsed.add(doc), target[key as keyof typeof target]) });
          return { facets, index: found.index };
        };
      }
      try {
        const outcome = applyDocumentBatch(env, ops, new DocumentStore(env).count() === 0 ? null : 'id', () => {}, undefined, ahead, false, undefined, null, indexingMemory);
        for (const result of outcome.results) if ('error' in result) refusals.push(result.error.message);
      } catch (err) {
        // as the write's caller does (tasks/process/isolated-write.ts): again without the refused addition, with new parts
        if (!isPayloadRefused(err)) throw err;
        refusals.push(err.error.message);
        ops = ops.filter((_, i) => i !== err.additionRefused);
        continue;
      }
      for (const doc of run.taken) taken.add(doc);
      for (const doc of run.facetsTaken) facetsTaken.add(doc);
      for (const doc of run.facetsUsed) facetsUsed.add(doc);
      takes += run.takes;
      break;
    }
  }
  return { snapshot: { words: wordIndexSnapshot(env), facets: facetSnapshot(env) }, taken: taken.size, takes, facetsTaken: facetsTaken.size, facetsUsed: facetsUsed.size, refusals };
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

describe('documents extracted ahead', { timeout: 60_000 }, () => {
  it.each([1, 3])('leave the indexes extracting in the write leaves, with %i extraction threads', (threads) => {
    const first = randomDocs(1, 4_123); // ids 0–4122, several parts
    const batches = [
      () => [add(lines(first))],
      () => [
        // ids 3800–4799: updates of stored documents up to 4122, new ones after
        add(lines(randomDocs(2, 1_000, 3_800)), 'update'),
        { op: 'delete', ids: ['7', '8'] } as DocumentOp,
        // ids 4500–5499, replacing what the update just sent from 4500 on
        add(lines(randomDocs(3, 1_000, 4_500))),
      ],
    ];
    const settings = { stopWords: ['the', 'a'], separatorTokens: [', '], filterableAttributes: ['tags', 'title', 'extra1', 'extra2.n', 'body'] };
    const local = run('local', settings, batches);
    const ahead = run('ahead', settings, batches, (ops) => inThread(ops, threads));
    expectSame(ahead.snapshot, local.snapshot);
    expect(Object.keys(ahead.snapshot.facets.keys).length).toBeGreaterThan(50);
    // every document stored as sent takes its words: the first batch, the new documents of the
    // update (4123–4499) and the replacements; merged updates do not
    expect(ahead.taken).toBe(first.length + 377 + 1_000);
    // facet entries are asked for the new documents only (replacements diff against what they
    // replace), reordered ones included: the first batch and 4123–5499
    expect(ahead.facetsTaken).toBe(first.length + 377 + 1_000);
  });

  it('take the facet entries and geo points of new documents, and fail the addition of a refused `_geo` alone', () => {
    const random = mulberry32(21);
    const docs = Array.from({ length: 2 * AHEAD_PART_DOCS + 7 }, (_, id) => {
      const roll = random();
      const _geo = roll < 0.6 ? { lat: random() * 180 - 90, lng: String(random() * 360 - 180) } : roll < 0.7 ? null : undefined;
      // geo, tags and a nested value, in one field order for all: stored as sent
      return { id, ...(_geo === undefined ? {} : { _geo }), tags: [WORDS[id % WORDS.length], id % 3 === 0 ? null : 'x'], n: { v: id % 7, flag: id % 2 === 0 } };
    });
    const settings = { filterableAttributes: ['_geo', 'tags', 'n.v', 'n.flag'] };
    const local = run('local', settings, [() => [add(lines(docs))]]);
    const ahead = run('ahead', settings, [() => [add(lines(docs))]], (ops) => inThread(ops, 2));
    expectSame(ahead.snapshot, local.snapshot);
    expect(ahead.snapshot.facets.points.length).toBeGreaterThan(AHEAD_PART_DOCS);
    expect(ahead.facetsTaken).toBe(docs.length);

    // a latitude that is no number in the second part: its addition fails alone with Meilisearch's message either way
    const refused = docs.map((doc) => (doc.id === AHEAD_PART_DOCS + 3 ? { ...doc, _geo: { lat: 'north', lng: 0 } } : doc));
    const localRefused = run('local-refused', settings, [() => [add(lines(refused)), add(lines(docs.slice(0, 3)))]]);
    expect(localRefused.refusals).toEqual([expect.stringContaining('Could not parse latitude in the document with the id: `"503"`')]);
    const aheadRefused = run('ahead-refused', settings, [() => [add(lines(refused)), add(lines(docs.slice(0, 3)))]], (ops) => inThread(ops, 1));
    expect(aheadRefused.refusals).toEqual(localRefused.refusals);
    expectSame(aheadRefused.snapshot, localRefused.snapshot);
  });

  it('leave the same indexes for a bulk load in two batches whose words outgrow a posting block', () => {
    // new documents only: each chunk's words are taken whole from the parts (ahead-chunk.ts),
    // into new postings and appended to stored ones, several words' past 4,096 documents (blocks)
    const batches = [() => [add(lines(randomDocs(11, 6_000)))], () => [add(lines(randomDocs(12, 6_000, 6_000)))]];
    const settings = { filterableAttributes: ['tags'] };
    const local = run('local', settings, batches);
    const ahead = run('ahead', settings, batches, (ops) => inThread(ops, 2));
    expectSame(ahead.snapshot, local.snapshot);
    expect(ahead.taken).toBe(12_000);
  });

  it('cut parts at a byte bound (large documents) and leave the same indexes', () => {
    const docs = randomDocs(7, 3_000);
    const batches = [() => [add(lines(docs))]];
    const settings = { filterableAttributes: ['tags', 'title'] };
    const local = run('local', settings, batches);
    const counts: number[] = [];
    const ahead = run('ahead', settings, batches, (ops) => inThread(ops, 2, (part) => (counts.push(part.count), true), [], 10_000));
    expectSame(ahead.snapshot, local.snapshot);
    expect(ahead.taken).toBe(docs.length);
    // ~100-byte lines: parts of about 100 documents instead of AHEAD_PART_DOCS
    expect(counts.length).toBeGreaterThan(10);
    expect(Math.max(...counts)).toBeLessThan(AHEAD_PART_DOCS / 4);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(docs.length);
  });

  it('renumber fields the write meets in another order than the worker did', () => {
    const docs = randomDocs(4, 3 * AHEAD_PART_DOCS);
    // the write already knows `body` and `tags` (in that order) when the worker starts
    const batches = [() => [add(lines([{ id: 'seed', body: 'river', tags: ['x'] }]))], () => [add(lines(docs))]];
    const settings = { filterableAttributes: ['extra0', 'tags', 'title'] };
    const local = run('local', settings, batches);
    const ahead = run('ahead', settings, batches, (ops) => inThread(ops, 1));
    expectSame(ahead.snapshot, local.snapshot);
    expect(ahead.snapshot.facets.fields.length).toBeGreaterThan(2);
    expect(ahead.taken).toBe(1 + docs.length);
  });

  it('take the facet entries of reordered documents once their part\'s fields have ids, and number new ones in the stored order', () => {
    // `b` is known to the store before `b.n` is a facet field: the second document, reordered to
    // (id, b, a), meets `b.n` before `a` where its payload has `a` first
    const docs = [{ id: 0, b: { m: 1 } }, { id: 1, a: 'x', b: { n: 2 } }, ...Array.from({ length: 2 * AHEAD_PART_DOCS }, (_, i) => ({ a: `v${i % 7}`, b: { n: i % 5 }, id: i + 2 }))];
    const settings = { filterableAttributes: ['a', 'b.n'] };
    const local = run('local', settings, [() => [add(lines(docs))]]);
    const ahead = run('ahead', settings, [() => [add(lines(docs))]], (ops) => inThread(ops, 1));
    expectSame(ahead.snapshot, local.snapshot);
    expect(ahead.snapshot.facets.fields).toEqual(['b.n', 'a']);
    expect(ahead.facetsTaken).toBe(docs.length);
    // all but the second document: stored as sent (the first), or reordered with known fields
    expect(ahead.facetsUsed).toBe(docs.length - 1);
  });

  it('fall back to extracting in the write for parts that never come and payloads that fail', () => {
    const docs = randomDocs(5, 4 * AHEAD_PART_DOCS);
    const batches = [() => [add(lines(docs)), add(['{"title": "no id"}', '{"id": 2}']), add(lines(randomDocs(6, 500, 10_000)))]];
    const settings = { filterableAttributes: ['title', 'tags'] };
    const local = run('local', settings, batches);
    // the addition without ids fails the first run, and the write runs again without it, with
    // new parts; there the second part of the first addition is lost, as if its worker had died:
    // that worker's later part (the fourth) names words the lost one added to its lexicon, so only
    // the other worker's parts are taken (the first, the third, and the third addition's fifth)
    const ahead = run('ahead', settings, batches, (ops) => inThread(ops, 2, (part) => part.seq !== 1));
    expectSame(ahead.snapshot, local.snapshot);
    expect(ahead.taken).toBe(3 * AHEAD_PART_DOCS);
    // the last part of the run that commits lost instead (the third addition's): every other one is taken
    const lastLost = run('last-lost', settings, batches, (ops) => inThread(ops, 2, (part) => part.seq !== 4));
    expectSame(lastLost.snapshot, local.snapshot);
    expect(lastLost.taken).toBe(docs.length);
  });

  it('leave the additions the workers do not prepare to the write, which waits for no part of theirs', () => {
    const batches = [() => [add(lines(randomDocs(9, 300))), add(lines(randomDocs(10, AHEAD_PART_DOCS + 10, 300))), add(lines(randomDocs(11, 200, 5_000)))]];
    const local = run('local', {}, batches);
    const ahead = run('ahead', {}, batches, (ops) => inThread(ops, 1, () => true, [0, 2]));
    expectSame(ahead.snapshot, local.snapshot);
    expect(ahead.taken).toBe(AHEAD_PART_DOCS + 10);
  });

  it.each(['indexingTime', 'disabled'] as const)('take whole words of new documents in chunks and parts that do not line up (prefixSearch %s)', (prefixSearch) => {
    // id 500 comes twice in a row: the second line is the document, the first is left out
    const small = randomDocs(12, 1_000);
    const first = [...small.slice(0, 501), { ...(small[500] as object), body: 'night dragon' }, ...small.slice(501)];
    // the write's chunks end at its smallest byte bound (256 KiB, ~1,700 of these documents),
    // inside parts of the second addition
    const batches = [() => [add(lines(first)), add(lines(randomDocs(13, 4_000, 50_000)))], () => [add(lines(randomDocs(14, AHEAD_PART_DOCS, 80_000)))]];
    const settings = { prefixSearch, stopWords: ['the'], filterableAttributes: ['title'] };
    const local = run('local', settings, batches, undefined, 1);
    const ahead = run('ahead', settings, batches, (ops) => inThread(ops, 1), 1);
    expectSame(ahead.snapshot, local.snapshot);
    expect(Object.keys(ahead.snapshot.words.prefixes).length > 0).toBe(prefixSearch === 'indexingTime');
    expect(ahead.taken).toBe(1_000 + 4_000 + AHEAD_PART_DOCS);
    // one ask per document: every chunk took whole words
    expect(ahead.takes).toBe(ahead.taken);
  });

  it('take document by document a chunk where a later line replaced a document out of order', () => {
    const docs = randomDocs(15, AHEAD_PART_DOCS + 500);
    const batches = [() => [add(lines([...docs, { id: 3, body: 'stone' }]))]];
    const local = run('local', {}, batches);
    const ahead = run('ahead', {}, batches, (ops) => inThread(ops, 1));
    expectSame(ahead.snapshot, local.snapshot);
    expect(ahead.taken).toBe(docs.length);
    expect(ahead.takes).toBeGreaterThan(ahead.taken);
  });

  it('take document by document a chunk whose parts numbered a field otherwise', () => {
    // two workers: the second meets `late` without knowing the first's `early`
    const early = randomDocs(16, AHEAD_PART_DOCS).map((doc) => ({ ...doc, early: 'stone river' }));
    const late = randomDocs(17, AHEAD_PART_DOCS, AHEAD_PART_DOCS).map((doc) => ({ ...doc, late: 'quick fox' }));
    const batches = [() => [add(lines([...early, ...late]))]];
    const local = run('local', {}, batches);
    const ahead = run('ahead', {}, batches, (ops) => inThread(ops, 2));
    expectSame(ahead.snapshot, local.snapshot);
    expect(ahead.taken).toBe(2 * AHEAD_PART_DOCS);
    expect(ahead.takes).toBeGreaterThan(ahead.taken);
  });

  it('hand over no words for a part with a line that is not JSON, and number parts per addition', () => {
    const sources = [add(['{"id": 1, "title": "broken"', '{"id": 2}']), { op: 'clear' } as DocumentOp, add(lines(randomDocs(7, AHEAD_PART_DOCS + 1)))].map((op) =>
      op.op === 'add' ? op.source : null,
    );
    const parts = [...extractAheadParts({ sources, thread: 0, threads: 1 }, defaultSettings(), [])];
    expect(parts.map(({ seq, op, first, count, words }) => [seq, op, first, count, words === null])).toEqual([
      [0, 0, 0, 2, true],
      [1, 2, 0, AHEAD_PART_DOCS, false],
      [2, 2, AHEAD_PART_DOCS, 1, false],
    ]);
  });
});

/**
 * The stored documents' parts as `threads` extraction workers of a rebuild would post them (read
 * from `env` as the write sees it, all at the first part asked for), taken in this thread;
 * `alter` may change a part first, knowing them all.
 */
function storedInThread(
  env: IndexEnv,
  settings: IndexSettings,
  threads: number,
  alter: (part: AheadPart, all: readonly AheadPart[]) => AheadPart = (part) => part,
  documentOf = (docid: number) => env.documents.get(docid),
): AheadPartSource {
  let parts: AheadPart[] | null = null;
  let seq = 0;
  return {
    extracts: (op) => op === 0,
    noted() {},
    start() {
      throw new Error('a rebuild starts its workers itself');
    },
    next() {
      if (parts === null) {
        const workers = Array.from({ length: threads }, (_, thread) => [...extractStoredParts(env.documents.getKeys(), documentOf, { thread, threads, settings })]);
        parts = workers.flat().sort((a, b) => a.seq - b.seq);
      }
      const part = parts[seq++];
      return part === undefined ? null : alter(part, parts);
    },
  };
}

describe('parts of a worker whose lexicon starts over', () => {
  it('give every document the words extracting it in the write gives, the parts before and after each start-over alike', () => {
    // a lexicon of a few words: it starts over every few parts
    const lexicon = new WorkerLexicon(12);
    const settings = defaultSettings();
    const fields = new SearchFieldIds([]);
    const docs = randomDocs(21, 80) as JsonObject[];
    const parts: AheadPart[] = [];
    for (let first = 0; first < docs.length; first += 10) {
      const words = extractorFor(settings, fields, lexicon.nextPart()).extractAhead(docs.slice(first, first + 10), true, lexicon, 0);
      parts.push({ seq: parts.length, op: 0, first, count: 10, words, facets: null });
    }
    expect(parts.filter((part) => part.words!.added.firstWord === 0).length).toBeGreaterThan(2);
    const ahead = new AheadParts({ extracts: () => true, start() {}, noted() {}, next: () => parts.shift() ?? null });
    docs.forEach((doc, line) => ahead.note(doc, 0, line));
    const writer = extractorFor(settings, new SearchFieldIds([]));
    const local = extractorFor(settings, new SearchFieldIds([]));
    docs.forEach((doc, line) => {
      const taken = writer.takeAhead(line, ahead.take(doc)!);
      const [own] = local.extract([{ docid: line, doc }]);
      expect(taken.words.map((id) => writer.keys[id])).toEqual(own!.words.map((id) => local.keys[id]));
    });
  });
});

describe('stored documents extracted ahead of a rebuild', { timeout: 60_000 }, () => {
  const before = { stopWords: ['the'], filterableAttributes: ['tags'] };
  const after: IndexSettings = { ...defaultSettings(), stopWords: ['a', 'fox'], separatorTokens: [', '], filterableAttributes: ['tags'] };
  // stored documents with docids left free by deletions, several parts of them
  const STORED = 2_321;
  const batches = [() => [add(lines(randomDocs(31, STORED)))], () => [{ op: 'delete', ids: ['5', '6', '700', '2000'] } as DocumentOp, add(lines(randomDocs(32, 300, STORED)))]];

  /** The index `name` with the batches' documents, rebuilt under `after`; answers its word index and how many documents took words extracted ahead. */
  function rebuilt(name: string, source?: (env: IndexEnv) => AheadPartSource) {
    run(name, before, batches);
    const env = envs.get(name);
    // a chunk asks once per document, and again per document when it cannot take whole words
    const taken = new Set<object>();
    const ahead = source === undefined ? undefined : new AheadParts(source(env));
    if (ahead !== undefined) {
      const take = ahead.take.bind(ahead);
      ahead.take = (doc) => {
        const words = take(doc);
        if (words !== undefined) taken.add(doc);
        return words;
      };
    }
    applyIndexWrite(env, { kind: 'settings', settings: after, clear: false, rebuild: ['word-index'] }, () => {}, undefined, ahead);
    return { words: wordIndexSnapshot(env), taken: taken.size };
  }

  it.each([1, 3])('leave the word index a rebuild in the write leaves, with %i extraction threads', (threads) => {
    const local = rebuilt('local');
    const ahead = rebuilt('ahead', (env) => storedInThread(env, after, threads));
    expectSame(ahead.words, local.words);
    expect(Object.keys(local.words.words).length).toBeGreaterThan(10);
    expect(ahead.taken).toBe(STORED - 4 + 300);
  });

  it('leave to the write a part whose documents are not at the places noted, or one a document was missing from', () => {
    const local = rebuilt('local');
    // the second part says it has the third one's documents; the fourth missed a document
    const shifted = rebuilt('shifted', (env) => storedInThread(env, after, 1, (part, all) => (part.seq === 1 ? { ...part, docids: all[2]!.docids } : part)));
    expectSame(shifted.words, local.words);
    expect(shifted.taken).toBe(STORED - 4 + 300 - AHEAD_PART_DOCS);
    const missing = rebuilt('missing', (env) => storedInThread(env, after, 1, undefined, (docid) => (docid === 3 * AHEAD_PART_DOCS + 9 ? undefined : env.documents.get(docid))));
    expectSame(missing.words, local.words);
    expect(missing.taken).toBe(STORED - 4 + 300 - AHEAD_PART_DOCS);
  });
});
