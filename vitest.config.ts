import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores on CI: keep the pty-heavy suites from starving each other.
    maxWorkers: 2,
    pool: 'forks',
    globalSetup: ['test/support/tmpRoot.ts'],
    env: { FORCE_COLOR: '0' },
  },
});
