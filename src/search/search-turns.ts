/**
 * One search started per turn of the event loop. Searches run on the thread answering requests,
 * most within one turn; when many arrive together (one poll of the sockets), run back to back
 * they made every other request's next step (a `/health`, an enqueue's body, its commit's
 * callback) wait for all of them: 8 search clients held an enqueue ~300 ms, 24 held it 0.5–2.8 s.
 * A search that finds the turn already taken by another waits, first come first served, for a
 * turn of its own, so the sockets are polled between two searches. A search on a thread with no
 * other search this turn starts at once: a lone search pays nothing.
 */

// imported, not the global: the browser build swaps `node:timers` for its own (browser/host/timers.ts)
import { setImmediate } from 'node:timers';

const waiting: (() => void)[] = [];
/** A search started during the current turn (cleared by the next check phase). */
let taken = false;

/** Resolves once the caller may start its search: at once if this turn has none yet, else in a turn of its own. */
export function searchTurn(): Promise<void> {
  if (!taken && waiting.length === 0) {
    take();
    return Promise.resolve();
  }
  return new Promise<void>((resolve) => waiting.push(resolve));
}

function take(): void {
  taken = true;
  setImmediate(nextTurn);
}

/** A check phase: the turn is over; the first waiting search gets the next one (an immediate set now runs after the next poll). */
function nextTurn(): void {
  taken = false;
  const next = waiting.shift();
  if (next === undefined) return;
  take();
  next();
}
