/**
 * One owner per db path: LMDB lets several processes open the same environments, and two
 * schedulers writing one database would corrupt what each believes it committed. A server and a
 * library (or two libraries in one process) therefore take `<db path>/quarry.lock` first: created
 * exclusively, holding the owner's pid, removed on close. A lock whose process is gone (a crash,
 * kill -9) is stale and taken over.
 */
import { closeSync, openSync, readFileSync, realpathSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DbLockedError extends Error {
  override name = 'DbLockedError';
}

export interface DbLock {
  release(): void;
}

/** Real db paths this process holds (a pid check cannot tell two owners in one process apart). */
const heldHere = new Set<string>();

/** The lock's file name inside the db path. */
export const LOCK_FILE = 'quarry.lock';

function lockFile(dbPath: string): string {
  return path.join(dbPath, LOCK_FILE);
}

/** Whether `pid` runs (a zombie, dead but not yet reaped, does not: it holds nothing). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // field 3 of /proc/<pid>/stat is the state; the name before it is parenthesised and may hold spaces
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no procfs: trust kill(0)
  }
}

function ownerOf(file: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function refusal(dbPath: string, owner: string): DbLockedError {
  return new DbLockedError(
    `The database at "${dbPath}" is already open in ${owner}. ` +
      'A Quarry server and the Quarry library cannot use the same db path at once: stop the other one or use another db path.',
  );
}

/**
 * Takes the db path (which must exist) for this process.
 * @throws DbLockedError when a live process, or this one, already holds it.
 */
export function lockDbPath(dbPath: string): DbLock {
  // the real path: through a symlink, one database took a second owner in this process, and the
  // first one's release removed the lock under the second (audit)
  const absolute = path.resolve(dbPath);
  const real = realpathSync(absolute);
  if (heldHere.has(real)) throw refusal(absolute, 'this process');
  const file = lockFile(real);
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = ownerOf(file);
      // a second attempt that meets a lock lost a race for a stale one
      if ((owner !== null && owner !== process.pid && alive(owner)) || attempt > 0) throw refusal(absolute, `another process (pid ${owner ?? 'unknown'})`);
      unlinkSync(file); // stale: its owner is gone
      continue;
    }
    writeSync(fd, String(process.pid));
    closeSync(fd);
    heldHere.add(real);
    return {
      release: () => {
        if (!heldHere.delete(real)) return;
        if (ownerOf(file) === process.pid) unlinkSync(file);
      },
    };
  }
}
