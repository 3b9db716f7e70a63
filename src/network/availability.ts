/**
 * Which remotes a sharded network may send searches to (network.md §7.6, the enterprise edition's
 * availability table). A remote whose search failed with a 5xx is unavailable for 30 s; failing
 * again while unavailable doubles the period, up to 5 min. `POST /network/control`
 * `statusChangeForRemote` sets a status by hand: available at once, or unavailable until set
 * back. Kept in memory only, as v1.50 keeps it: a restart makes every remote available again.
 */
export type RemoteStatus = 'available' | 'unavailable';

const FIRST_PERIOD_MS = 30_000;
const LONGEST_PERIOD_MS = 5 * 60_000;

interface Down {
  /** epoch ms when the remote is available again (Infinity: until set by hand) */
  until: number;
  /** the last period, which the next failure doubles */
  period: number;
}

export class RemoteAvailability {
  private readonly down = new Map<string, Down>();

  status(name: string, now = Date.now()): RemoteStatus {
    const entry = this.down.get(name);
    return entry !== undefined && entry.until > now ? 'unavailable' : 'available';
  }

  /** A search on `name` failed with a 5xx status. */
  markFailed(name: string, now = Date.now()): void {
    const entry = this.down.get(name);
    if (entry !== undefined && entry.until === Infinity) return;
    const period = entry !== undefined && entry.until > now ? Math.min(entry.period * 2, LONGEST_PERIOD_MS) : FIRST_PERIOD_MS;
    this.down.set(name, { until: now + period, period });
  }

  /** `statusChangeForRemote`: available now, or unavailable until set back. */
  set(name: string, status: RemoteStatus): void {
    if (status === 'available') this.down.delete(name);
    else this.down.set(name, { until: Infinity, period: LONGEST_PERIOD_MS });
  }
}
