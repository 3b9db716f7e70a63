/**
 * The index writer thread (a piscina task module, see index-writer.ts): applies one IndexWrite
 * to an index environment in one transaction, off the HTTP thread, and answers its outcome. It opens its own handle on
 * the environment for each write and closes it after, so a deleted, swapped or compacted index
 * never keeps a stale handle here (lmdb-js shares one LMDB environment per process between
 * threads: the scheduler's lease, index-writer.ts, keeps it open meanwhile). A non-zero `interrupt[0]` (set by the scheduler when a
 * cancelation arrives) stops the write at its next checkpoint and rolls it back.
 */
import { workerData } from 'piscina';
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { tooManyOpenFiles } from '../errors/os-errors.js';
import { EmbedderFailure } from '../embedders/embed-error.js';
import { closeIndexEnv, openIndexEnv } from '../engine/index-env.js';
import { applyIndexWrite, type IndexWrite, type IndexWriteOutcome } from '../engine/indexer/commit.js';
import { AheadParts } from '../engine/words/ahead-parts.js';
import { StepReporter, type StepDurations } from '../engine/indexing-steps.js';
import { AheadPorts, stopAhead, type AheadEnds } from './ahead-ports.js';
import { useSegmenterThread } from './segmenter-channel.js';
import { useDocumentEmbedder } from '../engine/vectors/embed-hook.js';
import { EmbeddingClient, type EmbeddingEnds } from './embedding-channel.js';

useSegmenterThread(workerData as { segmenter?: SharedArrayBuffer } | undefined);

export interface IndexWriteJob {
  readonly folder: string;
  readonly uuid: string;
  readonly write: IndexWrite;
  readonly interrupt: Int32Array;
  /** where the write shows its current step (engine/indexing-steps.ts) */
  readonly step: Int32Array;
  /** the channels of the words extracted ahead of the write, if any */
  readonly ahead?: AheadEnds | undefined;
  /** the bytes a documents write's chunks are sized by (WorkerPools' `chunkMemory`) */
  readonly chunkMemory: number;
  /** the channel to the embedders (embedding-channel.ts), served by the main thread during the write */
  readonly embedding?: EmbeddingEnds | undefined;
}

export interface IndexWriteResult {
  readonly outcome: IndexWriteOutcome;
  readonly steps: StepDurations;
}

export const INTERRUPTED = 'the index write was interrupted';

/**
 * A write the index refused (an ApiError, e.g. an invalid `_geo`), as thrown back to the
 * scheduler: an Error loses its class and `code` between threads, a plain object does not.
 * `embedder` marks the embedder's failure (EmbedderFailure), which is the batch's, not a document's.
 */
export interface RefusedWrite {
  readonly refused: { readonly code: ErrorCode; readonly message: string };
  readonly embedder: boolean;
}

/** `err` as thrown back to the scheduler: a RefusedWrite when it is an ApiError. */
function refusal(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  return { refused: { code: err.code, message: err.message }, embedder: err instanceof EmbedderFailure } satisfies RefusedWrite;
}

export default async function writeIndex(job: IndexWriteJob): Promise<IndexWriteResult> {
  let env;
  try {
    env = openIndexEnv(job.folder, job.uuid);
  } catch (err) {
    throw refusal(tooManyOpenFiles(err));
  }
  const steps = new StepReporter(job.step);
  try {
    const checkpoint = () => {
      if (Atomics.load(job.interrupt, 0) !== 0) throw new Error(INTERRUPTED);
    };
    const ahead = job.ahead === undefined ? undefined : new AheadParts(new AheadPorts(job.ahead));
    if (job.embedding !== undefined) {
      const client = new EmbeddingClient(job.embedding, job.interrupt, INTERRUPTED);
      useDocumentEmbedder((name, embedder, texts, take) => client.embed(name, embedder, texts, take), job.embedding.ignoreTemplateFailures);
    }
    const outcome = applyIndexWrite(env, job.write, checkpoint, steps, ahead, job.chunkMemory);
    return { outcome, steps: steps.finish() };
  } catch (err) {
    throw refusal(err);
  } finally {
    useDocumentEmbedder(null);
    job.embedding?.port.close();
    if (job.ahead !== undefined) {
      stopAhead(job.ahead.state);
      for (const port of job.ahead.ports) port.close();
    }
    await closeIndexEnv(env);
  }
}
