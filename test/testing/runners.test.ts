import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFolder } from '../helpers/bundles.js';
import { consumerProject } from '../helpers/consumer.js';

/*
 * The kit inside the test runners authors use, each in a process of its own as an author runs
 * it: what a page leaves rejected must reach tool.errors and never the runner; jsdom is found
 * where the author's project has it, whatever folder the tool is in.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const run = promisify(execFile);

const MANIFEST = { name: 'Runner Test', shortName: 'Runner', type: 'standalone', version: '1.0.0', description: 'A test.', entry: 'index.html' };

/** A standalone tool that leaves two refused bridge calls unawaited: one at load, one on a click. */
function careless(): string {
  return writeFolder({
    'manifest.json': JSON.stringify(MANIFEST),
    'index.html': '<!doctype html><button id="go" type="button">Go</button><script src="app.js"></script>',
    'app.js': "window.pipeline.quotes.addLines([]);\ndocument.getElementById('go').addEventListener('click', async () => { await window.pipeline.quotes.create({ lines: [] }); });\n",
  });
}

/** Test code for both runners: `test` and `expect`-like checks come from the runner's own module. */
const body = (tool: string) => `
  const tool = await loadTool(${JSON.stringify(tool)});
  await tool.click('#go');
  const errors = [...tool.errors];
  tool.close();
  check(errors.length === 2, JSON.stringify(errors));
  check(errors[0].startsWith('unhandled rejection at app.js:1:24: BridgeError: quotes.addLines may only be called'), errors[0]);
  check(errors[1].startsWith('unhandled rejection at app.js:2:100: BridgeError: quotes.create was refused'), errors[1]);
  console.log('KIT-ERRORS ' + errors.length);
`;

async function outcome(command: Promise<{ stdout: string; stderr: string }>): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await command;
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('a bridge call the page leaves rejected, in a test runner', { timeout: 120_000 }, () => {
  it('node --test: recorded in tool.errors, and the run passes', async () => {
    const project = consumerProject('pipeline-tool-runner-');
    writeFileSync(
      path.join(project, 'tool.test.mjs'),
      `import { test } from 'node:test';
import { loadTool } from 'pipeline-tool/testing';
const check = (ok, why) => { if (!ok) throw new Error(why); };
test('a careless tool', async () => {${body(careless())}});
test('a later test', () => {});
`,
    );
    const { code, output } = await outcome(run(process.execPath, ['--test', 'tool.test.mjs'], { cwd: project, timeout: 100_000 }));
    expect(output).toContain('KIT-ERRORS 2');
    expect(output).toContain('# pass 2');
    expect(output).not.toMatch(/unhandledRejection|asynchronous activity/);
    expect(code, output).toBe(0);
  });

  it('vitest: recorded in tool.errors, and the run passes with no unhandled error', async () => {
    const project = consumerProject('pipeline-tool-runner-');
    writeFileSync(
      path.join(project, 'tool.test.mjs'),
      `import { test, expect } from 'vitest';
import { loadTool } from 'pipeline-tool/testing';
const check = (ok, why) => expect(ok, why).toBe(true);
// The first page loads jsdom, which takes longer than vitest's 5 s on a busy machine: room for it,
// as docs/testing.md advises.
test('a careless tool', async () => {${body(careless())}}, 120_000);
`,
    );
    const { code, output } = await outcome(run(process.execPath, [VITEST, 'run', '--root', project, '--reporter', 'verbose'], { cwd: project, timeout: 100_000, env: { ...process.env, CI: 'true', NO_COLOR: '1' } }));
    expect(output).toContain('KIT-ERRORS 2');
    expect(output).not.toMatch(/Unhandled Rejection|Unhandled Errors/);
    expect(code, output).toBe(0);
  });
});

describe('jsdom for a tool folder outside the project', () => {
  /**
   * pipeline-tool as a `file:` link to a copy without jsdom beside it (a global or packed install),
   * the way npm installs such a dependency, in a project that has jsdom itself.
   */
  function linkedProject(): string {
    const copy = tempDir('pipeline-tool-copy-');
    for (const part of ['package.json', 'dist', 'schemas']) cpSync(path.join(ROOT, part), path.join(copy, part), { recursive: true });
    mkdirSync(path.join(copy, 'node_modules'));
    for (const name of readdirSync(path.join(ROOT, 'node_modules'))) {
      if (name === 'jsdom' || name.startsWith('.')) continue;
      symlinkSync(path.join(ROOT, 'node_modules', name), path.join(copy, 'node_modules', name), 'dir');
    }
    const project = tempDir('pipeline-tool-linked-');
    mkdirSync(path.join(project, 'node_modules'));
    symlinkSync(copy, path.join(project, 'node_modules', 'pipeline-tool'), 'dir');
    symlinkSync(path.join(ROOT, 'node_modules', 'jsdom'), path.join(project, 'node_modules', 'jsdom'), 'dir');
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    return project;
  }

  it('is the project\'s own, found from the folder the tests run in', async () => {
    const project = linkedProject();
    const tool = writeFolder({ 'manifest.json': JSON.stringify(MANIFEST), 'index.html': '<!doctype html><p id="status">ready</p>' });
    writeFileSync(
      path.join(project, 'use.mjs'),
      `import { loadTool } from 'pipeline-tool/testing';
const tool = await loadTool(${JSON.stringify(tool)});
console.log(tool.text('#status'));
tool.close();`,
    );
    const { code, output } = await outcome(run(process.execPath, ['use.mjs'], { cwd: project, timeout: 60_000 }));
    expect(output.trim()).toBe('ready');
    expect(code).toBe(0);
    // Without a project jsdom anywhere, the message says what to install.
    const elsewhere = tempDir('pipeline-tool-elsewhere-');
    const missing = await outcome(run(process.execPath, [path.join(project, 'use.mjs')], { cwd: elsewhere, timeout: 60_000 }));
    expect(missing.output).toContain('loadTool needs jsdom to build the page, and it is not installed: run npm install --save-dev jsdom');
  });
});
