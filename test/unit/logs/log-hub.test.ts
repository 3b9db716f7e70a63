// The live stream's human lines (src/logs/log-hub.ts) as tracing-subscriber's default formatter
// writes v1.50's: timestamp in microseconds, the level right-aligned, the target, the message, then
// the event's other fields as ` key=value` (strings quoted, numbers bare, an error by its message).
import { describe, expect, it } from 'vitest';
import { LogHub } from '../../../src/logs/log-hub.js';
import { parseTarget } from '../../../src/logs/targets.js';

async function streamed(log: (hub: LogHub) => void): Promise<string[]> {
  const hub = new LogHub('off');
  const lines: string[] = [];
  hub.subscribe(parseTarget('info'), 'human', (chunk) => lines.push(chunk), () => {});
  log(hub);
  await new Promise((resolve) => setImmediate(resolve));
  return lines;
}

describe('human log lines', () => {
  it('write the fields after the message as key=value, strings quoted and an error by its message', async () => {
    const err = Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    const lines = await streamed((hub) => hub.logger.warn({ target: 'index_scheduler', tasks: 3, dry: false, index: 'my "movies"', err }, 'a batch failed'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z {2}WARN index_scheduler: a batch failed tasks=3 dry=false index="my \\"movies\\"" error=disk full code="ENOSPC"\n$/);
  });

  it('write a line without fields as the message alone', async () => {
    const lines = await streamed((hub) => hub.logger.info({ target: 'quarry::http' }, 'listening'));
    expect(lines[0]).toMatch(/Z {2}INFO quarry::http: listening\n$/);
  });
});
