// The scout of a batch's payloads, and the sample of a payload being received, find the dictionary
// languages its Chinese, Japanese and Korean text will ask for, the way extraction decides them,
// without loading any dictionary.
import { describe, expect, it } from 'vitest';
import { loadedDictionaries } from '../../../../src/kernels/dictionary-segmenters.js';
import { DictionarySample, sampledLanguages, scoutDictionaries } from '../../../../src/engine/words/dictionary-scout.js';
import { defaultSettings, type IndexSettings } from '../../../../src/types/settings.js';

const payload = (docs: object[]) => ({ bytes: new TextEncoder().encode(docs.map((doc) => JSON.stringify(doc)).join('\n')) });
const latin = Array.from({ length: 50 }, (_, i) => ({ id: i, title: `Movie number ${i}`, overview: 'A story of a river.' }));
const scout = (docs: object[][], settings: IndexSettings = defaultSettings()) => [...scoutDictionaries(docs.map(payload), settings, ['id', 'title', 'overview'])].sort();

describe('scoutDictionaries', () => {
  it('answers no language for text without Chinese, Japanese or Korean, nor for CJK punctuation alone', () => {
    expect(scout([latin, [{ id: 'p', title: 'Mother、Father「」' }]])).toEqual([]);
  });

  it('answers the languages of the runs in every payload, wherever their lines are', () => {
    const korean = { id: 'k', overview: 'Umma (Korean: 엄마) is a 2022 film' };
    const chinese = { id: 'c', overview: 'Born in China (我们诞生在中国) is a 2016 documentary' };
    const japanese = { id: 'j', title: 'クーポンで無料で頂きました' };
    expect(scout([[...latin, korean], [chinese], [...latin, japanese]])).toEqual(['cmn', 'jpn', 'kor']);
    expect(loadedDictionaries()).toEqual([]);
  });

  it('follows the index settings: text in a field that is not searchable asks for nothing', () => {
    expect(scout([[{ id: 'k', hidden: '엄마' }]], { ...defaultSettings(), searchableAttributes: ['title'] })).toEqual([]);
  });

  it('skips lines the write refuses', () => {
    expect(scoutDictionaries([{ bytes: new TextEncoder().encode('{"id": "엄마"\n{"id":1,"t":"엄마"}') }], defaultSettings(), ['id', 't'])).toEqual(new Set(['kor']));
  });

  it('finds the text at any byte offset of the payload and of its line', () => {
    for (let shift = 0; shift < 8; shift++) {
      for (let pad = 0; pad < 9; pad++) {
        const line = new TextEncoder().encode(`{"id":1,"t":"${'a'.repeat(pad)}엄마 ${'b'.repeat(pad)}"}`);
        const bytes = new Uint8Array(shift + line.length);
        bytes.set(line, shift);
        expect(scoutDictionaries([{ bytes: bytes.subarray(shift) }], defaultSettings(), ['id', 't'])).toEqual(new Set(['kor']));
      }
    }
  });

  it('still finds kana and Hangul lines after more Han lines than it tokenizes', () => {
    const han = Array.from({ length: 40 }, (_, i) => ({ id: `h${i}`, overview: `Born in China (我们诞生在中国) ${i}` }));
    expect(scout([[...han, ...latin, { id: 'j', title: 'クーポンで無料で頂きました' }, { id: 'k', title: '엄마' }]])).toEqual(['cmn', 'jpn', 'kor']);
  });

  it('tokenizes at most 64 lines, so text no search reads cannot make it tokenize a whole payload', () => {
    const hidden = Array.from({ length: 64 }, (_, i) => ({ id: i, hidden: 'クーポン 엄마' }));
    const settings = { ...defaultSettings(), searchableAttributes: ['title'] };
    const korean = { id: 'k', title: '엄마' };
    expect([...scoutDictionaries([payload([...hidden.slice(1), korean])], settings, ['title'])]).toEqual(['kor']);
    expect([...scoutDictionaries([payload([...hidden, korean])], settings, ['title'])]).toEqual([]);
  });
});

const lineOf = (doc: object) => Buffer.from(JSON.stringify(doc));

describe('DictionarySample', () => {
  it('keeps copies of the documents holding kana, Hangul or Han, at most 16 of each kind', () => {
    const sample = new DictionarySample();
    for (const doc of latin) sample.observe(lineOf(doc));
    for (let i = 0; i < 20; i++) {
      sample.observe(lineOf({ id: `k${i}`, t: '엄마' }));
      sample.observe(lineOf({ id: `h${i}`, t: '我们诞生在中国' }));
    }
    const japanese = lineOf({ id: 'j', t: 'クーポン' });
    sample.observe(japanese);
    japanese.fill(0x20);
    expect(sample.lines).toHaveLength(33);
    expect(sample.lines.filter((line) => line.includes('엄마'))).toHaveLength(16);
    expect(sample.lines.at(-1)!.toString()).toBe('{"id":"j","t":"クーポン"}');
  });

  it('looks at documents of a few bytes at any alignment and at the end of their memory, an empty object included', () => {
    const sample = new DictionarySample();
    for (const text of ['{}', '{"a":1}', '{"t":"엄"}']) {
      const bytes = Buffer.from(text);
      for (let shift = 0; shift < 4; shift++) {
        // at the start of an ArrayBuffer, then ending exactly where one ends
        const front = new Uint8Array(new ArrayBuffer(64));
        front.set(bytes, shift);
        sample.observe(Buffer.from(front.buffer, shift, bytes.length));
        const back = new Uint8Array(new ArrayBuffer(shift + bytes.length));
        back.set(bytes, shift);
        sample.observe(Buffer.from(back.buffer, shift, bytes.length));
      }
    }
    expect(sample.lines.map(String)).toEqual(Array.from({ length: 8 }, () => '{"t":"엄"}'));
  });

  it('skips a document larger than 16 KiB, and keeps 128 KiB in all: its documents are tokenized on the HTTP thread', () => {
    const sample = new DictionarySample();
    const sized = (bytes: number, text: string) => {
      const line = lineOf({ id: 1, t: text, pad: '' });
      return lineOf({ id: 1, t: text, pad: 'a'.repeat(bytes - line.length) });
    };
    sample.observe(sized((1 << 14) + 1, '엄마'));
    expect(sample.lines).toEqual([]);
    // 8 documents of exactly 16 KiB fill the 128 KiB; a ninth, of another kind, is not kept
    for (let i = 0; i < 8; i++) sample.observe(sized(1 << 14, '엄마'));
    sample.observe(sized(100, 'クーポン'));
    expect(sample.lines.map((line) => line.length)).toEqual(Array.from({ length: 8 }, () => 1 << 14));
    expect(sample.scripts).toEqual(Array.from({ length: 8 }, () => 4));
  });
});

describe('sampledLanguages', () => {
  const sampleOf = (docs: object[]) => {
    const sample = new DictionarySample();
    for (const doc of docs) sample.observe(lineOf(doc));
    return sample;
  };

  it('leaves out the documents the write would refuse: no id, an invalid one, or none to infer', () => {
    const docs = [{ overview: '엄마' }, { id: 'not valid!', title: 'クーポン' }, { id: 1, ref_id: 2, overview: '我们诞生在中国' }, { key: 'k', overview: '엄마' }];
    const languages = (primaryKey: string | null) => [...sampledLanguages(sampleOf(docs), defaultSettings(), [], primaryKey)].sort();
    expect(languages(null)).toEqual([]);
    expect(languages('key')).toEqual(['kor']);
    expect(languages('id')).toEqual(['cmn']);
  });


  it('answers the languages the kept documents ask for under the index settings', () => {
    const docs = [{ id: 'k', overview: 'Umma (Korean: 엄마)' }, { id: 'j', title: 'クーポンで無料で頂きました' }, { id: 'c', hidden: '我们诞生在中国' }];
    expect([...sampledLanguages(sampleOf(docs), defaultSettings(), [], null)].sort()).toEqual(['cmn', 'jpn', 'kor']);
    expect([...sampledLanguages(sampleOf(docs), { ...defaultSettings(), searchableAttributes: ['title', 'overview'] }, ['title', 'overview'], null)].sort()).toEqual(['jpn', 'kor']);
    expect(loadedDictionaries()).toEqual([]);
  });
});

