/*
 * Clean-ups that run at the end of every test file (and, for `atTestEnd`, of every test), through
 * the hooks of test/setup.ts. A helper module registers its clean-up once, when it is loaded; the
 * setup file runs again before each test file, so the clean-up runs after each file even where
 * test files share one module graph (the `shared` project of vitest.config.ts), in which a helper
 * module is loaded only once and a hook it registered itself would belong to the first file alone.
 */

const fileEnds = new Set<() => unknown>();
const testEnds = new Set<() => unknown>();

/** Runs `cleanUp` after each test file, from now on. */
export function atFileEnd(cleanUp: () => unknown): void {
  fileEnds.add(cleanUp);
}

/** Runs `cleanUp` after each test, from now on. */
export function atTestEnd(cleanUp: () => unknown): void {
  testEnds.add(cleanUp);
}

export async function endFile(): Promise<void> {
  for (const cleanUp of fileEnds) await cleanUp();
}

export async function endTest(): Promise<void> {
  for (const cleanUp of testEnds) await cleanUp();
}
