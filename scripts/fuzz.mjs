// The long fuzz campaign: `npm run fuzz -- --seed 123 --runs 20000 [--property validate/bytes]`.
//
// It runs the same property files as `npm test` (test/fuzz), with FUZZ_SEED / FUZZ_RUNS /
// FUZZ_PROPERTY telling them to run longer, so CI and the campaign can never test different things.
// Each property appends one JSON line to a summary file; this script prints the totals from it.
// Failing cases are shrunk by fast-check and saved under test/fixtures/fuzz-regressions/, where
// test/fuzz/regressions.test.ts replays them on every `npm test`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const usage = `usage: npm run fuzz -- [--seed <n>] [--runs <n>] [--property <name>[,<name>…]]

  --seed      fast-check seed (default: a random one, printed so the run can be repeated)
  --runs      cases per property (default 2000); slow properties (the CLI, bombs) take a share
  --property  run only these properties, or a prefix such as "validate" or "pack"`;

let values;
try {
  ({ values } = parseArgs({
    options: { seed: { type: 'string' }, runs: { type: 'string' }, property: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  }));
} catch (error) {
  console.error(`fuzz: ${error.message}\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const whole = (name, text, fallback, least = 0) => {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < least) {
    console.error(`fuzz: --${name} takes a whole number${least > 0 ? ` of at least ${least}` : ''}, not "${text}".\n${usage}`);
    process.exit(2);
  }
  return Number(text);
};
const seed = whole('seed', values.seed, Math.floor(Math.random() * 2 ** 31));
// Every property runs at least one case, so zero runs would not mean what it says.
const runs = whole('runs', values.runs, 2000, 1);

const work = mkdtempSync(path.join(tmpdir(), 'pipeline-tool-fuzz-'));
const summaryFile = path.join(work, 'summary.jsonl');
console.log(`fuzz: seed ${seed}, ${runs} runs per property${values.property ? `, properties ${values.property}` : ''}`);

const started = Date.now();
const vitest = spawnSync(process.execPath, [path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs'), 'run', 'test/fuzz', '--exclude', 'test/fuzz/regressions.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    FUZZ_SEED: String(seed),
    FUZZ_RUNS: String(runs),
    FUZZ_PROPERTY: values.property ?? '',
    FUZZ_SUMMARY: summaryFile,
  },
});
const seconds = ((Date.now() - started) / 1000).toFixed(1);

const results = existsSync(summaryFile)
  ? readFileSync(summaryFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
  : [];
rmSync(work, { recursive: true, force: true });

const failures = results.filter((r) => r.failed);
const cases = results.reduce((sum, r) => sum + r.runs, 0);
console.log('\nfuzz summary');
for (const r of results) {
  console.log(`  ${r.failed ? 'FAIL' : 'ok  '} ${r.property.padEnd(36)} ${String(r.runs).padStart(7)} cases  ${(r.ms / 1000).toFixed(1).padStart(7)} s`);
}
console.log(`  ${cases} cases in ${seconds} s, seed ${seed}; ${failures.length} ${failures.length === 1 ? 'property' : 'properties'} failed`);
for (const f of failures) {
  const shown = JSON.stringify(f.counterexample);
  console.log(`\n  ${f.property}: ${f.error}`);
  console.log(`    replay: FUZZ_PATH=${f.path} npm run fuzz -- --seed ${f.seed} --runs ${runs} --property ${f.property}`);
  console.log(`    shrunk input: ${shown.length > 2000 ? `${shown.slice(0, 2000)}…` : shown}`);
  if (f.saved) console.log(`    saved as ${f.saved}: fix the bug, then say what broke in its "broke" field`);
}
if (results.length === 0) console.log('  no property ran: check --property');
process.exit(vitest.status === 0 && failures.length === 0 && results.length > 0 ? 0 : 1);
