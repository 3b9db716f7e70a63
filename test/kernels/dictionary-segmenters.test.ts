// The dictionary segmenters (src/kernels/dictionary-segmenters.ts) against charabia 0.9.9's own
// test vectors, the dictionary lookup behind the Chinese split against jieba's cut_all, lazy
// loading, edge cases, and runs long enough to be cut into windows against whole runs.
// fresh process: it checks which dictionaries are loaded before and after first use.
import { describe, expect, it } from 'vitest';

import { dictionaryWordStarts, loadedDictionaries, type DictionaryLanguage } from '../../src/kernels/dictionary-segmenters.js';
import { mulberry32 } from '../helpers/random.js';
import { jieba, linderaTokenizer } from '../helpers/reference-segmenters.js';

/** The pieces of one run. */
function pieces(run: string, language: DictionaryLanguage): string[] {
  const starts = [0, ...dictionaryWordStarts(run, language), run.length];
  return starts.slice(1).map((end, i) => run.slice(starts[i], end));
}

/** The pieces of a text whose separators (the characters `separators` matches) are pieces of their own. */
function segment(text: string, language: DictionaryLanguage, separators: RegExp): string[] {
  return text.split(separators).filter((part) => part !== '').flatMap((part) => (separators.test(part) ? [part] : pieces(part, language)));
}

describe('loading', () => {
  // Must stay the file's first test: the module keeps its dictionaries for the thread's lifetime.
  it('loads no dictionary on import, and only the one a language needs on first use', () => {
    expect(loadedDictionaries()).toEqual([]);
    pieces('한국어', 'kor');
    expect(loadedDictionaries()).toEqual(['kor']);
    pieces('日本語', 'jpn');
    pieces('中文', 'cmn');
    expect(loadedDictionaries()).toEqual(['cmn', 'jpn', 'kor']);
  });
});

describe("charabia's vectors", () => {
  it('segments Japanese with IPADIC in decompose mode', () => {
    expect(pieces('関西国際空港限定トートバッグ', 'jpn')).toEqual(['関西', '国際', '空港', '限定', 'トートバッグ']);
    expect(pieces('すもももももももものうち', 'jpn')).toEqual(['すもも', 'も', 'もも', 'も', 'もも', 'の', 'うち']);
  });

  it('segments Korean with ko-dic in decompose mode', () => {
    expect(pieces('한국어의형태해석을실시할수있습니다', 'kor')).toEqual(['한국어', '의', '형태', '해석', '을', '실시', '할', '수', '있', '습니다']);
    expect(pieces('123', 'kor')).toEqual(['123']);
  });

  it("segments Chinese as charabia's ChineseSegmenter does: jieba's cut without HMM, then its greedy split", () => {
    const text =
      '人人生而自由﹐在尊嚴和權利上一律平等。他們賦有理性和良心﹐並應以兄弟關係的精神互相對待。' +
      '人民的意志是政府权力的基础，这一意志应以定期的和真正的选举予以表现。' +
      '夏天，像是哼着小曲的少年，恶作剧般在大地上洒满每一种灿烂的颜色。';
    expect(segment(text, 'cmn', /([﹐。，])/)).toEqual([
      '人人', '生', '而', '自由', '﹐', '在', '尊', '嚴', '和', '權', '利', '上', '一律', '平等', '。',
      '他', '們', '賦', '有', '理性', '和', '良心', '﹐', '並', '應', '以', '兄弟', '關', '係', '的', '精神', '互相', '對', '待', '。',
      '人民', '的', '意志', '是', '政府', '权力', '的', '基础', '，', '这', '一', '意志', '应', '以', '定期', '的', '和', '真正', '的', '选举', '予以', '表现', '。',
      '夏天', '，', '像是', '哼', '着', '小曲', '的', '少年', '，', '恶作剧', '般', '在', '大', '地上', '洒满', '每', '一种', '灿烂', '的', '颜色', '。',
    ]);
    expect(pieces('我从2025年开始学习Rust语言', 'cmn')).toEqual(['我', '从', '2025', '年', '开始', '学习', 'Rust', '语言']);
  });

  it('splits a jieba piece of Han characters (charabia keeps whole only pieces of ASCII letters and digits)', () => {
    // jieba-wasm's dictionary is jieba's dict.txt: both idioms are words of it (tag l), so jieba's
    // cut keeps them; charabia 0.9.9 checks is_ascii_alphanumeric, so its greedy split runs on them.
    expect(jieba.tag('生而自由', false)).toEqual([{ word: '生而自由', tag: 'l' }]);
    expect(jieba.cut('人人生而自由', false)).toEqual(['人人', '生而自由']);
    expect(jieba.cut('上一律平等', false)).toEqual(['上', '一律平等']);
    expect(pieces('人人生而自由', 'cmn')).toEqual(['人人', '生', '而', '自由']);
    expect(pieces('上一律平等', 'cmn')).toEqual(['上', '一律', '平等']);
  });
});

describe('the Chinese greedy split', () => {
  /** jieba's has_word for a gram of Han characters: cut_all lists every dictionary word of the text, the whole text when it is one. */
  const hasWord = (gram: string): boolean => jieba.cut_all(gram).includes(gram);

  /** charabia's cut_for_search on one piece, with has_word from cut_all. */
  function greedy(piece: string): string[] {
    const chars = [...piece];
    if (chars.length <= 2 || /^[A-Za-z0-9]+$/.test(piece)) return [piece];
    const out: string[] = [];
    for (let at = 0; at < chars.length; ) {
      const size = [2, 3].find((n) => at + n <= chars.length && hasWord(chars.slice(at, at + n).join(''))) ?? 1;
      out.push(chars.slice(at, (at += size)).join(''));
    }
    return out;
  }

  it('finds the dictionary words cut_all finds, for every piece of long words and idioms jieba keeps whole', () => {
    const words = [
      '中华人民共和国', '生而自由', '一律平等', '四面八方', '自言自语', '一心一意', '恶作剧', '人工智能',
      '北京大学', '联合国教科文组织', '不以为然', '迫不及待', '心平气和', '全心全意', '总而言之', '哈尔滨工业大学',
      '社会主义', '中国科学院', '电子计算机', '世界卫生组织', '南京市长江大桥', '莫名其妙', '七上八下',
      '毛泽东思想', '澳大利亚', '另一方面', '苏维埃政府', '万平方公里',
    ];
    const texts = [...words, ...jieba.cut_all(words.join('')).filter((word) => [...word].length >= 3)];
    let checked = 0;
    for (const text of texts) {
      const cut = jieba.cut(text, false);
      const expected = cut.flatMap(greedy);
      expect(pieces(text, 'cmn'), text).toEqual(expected);
      checked += cut.filter((piece) => [...piece].length > 2).length;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it("gives jieba-wasm's cut with each piece split greedily on seeded random text", () => {
    const next = mulberry32(7);
    const pool = [...'中国人民共和大学生活动作用电子计算机世界卫生组织北京上海的了是在不有和一个我们时间问题', 'a', 'Z', '7', ' ', '，', '。', '-', '𠀀'];
    for (let i = 0; i < 400; i++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 24) }, () => pool[Math.floor(next() * pool.length)]).join('');
      expect(pieces(text, 'cmn'), text).toEqual(jieba.cut(text, false).flatMap(greedy));
    }
  });

  it('takes 2 characters that are a word, else 3 that are, else 1', () => {
    expect(pieces('恶作剧', 'cmn')).toEqual(['恶作剧']);
    expect(pieces('共和国', 'cmn')).toEqual(['共和', '国']);
    expect(pieces('澳大利亚', 'cmn')).toEqual(['澳大利', '亚']);
    expect(pieces('毛泽东思想', 'cmn')).toEqual(['毛泽东', '思想']);
  });

  it('counts characters beyond the BMP as one, as jieba does', () => {
    expect(pieces('𠀀中国人民𠀀银行', 'cmn')).toEqual(['𠀀', '中国', '人民', '𠀀', '银行']);
  });
});

describe('edge cases', () => {
  it('gives no boundary in an empty or one-character run', () => {
    for (const language of ['cmn', 'jpn', 'kor'] as const) {
      expect(dictionaryWordStarts('', language)).toEqual([]);
      expect(dictionaryWordStarts('中', language)).toEqual([]);
      expect(dictionaryWordStarts('𠀀', language)).toEqual([]);
    }
  });

  it('segments a lone surrogate as U+FFFD, without throwing', () => {
    expect(pieces('中\ud800国人民', 'cmn')).toEqual(['中', '\ud800', '国', '人民']);
    expect(pieces('日本\ud800語𠀋を', 'jpn')).toEqual(['日本', '\ud800', '語', '𠀋', 'を']);
    expect(pieces('\udc00한국어', 'kor')).toEqual(['\udc00', '한국어']);
  });
});

describe('long runs', () => {
  const chinese =
    '清晨的城市还没有完全醒来街道两旁的早餐店已经冒出了热气地铁站里上班的人们低头看着手机偶尔抬头确认站名' +
    '图书馆九点开门门口排队的大多是准备考试的学生午后的阳光照在老街的石板路上游客们在小店里挑选手工艺品';
  const japanese =
    '朝の駅はいつも混雑していて電車が来るたびに人の波が押し寄せる駅前の本屋で新しい小説を買ってから喫茶店で' +
    'コーヒーを飲みながら読み始めた午後になると雨が降り出したので傘を持っていなかった私は近くの店で傘を買った';
  const repeatTo = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

  /** The starts of jieba's pieces of the whole run, each piece split as alone. */
  const wholeRunStarts = (run: string): number[] => {
    const expected: number[] = [];
    let at = 0;
    for (const piece of jieba.cut(run, false)) {
      if (at > 0) expected.push(at);
      expected.push(...dictionaryWordStarts(piece, 'cmn').map((start) => at + start));
      at += piece.length;
    }
    return expected;
  };

  it('segments a 50,000-character Chinese run with each jieba piece split as alone', () => {
    const run = repeatTo(chinese, 50_000);
    expect(dictionaryWordStarts(run, 'cmn')).toEqual(wholeRunStarts(run));
  });

  it('gives the boundaries of the whole run for a Chinese run cut into windows (200,000 characters)', () => {
    const run = repeatTo(chinese, 200_000);
    expect(dictionaryWordStarts(run, 'cmn')).toEqual(wholeRunStarts(run));
  });

  it('gives the boundaries of the whole run for a Japanese run cut into windows (70,000 characters)', () => {
    const run = repeatTo(japanese, 70_000);
    const whole = linderaTokenizer('jpn').tokenize(run) as { byteStart: number }[];
    // The run is all 3-byte characters of the BMP.
    expect(dictionaryWordStarts(run, 'jpn')).toEqual(whole.slice(1).map((token) => token.byteStart / 3));
  });

  it('keeps a piece longer than a window whole', () => {
    expect(dictionaryWordStarts('ア'.repeat(70_000), 'jpn')).toEqual([]);
  });
});
