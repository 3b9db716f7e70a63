// The word-extraction kernel against its TS reference: fixed cases pin the rules (value gap,
// position and length limits, stop words ASCII and not, whole-field flags, documents without
// strings), each also checking kernel == reference; seeded random chunks check they agree.
import { describe, expect, it } from 'vitest';

import {
  EXTRACT_HEADER_SLOTS,
  EXTRACT_HEADER_U32,
  extractChunk,
  INFO_WHOLE_FIELD,
  KIND_STOP,
  MAX_POSITION,
  MAX_WORD_BYTES,
  stopWordTable,
  VALUE_GAP,
  type ExtractedChunk,
  type ExtractInput,
} from '../../src/kernels/extract.js';
import { getKernels } from '../../src/kernels/module.js';
import { referenceExtractChunk } from '../../src/kernels/reference/extract.js';
import { tokenizeBatch } from '../../src/kernels/tokenizer.js';
import { INFO_WHOLE_FIELD as POSTINGS_WHOLE_FIELD } from '../../src/engine/words/postings.js';
import { mulberry32 } from '../helpers/random.js';

/** A chunk of documents, each a list of [field, text]. */
function chunkOf(docs: [number, string][][]): ExtractInput {
  const strings: string[] = [];
  const stringDocs: number[] = [];
  const stringFields: number[] = [];
  docs.forEach((doc, d) => {
    for (const [field, text] of doc) {
      strings.push(text);
      stringDocs.push(d);
      stringFields.push(field);
    }
  });
  const nFields = Math.max(0, ...stringFields) + 1;
  return { strings, stringDocs: Uint32Array.from(stringDocs), stringFields: Uint32Array.from(stringFields), nDocs: docs.length, nFields };
}

/** Runs the kernel, checks the reference agrees, and returns the kernel's columns. */
function extract(input: ExtractInput, stopWords: string[] = []): ExtractedChunk {
  const stops = new Set(stopWords);
  const actual = extractChunk(input, { stopWords: stopWordTable(stops) });
  const batch = tokenizeBatch(input.strings, { separators: false });
  expect(actual).toEqual(referenceExtractChunk(input, batch, stops));
  return actual;
}

const decoder = new TextDecoder();

/** Document d as readable rows: [word, field, position] per occurrence. */
function occurrences(chunk: ExtractedChunk, d: number): [string, number, number][] {
  const rows: [string, number, number][] = [];
  for (let t = chunk.docTokenStarts[d]!; t < chunk.docTokenStarts[d + 1]!; t++) {
    const word = chunk.docWords[chunk.docWordStarts[d]! + chunk.tokenSlots[t]!]!;
    const text = decoder.decode(chunk.wordBytes.subarray(chunk.wordStarts[word]!, chunk.wordStarts[word + 1]!));
    rows.push([text, chunk.tokenPlaces[t]! >>> 16, chunk.tokenPlaces[t]! & 0xffff]);
  }
  return rows;
}

describe('extraction kernel', () => {
  it('agrees with the host on its header and constants', () => {
    const kernels = getKernels();
    expect(kernels.constant('HEADER_U32')).toBe(EXTRACT_HEADER_U32);
    for (const [name, slot] of Object.entries(EXTRACT_HEADER_SLOTS)) {
      expect(kernels.constant(`H_${name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`), name).toBe(slot);
    }
    expect(kernels.constant('KIND_STOP')).toBe(KIND_STOP);
    expect(kernels.constant('MAX_POSITION')).toBe(MAX_POSITION);
    expect(kernels.constant('MAX_WORD_BYTES')).toBe(MAX_WORD_BYTES);
    expect(kernels.constant('VALUE_GAP')).toBe(VALUE_GAP);
    expect(kernels.constant('INFO_WHOLE_FIELD')).toBe(INFO_WHOLE_FIELD);
    expect(INFO_WHOLE_FIELD).toBe(POSTINGS_WHOLE_FIELD);
  });

  it('interns each distinct word once, in first-seen order, across the documents', () => {
    const chunk = extract(chunkOf([[[0, 'The cat and the Cat']], [[0, 'a dog'], [1, 'cat']]]));
    const words = [...Array(chunk.wordStarts.length - 1).keys()].map((w) => decoder.decode(chunk.wordBytes.subarray(chunk.wordStarts[w]!, chunk.wordStarts[w + 1]!)));
    expect(words).toEqual(['the', 'cat', 'and', 'a', 'dog']);
    expect([...chunk.docWords.subarray(0, chunk.docWordStarts[1])]).toEqual([0, 1, 2]);
    expect(occurrences(chunk, 1)).toEqual([['a', 0, 0], ['dog', 0, 1], ['cat', 1, 0]]);
    // masks: field bits; infos: lowest position, whole-field flag for the lone word of field 1
    expect([...chunk.docMasks.subarray(chunk.docWordStarts[1])]).toEqual([1, 1, 2]);
    expect([...chunk.docInfos.subarray(chunk.docWordStarts[1])]).toEqual([0, 1, INFO_WHOLE_FIELD]);
    expect([...chunk.pairs]).toEqual([0, 5, 0, 2, 1, 1]);
  });

  it('starts a further value of a field 8 after the last word of the previous one', () => {
    const chunk = extract(chunkOf([[[0, 'one two'], [1, 'x'], [0, ''], [0, 'three']]]));
    expect(occurrences(chunk, 0)).toEqual([['one', 0, 0], ['two', 0, 1], ['x', 1, 0], ['three', 0, 1 + 2 * VALUE_GAP]]);
    expect([...chunk.pairs]).toEqual([0, 3, 1, 1]);
  });

  it('drops positions from 65 536 on and words longer than 250 bytes', () => {
    const long = 'x'.repeat(MAX_WORD_BYTES + 1);
    const values: [number, string][] = Array.from({ length: 8200 }, () => [0, 'w']);
    const chunk = extract(chunkOf([[[0, `ok ${long} fine`]], values]));
    expect(occurrences(chunk, 0)).toEqual([['ok', 0, 0], ['fine', 0, 2]]);
    const positions = occurrences(chunk, 1).map(([, , position]) => position);
    expect(Math.max(...positions)).toBeLessThan(MAX_POSITION);
    expect(positions.length).toBe(Math.ceil(MAX_POSITION / VALUE_GAP));
  });

  it('drops stop words by the NFKD of their original text, keeping the other positions', () => {
    const chunk = extract(chunkOf([[[0, 'the ｔｈｅ The cat ﬁn fin']]]), ['the', 'fin']);
    // 'The' is not a stop word (case-sensitive); the full-width 'ｔｈｅ' and the ligature 'ﬁn' are
    expect(occurrences(chunk, 0)).toEqual([['the', 0, 2], ['cat', 0, 3]]);
  });

  it('drops stop words of three- and four-byte characters among many others', () => {
    const stops = ['東', '𐌰𐌱', ...Array.from({ length: 5000 }, (_, i) => `w${i}ß`)];
    const chunk = extract(chunkOf([[[0, '東京 to 𐌰𐌱 w17ß w17 w4999ß ok']]]), stops);
    expect(occurrences(chunk, 0).map(([word]) => word)).toEqual(['京', 'to', 'w17', 'ok']);
  });

  it('gives documents without strings or words empty ranges', () => {
    const input = chunkOf([[], [[0, '  ,  ']], [[2, 'word']], []]);
    const chunk = extract(input);
    expect([...chunk.docTokenStarts]).toEqual([0, 0, 0, 1, 1]);
    expect([...chunk.docPairStarts]).toEqual([0, 0, 0, 2, 2]);
  });

  it('refuses records naming a document out of range instead of reading past its regions', () => {
    const input = chunkOf([[[0, 'a b']]]);
    expect(() => extractChunk({ ...input, nDocs: 0 })).toThrow(RangeError);
    expect(() => extractChunk({ ...input, nFields: 0 })).toThrow(RangeError);
  });

  it('agrees with the reference on random chunks', () => {
    const random = mulberry32(20);
    const pieces = ['a', 'b', 'ab', 'The', 'the', 'é', 'É', 'ｔｈｅ', '東京', 'x'.repeat(251), 'ﬁ', '42', 'Straße', ' ', ' ', '. ', ', ', '-', '\n', "l'"];
    const stops = ['the', 'a', 'fi', 'é'];
    for (let round = 0; round < 40; round++) {
      const docs: [number, string][][] = [];
      const nDocs = Math.floor(random() * 12);
      for (let d = 0; d < nDocs; d++) {
        const doc: [number, string][] = [];
        const nStrings = Math.floor(random() * 6);
        for (let s = 0; s < nStrings; s++) {
          let text = '';
          const length = Math.floor(random() * 30);
          for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
          doc.push([Math.floor(random() * 40), text]);
        }
        docs.push(doc);
      }
      extract(chunkOf(docs), round % 2 === 0 ? stops : []);
    }
  });
});

describe('stop-word table', () => {
  it('lays every word out as TextEncoder encodes it, in set order, each in one slot', () => {
    const random = mulberry32(31);
    const pieces = ['a', 'z', 'é', 'ß', '東', '€', '𝒳', '😀', '\ud800', '\udfff', '-'];
    const encoder = new TextEncoder();
    for (let round = 0; round < 50; round++) {
      const words = new Set<string>();
      const count = 1 + Math.floor(random() * 300);
      while (words.size < count) {
        let word = '';
        const length = 1 + Math.floor(random() * 6);
        for (let i = 0; i < length; i++) word += pieces[Math.floor(random() * pieces.length)];
        words.add(word);
      }
      const table = stopWordTable(words)!;
      const encoded = [...words].map((word) => encoder.encode(word));
      expect(Buffer.from(table.bytes).equals(Buffer.concat(encoded))).toBe(true);
      let start = 0;
      encoded.forEach((bytes, e) => {
        expect([table.entries[2 * e], table.entries[2 * e + 1]]).toEqual([start, bytes.length]);
        start += bytes.length;
      });
      expect(table.slots.length).toBeGreaterThan(2 * words.size);
      expect([...table.slots].filter((slot) => slot !== 0).sort((a, b) => a - b)).toEqual(encoded.map((_, e) => e + 1));
    }
    expect(stopWordTable(new Set())).toBeUndefined();
  });
});
