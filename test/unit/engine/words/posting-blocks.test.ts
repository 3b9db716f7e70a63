// Block-split postings on a real environment, checked against a plain map of what each posting
// should hold, through random additions, replacements and removals over many transactions.
import { afterEach, describe, expect, it } from 'vitest';

import { BLOCK_ENTRIES, PostingOutcome, PostingWriter, prefixPostings, readPosting, wordPostings, type PostingTable } from '../../../../src/engine/words/posting-blocks.js';
import { decodePosting, PACKED, type PostingColumns } from '../../../../src/engine/words/postings.js';
import { mulberry32 } from '../../../helpers/random.js';
import { openTestIndex, type TestIndex } from '../search/harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

type Model = Map<number, [number, number]>;

function columns(entries: [number, number, number][]): PostingColumns {
  entries.sort((a, b) => a[0] - b[0]);
  return {
    docids: Uint32Array.from(entries, (e) => e[0]),
    masks: Uint32Array.from(entries, (e) => e[1]),
    infos: Uint32Array.from(entries, (e) => e[2]),
  };
}

function contents(table: PostingTable, key: string): [number, number, number][] {
  const posting = readPosting(table, key);
  return Array.from(posting.docids, (docid, i) => [docid, posting.masks[i]!, posting.infos[i]!]);
}

function expected(model: Model): [number, number, number][] {
  return [...model].sort((a, b) => a[0] - b[0]).map(([docid, [mask, info]]) => [docid, mask, info]);
}

function blockCount(table: PostingTable): number {
  return [...table.blocks.getKeys({})].length;
}

describe('posting blocks', () => {
  it('keeps a posting of up to BLOCK_ENTRIES documents in the unsplit format', () => {
    index = openTestIndex();
    const table = wordPostings(index.env);
    const writer = new PostingWriter(table);
    const entries = Array.from({ length: BLOCK_ENTRIES }, (_, i): [number, number, number] => [i * 2, 1, i]);
    index.env.root.transactionSync(() => expect(writer.update('word', [], columns(entries), () => 7)).toBe(PostingOutcome.Created));
    expect(blockCount(table)).toBe(0);
    const stored = decodePosting(table.heads.getBinary('word'));
    expect(stored.id).toBe(7);
    expect(stored.docids.length).toBe(BLOCK_ENTRIES);
  });

  it('splits a grown posting and rewrites only its last block when documents are added after it', () => {
    index = openTestIndex();
    const table = wordPostings(index.env);
    const writer = new PostingWriter(table);
    const model: Model = new Map();
    const add = (from: number, to: number) => {
      const entries: [number, number, number][] = [];
      for (let docid = from; docid < to; docid++) {
        entries.push([docid, 2, docid % 100]);
        model.set(docid, [2, docid % 100]);
      }
      index!.env.root.transactionSync(() => writer.update('word', [], columns(entries), () => 3));
    };
    add(0, 3 * BLOCK_ENTRIES + 10);
    expect(blockCount(table)).toBe(3);
    const firstBlock = [...table.blocks.getRange({})][0]!;
    add(3 * BLOCK_ENTRIES + 10, 3 * BLOCK_ENTRIES + 20);
    // the full blocks before the last one are untouched
    expect([...table.blocks.getRange({})][0]!.value).toEqual(firstBlock.value);
    expect(blockCount(table)).toBe(3);
    expect(contents(table, 'word')).toEqual(expected(model));
    expect(readPosting(table, 'word').id).toBe(3);
  });

  it('reads and updates a split posting whose blocks an older store wrote in the columns layout', () => {
    index = openTestIndex();
    const table = wordPostings(index.env);
    const writer = new PostingWriter(table);
    const model: Model = new Map();
    const entries: [number, number, number][] = [];
    for (let docid = 0; docid < 2 * BLOCK_ENTRIES + 5; docid++) {
      entries.push([docid, 1, docid % 7]);
      model.set(docid, [1, docid % 7]);
    }
    index.env.root.transactionSync(() => writer.update('word', [], columns(entries), () => 4));
    // the head and every block rewritten as the columns layout, flags kept
    index.env.root.transactionSync(() => {
      for (const [db, key] of [[table.heads, 'word'], ...[...table.blocks.getKeys({})].map((key) => [table.blocks, key])] as const) {
        const stored = (db as typeof table.blocks).getBinary(key as Buffer)!;
        const posting = decodePosting(stored);
        const n = posting.docids.length;
        const first = (stored.readUInt32LE(0) & ~PACKED) >>> 0;
        (db as typeof table.blocks).putSync(key as Buffer, Buffer.from(Uint32Array.from([first, n, ...posting.docids, ...posting.masks, ...posting.infos]).buffer));
      }
    });
    expect(table.heads.getBinary('word')!.readUInt32LE(0) & PACKED).toBe(0);
    expect(contents(table, 'word')).toEqual(expected(model));
    expect(readPosting(table, 'word').id).toBe(4);
    index.env.root.transactionSync(() => writer.update('word', [3, 2 * BLOCK_ENTRIES], columns([[5, 2, 9], [2 * BLOCK_ENTRIES + 9, 1, 1]]), () => 0));
    model.delete(3);
    model.delete(2 * BLOCK_ENTRIES);
    model.set(5, [2, 9]);
    model.set(2 * BLOCK_ENTRIES + 9, [1, 1]);
    expect(contents(table, 'word')).toEqual(expected(model));
    expect(readPosting(table, 'word').id).toBe(4);
  });

  it('matches a plain model through random changes over many transactions', () => {
    index = openTestIndex();
    const words = new PostingWriter(wordPostings(index.env));
    const prefixes = new PostingWriter(prefixPostings(index.env));
    const random = mulberry32(20261123);
    // the word `a` and the prefix `a` share the blocks database, kept apart by their tags
    const postings = [
      { table: wordPostings(index.env), writer: words, key: 'a', model: new Map() as Model },
      { table: wordPostings(index.env), writer: words, key: 'ab', model: new Map() as Model },
      { table: prefixPostings(index.env), writer: prefixes, key: 'a', model: new Map() as Model },
    ];
    for (let round = 0; round < 60; round++) {
      index.env.root.transactionSync(() => {
        for (const { writer, key, model } of postings) {
          const upserts = new Map<number, [number, number, number]>();
          const removed = new Set<number>();
          const span = round < 20 ? 4 * BLOCK_ENTRIES : 6 * BLOCK_ENTRIES;
          const changes = Math.floor(random() * (round % 7 === 0 ? 3 * BLOCK_ENTRIES : 300));
          for (let c = 0; c < changes; c++) {
            const docid = Math.floor(random() * span);
            if (random() < (round > 40 ? 0.7 : 0.25)) {
              upserts.delete(docid);
              removed.add(docid);
            } else {
              removed.delete(docid);
              upserts.set(docid, [docid, 1 + Math.floor(random() * 8), Math.floor(random() * 1000)]);
            }
          }
          const existed = model.size > 0;
          for (const docid of removed) model.delete(docid);
          for (const [docid, mask, info] of upserts.values()) model.set(docid, [mask, info]);
          const outcome = writer.update(key, [...removed].sort((x, y) => x - y), columns([...upserts.values()]), () => 9);
          const exists = model.size > 0;
          expect(outcome).toBe(existed ? (exists ? PostingOutcome.Updated : PostingOutcome.Deleted) : exists ? PostingOutcome.Created : PostingOutcome.Absent);
        }
      });
      // compared as text: a deep equality over tens of thousands of entries per round is slow
      for (const { table, key, model } of postings) expect(JSON.stringify(contents(table, key)), `${key} after round ${round}`).toBe(JSON.stringify(expected(model)));
    }
    expect(blockCount(postings[0]!.table)).toBeGreaterThan(0);
    // an emptied posting leaves no block behind
    index.env.root.transactionSync(() => {
      for (const { writer, key, model } of postings) {
        writer.update(key, [...model.keys()].sort((x, y) => x - y), columns([]), () => 9);
        model.clear();
      }
    });
    for (const { table, key } of postings) {
      expect(blockCount(table)).toBe(0);
      expect(table.heads.getBinary(key)).toBeUndefined();
    }
  });

  it('rolls back with its transaction', () => {
    index = openTestIndex();
    const table = wordPostings(index.env);
    const writer = new PostingWriter(table);
    const entries = Array.from({ length: 2 * BLOCK_ENTRIES }, (_, i): [number, number, number] => [i, 1, 0]);
    index.env.root.transactionSync(() => writer.update('w', [], columns(entries), () => 1));
    expect(() =>
      index!.env.root.transactionSync(() => {
        writer.update('w', Array.from({ length: BLOCK_ENTRIES }, (_, i) => i), columns([]), () => 1);
        throw new Error('interrupted');
      }),
    ).toThrow('interrupted');
    expect(readPosting(table, 'w').docids.length).toBe(2 * BLOCK_ENTRIES);
  });
});
