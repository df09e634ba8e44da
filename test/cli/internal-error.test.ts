import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goodFiles, goodManifest, tempDir, writeFolder } from '../helpers/bundles.js';
import { runCli } from '../helpers/cli.js';

/*
 * A bug in pipeline-tool must end with exit code 2 ("could not run"), never 1: CI has to tell a
 * broken tool from a bad bundle. To meet a bug without changing the code, a preload module breaks
 * what the JSON formatter calls: JSON.stringify throws a TypeError for the report it is given,
 * as a formatter with a mistake in it would, after the bundle has been checked.
 */

const preload = path.join(tempDir(), 'broken-stringify.cjs');
writeFileSync(
  preload,
  `const stringify = JSON.stringify;
JSON.stringify = function (value, ...rest) {
  if (value !== null && typeof value === 'object' && 'errorCount' in value && 'problems' in value) {
    throw new TypeError('report.problems.map is not a function (planted by the test)');
  }
  return stringify.call(this, value, ...rest);
};
`,
);

const broken = (args: string[]) => runCli(args, { env: { NODE_OPTIONS: `--require ${preload}` } });

describe('an internal error', () => {
  it('exits 2, not 1, for a bundle with errors, and prints its stack asking for a report', () => {
    const folder = writeFolder(goodFiles({ ...goodManifest, version: 'one' }));
    // Without the broken formatter, the same run finds a problem.
    expect(runCli(['validate', folder, '--format', 'json']).code).toBe(1);

    const result = broken(['validate', folder, '--format', 'json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^pipeline-tool: internal error\. This is a bug in pipeline-tool, not in your tool; please report it/);
    expect(result.stderr).toContain('TypeError: report.problems.map is not a function (planted by the test)');
    expect(result.stderr).toMatch(/^\s+at .+/m);
  });

  it('exits 2, not 0, for a clean bundle', () => {
    const folder = writeFolder(goodFiles());
    expect(runCli(['validate', folder, '--format', 'json']).code).toBe(0);
    const result = broken(['validate', folder, '--format', 'json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('internal error');
  });
});
