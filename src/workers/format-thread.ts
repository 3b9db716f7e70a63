/**
 * A formatting thread (a piscina task module, pool.ts `formatPool`): a search's large documents
 * are decoded and formatted here (engine/search/format-stored.ts), so that the thread answering
 * requests waits for them instead of doing the work: a 40 MB value highlighted held it ~2 s.
 * A large settings body is read here too (`settingsBody`, settings/body.ts): 9.7 MB of synonyms
 * parsed and validated held it ~3 s.
 */
import { workerData } from 'piscina';
import { formatStored, type StoredFormatAnswer, type StoredFormatJob } from '../engine/search/format-stored.js';
import { readSettingsBody, type SettingsBodyAnswer, type SettingsBodyJob } from '../settings/body.js';
import { useSegmenterThread } from './segmenter-channel.js';

useSegmenterThread(workerData as { segmenter?: SharedArrayBuffer } | undefined);

export default function format(job: StoredFormatJob): StoredFormatAnswer {
  return formatStored(job);
}

/** A large settings body read into its patch's member texts (piscina task `settingsBody`). */
export function settingsBody(job: SettingsBodyJob): SettingsBodyAnswer {
  return readSettingsBody(job);
}
