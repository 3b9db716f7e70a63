import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['test/**/*.test.ts'],
    benchmark: { include: ['bench/**/*.bench.ts'] },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores: HTTP tests each start a real server process, so keep the fan-out modest.
    maxWorkers: 2,
  },
});
