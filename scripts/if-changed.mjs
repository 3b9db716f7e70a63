// node scripts/if-changed.mjs <stamp> <input>... -- <command>
//
// Runs a build step's command unless its output is up to date: the stamp file was written by the
// last successful run, and no input (file, or folder, whose time changes when an entry is added,
// removed or renamed) has changed since that run started. `npm test` builds first so that it
// tests what the sources say; right after `npm ci` (whose `prepare` just built everything) or a
// build, it then skips the steps that have nothing to do.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const split = args.indexOf('--');
if (split < 2 || split === args.length - 1) {
  process.stderr.write('usage: if-changed.mjs <stamp> <input>... -- <command>\n');
  process.exit(2);
}
const [stamp, ...inputs] = args.slice(0, split);
const command = args.slice(split + 1).join(' ');

/** The latest change time under `entry` (itself included), in ms; a missing input counts as a change. */
function latestChange(entry) {
  let stats;
  try {
    stats = statSync(entry);
  } catch {
    return Infinity;
  }
  let latest = Math.max(stats.mtimeMs, stats.ctimeMs);
  if (stats.isDirectory()) {
    for (const child of readdirSync(entry)) {
      if (child === 'node_modules') continue;
      latest = Math.max(latest, latestChange(path.join(entry, child)));
    }
  }
  return latest;
}

function stampTime() {
  try {
    return statSync(stamp).mtimeMs;
  } catch {
    return -Infinity;
  }
}

const builtFrom = stampTime();
if (inputs.every((input) => latestChange(input) < builtFrom)) {
  process.stdout.write(`${path.basename(stamp)}: up to date, not rebuilt\n`);
  process.exit(0);
}
// the stamp carries the time the run started: an input edited during the run is newer than it
const started = new Date();
const run = spawnSync(command, { shell: true, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
mkdirSync(path.dirname(stamp), { recursive: true });
closeSync(openSync(stamp, 'a'));
utimesSync(stamp, started, started);
