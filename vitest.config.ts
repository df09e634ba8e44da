import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Spawned binaries and browsers need elbow room on a 2-core machine.
    maxWorkers: 2,
  },
});
