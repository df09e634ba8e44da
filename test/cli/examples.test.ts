import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bundles.js';
import { runCli } from '../helpers/cli.js';
import { runExample, words } from '../helpers/examples.js';

/*
 * Every example a newcomer is shown, run as written against what `init` makes, for both kinds of
 * tool: the `$ pipeline-tool …` lines of every command's --help (read from the built binary) and
 * the README's quick start. Each must exit as its help says: 0, except `init` with no terminal to
 * ask on, which says so and exits 2; `dev`, which serves until stopped, exits 0 on Ctrl-C.
 *
 * Where they run: the main help's examples start with `init my-tool`, in an empty folder; each
 * command's examples run, in the order shown, in one fresh project made by `init my-tool`, the
 * commands taken in the order dev, pack, validate, version, rules (validate's zip examples check
 * what pack's wrote); init's examples each in an empty folder.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TYPES = ['standalone', 'quoting_extension'] as const;
const COMMANDS = ['dev', 'pack', 'validate', 'version', 'rules'] as const;

/** The `$ pipeline-tool …` lines of a help text, without the words that describe them. */
function examplesOf(help: string): string[][] {
  return [...help.matchAll(/^ {2}\$ (pipeline-tool .+?)(?: {2,}.*)?$/gm)].map((match) => words(match[1]!).slice(1));
}

function helpOf(command?: string): string {
  const result = runCli(command === undefined ? ['--help'] : [command, '--help']);
  expect(result.code).toBe(0);
  return result.stdout;
}

/** The commands of init's "Next steps:", one a line, as a reader would type them. */
function nextSteps(output: string): string[] {
  const block = /\nNext steps:\n((?: {2}.*\n)+)/.exec(output)?.[1] ?? '';
  return block.split('\n').filter(Boolean).map((line) => line.trim().split(/ {3,}/)[0]!);
}

/** The commands of a shell block, comments dropped and `a && b` taken as two. */
function blockCommands(block: string): string[] {
  return block
    .split('\n')
    .map((line) => line.replace(/ +#.*$/, '').trim())
    .filter(Boolean)
    .flatMap((line) => line.split(' && '));
}

/** A new project made by the binary's own init, in a folder of its own. */
function scaffold(type: (typeof TYPES)[number]): { parent: string; project: string } {
  const parent = tempDir('pipeline-tool-examples-');
  const made = runCli(['init', 'my-tool', '--yes', '--type', type], { cwd: parent });
  expect(made.code, made.stderr).toBe(0);
  return { parent, project: path.join(parent, 'my-tool') };
}

describe.each(TYPES)('the examples, on a new %s project', { timeout: 240_000 }, (type) => {
  it("of pipeline-tool --help, from init to a checked zip", async () => {
    const examples = examplesOf(helpOf());
    expect(examples.map((args) => args[0])).toEqual(['init', 'dev', 'pack', 'validate']);
    const parent = tempDir('pipeline-tool-examples-');
    for (const args of examples) {
      // The help creates a quoting extension; the other kind takes the same steps.
      const run = args[0] === 'init' ? args.map((word) => (word === 'quoting_extension' ? type : word)) : args;
      await runExample(run, parent);
    }
    expect(JSON.parse(readFileSync(path.join(parent, 'my-tool', 'src', 'manifest.json'), 'utf8'))).toMatchObject({ type });
  });

  it("of every command's --help, in the project", async () => {
    const { project } = scaffold(type);
    let count = 0;
    for (const command of COMMANDS) {
      const examples = examplesOf(helpOf(command));
      expect(examples.length, command).toBeGreaterThan(0);
      for (const args of examples) {
        expect(args[0]).toBe(command);
        await runExample(args, project);
        count += 1;
      }
    }
    expect(count).toBeGreaterThanOrEqual(20);
  });

  it("of init --help, each in an empty folder", async () => {
    const examples = examplesOf(helpOf('init'));
    expect(examples.length).toBeGreaterThanOrEqual(4);
    for (const args of examples) await runExample(args, tempDir('pipeline-tool-examples-'));
  });

  it.each(['react', 'vue'])("of docs/frameworks.md's quick start: init's next steps for %s are the lines it lists", async (template) => {
    const doc = readFileSync(path.join(ROOT, 'docs/frameworks.md'), 'utf8');
    const block = /```sh\n(npx pipeline-tool init [^]*?)```/.exec(doc)?.[1] ?? '';
    const [init, ...rest] = blockCommands(block);
    const args = words(init!).slice(2);
    expect(args.slice(0, 4)).toEqual(['init', 'estimator', '--template', 'react']);
    args[3] = template;
    const output = await runExample([...args, '--yes'], tempDir('pipeline-tool-framework-start-'));
    expect(nextSteps(output!)).toEqual(rest);
    expect(rest).toEqual(expect.arrayContaining(['npm test', 'npm run build', 'npm run validate']));
  });

  it("of the README's quick start for a first tool", async () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = /### Your first tool\n[^]*?```sh\n([^]*?)```/.exec(readme)?.[1] ?? '';
    const lines = block.split('\n').map((line) => line.replace(/ +#.*$/, '').trim()).filter(Boolean);
    expect(lines[0]).toMatch(/^pipeline-tool init my-tool /);
    let cwd = tempDir('pipeline-tool-quick-start-');
    for (const line of lines) {
      for (const step of line.split(' && ')) {
        const [program, ...args] = words(step);
        if (program === 'cd') {
          cwd = path.resolve(cwd, args[0]!);
        } else if (program === 'pipeline-tool' || (program === 'npx' && args[0] === 'pipeline-tool')) {
          // Both kinds of tool, whichever the line makes.
          const own = program === 'npx' ? args.slice(1) : args;
          const output = await runExample(type === 'standalone' || own[0] !== 'init' ? own : [...own, '--type', type], cwd);
          // What init prints next is what the README goes on to list.
          if (own[0] === 'init') expect(nextSteps(output!)).toEqual(blockCommands(block).slice(1));
        } else if (program === 'npm' && args[0] === 'install') {
          // What installing the project's file: dependency amounts to, without the network: this
          // copy linked as pipeline-tool (project-end-to-end.test.ts runs the real npm install).
          mkdirSync(path.join(cwd, 'node_modules', '.bin'), { recursive: true });
          symlinkSync(ROOT, path.join(cwd, 'node_modules', 'pipeline-tool'), 'dir');
          symlinkSync(path.join(ROOT, 'bin', 'pipeline-tool.js'), path.join(cwd, 'node_modules', '.bin', 'pipeline-tool'));
        } else if (program === 'npm') {
          // `npm test` and `npm run <script>`: the project's script, as npm would run it.
          const name = args[0] === 'test' ? 'test' : args[1]!;
          const script = (JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts[name]!;
          const [scriptProgram, ...scriptArgs] = words(script);
          if (scriptProgram === 'pipeline-tool') {
            await runExample(scriptArgs, cwd);
          } else {
            expect(script).toBe('node --test');
            const tests = spawnSync(process.execPath, ['--test'], { cwd, encoding: 'utf8', timeout: 180_000 });
            expect(tests.status, tests.stdout + tests.stderr).toBe(0);
            expect(tests.stdout).toContain('# fail 0');
          }
        } else {
          throw new Error(`the quick start runs ${step}, which this test does not know how to run`);
        }
      }
    }
    // The zip the quick start names is the one pack wrote (before the version was raised).
    const named = /dist\/(\S+\.zip)/.exec(block)?.[1];
    expect(named).toBe('my-tool-1.0.0.zip');
    expect(existsSync(path.join(cwd, 'dist', named!))).toBe(true);
  });
});
