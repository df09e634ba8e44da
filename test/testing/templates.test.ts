import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { initProject } from '../../src/core/init/index.js';
import { tempDir } from '../helpers/bundles.js';

/*
 * The test suites the templates ship, run as an author runs them: a project made by init, its
 * `npm test` (node --test) against pipeline-tool/testing, and the same suite failing, with the
 * host's reason, when the tool misbehaves.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const execFileAsync = promisify(execFile);

/** A new project whose node_modules holds this repository as pipeline-tool, as npm link would. */
async function scaffold(type: 'quoting_extension' | 'standalone'): Promise<string> {
  const directory = path.join(tempDir('pipeline-tool-template-tests-'), 'project');
  await initProject({ directory, answers: { type, name: 'Template Test', shortName: 'Template', description: 'Checks the shipped tests.', version: '1.0.0' } });
  mkdirSync(path.join(directory, 'node_modules'));
  symlinkSync(ROOT, path.join(directory, 'node_modules', 'pipeline-tool'), 'dir');
  return directory;
}

/** Runs the project's test script, `node --test`, and returns its exit code and report. */
async function runTests(directory: string): Promise<{ code: number; output: string }> {
  const script = (JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['test'];
  expect(script).toBe('node --test');
  try {
    const { stdout } = await execFileAsync(process.execPath, ['--test'], { cwd: directory, encoding: 'utf8', timeout: 120_000 });
    return { code: 0, output: stdout };
  } catch (error) {
    const failure = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failure.code ?? -1, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

describe('the tests a new project ships', { timeout: 180_000 }, () => {
  it.each([
    ['quoting_extension', 3],
    ['standalone', 4],
  ] as const)('pass in a new %s project (%i tests)', async (type, count) => {
    const { code, output } = await runTests(await scaffold(type));
    expect(output).toContain(`# pass ${count}`);
    expect(output).toContain('# fail 0');
    expect(code).toBe(0);
  });

  it("fail with the tool-type error when the quoting extension's manifest says standalone", async () => {
    const directory = await scaffold('quoting_extension');
    edit(path.join(directory, 'src/manifest.json'), '"type": "quoting_extension"', '"type": "standalone"');
    const { code, output } = await runTests(directory);
    expect(code).toBe(1);
    expect(output).toMatch(/not ok \d+ - adds the default kitchen to the open quote/);
    expect(output).toContain('quotes.addLines may only be called by a quoting_extension tool; this tool is standalone');
  });

  it('fail when the standalone tool sends its tax rate as a percentage', async () => {
    const directory = await scaffold('standalone');
    edit(path.join(directory, 'src/app.js'), 'taxRate: taxPercent === null ? taxPercent : taxPercent / 100,', 'taxRate: taxPercent,');
    const { code, output } = await runTests(directory);
    expect(code).toBe(1);
    expect(output).toMatch(/not ok \d+ - creates a quote from the form and says so/);
  });

  it('fail when the standalone tool does not save the page size it was given', async () => {
    const directory = await scaffold('standalone');
    edit(path.join(directory, 'src/app.js'), 'app.pages = { customers: 1, jobs: 1, quotes: 1 };\n    savePreferences(app.bridge, app.preferences);', 'app.pages = { customers: 1, jobs: 1, quotes: 1 };');
    const { code, output } = await runTests(directory);
    expect(code).toBe(1);
    expect(output).toMatch(/not ok \d+ - remembers the page size in the tool settings, and lists that many rows/);
    expect(output).toContain('# fail 1');
  });
});
