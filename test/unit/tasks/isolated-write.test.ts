// A document batch's write without a task taking the others down: the operations whose write
// throws are found by rehearsals and fail alone with their error; an addition whose payload the
// write refuses (named by it) fails alone with no rehearsal; the rest commit in one write; a
// canceled write is not run again; a write the embedder failed fails every task, with no rehearsal.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { EmbedderFailure } from '../../../src/embedders/embed-error.js';
import { PayloadRefused, type DocumentOp } from '../../../src/engine/indexer/document-batch.js';
import { writeIsolated, type RunWrite } from '../../../src/tasks/process/isolated-write.js';

/** Deletions standing for operations; ids starting with `bad` make a write throw. */
const ops = (...names: string[]): DocumentOp[] => names.map((name) => ({ op: 'delete', ids: [name] }));
const nameOf = (op: DocumentOp) => (op.op === 'delete' ? op.ids[0]! : '');

function fakeWriter() {
  const commits: string[][] = [];
  const run: RunWrite = async (kept, rehearsal) => {
    const bad = kept.find((op) => nameOf(op).startsWith('bad'));
    if (bad !== undefined) throw new Error(`${nameOf(bad)} broke the write`);
    if (!rehearsal) commits.push(kept.map(nameOf));
    return { results: kept.map(() => ({ count: 1 })), primaryKey: 'id' };
  };
  return { run, commits };
}

const errorOf = (err: unknown) => new ApiError('internal', (err as Error).message);

describe('writeIsolated', () => {
  it('commits a batch that applies in one write', async () => {
    const { run, commits } = fakeWriter();
    const outcome = await writeIsolated(ops('a', 'b'), run, new AbortController().signal, errorOf);
    expect(outcome).toEqual({ results: [{ count: 1 }, { count: 1 }], primaryKey: 'id' });
    expect(commits).toEqual([['a', 'b']]);
  });

  it('fails each operation that breaks the write alone, with its own error, and commits the others once', async () => {
    const { run, commits } = fakeWriter();
    const outcome = await writeIsolated(ops('a', 'bad1', 'b', 'c', 'bad2', 'd'), run, new AbortController().signal, errorOf);
    expect(outcome.results).toEqual([
      { count: 1 },
      { error: { code: 'internal', message: 'bad1 broke the write' } },
      { count: 1 },
      { count: 1 },
      { error: { code: 'internal', message: 'bad2 broke the write' } },
      { count: 1 },
    ]);
    expect(commits).toEqual([['a', 'b', 'c', 'd']]);
  });

  it('searches for each next failing operation from the last one found: 100 bad of 300 replay a few times the batch, not a whole write and a bisection each', async () => {
    const names = Array.from({ length: 300 }, (_, i) => (i % 3 === 1 ? `bad${i}` : `ok${i}`));
    let replayed = 0;
    const { run: write, commits } = fakeWriter();
    const run: RunWrite = (kept, rehearsal) => {
      replayed += kept.length;
      return write(kept, rehearsal);
    };
    const outcome = await writeIsolated(ops(...names), run, new AbortController().signal, errorOf);
    expect(outcome.results.filter((result) => 'error' in result)).toHaveLength(100);
    expect(commits).toEqual([names.filter((name) => name.startsWith('ok'))]);
    // each failure costs about two rehearsals of its prefix (150 operations on average)
    expect(replayed).toBeLessThan(40_000);
  });

  it('fails an addition the write names as refused at once, and runs the write again without it', async () => {
    const runs: { kept: string[]; rehearsal: boolean }[] = [];
    const run: RunWrite = async (kept, rehearsal) => {
      runs.push({ kept: kept.map(nameOf), rehearsal });
      const at = kept.findIndex((op) => nameOf(op).startsWith('refused'));
      // as it crosses from the writer thread: a plain object
      if (at !== -1) throw { ...new PayloadRefused(at, { code: 'invalid_document_id', message: `${nameOf(kept[at]!)} has a bad id` }) };
      return { results: kept.map(() => ({ count: 1 })), primaryKey: 'id' };
    };
    const outcome = await writeIsolated(ops('a', 'refused1', 'b', 'refused2'), run, new AbortController().signal, errorOf);
    expect(outcome.results).toEqual([
      { count: 1 },
      { error: { code: 'invalid_document_id', message: 'refused1 has a bad id' } },
      { count: 1 },
      { error: { code: 'invalid_document_id', message: 'refused2 has a bad id' } },
    ]);
    expect(runs).toEqual([
      { kept: ['a', 'refused1', 'b', 'refused2'], rehearsal: false },
      { kept: ['a', 'b', 'refused2'], rehearsal: false },
      { kept: ['a', 'b'], rehearsal: false },
    ]);
  });

  it('still writes (nothing) when every operation fails', async () => {
    const { run, commits } = fakeWriter();
    const outcome = await writeIsolated(ops('bad'), run, new AbortController().signal, errorOf);
    expect(outcome.results).toEqual([{ error: { code: 'internal', message: 'bad broke the write' } }]);
    expect(commits).toEqual([[]]);
  });

  it('fails every task left with the embedder\'s failure, rehearsing nothing, and still writes (nothing)', async () => {
    const runs: { kept: string[]; rehearsal: boolean }[] = [];
    const run: RunWrite = async (kept, rehearsal) => {
      runs.push({ kept: kept.map(nameOf), rehearsal });
      if (kept.some((op) => nameOf(op).startsWith('bad'))) throw new Error('bad broke the write');
      if (kept.length > 0) throw new EmbedderFailure('vector_embedding_error', 'While embedding documents for embedder `e`: runtime error: received internal error HTTP 500 from embedding server');
      return { results: [], primaryKey: 'id' };
    };
    const message = 'Index `movies`: While embedding documents for embedder `e`: runtime error: received internal error HTTP 500 from embedding server';
    const outcome = await writeIsolated(ops('bad', 'a', 'b', 'c'), run, new AbortController().signal, (err) =>
      err instanceof ApiError ? new ApiError(err.code, `Index \`movies\`: ${err.message}`) : errorOf(err),
    );
    expect(outcome.results).toEqual([
      { error: { code: 'internal', message: 'bad broke the write' } },
      { error: { code: 'vector_embedding_error', message } },
      { error: { code: 'vector_embedding_error', message } },
      { error: { code: 'vector_embedding_error', message } },
    ]);
    // the bad operation found, the first run the embedder fails ends the search: the last run writes nothing
    expect(runs.filter((r) => r.kept.length > 0 && !r.kept.includes('bad'))).toHaveLength(1);
    expect(runs.at(-1)).toEqual({ kept: [], rehearsal: false });
  });

  it('does not run a canceled write again', async () => {
    const abort = new AbortController();
    let runs = 0;
    const run: RunWrite = async () => {
      runs++;
      abort.abort();
      throw new Error('the index write was interrupted');
    };
    await expect(writeIsolated(ops('a', 'b'), run, abort.signal, errorOf)).rejects.toThrow('interrupted');
    expect(runs).toBe(1);
  });
});
