/**
 * The fuzz run's report as text: figures, counts per route and status, and each failure class
 * with its first request, its shrunk counterexample and the command replaying it.
 */
import type { FailureClass, FuzzReport } from './harness.js';
import type { FuzzRequest } from './arbitraries.js';

const clip = (text: string, max = 160) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

export function describeRequest({ raw }: FuzzRequest): string {
  const headers = raw.headers.map(([name, value]) => `${name}: ${clip(JSON.stringify(value), 60)}`).join('; ');
  const body = raw.body === undefined ? 'no body' : `body ${raw.body.length} B ${clip(JSON.stringify(raw.body.subarray(0, 400).toString('latin1')))}`;
  return `${raw.method} ${clip(JSON.stringify(raw.target))} [${headers}] ${body}`;
}

function describeClass(key: string, entry: FailureClass): string[] {
  const lines = [`✗ ${key} ×${entry.count}`];
  lines.push(`    routes: ${[...entry.routes].sort().join(', ')}`);
  lines.push(`    answer: ${clip(entry.failure.detail, 300)}`, `    first:  ${describeRequest(entry.first)}`);
  if (entry.shrunk !== undefined) {
    lines.push(`    shrunk: ${describeRequest(entry.shrunk.request)}`);
    lines.push(`    replay: FUZZ_SEED=${entry.shrunk.seed} FUZZ_PATH=${entry.shrunk.path} npm run fuzz`);
  }
  return lines;
}

export function formatReport(report: FuzzReport): string {
  const lines = [
    `fuzz seed ${report.seed}: ${report.generated} generated, ${report.requests} sent (with shrinking) in ${(report.ms / 1000).toFixed(1)} s`,
    `server VmRSS: ${report.rss.baselineKb} kB at start, ${report.rss.peakKb} kB at peak`,
    '',
    'requests per route (answers by status or failure kind):',
  ];
  for (const [route, counts] of [...report.perRoute].sort(([a], [b]) => a.localeCompare(b))) {
    const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
    const statuses = [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status}:${n}`).join(' ');
    lines.push(`  ${route.padEnd(52)} ${String(total).padStart(5)}  ${statuses}`);
  }
  lines.push('', `${report.classes.size} failure classes:`);
  for (const [key, entry] of report.classes) lines.push(...describeClass(key, entry));
  return lines.join('\n');
}
