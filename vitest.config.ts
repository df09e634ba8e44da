import { configDefaults, defineConfig } from 'vitest/config';
import { setCertificatesAside } from './test/helpers/certificates.js';

// Before any worker starts, so that none of them, nor what they spawn, reads the file at start-up.
setCertificatesAside();

/**
 * Test files that need a module graph of their own: each mocks a module (`vi.mock`), or checks
 * what a process does the first time (chalk not yet loaded, jsdom not installed, the syntax
 * worker not yet started). `test/suite-config.test.ts` holds every file that mocks to this list.
 */
export const ISOLATED = [
  'test/cli/palette.test.ts',
  'test/code/syntax-worker-start.test.ts',
  'test/eslint/internal-error.test.ts',
  'test/pack/pipe-swapped-in.test.ts',
  'test/testing/jsdom-later.test.ts',
  'test/testing/no-jsdom.test.ts',
];

const base = {
  // Generous: the suite must pass on a 2-core machine busy with other work, where a browser or
  // spawned-binary test that takes 10 s alone can take several times that. A limit here only
  // catches a hang; no test asserts on how long anything takes (the bench does that).
  testTimeout: 120_000,
  hookTimeout: 180_000,
  // The helpers' clean-ups (temporary folders, dev servers), after each file whichever project runs it.
  setupFiles: ['test/setup.ts'],
};

export default defineConfig({
  test: {
    // Spawned binaries and browsers need elbow room on a 2-core machine.
    maxWorkers: 2,
    projects: [
      { test: { ...base, name: 'isolated', include: ISOLATED } },
      // Every other file runs in a module graph shared with the files before it on the same worker:
      // a fresh worker per file, loading the sources again, cost about a fifth of the suite's CPU time.
      { test: { ...base, name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false } },
    ],
  },
});
