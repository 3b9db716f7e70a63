// An extraction worker's lexicon: parts number their words and prefixes densely and name them by
// lexicon ids, each part hands over only the words and prefixes new to the lexicon, and the
// writer's copy, fed the parts in order, reads every id back; a part that never came leaves the
// writer's copy refusing the rest; a lexicon past its bound starts over from id 0.
import { describe, expect, it } from 'vitest';
import { ReceivedLexicon, WorkerLexicon } from '../../../../src/engine/words/lexicon.js';
import { PREFIX_MAX_CHARS } from '../../../../src/engine/words/prefix-table.js';
import { mulberry32 } from '../../../helpers/random.js';

/** Runs a part of `words` (latin1 keys) through `lexicon` as an extractor would: answers their part ids. */
function part(lexicon: WorkerLexicon, words: readonly string[]): number[] {
  const vocabulary = lexicon.nextPart();
  return words.map((word) => {
    const bytes = Buffer.from(word, 'latin1');
    return lexicon.partWord(vocabulary.idOf(bytes, 0, bytes.length));
  });
}

const wordOf = (lexicon: ReceivedLexicon, id: number) => Buffer.from(lexicon.bytes.subarray(lexicon.starts[id]!, lexicon.starts[id]! + lexicon.lengths[id]!)).toString('latin1');

describe('WorkerLexicon and ReceivedLexicon', () => {
  it('number a part densely, hand over each word and prefix once, and name shared ones by the ids the first part gave them', () => {
    const worker = new WorkerLexicon();
    const received = new ReceivedLexicon();
    expect(part(worker, ['river', 'stone', 'river', 'rise'])).toEqual([0, 1, 0, 2]);
    const first = { words: worker.partWordIds(), prefixes: worker.partPrefixes() };
    expect(received.receive(worker.additions())).toBe(true);
    expect(part(worker, ['night', 'rise', 'nil'])).toEqual([0, 1, 2]);
    const second = { words: worker.partWordIds(), prefixes: worker.partPrefixes() };
    const added = worker.additions();
    expect(received.receive(added)).toBe(true);

    expect([...first.words]).toEqual([0, 1, 2]);
    expect([...second.words]).toEqual([3, 2, 4]);
    expect(added.firstWord).toBe(3);
    expect(added.words.starts.length).toBe(2);
    expect(Array.from(second.words, (id) => wordOf(received, id))).toEqual(['night', 'rise', 'nil']);
    // part prefix ids dense in the order the part's words give them; lexicon ids beside
    const prefixesOf = ({ wordPrefixes, prefixCounts, prefixIds }: ReturnType<WorkerLexicon['partPrefixes']>, w: number) =>
      Array.from({ length: prefixCounts[w]! }, (_, k) => received.prefixes[prefixIds[wordPrefixes[PREFIX_MAX_CHARS * w + k]!]!]);
    expect([0, 1, 2].map((w) => prefixesOf(second.prefixes, w))).toEqual([
      ['n', 'ni', 'nig'],
      ['r', 'ri', 'ris'],
      ['n', 'ni', 'nil'],
    ]);
    expect(second.prefixes.nPrefixes).toBe(7);
    expect(Array.from(second.prefixes.wordPrefixes.subarray(0, 3))).toEqual([0, 1, 2]);
    expect(added.prefixes).toEqual(['n', 'ni', 'nig', 'nil']);
  });

  it('read back every word of many parts, non-ASCII bytes and growth of every array included', () => {
    const random = mulberry32(7);
    const pool = Array.from({ length: 5_000 }, (_, i) => Buffer.from(`${i % 3 === 0 ? 'Ünï' : 'w'}${i.toString(36)}`, 'utf8').toString('latin1'));
    const worker = new WorkerLexicon();
    const received = new ReceivedLexicon();
    for (let n = 0; n < 40; n++) {
      const words = [...new Set(Array.from({ length: 300 }, () => pool[Math.floor(random() * pool.length)]!))];
      expect(part(worker, words)).toEqual(words.map((_, i) => i));
      const ids = worker.partWordIds();
      const prefixes = worker.partPrefixes();
      expect(received.receive(worker.additions())).toBe(true);
      expect(Array.from(ids, (id) => wordOf(received, id))).toEqual(words);
      // every prefix of a part names a prefix its word starts with
      words.forEach((word, w) => {
        for (let k = 0; k < prefixes.prefixCounts[w]!; k++) expect(word.startsWith(received.prefixes[prefixes.prefixIds[prefixes.wordPrefixes[PREFIX_MAX_CHARS * w + k]!]!]!)).toBe(true);
      });
    }
    expect(received.size).toBeLessThanOrEqual(pool.length);
  });

  it('refuse, taking nothing, additions that do not follow the ones taken (a part in between never came)', () => {
    const worker = new WorkerLexicon();
    part(worker, ['a', 'b']);
    const first = worker.additions();
    part(worker, ['c']);
    worker.additions();
    part(worker, ['d']);
    const third = worker.additions();
    const received = new ReceivedLexicon();
    expect(received.receive(first)).toBe(true);
    expect(received.receive(third)).toBe(false);
    expect(received.size).toBe(2);
  });

  it('start over past their bound: the next part hands over its words from id 0, and a fresh writer copy reads them', () => {
    const worker = new WorkerLexicon(3);
    part(worker, ['a', 'b']);
    worker.additions();
    part(worker, ['b', 'c']);
    expect(worker.additions().firstWord).toBe(2);
    // three words held: the next part starts a new lexicon
    const vocabulary = worker.vocabulary;
    expect(part(worker, ['c', 'd'])).toEqual([0, 1]);
    expect(worker.vocabulary).not.toBe(vocabulary);
    const ids = worker.partWordIds();
    const added = worker.additions();
    expect([added.firstWord, added.firstPrefix]).toEqual([0, 0]);
    const received = new ReceivedLexicon();
    expect(received.receive(added)).toBe(true);
    expect(Array.from(ids, (id) => wordOf(received, id))).toEqual(['c', 'd']);
  });
});
