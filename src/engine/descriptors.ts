/**
 * File descriptors, which index environments spend two at a time (data and lock files): how many
 * the process may hold, and a check that a few are still free before LMDB opens an environment.
 */
import { closeSync, openSync, readFileSync } from 'node:fs';

/** Descriptors an environment's opening takes, with room for other threads. */
const SPARE_DESCRIPTORS = 8;

/**
 * Throws EMFILE unless SPARE_DESCRIPTORS descriptors can be had now. lmdb-js (3.5) must never be
 * the one to meet EMFILE: when its environment opening fails, it frees the environment's state
 * and then reads it while closing, and the process dies of SIGSEGV with nothing in the log.
 */
export function checkSpareDescriptors(): void {
  const fds: number[] = [];
  try {
    for (let i = 0; i < SPARE_DESCRIPTORS; i++) fds.push(openSync('/dev/null', 'r'));
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

/** The process's soft limit of open descriptors (`ulimit -n`), where Linux tells it, else null. */
export function openFilesLimit(): number | null {
  let limits: string;
  try {
    limits = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  const soft = /^Max open files\s+(\d+)/m.exec(limits)?.[1];
  return soft === undefined ? null : Number(soft);
}
