// The scout of a batch's payloads finds the dictionary languages its Chinese, Japanese and Korean
// text will ask for, the way extraction decides them, without loading any dictionary, whatever the
// alignment of the payload's bytes.
import { describe, expect, it } from 'vitest';
import { loadedDictionaries } from '../../../../src/kernels/dictionary-segmenters.js';
import { scoutDictionaries } from '../../../../src/engine/words/dictionary-scout.js';
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

  it('reads lines of a few bytes at any alignment, the last ending where its memory ends', () => {
    const text = Buffer.from('{}\n{"a":1}\n{"id":"k","t":"엄마"}');
    for (let shift = 0; shift < 4; shift++) {
      const memory = new Uint8Array(new ArrayBuffer(shift + text.length));
      memory.set(text, shift);
      const bytes = new Uint8Array(memory.buffer, shift, text.length);
      expect([...scoutDictionaries([{ bytes }], defaultSettings(), [])]).toEqual(['kor']);
      expect([...scoutDictionaries([{ bytes: bytes.subarray(0, 2) }], defaultSettings(), [])]).toEqual([]);
    }
  });
});
