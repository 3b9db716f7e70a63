/**
 * The dictionaries a documents payload will need, loaded while earlier batches run
 * (engine/words/dictionary-scout.ts). The documents route has every document of a payload
 * observed as it is stored; once the task is registered, the few documents kept holding Chinese,
 * Japanese or Korean text are tokenized with the index's current settings, after the answer is
 * sent, and the segmenter thread is asked to load what they ask for. Only while another batch
 * runs: a task the scheduler takes at once has its batch look ahead as soon (and a payload whose
 * task fails before extraction then loads nothing: a dictionary holds 60–200 MiB for a minute).
 * A hint only: the batch's own look ahead and the segmentation itself stay the authority, so a
 * failure here is ignored.
 */
import { searchSettings } from '../engine/index-settings.js';
import { DictionarySample, sampledLanguages } from '../engine/words/dictionary-scout.js';
import { readSearchFields } from '../engine/words/word-index.js';
import { preloadDictionaries } from '../kernels/run-segmenter.js';
import { defaultSettings } from '../types/settings.js';
import type { IndexReader } from './reader.js';

export class PayloadDictionaries {
  constructor(
    private readonly reader: Pick<IndexReader, 'get' | 'envOf'>,
    /** the task uids of the batch running, null when none runs */
    private readonly running: () => ReadonlySet<number> | null,
  ) {}

  /** A sample to observe a payload's documents with, as they are stored. */
  sample(): DictionarySample {
    return new DictionarySample();
  }

  /**
   * Has the dictionaries `sample`'s documents ask for in index `indexUid` load, once the current
   * request is answered, if task `taskUid` then waits behind another batch. `primaryKey`: the
   * payload's `primaryKey` parameter, if any.
   */
  preload(indexUid: string, taskUid: number, primaryKey: string | null, sample: DictionarySample): void {
    if (sample.lines.length === 0) return;
    setImmediate(() => {
      const running = this.running();
      if (running === null || running.has(taskUid)) return;
      try {
        const record = this.reader.get(indexUid);
        // an index the task creates starts with the default settings and no field
        const env = record === undefined ? null : this.reader.envOf(record);
        const settings = env === null ? defaultSettings() : searchSettings(env);
        const key = primaryKey ?? record?.primaryKey ?? null;
        preloadDictionaries([...sampledLanguages(sample, settings, env === null ? [] : readSearchFields(env), key)]);
      } catch {
        // the batch looks ahead again when it starts
      }
    });
  }
}
