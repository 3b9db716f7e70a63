/**
 * What the vector benches over HTTP ask the server under test: JSON calls, waiting for its task
 * queue to drain, and its CPU time.
 */
import { readFileSync } from 'node:fs';

/** User + system CPU seconds of a process so far, every thread (Linux clock ticks of 1/100 s). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The JSON answer of a call; throws when its status is not a success. */
export async function json(url: string, method: string, body?: string | object): Promise<any> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: typeof body === 'string' || body === undefined ? body : JSON.stringify(body) });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Waits until no task is enqueued or processing; throws when one failed. */
export async function waitIdle(url: string): Promise<void> {
  for (;;) {
    const { total } = await json(`${url}/tasks?statuses=enqueued,processing&limit=1`, 'GET');
    if (total === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { results } = await json(`${url}/tasks?statuses=failed&limit=1`, 'GET');
  if (results.length > 0) throw new Error(`a task failed: ${JSON.stringify(results[0].error)}`);
}
