// The segmenter thread and its clients (src/workers/segmenter-channel.ts): the built thread
// (dist/src/workers/segmenter-thread.js) answers as the local segmenters would, for several
// client threads at once and for batches larger than one request; a host learns when a client
// first needs a thread it has not started; a client whose thread never answers segments locally;
// a thread idle with dictionaries hands over to a successor and ends.
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localSegmenter, type Run } from '../../../src/kernels/run-segmenter.js';
import { createSegmenterBuffer, markSegmenterGone, remoteSegmenter, retireSegmenter, whenSegmenterWanted } from '../../../src/workers/segmenter-channel.js';

const THREAD = new URL('../../../dist/src/workers/segmenter-thread.js', import.meta.url);

const RUNS: Run[] = [
  { text: '我们在北京大学学习中文', language: 'cmn' },
  { text: 'クーポンで無料で頂きました', language: 'jpn' },
  { text: '한국어의형태해석을실시할수있습니다', language: 'kor' },
  { text: '进击的巨人', language: 'jpn' },
  { text: 'a\ud800北京', language: 'cmn' },
];

let buffer: SharedArrayBuffer;
let thread: Worker;

beforeAll(() => {
  buffer = createSegmenterBuffer();
  thread = new Worker(THREAD, { workerData: { buffer } });
});
afterAll(async () => {
  await thread.terminate();
});

describe('segmenter thread', () => {
  it('answers each run as the local segmenters do', () => {
    expect(remoteSegmenter(buffer)(RUNS)).toEqual(localSegmenter(RUNS));
  });

  it('answers a batch larger than one request, in order', () => {
    const runs = Array.from({ length: 3000 }, (_, i) => RUNS[i % RUNS.length]!).concat([{ text: '北京大学'.repeat(40_000), language: 'cmn' }]);
    const answers = remoteSegmenter(buffer)(runs);
    expect(answers).toHaveLength(runs.length);
    expect(answers.slice(0, 5)).toEqual(localSegmenter(RUNS));
    expect(answers[2999]).toEqual(localSegmenter([RUNS[2999 % RUNS.length]!])[0]);
    expect(answers[3000]).toHaveLength(80_000 - 1);
  });

  it('serves several client threads at once, each its own answers', async () => {
    const client = `
      const { workerData, parentPort } = require('node:worker_threads');
      import(workerData.channel).then(({ remoteSegmenter }) => {
        const segment = remoteSegmenter(workerData.buffer);
        const answers = [];
        for (let i = 0; i < 50; i++) answers.push(segment([{ text: workerData.text.repeat(1 + (i % 5)), language: workerData.language }]));
        parentPort.postMessage(answers);
      });`;
    const channel = new URL('../../../dist/src/workers/segmenter-channel.js', import.meta.url).href;
    const jobs: Run[] = [RUNS[0]!, RUNS[1]!, RUNS[2]!];
    const results = await Promise.all(
      jobs.map(
        (run) =>
          new Promise<number[][][]>((resolve, reject) => {
            const worker = new Worker(client, { eval: true, workerData: { buffer, channel, text: run.text, language: run.language } });
            worker.once('message', (answers: number[][][]) => {
              resolve(answers);
              void worker.terminate();
            });
            worker.once('error', reject);
          }),
      ),
    );
    results.forEach((answers, j) => {
      const run = jobs[j]!;
      answers.forEach((answer, i) => expect(answer).toEqual(localSegmenter([{ text: run.text.repeat(1 + (i % 5)), language: run.language }])));
    });
  });

  it('tells its host when a client first asks for a thread not started yet, and answers once the host starts it', async () => {
    const lazy = createSegmenterBuffer();
    let wanted = false;
    const asked = whenSegmenterWanted(lazy).then(() => (wanted = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(wanted).toBe(false);
    const client = `
      const { workerData, parentPort } = require('node:worker_threads');
      import(workerData.channel).then(({ remoteSegmenter }) => parentPort.postMessage(remoteSegmenter(workerData.buffer, { startMs: 20000, answerMs: 20000 })(workerData.runs)));`;
    const channel = new URL('../../../dist/src/workers/segmenter-channel.js', import.meta.url).href;
    const worker = new Worker(client, { eval: true, workerData: { buffer: lazy, channel, runs: RUNS } });
    const answered = new Promise<number[][]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await asked;
    const started = new Worker(THREAD, { workerData: { buffer: lazy } });
    expect(await answered).toEqual(localSegmenter(RUNS));
    await Promise.all([worker.terminate(), started.terminate()]);
  });

  it('ends the wait for a client once the channel is marked gone, so a closed host is not kept alive', async () => {
    const closing = createSegmenterBuffer();
    let ended = false;
    const waiting = whenSegmenterWanted(closing).then(() => (ended = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended).toBe(false);
    markSegmenterGone(closing);
    await waiting;
    expect(ended).toBe(true);
  });

  it('segments locally at once, without its time-outs, once the thread is marked gone', async () => {
    const gone = createSegmenterBuffer();
    const exiting = new Worker(THREAD, { workerData: { buffer: gone } });
    expect(remoteSegmenter(gone)(RUNS.slice(0, 1))).toEqual(localSegmenter(RUNS.slice(0, 1)));
    await exiting.terminate();
    markSegmenterGone(gone);
    const started = performance.now();
    expect(remoteSegmenter(gone, { startMs: 60_000, answerMs: 60_000 })(RUNS)).toEqual(localSegmenter(RUNS));
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('segments locally when no thread serves the buffer', () => {
    const segment = remoteSegmenter(createSegmenterBuffer(), { startMs: 2000, answerMs: 2000 });
    expect(segment(RUNS)).toEqual(localSegmenter(RUNS));
    // and keeps doing so without waiting for the thread again
    const started = performance.now();
    expect(segment(RUNS)).toEqual(localSegmenter(RUNS));
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('says when it held a dictionary idle for idleMs, then hands over to its successor between requests and ends', async () => {
    const shared = createSegmenterBuffer();
    const old = new Worker(THREAD, { workerData: { buffer: shared, generation: 0, idleMs: 300 } });
    const idle = new Promise<unknown>((resolve) => old.once('message', resolve));
    const exited = new Promise<number>((resolve) => old.once('exit', resolve));
    expect(remoteSegmenter(shared)(RUNS.slice(0, 1))).toEqual(localSegmenter(RUNS.slice(0, 1)));
    expect(await idle).toBe('idle');
    const successor = new Worker(THREAD, { workerData: { buffer: shared, generation: 1, idleMs: 300 } });
    retireSegmenter(shared);
    // asked at once, from this thread, blocked: answered by one thread or the other, without the host
    expect(remoteSegmenter(shared)(RUNS.slice(0, 1))).toEqual(localSegmenter(RUNS.slice(0, 1)));
    expect(await exited).toBe(0);
    expect(remoteSegmenter(shared)(RUNS.slice(0, 1))).toEqual(localSegmenter(RUNS.slice(0, 1)));
    await successor.terminate();
  });

  it('never says idle while it holds no dictionary', async () => {
    const waiting = new Worker(THREAD, { workerData: { buffer: createSegmenterBuffer(), idleMs: 50 } });
    let said = false;
    waiting.once('message', () => (said = true));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(said).toBe(false);
    await waiting.terminate();
  });
});
