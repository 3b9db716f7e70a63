/**
 * The soak's search load: N clients, each one keep-alive connection sending the next search as
 * soon as the last one answered (closed loop), every latency filed under the phase it started in,
 * every non-200 answer or socket error counted.
 */
import { Agent, request } from 'node:http';

export interface PhaseLog {
  latencies: number[];
  errors: number;
  firstError?: string;
}

export interface SearchLoad {
  /** Files the next requests under a new phase. */
  phase(name: string): void;
  log(name: string): PhaseLog;
  stop(): Promise<void>;
}

const TIMEOUT_MS = 30_000;

function post(agent: Agent, url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, timeout: TIMEOUT_MS, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Starts `clients` loops over `bodies` (each client from its own offset) against `url`, in phase `first`. */
export function startSearchLoad(url: string, bodies: readonly string[], clients: number, first: string): SearchLoad {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const logs = new Map<string, PhaseLog>();
  let current: PhaseLog;
  let running = true;
  const client = async (offset: number) => {
    for (let i = offset; running; i++) {
      const log = current;
      const started = performance.now();
      try {
        const status = await post(agent, url, bodies[i % bodies.length]!);
        if (status !== 200) throw new Error(`status ${status}`);
        log.latencies.push(performance.now() - started);
      } catch (err) {
        log.errors += 1;
        log.firstError ??= (err as Error).message;
      }
    }
  };
  const phase = (name: string) => {
    current = { latencies: [], errors: 0 };
    logs.set(name, current);
  };
  phase(first);
  const loops = Array.from({ length: clients }, (_, k) => client(Math.floor((k * bodies.length) / clients)));
  return {
    phase,
    log: (name) => logs.get(name)!,
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}
