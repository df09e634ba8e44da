/*
 * Clean-ups that run at the end of every test file (and, for `atTestEnd`, of every test), through
 * the hooks of test/setup.ts. A helper module registers its clean-up once, when it is loaded; the
 * setup file runs again before each test file, so the clean-up runs after each file even where
 * test files share one module graph (the `shared` project of vitest.config.ts), in which a helper
 * module is loaded only once and a hook it registered itself would belong to the first file alone.
 */

const fileEnds: (() => unknown)[] = [];
const testEnds: (() => unknown)[] = [];

/** Runs `cleanUp` after each test file, from now on. */
export function atFileEnd(cleanUp: () => unknown): void {
  fileEnds.push(cleanUp);
}

/** Runs `cleanUp` after each test, from now on. */
export function atTestEnd(cleanUp: () => unknown): void {
  testEnds.push(cleanUp);
}

/**
 * Last registered, first run, as vitest runs its own after-hooks: a module that uses another's
 * helpers registers after it, so its dev servers close before the folders they serve are removed.
 */
async function runAll(cleanUps: readonly (() => unknown)[]): Promise<void> {
  for (let i = cleanUps.length - 1; i >= 0; i--) await cleanUps[i]!();
}

export async function endFile(): Promise<void> {
  await runAll(fileEnds);
}

export async function endTest(): Promise<void> {
  await runAll(testEnds);
}
