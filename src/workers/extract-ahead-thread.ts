/**
 * An extraction worker (a piscina task module, see ahead-ports.ts): waits for the write's
 * settings, then extracts its share of the batch's parts (of its payloads, or of the index's
 * stored documents for a rebuild) and posts them, never more than MAX_AHEAD beyond what the
 * write took unless the write has read the part's lines, until its parts are done or the write
 * is over.
 */
import { workerData } from 'piscina';
import { receiveMessageOnPort } from 'node:worker_threads';
import { extractAheadParts, extractStoredParts } from '../engine/words/extract-ahead.js';
import { closeIndexEnv, openIndexEnv, type IndexEnv } from '../engine/index-env.js';
import { aheadBuffers } from '../engine/words/ahead-words.js';
import { aheadFacetBuffers } from '../engine/facets/ahead-facets.js';
import { blockedSlot, NOTED_LINE, NOTED_OP, OPENED, postedSlot, STARTED, STOP, takenSlot, type AheadEnd, type AheadStart, type AheadTask } from './ahead-protocol.js';
import type { AheadPart } from '../engine/words/ahead-parts.js';
import { useSegmenterThread } from './segmenter-channel.js';
import { documentId, type JsonObject } from '../engine/document-id.js';
import { ownsDocument } from '../engine/shards/shard-of.js';

useSegmenterThread(workerData as { segmenter?: SharedArrayBuffer } | undefined);

/**
 * Parts a worker may post before the write takes them, beyond those of the lines the write has
 * read (readByWrite): the write takes a chunk's parts (up to 20,000 documents, 40 parts) once it
 * has read the chunk, and holds them until the chunk is written, so these are the parts held
 * ahead of that.
 */
const MAX_AHEAD = 16;

/** Whether the write drops `doc`: of a shard this instance does not own. */
function dropsOf(owned: AheadTask['owned']): ((doc: JsonObject) => boolean) | undefined {
  if (owned === null || owned === undefined) return undefined;
  const { sharding, primaryKey } = owned;
  return (doc) => {
    let id: string;
    try {
      id = documentId(doc, primaryKey);
    } catch {
      // the write fails its payload
      return false;
    }
    return !ownsDocument(sharding, id);
  };
}

/**
 * Whether the write has read the first line of `part`: the chunk it is reading will ask for the
 * part, so holding it back would only make the write wait for it (it did, for 1.5 s of a 11 s
 * debdocs load, when a 20,000-document chunk needed 40 parts and a worker stopped at 16).
 */
function readByWrite(state: Int32Array, part: AheadPart): boolean {
  const op = Atomics.load(state, NOTED_OP);
  return part.op < op || (part.op === op && part.first <= Atomics.load(state, NOTED_LINE));
}

/** A no-op task: its only effect is the thread started and this module loaded (pool.ts `startExtractionThreads`). */
export function ready(): number {
  return 0;
}

/** The write's start message, once it is posted; null when the write is over first. */
function startOf({ port, state }: AheadTask): AheadStart | null {
  while (Atomics.load(state, STARTED) === 0) {
    if (Atomics.load(state, STOP) !== 0) return null;
    Atomics.wait(state, STARTED, 0, 1000);
  }
  return (receiveMessageOnPort(port)?.message as AheadStart | undefined) ?? null;
}

/** Posts the parts `extract` gives (null: none); answers how many. */
function postParts({ port, state, job }: AheadTask, extract: () => Iterable<AheadPart> | null): number {
  const posted = postedSlot(job.thread);
  const taken = takenSlot(job.thread);
  const blocked = blockedSlot(job.thread);
  let count = 0;
  try {
    for (const part of extract() ?? []) {
      for (let waited = false; ; waited = true) {
        if (Atomics.load(state, STOP) !== 0) return count;
        const seen = Atomics.load(state, taken);
        if (count - seen < MAX_AHEAD || readByWrite(state, part)) break;
        // a part held back by the write counts once, however long it waits
        if (!waited) Atomics.add(state, blocked, 1);
        Atomics.wait(state, taken, seen, 1000);
      }
      const buffers = [...(part.words === null ? [] : aheadBuffers(part.words)), ...(part.facets === null ? [] : aheadFacetBuffers(part.facets))];
      port.postMessage(part, part.docids === undefined ? buffers : [...buffers, part.docids.buffer as ArrayBuffer]);
      count++;
      Atomics.add(state, posted, 1);
      Atomics.notify(state, posted);
    }
    return count;
  } finally {
    const end: AheadEnd = { end: true };
    port.postMessage(end);
    Atomics.add(state, posted, 1);
    Atomics.notify(state, posted);
    port.close();
  }
}

/**
 * Posts this worker's parts: of the batch's payloads, once the write has started and told its
 * settings; or of the index's stored documents, at once, read through a handle of its own opened
 * before the write starts (opening one takes the environment's write lock, which the write holds
 * until it commits), in the last committed state, which a settings write's documents are.
 * Answers how many.
 */
export default async function extractAhead(task: AheadTask): Promise<number> {
  const { job, state } = task;
  if (!('stored' in job)) {
    return postParts(task, () => {
      const start = startOf(task);
      return start === null ? null : extractAheadParts(job, start.settings, start.searchFields, dropsOf(task.owned));
    });
  }
  let env: IndexEnv;
  try {
    env = openIndexEnv(job.stored.folder, job.stored.uuid);
  } finally {
    Atomics.add(state, OPENED, 1);
    Atomics.notify(state, OPENED);
  }
  try {
    // a rebuild starts from no search fields, under the write's settings: no need to wait for the write
    return postParts(task, () => extractStoredParts(env.documents.getKeys(), (docid) => env.documents.get(docid), job));
  } finally {
    await closeIndexEnv(env);
  }
}
