/**
 * Progress of the imports run before the server starts (`--import-dump`, `--import-snapshot`),
 * which can take minutes: a progress bar (cli-progress) when standard error is a terminal, log
 * lines otherwise (a file or a pipe gets no control characters and no line per tick).
 *
 * The importer names a phase with its total (indexes, bytes), then reports how much of it is done
 * and, optionally, what it is doing (`movies: extracting words`). The bar redraws at most 10 times
 * a second; the log writes a line when the phase starts, at each new tenth of it (each unit when
 * there are ten or fewer, such as indexes), and when the importer stops.
 */
import { createRequire } from 'node:module';
import type { SingleBar } from 'cli-progress';

export type ProgressUnit = 'indexes' | 'bytes';

export interface ImportProgress {
  /** A phase begins: `total` units to go through. */
  phase(name: string, total: number, unit: ProgressUnit): void;
  /** `done` units of the phase are finished; `detail` says what is under way. */
  update(done: number, detail?: string): void;
  /** The import ended; `summary` is its last word. */
  stop(summary: string): void;
}

const KIB = 1024;
const MIB = 1024 * 1024;

/** `3/10 indexes`, `12.5/40.0 MiB` (KiB below a MiB) */
export function amount(done: number, total: number, unit: ProgressUnit): string {
  if (unit !== 'bytes') return `${done}/${total} ${unit}`;
  const [size, name] = total < MIB ? [KIB, 'KiB'] : [MIB, 'MiB'];
  return `${(done / size).toFixed(1)}/${(total / size).toFixed(1)} ${name}`;
}

interface Phase {
  name: string;
  total: number;
  unit: ProgressUnit;
}

/** A bar on `stream`, a terminal. */
export function terminalProgress(stream: NodeJS.WritableStream): ImportProgress {
  let bar: SingleBar | null = null;
  let phase: Phase | null = null;
  const end = () => {
    bar?.stop();
    bar = null;
  };
  return {
    phase(name, total, unit) {
      end();
      phase = { name, total, unit };
      // loaded with the first bar (CommonJS, so synchronously): a server's start does not pay for it
      const { Presets, SingleBar } = createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');
      bar = new SingleBar({
        stream,
        format: `${name} [{bar}] {percentage}% {amount} {detail}`,
        barsize: 30,
        hideCursor: true,
        // the line is redrawn in place: a shorter detail must not leave the end of a longer one
        linewrap: false,
        etaBuffer: 20,
      }, Presets.shades_classic);
      bar.start(Math.max(total, 1), 0, { amount: amount(0, total, unit), detail: '' });
    },
    update(done, detail = '') {
      if (bar === null || phase === null) return;
      bar.update(Math.min(done, Math.max(phase.total, 1)), { amount: amount(done, phase.total, phase.unit), detail });
    },
    stop(summary) {
      end();
      stream.write(`${summary}\n`);
    },
  };
}

/** Log lines through `log`, for standard error that is not a terminal. */
export function lineProgress(log: (line: string) => void): ImportProgress {
  let phase: Phase | null = null;
  let reported = -1;
  /** the step of `done` worth a line: each unit up to ten, else each tenth */
  const step = (done: number, total: number) => (total <= 10 ? done : Math.floor((done * 10) / total));
  return {
    phase(name, total, unit) {
      phase = { name, total, unit };
      reported = step(0, total);
      log(`${name}: ${amount(0, total, unit)}`);
    },
    update(done, detail) {
      if (phase === null) return;
      const current = step(done, phase.total);
      if (current <= reported) return;
      reported = current;
      log(`${phase.name}: ${amount(done, phase.total, phase.unit)}${detail === undefined || detail === '' ? '' : ` (${detail})`}`);
    },
    stop(summary) {
      phase = null;
      log(summary);
    },
  };
}

/** The bar when `stream` is a terminal, log lines through `log` otherwise. */
export function importProgress(stream: NodeJS.WritableStream & { isTTY?: boolean }, log: (line: string) => void): ImportProgress {
  return stream.isTTY === true ? terminalProgress(stream) : lineProgress(log);
}
