/**
 * The segmenter thread (segmenter-channel.ts): runs jieba and lindera for every other thread of
 * the process, its dictionaries loaded on first use and kept until they sit unused for `idleMs`:
 * it then posts 'idle' to its host, which starts a successor and retires this thread (see
 * segmenter-channel.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serveSegmenter } from './segmenter-channel.js';

const { buffer, generation, idleMs } = workerData as { buffer: SharedArrayBuffer; generation?: number; idleMs?: number };
serveSegmenter(buffer, { generation, idleMs, onIdle: () => parentPort?.postMessage('idle') });
