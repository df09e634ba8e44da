// The benchmark's figures as data: what to run on our side, what to run as the yardstick, the goal,
// and what each needs. Adding a figure means adding an entry here; run.mjs does not change.
import { existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { prepareLargeMapApp } from './large-map-app.mjs';
import { VITE_WITHOUT_PLUGIN, WITHOUT_PLUGIN } from './react-app.mjs';

/** How many times more rounds the startup-bound pairs (typical.zip, --version) get. */
export const STARTUP_RUNS_FACTOR = 3;
/** Hot updates per run asked for: one takes a few milliseconds, so many buy a steady median. */
const HOT_UPDATE_ROUNDS_FACTOR = 6;

/**
 * @param {object} context
 * @param {string} context.bin      path of bin/pipeline-tool.js
 * @param {string} context.root     project root (working directory of our commands)
 * @param {object} context.inputs   result of prepareInputs
 * @param {string} context.outDir   scratch folder for pack outputs
 */
export function defineCases({ bin, root, inputs, outDir }) {
  const node = process.execPath;
  // Our commands run exactly as a user's shell would run the installed binary: `node bin/… args`.
  const ours = (args, extra = {}) => ({ file: node, args: [bin, ...args], cwd: root, ...extra });
  const nodeBaseline = { file: node, args: ['-e', '0'], cwd: root, expectExit: 0 };
  // The library beside the binary measured: `--cli` names another build, and its dist/ goes with it.
  const library = path.join(path.dirname(bin), '..', 'dist', 'index.js');
  const loadFixtures = (file) => ({ file: node, args: [path.join(root, 'bench', 'load-fixtures.mjs'), library, file], cwd: root, expectExit: 0 });
  // Made when its figure first runs (bench/large-map-app.mjs), beside the other inputs.
  let largeMap;
  const largeMapApp = () => (largeMap ??= prepareLargeMapApp({ workDir: path.dirname(outDir) }));

  return [
    {
      id: 'validate-max',
      kind: 'ratio',
      measure: 'validate max.zip',
      oursLabel: 'pipeline-tool validate max.zip',
      referenceLabel: 'unzip -t max.zip',
      goal: 1.8,
      requires: { command: 'validate', tools: ['unzip'], inputs: ['max.zip'] },
      why: { 1: 'the generated bundle is not clean', 2: 'validate could not run' },
      ours: () => ours(['validate', inputs.max.zip], { expectExit: 0 }),
      reference: () => ({ file: 'unzip', args: ['-t', inputs.max.zip], cwd: root, expectExit: 0 }),
    },
    {
      id: 'validate-maxjs',
      kind: 'ratio',
      measure: 'validate maxjs.zip',
      oursLabel: 'pipeline-tool validate maxjs.zip',
      referenceLabel: 'unzip -t maxjs.zip + V8 parse',
      // Nearly all JavaScript, and js-syntax has V8 parse every script that is not a large
      // minified build (41.6 MB here). No checker can give Chromium's verdict without that parse,
      // so the yardstick is inflating the zip plus V8's own parse of the same scripts (its CPU
      // time, bench/v8-parse.mjs), run one after the other; validate may use both cores at once.
      goal: 0.75,
      requires: { command: 'validate', tools: ['unzip'], inputs: ['maxjs.zip'] },
      why: { 1: 'the generated bundle is not clean', 2: 'validate could not run' },
      ours: () => ours(['validate', inputs.maxjs.zip], { expectExit: 0 }),
      reference: () => ({ file: 'unzip', args: ['-t', inputs.maxjs.zip], cwd: root, expectExit: 0 }),
      addend: () => ({ file: node, args: [path.join(root, 'bench', 'v8-parse.mjs'), '--json', inputs.maxjs.dir], cwd: root, expectExit: 0 }),
      partLabels: ['unzip -t maxjs.zip', 'V8 parse (CPU)'],
    },
    {
      id: 'validate-maxmin',
      kind: 'ratio',
      measure: 'validate maxmin.zip',
      oursLabel: 'pipeline-tool validate maxmin.zip',
      referenceLabel: 'unzip -t maxmin.zip',
      // 41 MB of minified ES module chunks: js-syntax leaves them to their minifier, and every
      // one names what the code checks look for (import, export), so all of it is tokenized.
      // One core's tokenizer alone reads them in about 1.25x `unzip -t`; the goal (a ruling, was
      // 1.5x) counts on sharing the files over worker threads.
      goal: 2.5,
      requires: { command: 'validate', tools: ['unzip'], inputs: ['maxmin.zip'] },
      why: { 1: 'the generated bundle is not clean', 2: 'validate could not run' },
      ours: () => ours(['validate', inputs.maxmin.zip], { expectExit: 0 }),
      reference: () => ({ file: 'unzip', args: ['-t', inputs.maxmin.zip], cwd: root, expectExit: 0 }),
    },
    {
      id: 'validate-typical',
      kind: 'ratio',
      measure: 'validate typical.zip',
      // Startup-bound: a round costs a tenth of a second, and a 20 ms hiccup is a third of the
      // figure, so more rounds buy a steadier median cheaply.
      runsFactor: STARTUP_RUNS_FACTOR,
      oursLabel: 'pipeline-tool validate typical.zip',
      referenceLabel: 'node -e 0',
      goal: 2.5,
      requires: { command: 'validate', tools: [], inputs: ['typical.zip'] },
      why: { 1: 'the generated bundle is not clean', 2: 'validate could not run' },
      ours: () => ours(['validate', inputs.typical.zip], { expectExit: 0 }),
      reference: () => nodeBaseline,
    },
    {
      id: 'validate-bomb',
      kind: 'ratio',
      measure: 'validate bomb.zip (rejected)',
      oursLabel: 'pipeline-tool validate bomb.zip',
      referenceLabel: 'unzip -t bomb.zip',
      // The entry declares 200,000,000 bytes, more than the whole 50,000,000-byte budget, so its
      // header alone condemns it: inflating it (what unzip -t does) is not needed to say no.
      goal: 0.25,
      requires: { command: 'validate', tools: ['unzip'], inputs: ['bomb.zip'] },
      why: { 0: 'a zip that inflates to 200,000,000 bytes must be rejected', 2: 'validate could not run; it must report a bomb as a problem (exit 1)' },
      ours: () => ours(['validate', inputs.bomb.zip], { expectExit: 1 }),
      reference: () => ({ file: 'unzip', args: ['-t', inputs.bomb.zip], cwd: root, expectExit: 0 }),
    },
    {
      id: 'validate-maxdir',
      kind: 'ratio',
      measure: 'validate maxdir',
      oursLabel: 'pipeline-tool validate maxdir',
      referenceLabel: 'zip -X -r -6 maxdir',
      // A folder is judged as the zip pack would make of it, size included, so validating it
      // deflates every file: the yardstick is zipping the folder, which zip does on one core.
      goal: 0.6,
      requires: { command: 'validate', tools: ['zip'], inputs: ['maxdir'] },
      why: { 1: 'the generated folder is not clean', 2: 'validate could not run' },
      ours: () => ours(['validate', inputs.max.dir], { expectExit: 0 }),
      reference: () => withFreshOutput(outDir, 'zip-v', (out) => ({ file: 'zip', args: ['-X', '-r', '-6', out, '.'], cwd: inputs.max.dir, expectExit: 0 })),
    },
    {
      id: 'pack-max',
      kind: 'ratio',
      measure: 'pack maxdir',
      oursLabel: 'pipeline-tool pack maxdir',
      referenceLabel: 'zip -X -r -6 maxdir',
      goal: 1.2,
      requires: { command: 'pack', tools: ['zip'], inputs: ['maxdir'] },
      why: { 1: 'pack found problems in a bundle that should be clean', 2: 'pack could not run' },
      // Each run writes to a path of its own, so no run finds an earlier output to overwrite; the
      // file is checked and deleted outside the timed span.
      ours: () => withFreshOutput(outDir, 'pack', (out) => ours(['pack', inputs.max.dir, '-o', out], { expectExit: 0 })),
      reference: () => withFreshOutput(outDir, 'zip', (out) => ({ file: 'zip', args: ['-X', '-r', '-6', out, '.'], cwd: inputs.max.dir, expectExit: 0 })),
    },
    {
      id: 'validate-react',
      kind: 'ratio',
      measure: 'validate dist of the React template',
      oursLabel: 'pipeline-tool validate (react template dist)',
      referenceLabel: 'vite build (react template)',
      // Checking a build must cost a small part of making it, or the plugin's check after each
      // build (and validate in CI) would be felt. Start-up and one cold pass over the bundle and
      // its map are the floor (a ruling, was 0.2x).
      goal: 0.3,
      requires: { command: 'validate', tools: [], inputs: ['react-app'] },
      why: { 1: 'the built template is not clean', 2: 'validate could not run' },
      // In the project, so that its project file applies, as `npm run validate` runs it.
      ours: () => ours(['validate'], { cwd: inputs.reactApp.dir, expectExit: 0 }),
      reference: () => ({ file: node, args: [inputs.reactApp.viteBin, 'build', '--logLevel', 'error'], cwd: inputs.reactApp.dir, expectExit: 0 }),
    },
    {
      id: 'validate-largemap',
      kind: 'ratio',
      measure: 'validate an app with a large map and no findings',
      oursLabel: 'pipeline-tool validate (3 MB script, 9 MB map beside it)',
      referenceLabel: 'the same without its map',
      // A map is read only for a file with a finding to place: a bundle with none pays nothing
      // for its maps, however large, beyond listing them as left out.
      goal: 1.1,
      requires: { command: 'validate', tools: [], inputs: [] },
      why: { 1: 'the generated app is not clean', 2: 'validate could not run' },
      // From the project's folder, as a build's validate runs.
      ours: () => ours(['validate', largeMapApp().mapped], { cwd: largeMapApp().dir, expectExit: 0 }),
      reference: () => ours(['validate', largeMapApp().plain], { cwd: largeMapApp().dir, expectExit: 0 }),
    },
    {
      id: 'report-react',
      kind: 'ratio',
      measure: 'bundle report of the React template',
      oursLabel: 'bundle report (react template dist, bench/bundle-report.cjs)',
      referenceLabel: 'vite build (react template)',
      // What --report adds to a pack or validate: the folder measured as pack zips it, every file
      // shared out through its map, the page rendered and written; in a process of its own.
      goal: 0.2,
      requires: { command: 'pack', tools: [], inputs: ['react-app'] },
      why: { 1: 'the report could not be made', 2: 'the report could not be made' },
      // The page is written over at each run, as --report writes over its page.
      ours: () => ({ file: node, args: [path.join(root, 'bench', 'bundle-report.cjs'), library, inputs.reactApp.dist, inputs.reactApp.dir, path.join(outDir, 'react-report.html')], cwd: root, expectExit: 0 }),
      reference: () => ({ file: node, args: [inputs.reactApp.viteBin, 'build', '--logLevel', 'error'], cwd: inputs.reactApp.dir, expectExit: 0 }),
    },
    {
      id: 'vite-plugin-build',
      kind: 'ratio',
      measure: "vite build of the React template, with pipeline-tool's plugin",
      oursLabel: "vite build (the template's config)",
      referenceLabel: 'vite build (without pipeline-tool/vite)',
      // The plugin makes the build one classic script with its map, and checks it as validate
      // does once it is written: an author's `npm run build` may cost a third more for that.
      goal: 1.3,
      requires: { command: 'validate', tools: [], inputs: ['react-app'] },
      why: { 1: 'the plugin failed the build', 2: 'the build could not run' },
      ours: () => ({ file: node, args: [inputs.reactApp.viteBin, 'build', '--logLevel', 'error'], cwd: inputs.reactApp.dir, expectExit: 0 }),
      reference: () => ({ file: node, args: [inputs.reactApp.viteBin, 'build', '--logLevel', 'error', '--config', VITE_WITHOUT_PLUGIN], cwd: inputs.reactApp.dir, expectExit: 0 }),
    },
    {
      id: 'hot-update',
      kind: 'pair-in-process',
      measure: 'hot update of the React template, with the served-module checks',
      oursLabel: 'save to module served anew, checkServed on',
      referenceLabel: 'the same, checkServed: false',
      // The checks run after Vite has answered, off the request's path: an update should not
      // wait for them. Both servers run in one process and take turns (bench/hot-update.mjs).
      goal: 1.1,
      requires: { command: 'dev', tools: [], inputs: [] },
      why: { 1: 'the hot updates could not be timed', 2: 'the hot updates could not be timed' },
      ours: (runs) => ({ file: node, args: [path.join(root, 'bench', 'hot-update.mjs'), String(runs * HOT_UPDATE_ROUNDS_FACTOR), '--json'], cwd: root, expectExit: 0 }),
    },
    {
      id: 'lint-react',
      kind: 'ratio',
      measure: "eslint src/ of the React template, with pipeline-tool's plugin",
      oursLabel: 'eslint src (the template\'s config)',
      referenceLabel: 'eslint src (without pipeline-tool/eslint)',
      // The plugin runs in the editor on every keystroke, beside typescript-eslint and the React
      // Hooks rules: it may add a third to what linting the template costs without it.
      goal: 1.3,
      requires: { command: 'eslint', tools: [], inputs: ['react-app'] },
      why: { 1: 'ESLint found problems in the template', 2: 'ESLint could not run' },
      ours: () => ({ file: node, args: [inputs.reactApp.eslintBin, 'src'], cwd: inputs.reactApp.dir, expectExit: 0 }),
      reference: () => ({ file: node, args: [inputs.reactApp.eslintBin, '--config', WITHOUT_PLUGIN, 'src'], cwd: inputs.reactApp.dir, expectExit: 0 }),
    },
    {
      id: 'version',
      kind: 'ratio',
      measure: 'pipeline-tool --version',
      // Startup-bound: a round costs a tenth of a second, and a 20 ms hiccup is a third of the
      // figure, so more rounds buy a steadier median cheaply.
      runsFactor: STARTUP_RUNS_FACTOR,
      oursLabel: 'pipeline-tool --version',
      referenceLabel: 'node -e 0',
      goal: 1.3,
      requires: { command: 'version', tools: [], inputs: [] },
      why: {},
      ours: () => ours(['--version'], { expectExit: 0 }),
      reference: () => nodeBaseline,
    },
    {
      id: 'fixtures-100k',
      kind: 'load',
      measure: 'load a 100,000-row fixture file',
      oursLabel: 'loadFixtureFile(fixtures-100k.json)',
      referenceLabel: 'the same, 10,000 rows',
      // Loading was quadratic: 10,000 rows took 6.6 s. Linear means the time per row at 100,000
      // rows is no more than at 10,000, give or take the noise of a shared machine.
      goalMs: 2000,
      goalPerRowRatio: 1.5,
      requires: { command: 'dev', tools: [], inputs: ['fixtures'] },
      why: { 1: 'the fixture file was refused' },
      ours: () => loadFixtures(inputs.fixtures.large.file),
      reference: () => loadFixtures(inputs.fixtures.small.file),
      rows: { ours: inputs.fixtures.large.rows, reference: inputs.fixtures.small.rows },
    },
    {
      id: 'peak-memory',
      kind: 'memory',
      measure: 'peak memory, validate max.zip',
      oursLabel: 'pipeline-tool validate max.zip',
      referenceLabel: '',
      goalMiB: 96,
      requires: { command: 'validate', tools: ['time'], inputs: ['max.zip'] },
      why: { 1: 'the generated bundle is not clean', 2: 'validate could not run' },
      ours: () => ours(['validate', inputs.max.zip], { expectExit: 0 }),
    },
    {
      id: 'peak-memory-pack',
      kind: 'memory',
      measure: 'peak memory, pack maxdir',
      oursLabel: 'pipeline-tool pack maxdir',
      referenceLabel: '',
      // pack compresses eight files ahead of the one it writes, then checks the zip it wrote as
      // validate checks max.zip. What it reads, deflates and inflates is collected as it goes, so
      // neither step holds more than its own window: the same goal as validate max.zip.
      goalMiB: 96,
      requires: { command: 'pack', tools: ['time'], inputs: ['maxdir'] },
      why: { 1: 'pack found problems in a bundle that should be clean', 2: 'pack could not run' },
      ours: () => ours(['pack', inputs.max.dir, '-o', path.join(outDir, 'pack-memory.zip'), '--force'], { expectExit: 0 }),
    },
    {
      id: 'peak-memory-maxjs',
      kind: 'memory',
      measure: 'peak memory, validate maxjs.zip',
      oursLabel: 'pipeline-tool validate maxjs.zip',
      referenceLabel: '',
      // V8's parse of 41.6 MB of script holds more than streaming does: syntax trees and
      // bytecode in two threads' heaps, given back as each script is judged.
      goalMiB: 128,
      requires: { command: 'validate', tools: ['time'], inputs: ['maxjs.zip'] },
      why: { 1: 'the generated bundle is not clean', 2: 'validate could not run' },
      ours: () => ours(['validate', inputs.maxjs.zip], { expectExit: 0 }),
    },
  ];
}

/** Wraps a command so every run gets `<outDir>/<prefix>-<run>.zip`, checked and removed after. */
function withFreshOutput(outDir, prefix, build) {
  const outputFor = (run) => path.join(outDir, `${prefix}-${run}.zip`);
  return {
    ...build(outputFor(0)),
    prepare: (run) => {
      rmSync(outputFor(run), { force: true });
      return build(outputFor(run));
    },
    check: (run) => {
      const out = outputFor(run);
      if (!existsSync(out)) return `exited 0 but wrote no file at ${out}`;
      if (statSync(out).size === 0) return `exited 0 but wrote an empty file at ${out}`;
      return null;
    },
    cleanup: (run) => rmSync(outputFor(run), { force: true }),
  };
}

/**
 * Why a case cannot run here, or null. Missing tools and inputs make it SKIP (we could not check the
 * goal); a command of ours that does not exist yet makes it N/A.
 */
export function findBlocker(testCase, { tools, cli, inputs }) {
  for (const tool of testCase.requires.tools) {
    if (!tools[tool].available) return { status: 'SKIP', note: tools[tool].note };
  }
  for (const input of testCase.requires.inputs) {
    if (input === 'react-app') {
      if (!inputs.reactApp || inputs.reactApp.error) return { status: 'SKIP', note: `the React template app could not be made: ${inputs.reactApp?.error ?? 'not prepared'}` };
      continue;
    }
    const present = { 'max.zip': inputs.max.zip, 'maxjs.zip': inputs.maxjs.zip, 'maxmin.zip': inputs.maxmin.zip, 'typical.zip': inputs.typical.zip, 'bomb.zip': inputs.bomb.zip, maxdir: inputs.max.dir, fixtures: inputs.fixtures.large.file }[input];
    if (!present) return { status: 'SKIP', note: `${input} could not be built (${tools.zip.available ? 'unknown reason' : 'zip is missing'})` };
  }
  const command = testCase.requires.command;
  const state = command === 'version' ? cli.version : cli.commands[command];
  if (!state.available) return { status: 'N/A', note: `not available: ${state.note}` };
  return null;
}
