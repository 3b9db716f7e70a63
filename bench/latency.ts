/** Latency measurement and the number formats shared by the peer tables and the soak. */

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
  samples: number;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `work` once per input to warm up, then `rounds` more times timed; milliseconds. */
export async function measure<T>(inputs: readonly T[], rounds: number, work: (input: T) => unknown): Promise<Latency> {
  for (const input of inputs) await work(input);
  const latencies: number[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const input of inputs) {
      const t = performance.now();
      await work(input);
      latencies.push(performance.now() - t);
    }
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), samples: latencies.length };
}

export const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** `a` as a multiple of `b` (the Quarry figure), or a dash without one. */
export const ratio = (a: number, b: number | undefined) => (b === undefined ? '—' : `${fmt(a / b, 1)}×`);

