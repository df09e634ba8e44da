import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
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

/**
 * Files that take a large share of a worker's run, started before all others: the end-to-end
 * file is about 200 s of a run of 550 to 650 s on two cores. vitest starts the files it has
 * timings for longest first, but a clean clone (CI) has none, and there it ordered the largest
 * files first, which put this one 17th of 188, to finish alone while the other worker waited.
 */
export const SLOWEST = ['test/init/project-end-to-end.test.ts'];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const slowest = (file: TestSpecification) => SLOWEST.includes(path.relative(import.meta.dirname, file.moduleId).split(path.sep).join('/'));
    return [...sorted.filter(slowest), ...sorted.filter((file) => !slowest(file))];
  }
}

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
    sequence: { sequencer: SlowestFirst },
    projects: [
      { test: { ...base, name: 'isolated', include: ISOLATED } },
      // Every other file runs in a module graph shared with the files before it on the same worker:
      // a fresh worker per file, loading the sources again, cost about a fifth of the suite's CPU time.
      { test: { ...base, name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false } },
    ],
  },
});
