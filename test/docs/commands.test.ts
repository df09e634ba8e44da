import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bundles.js';
import { runCli } from '../helpers/cli.js';
import { runExample, words } from '../helpers/examples.js';
import { codeBlocks, markdownFiles, ROOT } from './markdown.js';

/*
 * Every `pipeline-tool …` and `npx pipeline-tool …` command in a ```sh block of README.md and
 * docs/ is run as the page shows it, each in a fresh place of the kind it is written for, and must
 * exit as a command that worked does: 0; `dev` serves until stopped, then exits 0; `init` without
 * --yes has no terminal to ask on here, and says so with exit 2. What a page shows that a test
 * cannot run as written is in NOT_RUN, with why.
 */

interface Shown {
  file: string;
  line: number;
  /** The command as the page writes it, from `pipeline-tool` on. */
  text: string;
  args: string[];
}

/**
 * Shown in the docs, not run here. Keep this list short: a command belongs here only when it
 * names something a test cannot have, such as the author's own server.
 */
const NOT_RUN = new Map<string, string>([
  // Frames the page of the author's own dev server (webpack, Parcel, …) at that address; dev's
  // tests run --url against a server they start (test/dev).
  ['docs/frameworks.md: pipeline-tool dev --url http://localhost:8080/ dist --manifest public/manifest.json', "the author's own dev server"],
]);

/** A port a page names is one a busy test machine may not have free: any free port stands for it. */
const anyFreePort = (args: string[]) => args.map((word, index) => (args[index - 1] === '--port' ? '0' : word));

function shownCommands(): Shown[] {
  const shown: Shown[] = [];
  for (const file of markdownFiles()) {
    for (const block of codeBlocks(readFileSync(path.join(ROOT, file), 'utf8'), 'sh')) {
      block.body.split('\n').forEach((raw, index) => {
        const line = raw.replace(/^\$ /, '').replace(/ +#.*$/, '').trim();
        for (const step of line.split(' && ')) {
          const all = words(step);
          const at = all[0] === 'npx' ? 1 : 0;
          if (all[at] !== 'pipeline-tool') continue;
          shown.push({ file, line: block.line + index, text: step.replace(/^npx /, ''), args: all.slice(at + 1) });
        }
      });
    }
  }
  return shown;
}

type Place = 'an empty folder' | 'a new project' | 'a new React project' | 'a build output folder' | 'beside a project named estimator' | 'a project with the zips it names';

/** The place a command is written for, from its page and its words. */
function placeOf({ file, args }: Shown): Place {
  const [command, first] = args;
  if (command === 'init') return 'an empty folder';
  if (file === 'docs/frameworks.md') return 'a new React project';
  if ((command === 'pack' || command === 'dev' || command === 'validate') && first === 'dist') return 'a build output folder';
  if (first === './estimator') return 'beside a project named estimator';
  if (command === 'validate' && args.some((word) => word.endsWith('.zip'))) return 'a project with the zips it names';
  return 'a new project';
}

function init(parent: string, args: string[]): string {
  const made = runCli(['init', ...args, '--yes'], { cwd: parent });
  expect(made.code, made.stderr).toBe(0);
  return path.join(parent, args[0]!);
}

/** Makes a fresh place of that kind and returns the folder the command runs in. */
function prepare(place: Place, args: string[]): string {
  const parent = tempDir('pipeline-tool-docs-');
  switch (place) {
    case 'an empty folder':
      return parent;
    case 'a new project':
      return init(parent, ['my-tool']);
    case 'a new React project':
      return init(parent, ['my-tool', '--template', 'react']);
    case 'beside a project named estimator':
      init(parent, ['estimator']);
      return parent;
    case 'a build output folder': {
      // What a build writes: the tool's files in dist/, and for dev a fixture file beside them.
      cpSync(path.join(init(parent, ['my-tool']), 'src'), path.join(parent, 'out', 'dist'), { recursive: true });
      writeFileSync(path.join(parent, 'out', 'fixtures.json'), '{ "mode": "extend" }\n');
      return path.join(parent, 'out');
    }
    case 'a project with the zips it names': {
      const project = init(parent, ['my-tool']);
      for (const out of [undefined, ...args.filter((word) => word.endsWith('.zip'))]) {
        const packed = runCli(out === undefined ? ['pack'] : ['pack', '-o', out], { cwd: project });
        expect(packed.code, packed.stderr).toBe(0);
      }
      return project;
    }
  }
}

const SHOWN = shownCommands();
const key = ({ file, text }: Shown) => `${file}: ${text}`;

describe('the commands shown in README.md and docs/', { timeout: 240_000 }, () => {
  it('are found, and the few not run are still shown', () => {
    const keys = new Set(SHOWN.map(key));
    expect([...NOT_RUN.keys()].filter((shown) => !keys.has(shown))).toEqual([]);
    expect(NOT_RUN.size).toBeLessThanOrEqual(3);
    expect(SHOWN.length - NOT_RUN.size).toBeGreaterThanOrEqual(25);
    expect(new Set(SHOWN.map(({ file }) => file))).toEqual(new Set(['README.md', 'docs/bundle-report.md', 'docs/dev.md', 'docs/frameworks.md', 'docs/init.md', 'docs/pack.md', 'docs/project-file.md', 'docs/rules.md', 'docs/validate.md', 'docs/version.md']));
  });

  it("README.md's CI block is what the workflow of a vanilla project does, for both tool types", () => {
    const template = 'vanilla';
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const [block] = codeBlocks(readme.slice(readme.indexOf('\n## CI\n')), 'yaml');
    const steps = block!.body.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
    expect(steps.length).toBeGreaterThan(10);
    for (const type of ['standalone', 'quoting_extension']) {
      const project = init(tempDir('pipeline-tool-docs-'), ['my-tool', '--template', template, '--type', type]);
      const workflow = readFileSync(path.join(project, '.github/workflows/validate.yml'), 'utf8').split('\n');
      expect(steps.filter((line) => !workflow.includes(line)), `${template} ${type}`).toEqual([]);
    }
  });

  it.each(SHOWN.filter((shown) => !NOT_RUN.has(key(shown))).map((shown) => [`${shown.file}:${shown.line}: ${shown.text}`, shown] as const))('%s', async (_where, shown) => {
    const cwd = prepare(placeOf(shown), shown.args);
    await runExample(anyFreePort(shown.args), cwd);
  });
});
