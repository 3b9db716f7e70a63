// linderaWordStarts (src/kernels/dictionaries/lindera.ts) against lindera-wasm itself: everyday
// sentences, mixed scripts, unknown words, numbers, symbols, sentence breaks, lone surrogates,
// seeded random strings and texts of thousands of characters, in both dictionaries; and, past the
// window dictionaryWordStarts cuts runs into, a whole sentence long enough for path costs to wrap
// around i32.
// fresh process: it checks which dictionaries are loaded before and after first use.
import { describe, expect, it } from 'vitest';

import { linderaDictionaryLoaded, linderaWordStarts, loadLinderaDictionary, type LinderaLanguage } from '../../../src/kernels/dictionaries/lindera.js';
import { linderaReferenceStarts, linderaTokenizer } from '../../helpers/reference-segmenters.js';
import { mulberry32 } from '../../helpers/random.js';

const LANGUAGES: readonly LinderaLanguage[] = ['jpn', 'kor'];

/** bench/dictionary-segmenters.ts's sentences. */
const SENTENCES: Record<LinderaLanguage, string> = {
  jpn:
    '朝の駅はいつも混雑していて、電車が来るたびに人の波が押し寄せる。駅前の本屋で新しい小説を買ってから、喫茶店でコーヒーを飲みながら読み始めた。' +
    '午後になると雨が降り出したので、傘を持っていなかった私は近くのコンビニで透明なビニール傘を買った。' +
    '週末には家族で温泉旅館に泊まり、露天風呂から紅葉に染まった山々を眺めた。' +
    '検索エンジンは文章を単語に分割してから索引を作るので、分かち書きの精度が検索結果の質を左右する。',
  kor:
    '아침 일찍 일어나서 공원을 한 바퀴 산책했다. 오후에는 도서관에 가서 시험 공부를 했지만 집중이 잘 되지 않았다. ' +
    '저녁에는 친구들과 함께 시장에서 떡볶이와 순대를 먹었다. 주말에는 가족과 함께 바닷가로 여행을 떠날 계획이다. ' +
    '검색 엔진은 문장을 형태소 단위로 나누어 색인을 만들기 때문에 형태소 분석의 정확도가 검색 품질에 큰 영향을 준다.',
};

const repeatTo = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** The texts of `texts` that the two disagree on in `language`, with both answers (at most 5). */
function disagreements(texts: readonly string[], language: LinderaLanguage): { text: string; lindera: number[]; ours: number[] }[] {
  const out: { text: string; lindera: number[]; ours: number[] }[] = [];
  for (const text of texts) {
    const lindera = linderaReferenceStarts(text, language);
    const ours = linderaWordStarts(text, language);
    if (JSON.stringify(ours) !== JSON.stringify(lindera) && out.push({ text, lindera, ours }) === 5) break;
  }
  return out;
}

/** Checks every text in both dictionaries. */
function expectSame(texts: readonly string[]): void {
  for (const language of LANGUAGES) expect(disagreements(texts, language), language).toEqual([]);
}

/** Code units to draw from, by kind; drawn one unit at a time, so surrogates come alone or paired. */
const POOLS = [
  'あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんがぎぐげござじずぜぞだでどばびぶべぼぱぴぷぺぽっゃゅょゝゞー',
  'アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワヲンガギグゲゴパピプペポッャュョヽヾーｱｲｳｶﾀﾅ',
  '日本語東京大学学生先生時間人生会社社会国際空港限定関西電車駅本屋小説一二三四五六七八九十百千万億円年月日々〆〇',
  '한국어의형태해석을실시할수있습니다가나다라마바사아자차카타파하뷁쀍ㄱㄴㄷㅏㅓ',
  'abcdefghijklmnopqrstuvwxyzABCXYZａｂｃＡＢＣαβγабв',
  '0123456789０１２３４５',
  '、。！？「」（）・…,.!?-_/#$%&*+=~★♪〜 \t\n\u3000\u00a0\u0000',
  '\ud800\udc00\udbff\udfff\ud83d\ude00\ud840\udc0b',
];

describe('loading', () => {
  // Must stay the file's first test: the module keeps its dictionaries for the thread's lifetime.
  it('loads no dictionary on import, and only the one a language needs on first use', () => {
    expect(linderaDictionaryLoaded('jpn')).toBe(false);
    expect(linderaDictionaryLoaded('kor')).toBe(false);
    expect(linderaWordStarts('日', 'jpn')).toEqual([]);
    expect(linderaDictionaryLoaded('jpn')).toBe(false);
    linderaWordStarts('日本語', 'jpn');
    expect(linderaDictionaryLoaded('jpn')).toBe(true);
    expect(linderaDictionaryLoaded('kor')).toBe(false);
    loadLinderaDictionary('kor');
    expect(linderaDictionaryLoaded('kor')).toBe(true);
  });
});

describe('the same boundaries as lindera-wasm', () => {
  it("segments charabia's vectors into the pieces it expects", () => {
    const pieces = (text: string, language: LinderaLanguage) => {
      const starts = [0, ...linderaWordStarts(text, language), text.length];
      return starts.slice(1).map((end, i) => text.slice(starts[i], end));
    };
    expect(pieces('関西国際空港限定トートバッグ', 'jpn')).toEqual(['関西', '国際', '空港', '限定', 'トートバッグ']);
    expect(pieces('すもももももももものうち', 'jpn')).toEqual(['すもも', 'も', 'もも', 'も', 'もも', 'の', 'うち']);
    expect(pieces('한국어의형태해석을실시할수있습니다', 'kor')).toEqual(['한국어', '의', '형태', '해석', '을', '실시', '할', '수', '있', '습니다']);
    expect(pieces('123', 'kor')).toEqual(['123']);
  });

  it('segments everyday sentences, whole and cut into runs at spaces and punctuation as the tokenizer hands them over', () => {
    const texts = LANGUAGES.flatMap((language) => [SENTENCES[language], ...SENTENCES[language].split(/[\s\p{P}]+/u).filter((run) => run !== '')]);
    expectSame(texts);
  });

  it('segments mixed scripts, unknown words, numbers and symbols', () => {
    expectSame([
      'JR東日本のSuica残高は1,000円です', '東京タワーはabc123の한국어😀', 'iPhone15を買った', '서울특별시에서 Seoul 2024년 東京',
      'トートバッグ', 'ゴルゴンゾーラピッツァ', 'ｶﾀｶﾅﾃﾞｽ', '𠮷野家で牛丼', '뷁뷁뷁쀍', 'ㄱㄴㄷㅏㅓ', '々〆〇ゝゞヽヾ',
      '2024年12月31日', '１２３４５６', '3.14159', '一二三四五六七八九十', '１０００万円', '百二十三億', '0a0a0a0a',
      '!!??##', '★☆♪♪', '（株）ヤマト', '〜～〜', '・・・', 'ΑΒΓαβγ', 'Привет мир', 'ⅰⅱⅲⅣ', 'ＡＢＣａｂｃ',
      'a\u0000b', '\u0000\u0000\u0000', '\u0001\u0002', 'tab\there', '\u3000全角\u3000空白', 'nbsp\u00a0here', '\u200bzero\u200bwidth',
    ]);
  });

  it('cuts sentences after line feeds, tabs, 。 and 、 as lindera does', () => {
    expectSame(['今日は\n晴れ', '今日は\t晴れ', '今日は。晴れ、明日は雨', '。。。', '、、', '\n\n', '오늘은\n맑음。내일은、비', 'あ。', '。あ', '\tあ\n']);
  });

  it('reads a lone surrogate as U+FFFD, as wasm-bindgen passes it', () => {
    expectSame(['\ud800', 'a\udc00b', '日本\ud800語', '\udfff\ud800', '한\ud83d국어', '\ud83d\ude00\ude00', 'アイ\udbffウ', '\ud800\ud800\ud800']);
  });

  it('gives no boundary in an empty or one-character text', () => {
    for (const language of LANGUAGES) {
      for (const text of ['', 'a', '日', '한', '\ud800', '😀']) expect(linderaWordStarts(text, language)).toEqual([]);
    }
  });

  it('segments 3,000 seeded random strings of kana, kanji, hangul, latin, digits, punctuation and spaces', () => {
    const next = mulberry32(20240611);
    const texts = Array.from({ length: 3000 }, () => {
      const home = POOLS[Math.floor(next() * POOLS.length)]!;
      let text = '';
      for (let length = 1 + Math.floor(next() * 40); text.length < length; ) {
        const pool = next() < 0.7 ? home : POOLS[Math.floor(next() * POOLS.length)]!;
        text += pool[Math.floor(next() * pool.length)];
      }
      return text;
    });
    expectSame(texts);
  });

  it('segments texts of thousands of characters, and long runs of one category', () => {
    const next = mulberry32(7);
    const mixed = Array.from({ length: 4000 }, () => {
      const pool = POOLS[Math.floor(next() * POOLS.length)]!;
      return pool[Math.floor(next() * pool.length)];
    }).join('');
    expectSame([
      repeatTo(SENTENCES.jpn, 5000),
      repeatTo(SENTENCES.kor, 5000),
      repeatTo(SENTENCES.jpn.replace(/[\s\p{P}]+/gu, ''), 5000),
      repeatTo(SENTENCES.kor.replace(/[\s\p{P}]+/gu, ''), 5000),
      mixed,
      'a'.repeat(3000),
      'ー'.repeat(3000),
      repeatTo('0a', 3000),
      repeatTo('日本語東京大学学生先生時間', 3000),
      repeatTo('한국어의형태해석을실시할수있습니다', 3000),
      repeatTo('ゝゞ', 3000),
    ]);
  });
});

describe('past a window', () => {
  it('wraps path costs around i32 as lindera does, on a sentence of 120,000 characters', () => {
    // About 18,800 per character: the cost of the best path passes 2^31 near its end, where
    // comparing costs without wrapping chooses other pieces.
    const text = repeatTo('0a', 120_000);
    const tokens = linderaTokenizer('jpn').tokenize(text) as { byteStart: number }[];
    // The text is all ASCII: byte offsets are UTF-16 indexes.
    expect(linderaWordStarts(text, 'jpn')).toEqual(tokens.slice(1).map((token) => token.byteStart));
  });
});
