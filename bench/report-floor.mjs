// How close the bundle report of the React template is to the least it could cost. Times, in turns,
// three processes: the floor (bench/report-floor-process.cjs: load the report's code, read the built
// script and its map, parse the map, deflate the script), the report itself (bench/bundle-report.cjs,
// as `npm run bench` times it) and the template's `vite build`, the report's yardstick. Prints each
// median, and each side's ratio to the build (the median of the ratios of each round, with their
// spread, as the benchmark judges). Run `npm run bench` once first (it makes the app), then:
//   node bench/report-floor.mjs [--runs N]      # default 9 rounds, after one unrecorded
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { childPageFaults, median, roundRatios, spreadOf } from './measure.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { runs: { type: 'string', default: '9' } } });
const runs = Number(values.runs);
if (!Number.isSafeInteger(runs) || runs < 1) {
  console.error(`--runs takes a whole number of rounds, at least 1, not "${values.runs}".`);
  process.exit(2);
}

const app = path.join(root, 'bench', '.work', 'react-app');
const viteBin = path.join(app, 'node_modules', 'vite', 'bin', 'vite.js');
const library = path.join(root, 'dist', 'index.js');
for (const needed of [library, viteBin, path.join(app, 'dist', 'assets')]) {
  if (!existsSync(needed)) {
    console.error(`${path.relative(root, needed)} does not exist: run \`npm run bench -- --only report-react\` once first (it builds pipeline-tool and makes the React app).`);
    process.exit(2);
  }
}

const out = mkdtempSync(path.join(os.tmpdir(), 'pipeline-tool-floor-'));
const node = process.execPath;
const sides = [
  { label: 'floor: load, read and parse the map, deflate the script', file: node, args: [path.join(root, 'bench', 'report-floor-process.cjs'), library, path.join(app, 'dist')], cwd: root },
  { label: 'bundle report (bench/bundle-report.cjs)', file: node, args: [path.join(root, 'bench', 'bundle-report.cjs'), library, path.join(app, 'dist'), app, path.join(out, 'report.html')], cwd: root },
  { label: 'vite build (react template)', file: node, args: [viteBin, 'build', '--logLevel', 'error'], cwd: app },
];
for (const side of sides) Object.assign(side, { ms: [], faults: [] });

try {
  for (let round = 0; round <= runs; round++) {
    if (process.stderr.isTTY) process.stderr.write(`\rround ${round + 1} of ${runs + 1}`);
    for (const side of sides) {
      const before = childPageFaults();
      const start = process.hrtime.bigint();
      const result = spawnSync(side.file, side.args, { cwd: side.cwd, encoding: 'utf8', timeout: 120_000 });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const after = childPageFaults();
      if (result.status !== 0) {
        if (process.stderr.isTTY) process.stderr.write('\n');
        console.error(`${side.label} exited ${result.status ?? result.signal}: ${`${result.stdout}${result.stderr}`.trim().split('\n').slice(-5).join('\n')}`);
        process.exitCode = 1;
        throw new Error('stopped');
      }
      // The first round is not recorded: it fills the file cache and Node's compile caches.
      if (round > 0) {
        side.ms.push(ms);
        if (before !== null && after !== null) side.faults.push(after - before);
      }
    }
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
  const build = sides.at(-1);
  const rows = sides.map((side) => {
    const ratios = side === build ? null : roundRatios(side.ms, build.ms);
    return [
      side.label,
      median(side.ms).toFixed(1),
      side.faults.length > 0 ? String(Math.round(median(side.faults))) : 'n/a',
      ratios ? `${median(ratios).toFixed(3)}x ±${spreadOf(ratios).toFixed(3)}` : '',
    ];
  });
  const header = ['', 'ms', 'faults', 'of vite build'];
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  console.log(`the bundle report of the React template against its floor: ${runs} rounds, medians`);
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
} catch (error) {
  if (!(error instanceof Error && error.message === 'stopped')) throw error;
} finally {
  rmSync(out, { recursive: true, force: true });
}
