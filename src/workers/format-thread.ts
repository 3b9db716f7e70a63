/**
 * A formatting thread (a piscina task module, pool.ts `formatPool`): a search's large documents
 * are decoded and formatted here (engine/search/format-stored.ts), so that the thread answering
 * requests waits for them instead of doing the work: a 40 MB value highlighted held it ~2 s.
 */
import { workerData } from 'piscina';
import { formatStored, type StoredFormatAnswer, type StoredFormatJob } from '../engine/search/format-stored.js';
import { useSegmenterThread } from './segmenter-channel.js';

useSegmenterThread(workerData as { segmenter?: SharedArrayBuffer } | undefined);

export default function format(job: StoredFormatJob): StoredFormatAnswer {
  return formatStored(job);
}
