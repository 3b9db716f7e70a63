/**
 * The dictionary segmenters (src/kernels/dictionary-segmenters.ts): per dictionary, the time and
 * RSS growth of its first use, each in a fresh process (Japanese and Korean share lindera's module,
 * so `jpn+kor` loads Korean after Japanese); then characters per second on everyday sentences cut
 * into runs at spaces and punctuation, as the tokenizer hands them over, and on runs of 50,000
 * characters without a separator (and of 200,000 for Chinese, which go in windows).
 *
 *   npm run build && npx tsc -p bench/tsconfig.json && node dist/bench/dictionary-segmenters.js
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { DictionaryLanguage } from '../src/kernels/dictionary-segmenters.js';

const SENTENCES: Record<DictionaryLanguage, string> = {
  cmn:
    '清晨的城市还没有完全醒来，街道两旁的早餐店已经冒出了热气。地铁站里，上班的人们低头看着手机，偶尔抬头确认站名。' +
    '图书馆九点开门，门口排队的大多是准备考试的学生。午后的阳光照在老街的石板路上，游客们在小店里挑选手工艺品。' +
    '晚上，公园里有人跳舞，也有人沿着湖边慢慢散步。这个季节的天气变化很快，出门前最好带一把伞。' +
    '搜索引擎需要把一句话切分成词语，才能在用户输入关键词时找到相关的文档。',
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
const LANGUAGES = Object.keys(SENTENCES) as DictionaryLanguage[];
const MiB = 2 ** 20;

const rss = () => process.memoryUsage().rss;

/** In a child: the first use of `languages` in turn, as JSON on stdout. */
async function child(languages: DictionaryLanguage[]): Promise<void> {
  const before = rss();
  let started = performance.now();
  const { dictionaryWordStarts } = await import('../src/kernels/dictionary-segmenters.js');
  const report: Record<string, { ms: number; mib: number }> = { import: { ms: performance.now() - started, mib: (rss() - before) / MiB } };
  for (const language of languages) {
    const from = rss();
    started = performance.now();
    dictionaryWordStarts(SENTENCES[language].slice(0, 8), language);
    report[language] = { ms: performance.now() - started, mib: (rss() - from) / MiB };
  }
  process.stdout.write(JSON.stringify(report));
}

/** Characters per second of `runs`, segmented again and again for about `seconds`. */
function throughput(segment: (run: string) => unknown, runs: readonly string[], seconds: number): number {
  const chars = runs.reduce((sum, run) => sum + run.length, 0);
  for (const run of runs) segment(run);
  let rounds = 0;
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    for (const run of runs) segment(run);
    rounds++;
  }
  return (chars * rounds) / ((performance.now() - started) / 1000);
}

const repeatTo = (text: string, length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length);
const fmt = (perSecond: number) => `${(perSecond / 1000).toFixed(0)}k chars/s`;

if (process.argv[2] === '--child') {
  await child(process.argv.slice(3) as DictionaryLanguage[]);
} else {
  const self = fileURLToPath(import.meta.url);
  for (const languages of [[], ['cmn'], ['jpn'], ['kor'], ['jpn', 'kor']]) {
    const report = JSON.parse(execFileSync(process.execPath, [self, '--child', ...languages], { encoding: 'utf8' })) as Record<string, { ms: number; mib: number }>;
    console.log(
      `load ${languages.join('+') || '(import only)'}: ` +
        Object.entries(report)
          .map(([step, { ms, mib }]) => `${step} ${ms.toFixed(0)} ms, RSS +${mib.toFixed(0)} MiB`)
          .join('; '),
    );
  }
  const { dictionaryWordStarts } = await import('../src/kernels/dictionary-segmenters.js');
  for (const language of LANGUAGES) {
    const segment = (run: string) => dictionaryWordStarts(run, language);
    const runs = SENTENCES[language].split(/[\s\p{P}]+/u).filter((run) => run !== '');
    let line = `${language}: sentences (${runs.length} runs, ${runs.join('').length} chars) ${fmt(throughput(segment, runs, 2))}`;
    const run = repeatTo(SENTENCES[language].replace(/[\s\p{P}]+/gu, ''), 50_000);
    const started = performance.now();
    segment(run);
    line += `; one 50,000-char run ${(performance.now() - started).toFixed(0)} ms the first time, then ${fmt(throughput(segment, [run], 2))}`;
    if (language === 'cmn') line += `; one 200,000-char run ${fmt(throughput(segment, [repeatTo(run, 200_000)], 2))}`;
    console.log(line);
  }
  console.log(`RSS after all: ${(rss() / MiB).toFixed(0)} MiB`);
}
