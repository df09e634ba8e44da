import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bundles.js';

/*
 * scripts/mutate.mjs, the wrapper around `stryker run`: which files `--changed` picks, and the
 * config's exclusions it relies on. Nothing here starts Stryker.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = path.join(ROOT, 'scripts/mutate.mjs');

function git(cwd: string, ...args: string[]): void {
  const result = spawnSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
}

function write(root: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
}

const mutate = (cwd: string, ...args: string[]) => {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

/** A repository with a main branch and a work branch that changed files in every way git knows. */
function repository(): string {
  const root = tempDir('pipeline-mutate-');
  git(root, 'init', '-q', '-b', 'main');
  write(root, {
    'src/dev/a.ts': 'export const a = 1;\n',
    'src/dev/b.ts': 'export const b = 1;\n',
    'src/dev/moved.ts': 'export const moved = 1;\n',
    'src/dev/index.ts': "export * from './a.js';\n",
    'src/dev/wire-values.ts': 'export const w = 1;\n',
    'src/core/code/c.ts': 'export const c = 1;\n',
    'src/core/code/same.ts': 'export const same = 1;\n',
    'src/other/x.ts': 'export const x = 1;\n',
  });
  git(root, 'add', '.');
  git(root, 'commit', '-qm', 'start');
  git(root, 'checkout', '-qb', 'work');
  write(root, { 'src/dev/a.ts': 'export const a = 2;\n', 'src/dev/index.ts': "export * from './b.js';\n", 'src/dev/wire-values.ts': 'export const w = 2;\n' });
  rmSync(path.join(root, 'src/dev/b.ts'));
  git(root, 'mv', 'src/dev/moved.ts', 'src/dev/renamed.ts');
  git(root, 'commit', '-qam', 'work');
  // Not committed: a change to a tracked file, a new file, declarations, and a file elsewhere.
  write(root, { 'src/core/code/c.ts': 'export const c = 2;\n', 'src/dev/new.ts': 'export {};\n', 'src/dev/types.d.ts': 'export {};\n', 'src/dev/notes.md': 'x', 'src/other/x.ts': 'x' });
  // Main moves on after the branch left it: none of that is this branch's change.
  git(root, 'checkout', '-q', 'main');
  write(root, { 'src/dev/later.ts': 'export {};\n' });
  git(root, 'add', 'src/dev/later.ts');
  git(root, 'commit', '-qm', 'later');
  git(root, 'checkout', '-q', 'work');
  return root;
}

describe('npm run mutate -- --changed', () => {
  it('lists the .ts files the branch changed under src/dev and src/core/code, committed or not, less the config\'s exclusions', () => {
    const root = repository();
    const result = mutate(root, '--changed', '--list');
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n').filter(Boolean)).toEqual(['src/core/code/c.ts', 'src/dev/a.ts', 'src/dev/new.ts', 'src/dev/renamed.ts']);
    expect(result.stderr).toBe("mutate: left out, as stryker.config.json's mutate list says: src/dev/index.ts, src/dev/wire-values.ts\n");
  });

  it('looks where --folders says, from the --since it is given', () => {
    const root = repository();
    expect(mutate(root, '--changed', '--list', '--folders', 'src/other/').stdout).toBe('src/other/x.ts\n');
    expect(mutate(root, '--changed', '--list', '--since=work', '--folders=src/core/code').stdout).toBe('src/core/code/c.ts\n');
  });

  it('says there is nothing to mutate, without starting Stryker, when nothing changed', () => {
    const root = repository();
    const result = mutate(root, '--changed', '--folders', 'src/core/code/same.ts');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^mutate: no \.ts file under src\/core\/code\/same\.ts since main \(merge base [0-9a-f]{10}\) has changed; nothing to mutate\.\n$/);
  });

  it('refuses what it cannot use, in one line, with exit code 2', () => {
    const root = repository();
    for (const [args, message] of [
      [['--changed', '--since', 'no-such-branch'], /^mutate: "no-such-branch" is not a commit, branch or tag here; give --since the branch this work started from\.\n$/],
      [['--list'], /^mutate: --list goes with --changed\./],
      [['--changed', '--since'], /^mutate: --since needs a value\./],
      [['--changed', '--mutate', 'src/dev/a.ts'], /^mutate: --changed picks the files to mutate itself; leave out --mutate\.\n$/],
      [['--changed', '--folders', ','], /^mutate: --folders names no folder\.\n$/],
      [['--tests', ','], /^mutate: --tests names no test file\.\n$/],
    ] as const) {
      const result = mutate(root, ...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
  });
});

describe("stryker.config.json's exclusions", () => {
  it('leave out every file whose functions run elsewhere from their source text, and no other', () => {
    const exclusions = (JSON.parse(readFileSync(path.join(ROOT, 'stryker.config.json'), 'utf8')) as { mutate: string[] }).mutate
      .filter((pattern) => pattern.startsWith('!') && !pattern.includes('*'))
      .map((pattern) => pattern.slice(1));
    const sources = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => ({ file: `src/${file.split(path.sep).join('/')}`, text: readFileSync(path.join(ROOT, 'src', file), 'utf8') }));
    // A function's text put into a script (`${run.toString()}`) or evaluated in another realm (`inPage(f.toString())`).
    const serialised = new Set(sources.flatMap(({ text }) => [...text.matchAll(/(?:\$\{|inPage\()(\w+)\.toString\(\)/g)].map((match) => match[1]!)));
    // Only functions declared in src/ count; `${word.toString()}` of a string is no code.
    const defining = [...serialised].flatMap((name) => sources.filter(({ text }) => new RegExp(`^(?:export )?function ${name}\\(`, 'm').test(text)).map(({ file }) => file));
    expect(defining.length).toBeGreaterThanOrEqual(9);
    expect([...new Set(defining)].sort()).toEqual([...exclusions].sort());
  });
});
