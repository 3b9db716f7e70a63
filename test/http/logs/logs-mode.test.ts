// --experimental-logs-mode (cli-config.md §2.3): HUMAN (the default) writes readable lines to
// stderr, JSON one JSON record a line (tracing-subscriber's shape, as v1.50's).
import { describe, expect, it } from 'vitest';
import { startServer } from '../../helpers/server.js';

async function startupLines(args: string[]): Promise<string[]> {
  const server = await startServer({ args, env: { QUARRY_LOG_LEVEL: 'INFO' } });
  try {
    // the start-up line may reach the pipe after the first answer
    for (let i = 0; i < 100 && !server.output().includes('Server listening at'); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    return server
      .output()
      .split('\n')
      .filter((line) => line.includes('Server listening at'));
  } finally {
    await server.dispose();
  }
}

describe('--experimental-logs-mode', () => {
  it('writes human-readable lines by default', async () => {
    const [line] = await startupLines([]);
    // tracing-subscriber's timestamp: microseconds
    expect(line).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z  INFO meilisearch: Server listening at http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('writes one JSON record a line in JSON mode, shaped as tracing-subscriber writes them', async () => {
    const [line] = await startupLines(['--experimental-logs-mode', 'json']);
    const record = JSON.parse(line!) as { timestamp: string; level: string; fields: { message: string }; target: string };
    expect(Object.keys(record)).toEqual(['timestamp', 'level', 'fields', 'target']);
    expect(record.fields.message).toMatch(/^Server listening at http:\/\/127\.0\.0\.1:\d+$/);
    expect(record.level).toBe('INFO');
    expect(record.target).toBe('meilisearch');
  });
});
