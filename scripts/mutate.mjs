// `npm run mutate`: StrykerJS (stryker.config.json), with one incremental file per scope.
//
//   npm run mutate                                               the folders in stryker.config.json
//   npm run mutate -- --mutate "src/core/config/**/*.ts" --concurrency 1 --ignoreStatic
//   npm run mutate -- --changed [--since <ref>] [--folders <a,b>] [--list] [Stryker options]
//   npm run mutate -- --mutate "src/vite/**/*.ts" --tests "test/vite/build.test.ts" --concurrency 1
//
// Stryker writes its incremental file from the mutants of the run alone, so a run over one folder
// would wipe what a run over another left. Each scope therefore gets its own file under
// reports/stryker-incremental/, named after its --mutate patterns (the configured folders keep
// reports/stryker-incremental.json); an --incrementalFile given on the command line wins.
//
// A --mutate on the command line replaces the config's list, so the config's `!` patterns are
// added to it: generated files, index.ts re-exports, and the files whose functions run elsewhere
// from their source text (in the browser, in a test page's realm, in a worker), where Stryker's
// instrumented text would call helpers that only exist in Node's realm.
//
// --changed mutates the .ts files under the folders (src/dev and src/core/code unless --folders
// says otherwise) that differ from where the branch left --since (main unless given): committed,
// staged, modified or new, as `git diff <merge-base>` and `git ls-files --others` list them.
// --list prints those files and stops.
//
// --tests <globs> runs only those test files against each mutant (vitest.mutate.config.ts reads
// them from PIPELINE_TOOL_MUTATE_TESTS), for code that nearly every in-process suite reaches, such
// as the source-map placer that every validate call goes through: Stryker would otherwise run each
// of those suites for the mutants they cover. Every other option goes to `stryker run` unchanged.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const usage = `usage: npm run mutate -- [--mutate <patterns>] [Stryker options]
       npm run mutate -- --changed [--since <ref>] [--folders <a,b>] [--list] [Stryker options]

  --changed  mutate the .ts files changed since the branch left --since (default main)
  --folders  where --changed looks, comma-separated (default src/dev,src/core/code)
  --list     with --changed: print the files and stop
  --tests    comma-separated test files (globs) to run against each mutant, instead of vitest.mutate.config.ts's list
  Stryker's own options (--concurrency 1, --ignoreStatic, --mutate, --incrementalFile, …) pass through.`;

const DEFAULT_FOLDERS = ['src/dev', 'src/core/code'];
const INCREMENTAL_FOLDER = 'reports/stryker-incremental';

function fail(message) {
  console.error(`mutate: ${message}`);
  process.exit(2);
}

/** Our options out of argv; the rest is Stryker's. `--name value` and `--name=value` both work. */
function parse(argv) {
  const ours = { changed: false, list: false, since: 'main', folders: DEFAULT_FOLDERS, tests: undefined, help: false };
  const stryker = [];
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)] : [argv[i], undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) fail(`${name} needs a value.\n${usage}`);
      return next;
    };
    if (name === '--changed') ours.changed = true;
    else if (name === '--list') ours.list = true;
    else if (name === '--since') ours.since = value();
    else if (name === '--folders') ours.folders = value().split(',').map((folder) => folder.trim().replace(/\/+$/, '')).filter(Boolean);
    else if (name === '--tests') ours.tests = value().split(',').map((glob) => glob.trim()).filter(Boolean);
    else if (name === '--help' || name === '-h') ours.help = true;
    else stryker.push(argv[i]);
  }
  return { ours, stryker };
}

function git(args) {
  const result = spawnSync('git', args, { encoding: 'utf8' });
  if (result.error) fail(`cannot run git: ${result.error.message}`);
  if (result.status !== 0) fail(`git ${args.join(' ')} failed: ${result.stderr.trim()}`);
  return result.stdout.split('\n').filter(Boolean);
}

/** The config's `!` patterns, which any --mutate from the command line keeps. */
const exclusions = JSON.parse(readFileSync(path.join(root, 'stryker.config.json'), 'utf8')).mutate.filter((pattern) => pattern.startsWith('!'));

/** A glob of the config's kind (`**`, `*`, literal text) as a test of a slash-separated path. */
const globTest = (glob) => {
  const part = (text) => text.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${glob.split('**/').map(part).join('(?:.*/)?')}$`);
};
const excluded = exclusions.map((pattern) => globTest(pattern.slice(1)));

/** The .ts files under `folders` that differ from the merge base of `since` and HEAD, less the config's exclusions. */
function changedFiles(since, folders) {
  if (spawnSync('git', ['rev-parse', '--verify', '--quiet', `${since}^{commit}`]).status !== 0) {
    fail(`"${since}" is not a commit, branch or tag here; give --since the branch this work started from.`);
  }
  const [base] = git(['merge-base', since, 'HEAD']);
  const changed = [...git(['diff', '--name-only', '--diff-filter=AMR', base, '--', ...folders]), ...git(['ls-files', '--others', '--exclude-standard', '--', ...folders])];
  const typescript = [...new Set(changed)].filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts')).sort();
  return { base, files: typescript.filter((file) => !excluded.some((test) => test.test(file))), skipped: typescript.filter((file) => excluded.some((test) => test.test(file))) };
}

const slug = (text) => {
  const plain = text.replace(/(\/\*\*)?\/\*\.ts(?=,|$)/g, '').replace(/[^A-Za-z0-9.]+/g, '-').replace(/^-+|-+$/g, '');
  return plain.length <= 80 ? plain : `${plain.slice(0, 60)}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
};

/** Stryker's value for an option, in either spelling, or undefined. */
function optionValue(args, names) {
  for (let i = 0; i < args.length; i++) {
    for (const name of names) {
      if (args[i] === name) return args[i + 1];
      if (args[i].startsWith(`${name}=`)) return args[i].slice(name.length + 1);
    }
  }
  return undefined;
}

const { ours, stryker } = parse(process.argv.slice(2));
if (ours.help) {
  console.log(usage);
  process.exit(0);
}
if (ours.list && !ours.changed) fail(`--list goes with --changed.\n${usage}`);
if (ours.tests !== undefined && ours.tests.length === 0) fail('--tests names no test file.');

const args = [...stryker];
let scope = optionValue(args, ['--mutate', '-m']);
if (ours.changed) {
  if (scope !== undefined) fail('--changed picks the files to mutate itself; leave out --mutate.');
  if (ours.folders.length === 0) fail('--folders names no folder.');
  const { base, files, skipped } = changedFiles(ours.since, ours.folders);
  const where = `${ours.folders.join(', ')} since ${ours.since} (merge base ${base.slice(0, 10)})`;
  if (skipped.length > 0) console.error(`mutate: left out, as stryker.config.json's mutate list says: ${skipped.join(', ')}`);
  if (ours.list) {
    for (const file of files) console.log(file);
    process.exit(0);
  }
  if (files.length === 0) {
    console.log(`mutate: no .ts file under ${where} has changed; nothing to mutate.`);
    process.exit(0);
  }
  console.log(`mutate: ${files.length} changed file${files.length === 1 ? '' : 's'} under ${where}:\n${files.map((file) => `  ${file}`).join('\n')}`);
  args.push('--mutate', files.join(','));
  scope = `changed ${ours.folders.join(',')}`;
}
if (scope !== undefined) {
  if (optionValue(args, ['--incrementalFile']) === undefined) args.push('--incrementalFile', `${INCREMENTAL_FOLDER}/${slug(scope)}.json`);
  const at = args.findLastIndex((arg) => arg === '--mutate' || arg === '-m' || arg.startsWith('--mutate=') || arg.startsWith('-m='));
  const [flag, value] = args[at].includes('=') ? [args[at].slice(0, args[at].indexOf('=')), args[at].slice(args[at].indexOf('=') + 1)] : [args[at], args[at + 1]];
  args.splice(at, args[at].includes('=') ? 1 : 2, flag, [value, ...exclusions].join(','));
}

const strykerPackage = require.resolve('@stryker-mutator/core/package.json');
const bin = path.join(path.dirname(strykerPackage), JSON.parse(readFileSync(strykerPackage, 'utf8')).bin.stryker);
const started = Date.now();
const env = ours.tests === undefined ? process.env : { ...process.env, PIPELINE_TOOL_MUTATE_TESTS: ours.tests.join(',') };
if (ours.tests !== undefined) console.log(`mutate: only these tests run against the mutants: ${ours.tests.join(', ')}`);
const run = spawnSync(process.execPath, [bin, 'run', ...args], { stdio: 'inherit', env });
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(`mutate: stryker run ${args.join(' ')}\nmutate: ${minutes} minutes`);
process.exit(run.status ?? 2);
