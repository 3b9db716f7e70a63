/**
 * The segmenter thread (segmenter-channel.ts): runs jieba and lindera for every other thread of
 * the process, its dictionaries loaded on first use and kept until it idles for `idleMs` (then
 * the thread ends and its host starts a fresh one, see segmenter-channel.ts).
 */
import { workerData } from 'node:worker_threads';
import { serveSegmenter } from './segmenter-channel.js';

const { buffer, idleMs } = workerData as { buffer: SharedArrayBuffer; idleMs?: number };
serveSegmenter(buffer, idleMs);
