// jieba's segmentation in TypeScript (src/kernels/dictionaries/jieba.ts) against jieba-wasm 2.4.0
// itself: its cut without HMM, and its dictionary lookup (has_word) as jieba-wasm's search mode and
// cut_all reveal it, on everyday sentences, edge cases, seeded random strings and long texts.
// fresh process: it checks that the dictionary is not loaded before first use.
import { describe, expect, it } from 'vitest';

import { DictionaryEntries } from '../../../src/kernels/dictionaries/jieba-dict-text.js';
import { withEmbeddedJiebaDictionary } from '../../../src/kernels/dictionaries/jieba-embedded.js';
import { jiebaCut, jiebaDictionaryLoaded, jiebaHasWord, loadJiebaDictionary } from '../../../src/kernels/dictionaries/jieba.js';
import { mulberry32 } from '../../helpers/random.js';
import { jieba } from '../../helpers/reference-segmenters.js';


/** Where jieba-wasm's pieces of `cut(text, false)` start, in UTF-16 units (it returns U+FFFD, one unit, for a lone surrogate). */
function referenceStarts(text: string): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const piece of jieba.cut(text, false)) {
    starts.push(at);
    at += piece.length;
  }
  expect(at).toBe(text.length);
  return starts;
}

function expectSameCut(texts: readonly string[]): void {
  for (const text of texts) expect(jiebaCut(text), JSON.stringify(text)).toEqual(referenceStarts(text));
}

/**
 * jieba-wasm's `tokenize(text, 'search', false)` as has_word decides it: before each piece of more
 * than 2 characters, its 2-character substrings that are words, then, past 3, its 3-character
 * ones. Built here from jiebaCut's pieces and jiebaHasWord, in characters (code points).
 */
function expectedSearchTokens(text: string): { word: string; start: number; end: number }[] {
  const characters = [...wellFormed(text)];
  const starts = jiebaCut(text);
  const tokens: { word: string; start: number; end: number }[] = [];
  let start = 0;
  for (let piece = 0; piece < starts.length; piece++) {
    const width = [...text.slice(starts[piece], starts[piece + 1] ?? text.length)].length;
    for (const size of [2, 3]) {
      if (width <= size) continue;
      for (let i = start; i + size <= start + width; i++) {
        const word = characters.slice(i, i + size).join('');
        if (jiebaHasWord(word)) tokens.push({ word, start: i, end: i + size });
      }
    }
    tokens.push({ word: characters.slice(start, start + width).join(''), start, end: start + width });
    start += width;
  }
  return tokens;
}

/** `text` with each lone surrogate replaced by U+FFFD, as jieba-wasm receives it. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** charabia 0.9.9's test text and bench/dictionary-segmenters.ts's everyday sentences. */
const SENTENCES = [
  '人人生而自由﹐在尊嚴和權利上一律平等。他們賦有理性和良心﹐並應以兄弟關係的精神互相對待。',
  '人民的意志是政府权力的基础，这一意志应以定期的和真正的选举予以表现。',
  '夏天，像是哼着小曲的少年，恶作剧般在大地上洒满每一种灿烂的颜色。',
  '清晨的城市还没有完全醒来，街道两旁的早餐店已经冒出了热气。地铁站里，上班的人们低头看着手机，偶尔抬头确认站名。',
  '图书馆九点开门，门口排队的大多是准备考试的学生。午后的阳光照在老街的石板路上，游客们在小店里挑选手工艺品。',
  '晚上，公园里有人跳舞，也有人沿着湖边慢慢散步。这个季节的天气变化很快，出门前最好带一把伞。',
  '搜索引擎需要把一句话切分成词语，才能在用户输入关键词时找到相关的文档。',
  '我们中出了一个叛徒',
  '南京市长江大桥',
  '研究生命的起源',
  '结婚的和尚未结婚的',
  '今天纽约的天气真好啊，京华大酒店的张尧经理吃了一只北京烤鸭。后天纽约的天气不好，昨天纽约的天气也不好，北京烤鸭真好吃',
];

const MIXED = [
  '我从2025年开始学习Rust语言',
  'AT&T的A型血和4S店、1号店',
  'C++和C#都是编程语言，Node.js也是',
  '3.14159是圆周率，100%的把握，-5℃的早晨',
  'e-mail地址是user_name@example.com，电话010-12345678',
  '2024年12月31日23:59:59，iPhone15Pro价格8999元',
  'abc def\tghi\r\njkl\n\r\r\nmno\u3000中文\u00a0空格',
  '中文 English 混排 text with 空格',
  'ＡＢＣ１２３全角字母和数字',
  '，。！？、；：“”（）《》【】——……',
  '+#&._%-', '...', '---', '1.2.3', 'a.b.c', '#1', '%%', '&&', '__init__', 'x86_64', 'U.S.A.',
  'γ射线和α粒子', 'ǎ拼音的声调', '日本語のテキストと中文', '한국어와中文', 'Ελληνικά中文',
  '😀中国😀人民👍🏽', '𠀀𠀁中国𪚥𫠠', '\uD800中\uDC00国\uDBFF', 'a\uD83D', '\uDE00b', '\uD83D\uD83D\uDE00',
  'a', '中', ' ', '\r\n', '\r', '\n\n', '', 'ab', 'a1b2c3', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  'AA制', 'BB机', 'T恤衫', 'X光', 'QQ号码', 'PM2.5超标', 'Wi-Fi密码', 'K歌之王', 'U盘', '3D打印', 'B超',
];

const HANZI = [
  ...'的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坐集编宝谈府拉黑且随格尽剑讲布杀微怕母调局根曾准团段终乐切级克精哪官示冷域',
];
const OTHERS = [...'abcxyzABCXYZ0123456789+#&._%-,!?;:()/@\'"', ...'，。！？、；：“”（）《》', ' ', ' ', '\t', '\n', '\r', '\r\n', '\u3000', 'Ａ', '１', 'あ', 'ア', '한', 'é', '😀', '𠀀', '𪚥', '\uD800', '\uDC00'];

/** `count` strings of 1 to `maxLength` characters, mostly hanzi, from `seed`. */
function randomStrings(seed: number, count: number, maxLength: number): string[] {
  const next = mulberry32(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  return Array.from({ length: count }, () => {
    let text = '';
    for (let length = 1 + Math.floor(next() * maxLength); length > 0; length--) text += next() < 0.75 ? pick(HANZI) : pick(OTHERS);
    return text;
  });
}

describe('loading', () => {
  // Must stay the file's first test: the module keeps its dictionary for the thread's lifetime.
  it('loads the dictionary on first use, not on import', () => {
    expect(jiebaDictionaryLoaded()).toBe(false);
    loadJiebaDictionary();
    expect(jiebaDictionaryLoaded()).toBe(true);
  });
});

describe('jiebaCut is jieba-wasm cut(text, false)', () => {
  it('on everyday Chinese sentences', () => {
    expectSameCut(SENTENCES);
    expectSameCut(SENTENCES.flatMap((sentence) => sentence.split(/[\s\p{P}]+/u)).filter((run) => run !== ''));
    expect(jiebaCut('我们中出了一个叛徒')).toEqual([0, 2, 3, 4, 5, 7]);
  });

  it('on Chinese mixed with ASCII words, digits, punctuation, whitespace, other scripts, astral characters and lone surrogates', () => {
    expectSameCut(MIXED);
    expect(jiebaCut('')).toEqual([]);
    // A run of letters and digits that are one-character pieces is one piece; "\r\n" is one piece.
    expect(jiebaCut('a1b2c3 \r\nx')).toEqual([0, 6, 7, 9]);
  });

  it('breaking exact ties toward the longer word, as Rust\'s max_by over (weight, end) does', () => {
    // Each has two routes of equal weight: freq(AB) × freq(C) = freq(A) × freq(BC).
    const ties = ['垫盘盏', '二版二', '仪化铅', '咸化成', '齐化雨', '海通海', '通通通', '友党友', '雾台衔', '光光光', '茼山回路转毚', '敞篷车轱辘'];
    expectSameCut(ties);
    expect(jiebaCut('通通通')).toEqual([0, 2]);
  });

  it('on 4,000 seeded random strings of hanzi, ASCII, punctuation, whitespace and other characters', () => {
    expectSameCut(randomStrings(1, 3000, 12));
    expectSameCut(randomStrings(2, 1000, 60));
  });

  it('on texts of several thousand characters', () => {
    const everyday = SENTENCES.join('');
    expectSameCut([
      randomStrings(3, 400, 20).join(''),
      randomStrings(4, 300, 30).join(' '),
      everyday.repeat(8),
      // One Han block of 20,000 characters: the route runs over all of it.
      everyday.replace(/[\s\p{P}]+/gu, '').repeat(20).slice(0, 20_000),
      // One block of ASCII letters, digits and +#&._%- (dictionary words such as "AT&T" and "C++" among them).
      Array.from({ length: 3000 }, (_, i) => 'aAT&T1.5%b-_#+xC++'[(i * 7) % 18]).join(''),
    ]);
  });
});

describe('jiebaHasWord is jieba-rs has_word', () => {
  it("as jieba-wasm's search mode asks it of each 2- and 3-character substring of a piece", () => {
    for (const text of [...SENTENCES, ...MIXED, ...randomStrings(6, 1500, 16), randomStrings(7, 200, 30).join('')]) {
      expect(jieba.tokenize(text, 'search', false), JSON.stringify(text)).toEqual(expectedSearchTokens(text));
    }
  });

  it("as jieba-wasm's cut_all reveals it for strings of hanzi (a string is among its words exactly when it is one)", () => {
    const next = mulberry32(8);
    const hanzi = HANZI.join('');
    for (let i = 0; i < 3000; i++) {
      const start = Math.floor(next() * (hanzi.length - 4));
      // Half of them adjacent in the pool (rarely words), half taken from the sentences (often words).
      const source = i % 2 === 0 ? hanzi : SENTENCES[i % SENTENCES.length]!.replace(/[\s\p{P}]+/gu, '');
      const from = i % 2 === 0 ? start : Math.floor(next() * (source.length - 4));
      const word = [...source].slice(from, from + 1 + Math.floor(next() * 4)).join('');
      expect(jiebaHasWord(word), word).toBe(jieba.cut_all(word).includes(word));
    }
  });

  it("for exactly the words of dict.txt's lines, their prefixes and extensions answered too", () => {
    const words = new Set<string>();
    withEmbeddedJiebaDictionary((text) => {
      for (const entries = new DictionaryEntries(text); entries.next(); ) words.add(String.fromCharCode(...entries.word.subarray(0, entries.length)));
    });
    expect(words.size).toBe(349_045);
    let sampled = 0;
    for (const word of words) {
      if (sampled++ % 20 !== 0) continue;
      for (const probe of [word, word.slice(0, -1), word.slice(1), word + '的', word + 'a', '的' + word]) expect(jiebaHasWord(probe), probe).toBe(words.has(probe));
    }
    for (const word of ['AT&T', 'C++', 'c#', 'γ射线', '1号店', 'AT&', 'T&T', 'A', 'a', '1', '.', 'xyz', 'PM2.5', '', '\uD800', '中\uDC00', '😀', '𠀀']) {
      expect(jiebaHasWord(word), word).toBe(words.has(word));
    }
  });
});
