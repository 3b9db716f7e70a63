// Start-up import progress: log lines when standard error is no terminal (one per index, one per
// tenth of the bytes, never one per tick), a redrawn bar on a terminal.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { amount, importProgress, lineProgress, terminalProgress } from '../../../src/logs/import-progress.js';

/** A writable that records what is written, a terminal when `isTTY`. */
function sink(isTTY: boolean): Writable & { isTTY: boolean; columns: number; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  }) as Writable & { isTTY: boolean; columns: number; text: () => string };
  stream.isTTY = isTTY;
  stream.columns = 120;
  stream.text = () => chunks.join('');
  return stream;
}

describe('amount', () => {
  it('counts indexes and shows bytes in MiB, or KiB below a MiB', () => {
    expect(amount(3, 10, 'indexes')).toBe('3/10 indexes');
    expect(amount(5 * 1024 * 1024, 40 * 1024 * 1024, 'bytes')).toBe('5.0/40.0 MiB');
    expect(amount(512, 2048, 'bytes')).toBe('0.5/2.0 KiB');
  });
});

describe('lineProgress', () => {
  it('writes a line per index, with what was done, and none for a step under way', () => {
    const lines: string[] = [];
    const progress = lineProgress((line) => lines.push(line));
    progress.phase('importing indexes', 2, 'indexes');
    progress.update(0, 'movies: extracting words');
    progress.update(1, 'movies: 1200 documents');
    progress.update(1, 'books: extracting documents');
    progress.update(2, 'books: 3 documents');
    progress.stop('dump imported: 2 indexes, 1203 documents, 7 tasks');
    expect(lines).toEqual([
      'importing indexes: 0/2 indexes',
      'importing indexes: 1/2 indexes (movies: 1200 documents)',
      'importing indexes: 2/2 indexes (books: 3 documents)',
      'dump imported: 2 indexes, 1203 documents, 7 tasks',
    ]);
  });

  it('writes a line per tenth of a large total, however many updates there are', () => {
    const lines: string[] = [];
    const progress = lineProgress((line) => lines.push(line));
    const total = 100 * 1024 * 1024;
    progress.phase('unpacking the snapshot', total, 'bytes');
    for (let read = 0; read <= total; read += 64 * 1024) progress.update(read);
    expect(lines).toHaveLength(11);
    expect(lines[1]).toBe('unpacking the snapshot: 10.0/100.0 MiB');
    expect(lines[10]).toBe('unpacking the snapshot: 100.0/100.0 MiB');
  });
});

describe('terminalProgress', () => {
  it('draws a bar that reaches 100 % with the detail, then the summary on its own line', () => {
    const stream = sink(true);
    const progress = terminalProgress(stream);
    progress.phase('importing indexes', 4, 'indexes');
    progress.update(2, 'movies: extracting words');
    progress.update(4, 'books: 3 documents');
    progress.stop('dump imported: 4 indexes');
    const text = stream.text();
    expect(text).toContain('importing indexes [██████████████████████████████] 100% 4/4 indexes books: 3 documents');
    expect(text).toMatch(/\x1b\[/); // redrawn in place with escape sequences
    expect(text.endsWith('dump imported: 4 indexes\n')).toBe(true);
  });
});

describe('importProgress', () => {
  it('draws the bar on a terminal and logs lines otherwise', () => {
    const terminal = sink(true);
    const logged: string[] = [];
    importProgress(terminal, (line) => logged.push(line)).phase('unpacking the dump', 10, 'bytes');
    expect(terminal.text()).toContain('unpacking the dump [');
    expect(logged).toEqual([]);

    const file = sink(false);
    importProgress(file, (line) => logged.push(line)).phase('unpacking the dump', 10, 'bytes');
    expect(file.text()).toBe('');
    expect(logged).toEqual(['unpacking the dump: 0.0/0.0 KiB']);
  });
});
