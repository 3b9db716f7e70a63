/**
 * Plain TypeScript reference of the word-extraction kernel (assembly/extract.ts): the same
 * columns from the same chunk, computed from a TokenBatch with Maps and per-token strings. The
 * tests compare the kernel (src/kernels/extract.ts) against it.
 */
import { INFO_WHOLE_FIELD, MAX_POSITION, MAX_WORD_BYTES, VALUE_GAP, type ExtractedChunk, type ExtractInput } from '../extract.js';
import { TOKEN_RECORD_U32, TokenField, TokenKind, type TokenBatch } from '../token-records.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function referenceExtractChunk(input: ExtractInput, batch: TokenBatch, stopWords: ReadonlySet<string>): ExtractedChunk {
  const { strings, stringDocs, stringFields, nDocs } = input;
  const distinct = new Map<string, number>();
  const wordList: Uint8Array[] = [];
  const docTokenStarts = [0];
  const tokenSlots: number[] = [];
  const tokenPlaces: number[] = [];
  const docWordStarts = [0];
  const docWords: number[] = [];
  const docMasks: number[] = [];
  const docInfos: number[] = [];
  const docPairStarts = [0];
  const pairs: number[] = [];
  // records of string s: from firstRecord[s] to firstRecord[s + 1]
  const firstRecord = new Array<number>(strings.length + 1).fill(batch.count);
  for (let r = batch.count - 1; r >= 0; r--) firstRecord[batch.records[r * TOKEN_RECORD_U32 + TokenField.String]!] = r;
  for (let s = strings.length - 1; s >= 0; s--) firstRecord[s] = Math.min(firstRecord[s]!, firstRecord[s + 1]!);
  for (let doc = 0; doc < nDocs; doc++) {
    const slotOf = new Map<number, number>(); // chunk word → slot
    const lastOf = new Map<number, number>();
    const countOf = new Map<number, number>(); // in first-word order
    const firstToken = tokenPlaces.length;
    const firstEntry = docWords.length;
    for (let s = 0; s < strings.length; s++) {
      if (stringDocs[s] !== doc) continue; // a pass over the strings per document: quadratic, but plain
      const field = stringFields[s]!;
      const textBytes = encoder.encode(strings[s]!);
      const previous = lastOf.get(field);
      const base = previous === undefined ? 0 : previous + VALUE_GAP;
      let last = base;
      let count = countOf.get(field) ?? 0;
      for (let r = firstRecord[s]!; r < firstRecord[s + 1]!; r++) {
        const at = r * TOKEN_RECORD_U32;
        if (batch.records[at + TokenField.Kind] !== TokenKind.Word) continue;
        const position = base + batch.records[at + TokenField.Position]!;
        const length = batch.records[at + TokenField.NormLength]!;
        if (position >= MAX_POSITION || length === 0 || length > MAX_WORD_BYTES) continue;
        const start = batch.records[at + TokenField.Start]!;
        if (stopWords.has(decoder.decode(textBytes.subarray(start, start + batch.records[at + TokenField.Length]!)).normalize('NFKD'))) continue;
        last = position;
        count++;
        const bytes = batch.normalized.subarray(batch.records[at + TokenField.NormStart]!, batch.records[at + TokenField.NormStart]! + length);
        const key = Buffer.from(bytes).toString('latin1');
        let word = distinct.get(key);
        if (word === undefined) {
          distinct.set(key, (word = wordList.length));
          wordList.push(bytes);
        }
        let slot = slotOf.get(word);
        if (slot === undefined) {
          slotOf.set(word, (slot = slotOf.size));
          docWords.push(word);
          docMasks.push(0);
          docInfos.push(position);
        }
        docMasks[firstEntry + slot] = (docMasks[firstEntry + slot]! | (1 << Math.min(field, 31))) >>> 0;
        docInfos[firstEntry + slot] = Math.min(docInfos[firstEntry + slot]!, position);
        tokenSlots.push(slot);
        tokenPlaces.push(((field << 16) | position) >>> 0);
      }
      lastOf.set(field, last);
      if (count > 0) countOf.set(field, count);
    }
    for (let t = firstToken; t < tokenPlaces.length; t++) {
      if (countOf.get(tokenPlaces[t]! >>> 16) === 1) docInfos[firstEntry + tokenSlots[t]!] = (docInfos[firstEntry + tokenSlots[t]!]! | INFO_WHOLE_FIELD) >>> 0;
    }
    for (const [field, count] of countOf) pairs.push(field, count);
    docTokenStarts.push(tokenPlaces.length);
    docWordStarts.push(docWords.length);
    docPairStarts.push(pairs.length);
  }
  const wordStarts = [0];
  for (const word of wordList) wordStarts.push(wordStarts[wordStarts.length - 1]! + word.length);
  const wordBytes = new Uint8Array(wordStarts[wordStarts.length - 1]!);
  wordList.forEach((word, w) => wordBytes.set(word, wordStarts[w]!));
  return {
    wordBytes,
    wordStarts: Uint32Array.from(wordStarts),
    docTokenStarts: Uint32Array.from(docTokenStarts),
    tokenSlots: Int32Array.from(tokenSlots),
    tokenPlaces: Uint32Array.from(tokenPlaces),
    docWordStarts: Uint32Array.from(docWordStarts),
    docWords: Uint32Array.from(docWords),
    docMasks: Uint32Array.from(docMasks),
    docInfos: Uint32Array.from(docInfos),
    docPairStarts: Uint32Array.from(docPairStarts),
    pairs: Uint32Array.from(pairs),
  };
}
