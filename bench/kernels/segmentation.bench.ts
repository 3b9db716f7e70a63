// Micro-benchmark of the dictionary segmentation pre-pass (src/kernels/segmentation.ts), in this
// thread, on synthetic texts: 40,000 characters of English with one Chinese word in the middle
// (the common case in documentation: only that word's run is segmented), 5,000 characters of
// pure Japanese (every run between 。 and 、 goes to lindera) and of Thai (charabia's word list,
// run by run). The dictionaries are loaded before timing; the breaks found are
// printed. The English case also runs on the UTF-8 bytes.
import { bench, describe } from 'vitest';

import { Lang } from '../../src/kernels/languages.js';
import { pushWordBreaks, pushWordBreaksOfBytes } from '../../src/kernels/segmentation.js';

const ENGLISH =
  'The package manager resolves dependencies before it unpacks anything, so a broken archive ' +
  'is reported early. Run the command again with --verbose to see which mirror was used, and ' +
  'check the configuration file in /etc for stale entries. ';
const JAPANESE =
  '吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。何でも薄暗いじめじめした所で' +
  'ニャーニャー泣いていた事だけは記憶している。吾輩はここで始めて人間というものを見た、しかも' +
  'あとで聞くとそれは書生という人間中で一番獰悪な種族であったそうだ。';

function repeatTo(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

const THAI = 'ภาษาไทยง่ายนิดเดียว ข้าพเจ้าชอบกินข้าวเหนียวมะม่วงมากที่สุดในฤดูร้อน ';

const half = repeatTo(ENGLISH, 20_000);
const english = `${half.slice(0, half.lastIndexOf(' ') + 1)}豆腐 ${half}`;
const japanese = repeatTo(JAPANESE, 5_000);
const thai = repeatTo(THAI, 5_000);
const englishBytes = new TextEncoder().encode(english);

const out: number[] = [];
pushWordBreaks(out, 0, english, Lang.Detect);
pushWordBreaks(out, 0, japanese, Lang.Detect);
const japaneseBreaks = out.length / 2 - 1;
out.length = 0;
pushWordBreaks(out, 0, thai, Lang.Detect);
console.log(
  `segmentation: ${english.length} chars of English with one CJK word, ${japanese.length} chars of Japanese ` +
    `(${japaneseBreaks} breaks), ${thai.length} chars of Thai (${out.length / 2} breaks)`,
);

describe('word breaks', () => {
  bench('40,000 chars of English with one CJK word', () => {
    out.length = 0;
    pushWordBreaks(out, 0, english, Lang.Detect);
  });

  bench('the same, as UTF-8 bytes', () => {
    out.length = 0;
    pushWordBreaksOfBytes(out, 0, englishBytes, Lang.Detect);
  });

  bench('5,000 chars of Japanese', () => {
    out.length = 0;
    pushWordBreaks(out, 0, japanese, Lang.Detect);
  });

  bench('5,000 chars of Thai', () => {
    out.length = 0;
    pushWordBreaks(out, 0, thai, Lang.Detect);
  });
});
