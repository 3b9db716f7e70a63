// Extraction ahead of a write over worker threads (src/workers/ahead-ports.ts and the built
// extract-ahead-thread.js): a worker posts at most MAX_AHEAD (16) parts beyond what the write took,
// unless the write has read the parts' lines (`noted`), whose parts it then posts without the write
// taking any; the write then takes every part in order, and the end.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type * as AheadPortsModule from '../../../src/workers/ahead-ports.js';
import type * as PoolModule from '../../../src/workers/pool.js';
import type * as ProtocolModule from '../../../src/workers/ahead-protocol.js';
import { AHEAD_PART_DOCS } from '../../../src/engine/words/ahead-parts.js';
import { defaultSettings } from '../../../src/types/settings.js';

/** The built modules: piscina loads the extraction worker from dist/. */
const dist = <T>(file: string) => import(new URL(`../../../dist/src/${file}`, import.meta.url).href) as Promise<T>;

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-ahead-ports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PARTS = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `posted()` reaches `count` (or 10 s), then a while longer for any part past it. */
async function settledAt(posted: () => number, count: number): Promise<number> {
  for (let i = 0; i < 500 && posted() < count; i++) await sleep(20);
  await sleep(300);
  return posted();
}

describe('extraction ahead over worker threads', () => {
  it('holds a worker 16 parts ahead of what the write took, and lets it post the parts of the lines the write has read', async () => {
    const [{ WorkerPools }, { AheadPorts, aheadCongestion, startAhead, stopAhead }, { postedSlot }] = await Promise.all([
      dist<typeof PoolModule>('workers/pool.js'),
      dist<typeof AheadPortsModule>('workers/ahead-ports.js'),
      dist<typeof ProtocolModule>('workers/ahead-protocol.js'),
    ]);
    // over the 1 MiB below which a write extracts its documents itself
    const lines = Array.from({ length: PARTS * AHEAD_PART_DOCS }, (_, i) => JSON.stringify({ id: i, title: `title ${i} of a document long enough to make the payload weigh` }));
    const file = path.join(dir, 'payload.ndjson');
    writeFileSync(file, lines.join('\n'));
    const pools = new WorkerPools(1);
    try {
      const started = startAhead(pools, [{ op: 'add', source: { file }, method: 'replace', primaryKey: 'id', skipMissing: false }])!;
      expect(started).not.toBeNull();
      const { state } = started.ends;
      const posted = () => Atomics.load(state, postedSlot(0));
      const ports = new AheadPorts(started.ends);
      ports.start(defaultSettings(), []);
      expect(await settledAt(posted, 16)).toBe(16);
      // the write has read the lines of parts 0 to 30 (part 30 starts at its last line)
      ports.noted(0, 30 * AHEAD_PART_DOCS);
      expect(await settledAt(posted, 31)).toBe(31);
      const taken = [];
      for (let part = ports.next(); part !== null; part = ports.next()) taken.push(part.first);
      expect(taken).toEqual(Array.from({ length: PARTS }, (_, i) => i * AHEAD_PART_DOCS));
      stopAhead(state);
      await started.done;
      // every part posted once; part 16 waited for the write (16 ahead), then part 31; the
      // parts after them could be posted as soon as they were made, or had to wait again
      const { attempts, blocking } = aheadCongestion(started.ends);
      expect(attempts).toBe(PARTS);
      expect(blocking).toBeGreaterThanOrEqual(2);
      expect(blocking).toBeLessThanOrEqual(PARTS - 16);
    } finally {
      await pools.close();
    }
  });
});
