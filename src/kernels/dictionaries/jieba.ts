/**
 * jieba's Chinese segmentation as jieba-wasm 2.4.0 runs it (jieba-rs at 7f3b273, between 0.7.0 and
 * 0.7.1), written again in TypeScript over a compact copy of its dictionary (jieba-words.ts, read
 * from jieba-wasm's own module file: jieba-embedded.ts), for jieba-wasm's memory: its first use
 * grows RSS by about 70 MiB, this one's by 16 MiB in a fresh process (7 MiB once other code has
 * run), in about 140 ms against 200, and it cuts 5 times as fast. Same pieces: test/kernels/
 * dictionaries/jieba.test.ts checks them against jieba-wasm.
 *
 * `cut(text, hmm = false)`: the text splits into blocks of Han characters, ASCII letters and
 * digits and `+#&._%-` (jieba's RE_HAN_DEFAULT) and blocks of anything else. Anything else is a
 * piece per character, except that "\r\n" is one (RE_SKIP_DEFAULT). A Han block is segmented by
 * jieba's route: from each character, the dictionary words starting there (a character starting
 * none is a word of frequency 1), and from the end backwards the best sum of ln(freq) - ln(total)
 * to the block's end, a tie going to the longer word. Following the route, consecutive
 * one-character pieces that are ASCII letters or digits join into one piece.
 *
 * Offsets are UTF-16 indexes; a lone surrogate is one character, read as U+FFFD as jieba-wasm
 * reads it.
 */
import { isSurrogatePair } from '../utf16.js';
import { compiledDictionaryPath, moduleSource, openCompiledDictionary } from './compiled.js';
import { DictionaryEntries } from './jieba-dict-text.js';
import { jiebaModuleFile, withEmbeddedJiebaDictionary } from './jieba-embedded.js';
import { JiebaWords } from './jieba-words.js';

/** The compiled dictionary's name (build/dictionaries/jieba.bin). */
export const JIEBA_COMPILED = 'jieba';

let words: JiebaWords | undefined;
/**
 * Per UTF-16 index of a Han block (from its start): the best route's weight to the block's end, and
 * where its first piece ends. Kept from call to call, as long as the longest block yet.
 */
let routeWeights = new Float64Array(256);
let routeEnds = new Int32Array(256);
/** The words starting at one place: their ends and weights. */
let edgeEnds = new Int32Array(0);
let edgeWeights = new Float64Array(0);

/**
 * Loads jieba's dictionary in this thread, if it is not loaded yet: the build's compiled copy when
 * it is there and compiled from this jieba-wasm, else from jieba-wasm's module file.
 */
export function loadJiebaDictionary(): void {
  if (words !== undefined) return;
  const compiled = openCompiledDictionary(compiledDictionaryPath(JIEBA_COMPILED), jiebaSource());
  words = compiled === undefined ? readPackagedJiebaWords() : JiebaWords.fromParts(compiled.parts, compiled.pages);
  edgeEnds = new Int32Array(words.longest);
  edgeWeights = new Float64Array(words.longest);
}

/** What the compiled dictionary is compiled from: jieba-wasm's module file. */
export function jiebaSource(): string {
  return moduleSource(jiebaModuleFile());
}

/** jieba's words read from jieba-wasm's module file, as the compiled dictionary is made from. */
export function readPackagedJiebaWords(): JiebaWords {
  return withEmbeddedJiebaDictionary((text) => JiebaWords.read(new DictionaryEntries(text)));
}

/** Drops jieba's dictionary from this thread (closing its file): a later use loads it again. */
export function unloadJiebaDictionary(): void {
  words?.close();
  words = undefined;
}

export function jiebaDictionaryLoaded(): boolean {
  return words !== undefined;
}

/** jieba-rs's `has_word`: whether `word` is in jieba's dictionary (a lone surrogate reads as U+FFFD). */
export function jiebaHasWord(word: string): boolean {
  loadJiebaDictionary();
  return words!.has(word);
}

/**
 * The UTF-16 indexes where the pieces of jieba-rs's `cut(text, false)` start, increasing: 0 first
 * unless `text` is empty, one per piece.
 */
export function jiebaCut(text: string): number[] {
  loadJiebaDictionary();
  const starts: number[] = [];
  for (let at = 0; at < text.length; ) {
    if (isHanBlockCharacter(text.codePointAt(at)!)) {
      let end = at;
      for (let point; end < text.length && isHanBlockCharacter((point = text.codePointAt(end)!)); ) end += point > 0xffff ? 2 : 1;
      cutHanBlock(text, at, end, starts);
      at = end;
    } else {
      starts.push(at);
      at += text.charCodeAt(at) === 0x0d && text.charCodeAt(at + 1) === 0x0a ? 2 : isSurrogatePair(text, at) ? 2 : 1;
    }
  }
  return starts;
}

/** Appends to `starts` the starts of the pieces of the Han block `text[from, to)`. */
function cutHanBlock(text: string, from: number, to: number, starts: number[]): void {
  const dictionary = words!;
  const length = to - from;
  if (length + 1 > routeWeights.length) {
    routeWeights = new Float64Array(Math.max(length + 1, routeWeights.length * 2));
    routeEnds = new Int32Array(routeWeights.length);
  }
  routeWeights[length] = 0;
  for (let end = to; end > from; ) {
    const at = end - 2 >= from && isSurrogatePair(text, end - 2) ? end - 2 : end - 1;
    const count = dictionary.prefixes(text, at, to, edgeEnds, edgeWeights);
    let bestWeight: number;
    let bestEnd: number;
    if (count === 0) {
      bestWeight = dictionary.unknownWeight + routeWeights[end - from]!;
      bestEnd = end;
    } else {
      bestWeight = edgeWeights[0]! + routeWeights[edgeEnds[0]! - from]!;
      bestEnd = edgeEnds[0]!;
      // Rust's max_by over (weight, end): a later (longer) word wins unless the best so far weighs more.
      for (let edge = 1; edge < count; edge++) {
        const weight = edgeWeights[edge]! + routeWeights[edgeEnds[edge]! - from]!;
        if (!(bestWeight > weight)) {
          bestWeight = weight;
          bestEnd = edgeEnds[edge]!;
        }
      }
    }
    routeWeights[at - from] = bestWeight;
    routeEnds[at - from] = bestEnd;
    end = at;
  }
  let pending = -1;
  for (let at = from; at < to; ) {
    const end = routeEnds[at - from]!;
    if (end === at + 1 && isAsciiAlphanumeric(text.charCodeAt(at))) {
      if (pending < 0) pending = at;
    } else {
      if (pending >= 0) starts.push(pending);
      pending = -1;
      starts.push(at);
    }
    at = end;
  }
  if (pending >= 0) starts.push(pending);
}

/** Whether jieba's RE_HAN_DEFAULT takes the character: CJK ideographs, ASCII letters and digits, `+#&._%-`. */
function isHanBlockCharacter(point: number): boolean {
  if (point < 0x80) return isAsciiAlphanumeric(point) || point === 0x2b || point === 0x23 || point === 0x26 || point === 0x2e || point === 0x5f || point === 0x25 || point === 0x2d;
  return (
    (point >= 0x3400 && point <= 0x4dbf) ||
    (point >= 0x4e00 && point <= 0x9fff) ||
    (point >= 0xf900 && point <= 0xfaff) ||
    (point >= 0x20000 && point <= 0x2a6df) ||
    (point >= 0x2a700 && point <= 0x2ebef) ||
    (point >= 0x2f800 && point <= 0x2fa1f)
  );
}

function isAsciiAlphanumeric(unit: number): boolean {
  return (unit >= 0x30 && unit <= 0x39) || (unit >= 0x41 && unit <= 0x5a) || (unit >= 0x61 && unit <= 0x7a);
}
