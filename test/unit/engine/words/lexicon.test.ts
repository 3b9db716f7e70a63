// An extraction worker's lexicon: parts name their words and prefixes by lexicon ids, each part
// hands over only what is new to the lexicon, and the writer's copy, fed the parts in order,
// reads every id back; a part that never came leaves the writer's copy refusing the rest.
import { describe, expect, it } from 'vitest';
import { ReceivedLexicon, WorkerLexicon } from '../../../../src/engine/words/lexicon.js';
import { ByteVocabulary, type VocabularyBytes } from '../../../../src/engine/words/vocabulary.js';
import { mulberry32 } from '../../../helpers/random.js';

/** A part's vocabulary of `words`, as an extractor exports it. */
function vocabularyOf(words: readonly string[]): VocabularyBytes {
  const vocabulary = new ByteVocabulary();
  for (const word of words) {
    const bytes = Buffer.from(word, 'latin1');
    vocabulary.idOf(bytes, 0, bytes.length);
  }
  return vocabulary.export();
}

const wordOf = (lexicon: ReceivedLexicon, id: number) => Buffer.from(lexicon.bytes.subarray(lexicon.starts[id]!, lexicon.starts[id]! + lexicon.lengths[id]!)).toString('latin1');

describe('WorkerLexicon and ReceivedLexicon', () => {
  it('hand over each word and prefix once, and name shared ones by the ids the first part gave them', () => {
    const worker = new WorkerLexicon();
    const first = { words: worker.wordIds(vocabularyOf(['river', 'stone', 'fire'])), prefixes: worker.prefixIds(vocabularyOf(['r', 'ri', 'riv'])) };
    const firstAdded = worker.additions();
    const second = { words: worker.wordIds(vocabularyOf(['fire', 'night', 'river'])), prefixes: worker.prefixIds(vocabularyOf(['n', 'r', 'ni'])) };
    const secondAdded = worker.additions();
    expect([...first.words]).toEqual([0, 1, 2]);
    expect([...second.words]).toEqual([2, 3, 0]);
    expect([...second.prefixes]).toEqual([3, 0, 4]);
    expect(secondAdded.firstWord).toBe(3);
    expect(secondAdded.words.starts.length).toBe(1);
    expect(secondAdded.prefixes).toEqual(['n', 'ni']);

    const received = new ReceivedLexicon();
    expect(received.receive(firstAdded)).toBe(true);
    expect(received.receive(secondAdded)).toBe(true);
    expect(Array.from(second.words, (id) => wordOf(received, id))).toEqual(['fire', 'night', 'river']);
    expect(Array.from(second.prefixes, (id) => received.prefixes[id])).toEqual(['n', 'r', 'ni']);
  });

  it('read back every word of many parts, non-ASCII bytes and growth of every array included', () => {
    const random = mulberry32(7);
    const pool = Array.from({ length: 5_000 }, (_, i) => Buffer.from(`${i % 3 === 0 ? 'Ünï' : 'w'}${i.toString(36)}`, 'utf8').toString('latin1'));
    const worker = new WorkerLexicon();
    const received = new ReceivedLexicon();
    for (let part = 0; part < 40; part++) {
      const words = [...new Set(Array.from({ length: 300 }, () => pool[Math.floor(random() * pool.length)]!))];
      const ids = worker.wordIds(vocabularyOf(words));
      expect(received.receive(worker.additions())).toBe(true);
      expect(Array.from(ids, (id) => wordOf(received, id))).toEqual(words);
    }
    expect(received.size).toBeLessThanOrEqual(pool.length);
  });

  it('refuse, taking nothing, additions that do not follow the ones taken (a part in between never came)', () => {
    const worker = new WorkerLexicon();
    worker.wordIds(vocabularyOf(['a', 'b']));
    const first = worker.additions();
    worker.wordIds(vocabularyOf(['c']));
    worker.additions();
    worker.wordIds(vocabularyOf(['d']));
    const third = worker.additions();
    const received = new ReceivedLexicon();
    expect(received.receive(first)).toBe(true);
    expect(received.receive(third)).toBe(false);
    expect(received.size).toBe(2);
  });
});
