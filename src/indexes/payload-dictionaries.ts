/**
 * The dictionaries a documents payload will need, loaded while earlier batches run
 * (engine/words/dictionary-scout.ts). The documents route has every document of a payload
 * observed as it is stored; once the task is registered, the few documents kept holding Chinese,
 * Japanese or Korean text are tokenized with the index's current settings, after the answer is
 * sent, and the segmenter thread is asked to load what they ask for. A hint only: the batch's
 * own look ahead and the segmentation itself stay the authority, so a failure here is ignored.
 */
import { searchSettings } from '../engine/index-settings.js';
import { DictionarySample, sampledLanguages } from '../engine/words/dictionary-scout.js';
import { readSearchFields } from '../engine/words/word-index.js';
import { preloadDictionaries } from '../kernels/run-segmenter.js';
import { defaultSettings } from '../types/settings.js';
import type { IndexReader } from './reader.js';

export class PayloadDictionaries {
  constructor(private readonly reader: Pick<IndexReader, 'get' | 'envOf'>) {}

  /** A sample to observe a payload's documents with, as they are stored. */
  sample(): DictionarySample {
    return new DictionarySample();
  }

  /** Has the dictionaries `sample`'s documents ask for in index `indexUid` load, once the current request is answered. */
  preload(indexUid: string, sample: DictionarySample): void {
    if (sample.lines.length === 0) return;
    setImmediate(() => {
      try {
        const record = this.reader.get(indexUid);
        // an index the task creates starts with the default settings and no field
        const env = record === undefined ? null : this.reader.envOf(record);
        const settings = env === null ? defaultSettings() : searchSettings(env);
        preloadDictionaries([...sampledLanguages(sample, settings, env === null ? [] : readSearchFields(env))]);
      } catch {
        // the batch looks ahead again when it starts
      }
    });
  }
}
