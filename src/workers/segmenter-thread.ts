/**
 * The segmenter thread (segmenter-channel.ts): runs jieba and lindera for every other thread of
 * the process, its dictionaries loaded on first use and kept for the process's life.
 */
import { workerData } from 'node:worker_threads';
import { serveSegmenter } from './segmenter-channel.js';

serveSegmenter((workerData as { buffer: SharedArrayBuffer }).buffer);
