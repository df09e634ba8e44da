import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: the suite must pass on a 2-core machine busy with other work, where a browser or
    // spawned-binary test that takes 10 s alone can take several times that. A limit here only
    // catches a hang; no test asserts on how long anything takes (the bench does that).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Spawned binaries and browsers need elbow room on a 2-core machine.
    maxWorkers: 2,
  },
});
