#!/usr/bin/env node
// npm run bench: times pipeline-tool as whole processes against standard tools and checks the
// performance goals in cases.mjs. Exit 0: every goal met, or missed by less than the run-to-run
// spread (marked SPREAD). 1: a goal missed by more, or that could not be checked; the last line on
// stderr names which. 2: the benchmark itself could not run (bad flags,
// inputs could not be generated). Variables that change Node's own start-up are removed first.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { STARTUP_RUNS_FACTOR, defineCases, findBlocker } from './cases.mjs';
import { describeMachine, findSystemTools, probeCli, removeStartupVariables, summariseOutput } from './environment.mjs';
import { prepareInputs } from './inputs.mjs';
import { prepareReactApp } from './react-app.mjs';
import { captureOutput, judge, measurePeakMemory, median, pageFaultCost, reportedPair, roundRatios, spreadOf, timePair, timeReported } from './measure.mjs';
import { formatJson, formatMarkdown, formatMissed, formatText } from './report.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const workDir = path.join(root, 'bench', '.work');
const MEMORY_RUNS = 3;

const USAGE = `Usage: node bench/run.mjs [options]   (npm run bench builds first)

Options:
  --runs <n>      measured runs per command (default 7; ${STARTUP_RUNS_FACTOR} times as many for the
                  startup-bound pairs, which take a tenth of a second)
  --warmup <n>    unrecorded warm-up runs per command (default 1)
  --json          print the results as JSON instead of the table
  --markdown      print the table as Markdown (for docs/performance.md)
  --only <ids>    run only these figures, comma-separated: validate-max, validate-maxjs,
                  validate-maxmin, validate-typical, validate-bomb, validate-maxdir, pack-max,
                  validate-react, validate-largemap, report-react, vite-plugin-build,
                  hot-update, lint-react, version, fixtures-100k,
                  peak-memory, peak-memory-maxjs, peak-memory-pack
  --regenerate    rebuild the inputs in bench/.work even if they are current
  --cli <path>    measure another build of the binary (default bin/pipeline-tool.js)
  -h, --help      show this help`;

class UsageError extends Error {}

function readOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        runs: { type: 'string', default: '7' },
        warmup: { type: 'string', default: '1' },
        json: { type: 'boolean', default: false },
        markdown: { type: 'boolean', default: false },
        regenerate: { type: 'boolean', default: false },
        only: { type: 'string' },
        cli: { type: 'string', default: path.join(root, 'bin', 'pipeline-tool.js') },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`${error.message}\n\n${USAGE}`);
  }
  const { values } = parsed;
  const count = (name, min) => {
    const n = Number(values[name]);
    if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be a whole number of at least ${min}, got "${values[name]}"`);
    return n;
  };
  return {
    runs: count('runs', 1),
    warmup: count('warmup', 0),
    json: values.json,
    markdown: values.markdown,
    regenerate: values.regenerate,
    only: values.only === undefined ? null : values.only.split(',').map((id) => id.trim()).filter(Boolean),
    bin: path.resolve(values.cli),
    help: values.help,
  };
}

// Progress goes to stderr, and only to a terminal, so redirected output stays clean.
const progress = process.stderr.isTTY
  ? (text) => process.stderr.write(`\r\x1b[2K${text}`)
  : () => {};
const endProgress = () => progress('');

/**
 * A row for a run that misbehaved, with the first lines of its output. A command that the CLI does
 * not know (yet) is "not available" rather than a failure, like in the probe.
 */
function describeFailure(testCase, failure) {
  const who = failure.side === 'ours' ? testCase.oursLabel : testCase.referenceLabel;
  const expected = failure.expected === undefined ? '' : ` (expected ${failure.expected})`;
  const statusCode = Number(/^exited (\d+)$/.exec(failure.outcome)?.[1]);
  const why = failure.side === 'ours' ? testCase.why[statusCode] : null;
  const output = captureOutput(failure.spec);
  if (failure.side === 'ours' && /unknown command|Cannot find module/i.test(output)) {
    return { status: 'N/A', note: `not available: ${summariseOutput(output)}` };
  }
  return { status: 'FAIL', note: `${who} ${failure.outcome}${expected}${why ? `: ${why}` : ''}. Its output:\n${output}` };
}

function runRatioCase(testCase, options) {
  const result = timePair({
    ours: testCase.ours(),
    reference: testCase.reference(),
    addend: testCase.addend?.(),
    runs: options.runs * (testCase.runsFactor ?? 1),
    warmup: options.warmup,
    onRound: (round, rounds) => progress(`${testCase.measure} vs ${testCase.referenceLabel}: round ${round}/${rounds}`),
  });
  const row = {
    id: testCase.id,
    kind: 'ratio',
    measure: testCase.measure,
    reference: testCase.referenceLabel,
    goal: { max: testCase.goal, unit: 'ratio' },
    ours: { medianMs: median(result.ours), samplesMs: result.ours },
    ref: { medianMs: median(result.reference), samplesMs: result.reference },
    ratio: null,
    status: 'FAIL',
    note: null,
  };
  // A yardstick of two parts keeps both, each with its median, beside their sum.
  if (result.parts) {
    row.ref.parts = {
      [testCase.partLabels[0]]: { medianMs: median(result.parts.reference), samplesMs: result.parts.reference },
      [testCase.partLabels[1]]: { medianMs: median(result.parts.addend), samplesMs: result.parts.addend },
    };
  }
  if (result.failure) return { ...row, ...describeFailure(testCase, result.failure) };
  row.ratio = row.ours.medianMs / row.ref.medianMs;
  row.spread = spreadOf(roundRatios(result.ours, result.reference));
  row.status = judge(row.ratio, testCase.goal, row.spread);
  if (result.faults) row.faults = { ours: Math.round(median(result.faults.ours)), reference: Math.round(median(result.faults.reference)) };
  return row;
}

/** A pair timed inside one process that runs both sides in turns (a hot update with and without the checks). */
function runInProcessPairCase(testCase, options) {
  progress(`${testCase.measure}: ${options.runs} runs' worth of rounds in one process`);
  const result = reportedPair(testCase.ours(options.runs));
  const row = {
    id: testCase.id,
    kind: 'ratio',
    measure: testCase.measure,
    reference: testCase.referenceLabel,
    goal: { max: testCase.goal, unit: 'ratio' },
    ours: null,
    ref: null,
    ratio: null,
    spread: null,
    status: 'FAIL',
    note: null,
  };
  if (result.failure) return { ...row, ...describeFailure(testCase, result.failure) };
  row.ours = { medianMs: median(result.ours), samplesMs: result.ours };
  row.ref = { medianMs: median(result.reference), samplesMs: result.reference };
  row.ratio = row.ours.medianMs / row.ref.medianMs;
  row.spread = spreadOf(roundRatios(result.ours, result.reference));
  row.status = judge(row.ratio, testCase.goal, row.spread);
  return row;
}

/**
 * A time inside the process against a goal in milliseconds, and its growth: the time per row of
 * the large input over that of the small one, which stays near 1 when the work is linear.
 */
function runLoadCase(testCase, options) {
  const result = timeReported({
    ours: testCase.ours(),
    reference: testCase.reference(),
    runs: options.runs,
    warmup: options.warmup,
    onRound: (round, rounds) => progress(`${testCase.measure}: round ${round}/${rounds}`),
  });
  const row = {
    id: testCase.id,
    kind: 'load',
    measure: testCase.measure,
    reference: testCase.referenceLabel,
    goal: { maxMs: testCase.goalMs, maxPerRowRatio: testCase.goalPerRowRatio, unit: 'ms' },
    ours: { medianMs: median(result.ours), samplesMs: result.ours },
    ref: { medianMs: median(result.reference), samplesMs: result.reference },
    ratio: null,
    status: 'FAIL',
    note: null,
  };
  if (result.failure) return { ...row, ...describeFailure(testCase, result.failure) };
  row.ratio = row.ours.medianMs / testCase.rows.ours / (row.ref.medianMs / testCase.rows.reference);
  row.status = row.ours.medianMs <= testCase.goalMs && row.ratio <= testCase.goalPerRowRatio ? 'PASS' : 'FAIL';
  return row;
}

function runMemoryCase(testCase, options, tools) {
  const result = measurePeakMemory({
    timeBinary: tools.time.file,
    command: testCase.ours(),
    runs: Math.min(MEMORY_RUNS, options.runs),
    onRun: (run, runs) => progress(`${testCase.measure}: run ${run}/${runs}`),
  });
  const medianKiB = median(result.samplesKiB);
  const row = {
    id: testCase.id,
    kind: 'memory',
    measure: testCase.measure,
    reference: '',
    goal: { max: testCase.goalMiB, unit: 'MiB' },
    peakMiB: result.failure || medianKiB === null ? null : medianKiB / 1024,
    samplesKiB: result.samplesKiB,
    status: 'FAIL',
    note: null,
  };
  if (result.failure) return { ...row, ...describeFailure(testCase, result.failure) };
  row.spread = spreadOf(result.samplesKiB.map((kib) => kib / 1024));
  row.status = judge(row.peakMiB, testCase.goalMiB, row.spread);
  return row;
}

function blockedRow(testCase, blocker) {
  const kind = testCase.kind === 'pair-in-process' ? 'ratio' : testCase.kind;
  const base = { id: testCase.id, kind, measure: testCase.measure, status: blocker.status, note: blocker.note };
  if (testCase.kind === 'memory') return { ...base, reference: '', goal: { max: testCase.goalMiB, unit: 'MiB' }, peakMiB: null, samplesKiB: [] };
  const goal = testCase.kind === 'load' ? { maxMs: testCase.goalMs, maxPerRowRatio: testCase.goalPerRowRatio, unit: 'ms' } : { max: testCase.goal, unit: 'ratio' };
  return { ...base, reference: testCase.referenceLabel, goal, ours: null, ref: null, ratio: null };
}

function selectCases(cases, only) {
  if (only === null) return cases;
  const known = cases.map((testCase) => testCase.id);
  const unknown = only.filter((id) => !known.includes(id));
  if (unknown.length > 0) throw new UsageError(`--only: unknown figure ${unknown.join(', ')}; known: ${known.join(', ')}`);
  return cases.filter((testCase) => only.includes(testCase.id));
}

async function main(argv) {
  const options = readOptions(argv);
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  // Before anything is spawned, so both sides of every pair, and every probe, run without them.
  const removedVariables = removeStartupVariables(process.env);
  if (removedVariables.length > 0) process.stderr.write(`bench: measuring without ${removedVariables.join(', ')}, for both sides (they change Node's own start-up)\n`);
  const machine = describeMachine();
  progress('the price of a page of fresh memory');
  machine.pageFaultUs = pageFaultCost()?.usPerFault ?? null;
  const tools = findSystemTools();
  for (const tool of Object.values(tools)) {
    if (!tool.available) process.stderr.write(`bench: ${tool.note}; the goals that need it will be marked SKIP\n`);
  }

  const inputs = await prepareInputs({ workDir, zipAvailable: tools.zip.available, regenerate: options.regenerate, log: progress });
  const outDir = path.join(workDir, 'out');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });

  const cli = probeCli({ bin: options.bin, root });
  const cases = selectCases(defineCases({ bin: options.bin, root, inputs, outDir }), options.only);
  // Made only when its figure is asked for: the first time, it installs the template's packages.
  inputs.reactApp = cases.some((testCase) => testCase.requires.inputs.includes('react-app'))
    ? prepareReactApp({ workDir, bin: options.bin, root, log: progress })
    : null;
  const results = [];
  for (const testCase of cases) {
    const blocker = findBlocker(testCase, { tools, cli, inputs });
    if (blocker) results.push(blockedRow(testCase, blocker));
    else if (testCase.kind === 'memory') results.push(runMemoryCase(testCase, options, tools));
    else if (testCase.kind === 'load') results.push(runLoadCase(testCase, options));
    else if (testCase.kind === 'pair-in-process') results.push(runInProcessPairCase(testCase, options));
    else results.push(runRatioCase(testCase, options));
  }
  endProgress();
  rmSync(outDir, { recursive: true, force: true });

  // A goal missed by less than the run-to-run spread is reported as such, not counted as missed.
  const ok = results.every((row) => row.status === 'PASS' || row.status === 'SPREAD');
  const report = {
    machine,
    tools,
    cli,
    inputs,
    settings: {
      runs: options.runs,
      startupBoundRuns: options.runs * STARTUP_RUNS_FACTOR,
      warmup: options.warmup,
      memoryRuns: Math.min(MEMORY_RUNS, options.runs),
      removedVariables,
    },
    results,
    ok,
  };
  const format = options.json ? formatJson : options.markdown ? formatMarkdown : formatText;
  process.stdout.write(format(report));
  const missed = formatMissed(results);
  if (missed) process.stderr.write(`${missed}\n`);
  return ok ? 0 : 1;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  endProgress();
  if (error instanceof UsageError) {
    process.stderr.write(`bench: ${error.message}\n`);
  } else {
    process.stderr.write(`bench: could not run: ${error.stack ?? error}\n`);
  }
  process.exitCode = 2;
}
