/**
 * An extraction worker (a piscina task module, see extraction-pool.ts): takes the write's
 * settings, then extracts each chunk of documents the index writer posts on its port and posts
 * the chunk's words back (their buffers transferred), until the writer closes the port or the
 * write is over (STOP).
 */
import { workerData } from 'piscina';
import { ChunkWordsExtractor } from '../engine/words/chunk-words.js';
import { shippedBuffers, type ShippedWords } from '../engine/words/shipped-words.js';
import { postedSlot, STOP, type ChunkResult, type ExtractionTask, type ToWorker } from './extraction-protocol.js';
import { useSegmenterThread } from './segmenter-channel.js';

useSegmenterThread(workerData as { segmenter?: SharedArrayBuffer } | undefined);

/** How often an idle worker looks whether the write is over without closing its port (it died). */
const STOP_POLL_MS = 1000;

/** Extracts chunks until the write ends; answers how many. */
export default function extractChunks({ port, state, thread }: ExtractionTask): Promise<number> {
  let count = 0;
  let extractor: ChunkWordsExtractor | null = null;
  return new Promise((resolve) => {
    const end = () => {
      clearInterval(poll);
      port.close();
      resolve(count);
    };
    const poll = setInterval(() => {
      if (Atomics.load(state, STOP) !== 0) end();
    }, STOP_POLL_MS);
    port.on('close', end);
    port.on('message', (message: ToWorker) => {
      if ('settings' in message) {
        extractor = new ChunkWordsExtractor(message.settings, message.searchFields);
        return;
      }
      let words: ShippedWords | null = null;
      try {
        if (extractor !== null) words = extractor.extract(message.bytes);
      } catch {
        // the writer extracts the chunk's documents itself
      }
      const result: ChunkResult = { seq: message.seq, words };
      port.postMessage(result, words === null ? [] : shippedBuffers(words));
      count++;
      Atomics.add(state, postedSlot(thread), 1);
      Atomics.notify(state, postedSlot(thread));
    });
  });
}
