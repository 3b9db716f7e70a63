// Word extraction as the word index sees it: leaf paths and field ids, positions with the value
// gap across array items, stop words keeping their positions, whole-field flags, one vocabulary
// across chunks and calls (the rules' details are pinned in test/kernels/extract.test.ts).
import { describe, expect, it } from 'vitest';

import type { JsonObject } from '../../../../src/engine/document-id.js';
import { extractorFor, MAX_DOCUMENT_TEXT_UNITS, MAX_FIELD_TEXT_UNITS, SearchFieldIds, searchableMatcher, wordOfKey, type WordExtractor } from '../../../../src/engine/words/extract.js';
import { INFO_WHOLE_FIELD } from '../../../../src/engine/words/postings.js';
import type { DocWords } from '../../../../src/engine/words/doc-words.js';
import { defaultSettings } from '../../../../src/types/settings.js';
import { WorkerLexicon } from '../../../../src/engine/words/lexicon.js';
import { docEntries } from '../../../../src/engine/words/ahead-words.js';

function extractor(stopWords: string[] = []): { extractor: WordExtractor; fields: SearchFieldIds } {
  const fields = new SearchFieldIds([]);
  return { extractor: extractorFor({ ...defaultSettings(), stopWords }, fields), fields };
}

/** A document's occurrences as [word, field path, position]. */
function occurrences(extractor: WordExtractor, fields: SearchFieldIds, doc: DocWords): [string, string, number][] {
  return [...doc.tokenWords].map((slot, i) => [wordOfKey(extractor.keys[doc.words[slot]!]!), fields.names[doc.tokenPlaces[i]! >>> 16]!, doc.tokenPlaces[i]! & 0xffff]);
}

describe('WordExtractor.extract', () => {
  it('does not walk the subtree of a reserved field (_vectors, _geo, _geojson), whose leaves are never searchable', () => {
    const { extractor: words, fields } = extractor();
    let read = 0;
    const counted = (values: number[]) => new Proxy(values, { get: (target, key) => (read++, Reflect.get(target, key)) });
    const doc = { title: 'Big Fish', _vectors: { vec: counted([0.5, -0.25, 0.125]) }, _geo: { lat: 1, lng: 2 }, nested: { _vectors: 'kept' } } as unknown as JsonObject;
    const [entry] = words.extract([{ docid: 1, doc }]);
    expect(occurrences(words, fields, entry!)).toEqual([
      ['big', 'title', 0],
      ['fish', 'title', 1],
      ['kept', 'nested._vectors', 0],
    ]);
    expect(read).toBe(0);
  });

  it('indexes nested leaves by path, array items 8 apart, numbers and booleans by their text', () => {
    const { extractor: words, fields } = extractor();
    const [doc] = words.extract([{ docid: 7, doc: { title: 'Big Fish', cast: [{ name: 'Ewan' }, { name: 'Albert Finney' }], year: 2003, ok: true } as JsonObject }]);
    expect(doc!.docid).toBe(7);
    expect(occurrences(words, fields, doc!)).toEqual([
      ['big', 'title', 0],
      ['fish', 'title', 1],
      ['ewan', 'cast.name', 0],
      ['albert', 'cast.name', 8],
      ['finney', 'cast.name', 9],
      ['2003', 'year', 0],
      ['true', 'ok', 0],
    ]);
    expect([...doc!.fieldWords]).toEqual([[0, 2], [1, 3], [2, 1], [3, 1]]);
    // the lone word of `year` and of `ok` is a whole field
    expect(doc!.infos.map((info) => (info & INFO_WHOLE_FIELD) !== 0)).toEqual([false, false, false, false, false, true, true]);
  });

  it('skips stop words but keeps the positions of the words after them', () => {
    const { extractor: words, fields } = extractor(['the']);
    const [doc] = words.extract([{ docid: 1, doc: { title: 'The the ｔｈｅ end' } }]);
    expect(occurrences(words, fields, doc!)).toEqual([
      ['the', 'title', 0],
      ['end', 'title', 3],
    ]);
  });

  it("gives the tokenizer a field's first MAX_FIELD_TEXT_UNITS units and a document's first MAX_DOCUMENT_TEXT_UNITS, cut whole characters", () => {
    const { extractor: words } = extractor();
    const filler = (units: number) => 'x'.repeat(units - 1) + ' ';
    const words_of = (doc: JsonObject) => {
      const [extracted] = words.extract([{ docid: 1, doc }]);
      return new Set([...extracted!.words].map((id) => wordOfKey(words.keys[id]!)));
    };
    // a field: its first units, an array's items counted together
    const field = words_of({ a: filler(MAX_FIELD_TEXT_UNITS - 6) + 'early late', b: [filler(MAX_FIELD_TEXT_UNITS - 2), 'tail'] });
    expect([field.has('early'), field.has('late'), field.has('ta'), field.has('tail')]).toEqual([true, false, true, false]);
    // a document: its first units over all its fields
    const fieldsEach = Array.from({ length: MAX_DOCUMENT_TEXT_UNITS / MAX_FIELD_TEXT_UNITS }, (_, i) => [`f${i}`, filler(MAX_FIELD_TEXT_UNITS)]);
    const whole = words_of({ ...Object.fromEntries(fieldsEach), last: 'after' });
    expect(whole.has('after')).toBe(false);
    // a cut inside a surrogate pair keeps neither half
    const pair = words_of({ a: filler(MAX_FIELD_TEXT_UNITS - 2) + 'z😀' });
    expect([...pair].some((word) => word.includes('\ufffd'))).toBe(false);
  });

  it('names a word by one id across documents and calls', () => {
    const { extractor: words } = extractor();
    const first = words.extract([{ docid: 1, doc: { a: 'мир x' } }, { docid: 2, doc: { a: 'y мир' } }]);
    const [later] = words.extract([{ docid: 3, doc: { a: 'мир' } }]);
    const rio = words.keys.map(wordOfKey).indexOf('мир');
    expect([first[0]!.words[0], first[1]!.words[1], later!.words[0]]).toEqual([rio, rio, rio]);
    expect(words.keys.map(wordOfKey)).toEqual(['мир', 'x', 'y']);
  });
});

describe('WordExtractor.extractAhead', () => {
  /** What `extract` gives each document, as the columns of a part: [words, masks, infos, field pairs, token words, token places]. */
  function columnsOf(doc: DocWords): number[][] {
    return [doc.words, doc.masks, doc.infos, [...doc.fieldWords].flat(), [...doc.tokenWords], [...doc.tokenPlaces]];
  }

  it("gives each document of a part what extract gives it, documents without searchable text and kernel calls of several documents' text included", () => {
    const big = (word: string) => Array.from({ length: 90_000 }, (_, i) => `${word}${i % 97} lorem`).join(' ');
    const docs: JsonObject[] = [
      {},
      { title: 'Big Fish', cast: [{ name: 'Ewan' }, { name: 'Albert Finney' }] },
      { year: null, nested: {} },
      { body: big('alpha'), title: 'the first of two large ones' },
      { body: big('beta'), extra: 'x' },
      { cast: [{ name: 'Finney' }], title: 'Big' },
      { nothing: [] },
    ];
    const settings = { ...defaultSettings(), stopWords: ['the'] };
    const lexicon = new WorkerLexicon();
    const ahead = extractorFor(settings, new SearchFieldIds([]), lexicon.nextPart()).extractAhead(docs, true, lexicon, 0);
    const reference = extractorFor(settings, new SearchFieldIds([]));
    const expected = reference.extract(docs.map((doc, docid) => ({ docid, doc })));
    const starts = [ahead.docStarts, ahead.docStarts, ahead.docStarts, ahead.fieldStarts, ahead.tokenStarts, ahead.tokenStarts];
    // the masks and infos are handed over once, in the word entries, and read back per document
    const { masks, infos } = docEntries(ahead);
    expect(Object.keys(ahead)).not.toContain('masks');
    const columns = [ahead.words, masks, infos, ahead.fieldPairs, ahead.tokenWords, ahead.tokenPlaces];
    docs.forEach((_, index) => {
      expect(columns.map((column, c) => [...column.subarray(starts[c]![index]!, starts[c]![index + 1]!)])).toEqual(columnsOf(expected[index]!));
    });
    expect(ahead.fields).toEqual(['title', 'cast.name', 'body', 'extra']);
    expect(docs.map((_, index) => [...ahead.leafFields.subarray(ahead.leafStarts[index]!, ahead.leafStarts[index + 1]!)])).toEqual([[], [0, 1], [], [2, 0], [2, 3], [1, 0], []]);
    // the same vocabulary, in the same order, all of it new to the worker's lexicon
    const { words } = ahead.added;
    const vocabulary = Array.from(ahead.wordIds, (key) => Buffer.from(words.bytes.subarray(words.starts[key]!, words.starts[key]! + words.lengths[key]!)).toString('latin1'));
    expect(vocabulary).toEqual(reference.keys);
    expect(ahead.added.firstWord).toBe(0);
    // each word's entries, documents ascending
    const { starts: wordStarts, docids } = ahead.wordEntries;
    const big1 = reference.keys.indexOf('big');
    expect([...docids.subarray(wordStarts[big1]!, wordStarts[big1 + 1]!)]).toEqual([1, 5]);
  });
});

describe('searchableMatcher', () => {
  it('covers a listed path and the paths below it, not its siblings sharing a prefix, nor the reserved fields', () => {
    const isSearchable = searchableMatcher(['title', 'cast.name', 'a.b', '_geo']);
    expect(['title', 'title.en', 'cast.name', 'cast.name.first', 'a.b.c.d'].filter(isSearchable)).toHaveLength(5);
    expect(['titles', 'cast', 'cast.names', 'a.bc', 'a', '_geo', '_geo.lat', 'overview'].filter(isSearchable)).toEqual([]);
    expect(searchableMatcher(['*'])('_vectors.x')).toBe(false);
  });

  it('answers for every leaf in time independent of the number of listed attributes', () => {
    const listed = Array.from({ length: 100_000 }, (_, i) => `f${i}`);
    const isSearchable = searchableMatcher([...listed, 'title']);
    const started = performance.now();
    let covered = 0;
    // 20,000 leaves: a scan of the list per leaf would compare 2 billion entries
    for (let i = 0; i < 20_000; i++) if (isSearchable(i % 2 === 0 ? `title.part${i}` : `other.f${i}`)) covered++;
    expect(covered).toBe(10_000);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
