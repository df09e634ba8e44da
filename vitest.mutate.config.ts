import { defineConfig } from 'vitest/config';

/*
 * The tests `npm run mutate` runs against each mutant: the in-process suites of the folders under
 * mutation. Test files that only spawn the built binary are left out, because a mutant of the
 * TypeScript sources never reaches dist/; they would only cost time. Stryker's vitest runner runs
 * only the files that import the mutated code, so a file listed here costs nothing in a run over
 * other folders. The dev server's browser tests stay in: the server they talk to runs in-process.
 * `npm run mutate -- --tests <globs>` replaces the list (PIPELINE_TOOL_MUTATE_TESTS), for code
 * that nearly every suite here reaches.
 */

const only = process.env['PIPELINE_TOOL_MUTATE_TESTS']?.split(',').filter(Boolean);
export default defineConfig({
  test: {
    include: only ?? [
      'test/validate/**/*.test.ts',
      'test/pack/{pack-folder,select-files,write-zip,manifest-elsewhere,shipped-manifest,destination,shipment}.test.ts',
      'test/platform/**/*.test.ts',
      'test/code/{rules,js,html,json,plumbing,trigger,libraries,precision,syntax}.test.ts',
      'test/config/{project-config,config-checks}.test.ts',
      'test/release/*.test.ts',
      'test/init/{answers,plan,init-project,toolkit-source,cli,answers-details,plan-details,project-folder}.test.ts',
      'test/testing/{test-host,load-tool,no-jsdom,env-jsdom,env-happy-dom,reset,test-host-details,load-tool-details,rejections,jsdom-later}.test.ts',
      'test/cli/{palette,formatters,sarif-format}.test.ts',
      'test/dev/{browser-order,browser-problems,browser,call-order,fixtures-reload,host-endpoints,rest-api,rest-browser,rest-units,settings-file,static-files,tool-problems,units,watch}.test.ts',
      'test/limits.test.ts',
      'test/rules-table.test.ts',
      'test/cli/rules-docs.test.ts',
      'test/fuzz/regressions.test.ts',
      'test/source-maps/{placed-findings,units,placer}.test.ts',
      'test/vite/{build,serve-browser,plugin-parts,plugin-units,plugin-serve}.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The helpers' clean-ups (temporary folders, dev servers), as in vitest.config.ts.
    setupFiles: ['test/setup.ts'],
  },
});
