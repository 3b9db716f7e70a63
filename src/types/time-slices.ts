/**
 * Turns for the event loop during long work on the thread answering requests. A multi-search of
 * thousands of queries is thousands of searches on that thread; run back to back they held it for
 * seconds (issue 25), and so did a list of 250,000 documents, and an export of as many. Between two
 * queries (or documents), once SLICE_MS of work has passed, the work waits one turn, so `/health`
 * and other requests are answered meanwhile.
 * An environment borrowed for a search stays open only until its turn ends
 * (`IndexReader.open`): what must outlive a pause is leased (`IndexReader.lease`).
 * In the browser build the turn is a MessageChannel task (browser/host/timers.ts).
 */

// imported, not the global: the browser build (browser/vite.config.ts) has no global setImmediate
// and swaps this module for its own
import { setImmediate } from 'node:timers';

/** Work between two turns given to the event loop, in ms. */
const SLICE_MS = 10;

export class TimeSlices {
  private sliceStart = performance.now();

  /** Gives the event loop a turn if this slice has run SLICE_MS or more. */
  async pause(): Promise<void> {
    if (performance.now() - this.sliceStart < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceStart = performance.now();
  }
}
