/** `npm run crash` only: the long harness run, kept out of `npm test`. */
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/crash/**/*.crash.ts'],
    testTimeout: 3_600_000,
  },
});
