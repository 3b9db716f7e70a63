/**
 * Runs a batch's index write in the index writer thread (index-writer-thread.ts), so the HTTP
 * thread keeps answering (searches read the last committed state) while a large batch commits.
 * One thread: LMDB has one writer per environment anyway, and the scheduler runs one batch at a
 * time. Aborting `signal` interrupts the write, which then rolls back and rejects.
 * Around the write, on this (the main) thread: a write that uses the extraction threads (a
 * documents write large enough, a rebuild of the word index) starts them, and the segmenter
 * thread, if they are not running (a large documents upload may have started the former as it
 * began: scheduler `expectDocuments`); a settings write first prepares the embedders it adds or
 * changes (embedders/embed.ts `prepareChangedEmbedders`), and while a write runs this thread
 * serves its embedding requests (embedding-channel.ts), whose counter the batch's progress reads
 * as they happen and gets whole at the end; a write of document additions then reports how its
 * extraction workers waited for it. The extraction workers extract a documents write's payloads,
 * and a settings write's stored documents when it rebuilds the word index (ahead-ports.ts).
 */
import { ApiError } from '../errors/api-error.js';
import type { IndexEnvs } from '../engine/index-env.js';
import { threadSettingsWrite, type DocumentsWrite, type IndexWrite, type IndexWriteOutcome } from '../engine/indexer/commit.js';
import type { ReshardOutcome, ReshardWrite } from '../engine/shards/reshard.js';
import type { DocumentBatchOutcome } from '../engine/indexer/document-batch.js';
import type { StepDurations } from '../engine/indexing-steps.js';
import type { IndexWriteJob, IndexWriteResult, RefusedWrite } from './index-writer-thread.js';
import { aheadCongestion, startAhead, startStoredAhead, stopAhead, type ChannelCongestion, type StartedAhead } from './ahead-ports.js';
import { DocumentStore } from '../engine/documents/store.js';
import { wordIndexUpdater } from '../engine/words/word-index.js';
import { serveEmbedding } from './embedding-channel.js';
import { prepareChangedEmbedders } from '../embedders/embed.js';
import { EmbedderFailure } from '../embedders/embed-error.js';
import { searchSettings } from '../engine/index-settings.js';
import type { EmbedderRequests, EmbedderRequestStats } from '../embedders/request-stats.js';
import type { WorkerPools } from './pool.js';

/** Follows the steps of a write (the batch's progress). */
export interface StepWatcher {
  /**
   * The write starts; `current[0]` holds its current step's position in INDEXING_STEPS + 1 (0: none
   * yet), and `requests` counts its requests to embedding servers as they are made (read live).
   */
  started(current: Int32Array, requests?: EmbedderRequestStats): void;
  /** The write ended, after these times in its steps. */
  ended(durations: StepDurations): void;
  /** The write's requests to embedding servers (the batch's `embedderRequests`), when it made any, once it ended. */
  embedded?(requests: EmbedderRequests): void;
  /** A write that v1.50 reports it for ended: how its extraction workers' parts waited for it (`writeChannelCongestion`). */
  congestion?(congestion: ChannelCongestion): void;
}

export async function writeIndex(pools: WorkerPools, envs: IndexEnvs, uuid: string, write: DocumentsWrite, signal: AbortSignal, watcher?: StepWatcher): Promise<DocumentBatchOutcome>;
export async function writeIndex(pools: WorkerPools, envs: IndexEnvs, uuid: string, write: ReshardWrite, signal: AbortSignal, watcher?: StepWatcher): Promise<ReshardOutcome>;
export async function writeIndex(pools: WorkerPools, envs: IndexEnvs, uuid: string, write: IndexWrite, signal: AbortSignal, watcher?: StepWatcher): Promise<IndexWriteOutcome>;
export async function writeIndex(pools: WorkerPools, envs: IndexEnvs, uuid: string, write: IndexWrite, signal: AbortSignal, watcher?: StepWatcher): Promise<IndexWriteOutcome> {
  // Opening an LMDB database takes the environment's write lock, which the write about to start
  // holds until it commits: the HTTP thread opens its handle now and keeps it open until the write
  // ends, or its first read of the index would block the event loop for the whole write.
  const lease = envs.acquire(uuid);
  const interrupt = new Int32Array(new SharedArrayBuffer(4));
  const onAbort = () => Atomics.store(interrupt, 0, 1);
  signal.addEventListener('abort', onAbort);
  const step = new Int32Array(new SharedArrayBuffer(4));
  // the writer thread's embedding requests, served here while the write runs
  const embedding = serveEmbedding(signal);
  watcher?.started(step, embedding.stats);
  let durations: StepDurations = [];
  let ahead: StartedAhead | null = null;
  // whether the batch reports its write channel's congestion, known once the write succeeded
  let congested = false;
  // the documents a settings write reindexes: it reports its congestion only when there are
  // some, as v1.50's does
  const stored = write.kind === 'settings' && !write.clear ? new DocumentStore(lease.env).count() : 0;
  try {
    // A settings change builds its new embedders first, as v1.50 does: probing dimensions and
    // checking composites over HTTP here, so a failure fails the batch before the write starts.
    if (write.kind === 'settings') await prepareChangedEmbedders(searchSettings(envs.get(uuid)).embedders, write.settings.embedders, signal);
    // documents' words are extracted in parallel with the write, by the extraction workers (not
    // for a rehearsal, which only finds whether the operations apply)
    if (write.kind === 'documents' && write.rehearsal !== true) {
      const { sharding, primaryKey } = write;
      ahead = startAhead(pools, write.ops, sharding != null && primaryKey !== null ? { sharding, primaryKey } : null);
    }
    // and a rebuild of the word index has them extract the stored documents' words
    if (write.kind === 'settings' && !write.clear && write.rebuild.includes(wordIndexUpdater.name)) {
      ahead = await startStoredAhead(pools, envs.folderOf(uuid), uuid, stored, write.settings);
    }
    // many documents likely hold some Chinese, Japanese or Korean text: the segmenter thread's
    // start then overlaps the write instead of holding the first worker that asks for it
    if (ahead !== null) pools.startSegmenterThread();
    const sent = write.kind === 'settings' ? threadSettingsWrite(write) : write;
    const job: IndexWriteJob = { folder: envs.folderOf(uuid), uuid, write: sent, interrupt, step, chunkMemory: pools.chunkMemory, ahead: ahead?.ends, embedding: embedding.ends };
    const transferList = [...(ahead === null ? [] : ahead.ends.ports), ...embedding.transfer];
    const result = (await pools.writerPool().run(job, { transferList })) as IndexWriteResult;
    durations = result.steps;
    congested = reportsCongestion(write, result.outcome, stored > 0);
    return result.outcome;
  } catch (err) {
    const { refused, embedder } = (err as Partial<RefusedWrite> | null) ?? {};
    if (refused === undefined) throw err;
    throw embedder === true ? new EmbedderFailure(refused.code, refused.message) : new ApiError(refused.code, refused.message);
  } finally {
    if (ahead !== null) {
      // the writer thread stops them as it ends, unless it died first
      stopAhead(ahead.ends.state);
      await ahead.done;
    }
    // a write too small for the workers extracted everything itself: nothing went through them
    if (congested) watcher?.congestion?.(ahead === null ? { attempts: 0, blocking: 0 } : aheadCongestion(ahead.ends));
    signal.removeEventListener('abort', onAbort);
    embedding.close();
    const requests = embedding.stats.view();
    if (requests !== undefined) watcher?.embedded?.(requests);
    watcher?.ended(durations);
    lease.release();
  }
}

/**
 * Whether a successful write reports `writeChannelCongestion`, as v1.50 runs its indexer: for
 * additions with an operation that applied, for deletions or an edition that removed or changed a
 * document, and for a settings write that reindexed documents; not for a rehearsal, a clear,
 * nor a write that failed.
 */
function reportsCongestion(write: IndexWrite, outcome: IndexWriteOutcome, reindexes: boolean): boolean {
  if (write.kind === 'settings') return reindexes;
  if (write.kind !== 'documents' || write.rehearsal === true) return false;
  const { results } = outcome as DocumentBatchOutcome;
  if (write.ops.some((op) => op.op === 'add')) return results.some((result) => !('error' in result));
  return write.ops.some((op, i) => (op.op === 'delete' || op.op === 'deleteByFilter' || op.op === 'put') && 'count' in results[i]! && results[i]!.count > 0);
}
