import { defineConfig } from 'vitest/config';

/*
 * The tests `npm run mutate` runs against each mutant: the in-process suites of the folders under
 * mutation. Tests that spawn the built binary or a browser are left out, because a mutant of the
 * TypeScript sources never reaches dist/ or the browser; they would only cost time.
 */
export default defineConfig({
  test: {
    include: [
      'test/validate/**/*.test.ts',
      'test/pack/{pack-folder,select-files,write-zip,manifest-elsewhere,shipped-manifest,destination,shipment}.test.ts',
      'test/platform/**/*.test.ts',
      'test/code/{rules,js,html,json,plumbing,trigger}.test.ts',
      'test/limits.test.ts',
      'test/rules-table.test.ts',
      'test/cli/rules-docs.test.ts',
      'test/fuzz/regressions.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
