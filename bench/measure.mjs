// Timing whole processes. Both commands of a pair run in turns (A B A B …), so a burst of noise on a
// shared machine lands on both sides instead of on one, and the ratio of medians stays steady even
// when the absolute times do not.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A hung command must not hang the benchmark.
const RUN_TIMEOUT_MS = 120_000;

/**
 * A command is `{ file, args, cwd?, expectExit, prepare?(run), check?(run) }`.
 * `prepare` and `check` run outside the timed span: `prepare` gives each run its own output path,
 * `check` returns a problem (a string) or null after a run that exited as expected.
 */
function runOnce(command, run) {
  const spec = command.prepare ? command.prepare(run) : command;
  const faultsBefore = childPageFaults();
  const start = process.hrtime.bigint();
  const result = spawnSync(spec.file, spec.args, { cwd: spec.cwd, stdio: 'ignore', timeout: RUN_TIMEOUT_MS });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const faultsAfter = childPageFaults();
  const faults = faultsBefore === null || faultsAfter === null ? null : faultsAfter - faultsBefore;
  return { ms, faults, spec, status: result.status, signal: result.signal, error: result.error };
}

/**
 * The minor page faults of every child this process has waited for, and of theirs (Linux's
 * `cminflt`, /proc/self/stat), or null where there is no such file. Read before and after a run,
 * the difference is what the run's processes took of memory they had not touched before: the
 * first touch of each page is a fault, whose cost differs a hundredfold between machines (see
 * pageFaultCost).
 */
export function childPageFaults(statFile = '/proc/self/stat') {
  let stat;
  try {
    stat = readFileSync(statFile, 'utf8');
  } catch {
    return null;
  }
  // The command name, in parentheses, may hold spaces; the fields after it are plain numbers:
  // state, ppid, pgrp, session, tty_nr, tpgid, flags, minflt, cminflt, …
  const count = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[8]);
  return Number.isSafeInteger(count) ? count : null;
}

/** Runs the same command again with its output kept, to show the reader why it misbehaved. */
export function captureOutput(spec, maxLines = 8) {
  const result = spawnSync(spec.file, spec.args, { cwd: spec.cwd, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
  const text = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  const lines = text.split('\n');
  const shown = lines.slice(0, maxLines).join('\n');
  return lines.length > maxLines ? `${shown}\n… (${lines.length - maxLines} more lines)` : shown || '(no output)';
}

function describeOutcome(outcome) {
  if (outcome.error?.code === 'ETIMEDOUT') return `timed out after ${RUN_TIMEOUT_MS / 1000} s`;
  if (outcome.error) return `could not start: ${outcome.error.message}`;
  if (outcome.signal) return `was killed by ${outcome.signal}`;
  return `exited ${outcome.status}`;
}

/** Returns null when the run behaved, or `{ outcome, problem }` describing what went wrong. */
function checkRun(command, outcome, run) {
  if (outcome.error || outcome.signal || outcome.status !== command.expectExit) {
    return { outcome: describeOutcome(outcome), expected: command.expectExit };
  }
  const problem = command.check ? command.check(run, outcome.spec) : null;
  return problem ? { outcome: problem } : null;
}

/** The least CPU time (user + system, ms) of `runs` calls of `work` in this process: for in-process figures. */
export function leastCpuMs(runs, work) {
  let least = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    work();
    const used = process.cpuUsage(start);
    least = Math.min(least, (used.user + used.system) / 1000);
  }
  return least;
}

export function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Times `ours` against `reference`, `warmup` unrecorded rounds then `runs` recorded ones, one run of
 * each per round. Stops at the first misbehaving run (wrong exit code, missing output): a time for
 * a command that did the wrong thing means nothing.
 * `addend`, when given, is a command that reports a time of its own (a line `{"ms": …}`): it runs
 * in each round after the reference, and its time is added to the reference's, for a yardstick
 * made of two parts (`unzip -t` and V8's parse of the same scripts).
 * Returns `{ ours: samplesMs[], reference: samplesMs[], parts?, faults?, failure? }`, where failure
 * names the side, `parts` holds the reference's and the addend's own samples, and `faults` the page
 * faults of each recorded run of either side where they can be counted (the addend's are not: its
 * time is a parse inside a process, not a whole process).
 */
export function timePair({ ours, reference, addend, runs, warmup, onRound = () => {} }) {
  const samples = { ours: [], reference: [] };
  const faults = { ours: [], reference: [] };
  const parts = addend ? { reference: [], addend: [] } : undefined;
  const result = () => ({ ...samples, ...(parts ? { parts } : {}), ...(faults.ours.length > 0 ? { faults } : {}) });
  const rounds = warmup + runs;
  for (let round = 0; round < rounds; round++) {
    onRound(round + 1, rounds);
    for (const [side, command] of [['ours', ours], ['reference', reference]]) {
      const outcome = runOnce(command, round);
      try {
        const failure = checkRun(command, outcome, round);
        if (failure) return { ...result(), failure: { side, ...failure, spec: outcome.spec } };
      } finally {
        command.cleanup?.(round);
      }
      let ms = outcome.ms;
      if (side === 'reference' && addend) {
        const added = reportedMs(addend, round);
        if (added.failure) return { ...result(), failure: { side, ...added.failure } };
        if (round >= warmup) {
          parts.reference.push(ms);
          parts.addend.push(added.ms);
        }
        ms += added.ms;
      }
      if (round >= warmup) {
        samples[side].push(ms);
        if (outcome.faults !== null) faults[side].push(outcome.faults);
      }
    }
  }
  return result();
}

/** Runs a command that prints `{"ms": …}` as its last line: `{ ms }`, or `{ failure }`. */
function reportedMs(command, round) {
  const result = spawnSync(command.file, command.args, { cwd: command.cwd, encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
  const outcome = { spec: command, status: result.status, signal: result.signal, error: result.error };
  const failure = checkRun(command, outcome, round);
  if (failure) return { failure: { ...failure, spec: command } };
  let ms;
  try {
    ms = JSON.parse(result.stdout.trim().split('\n').at(-1)).ms;
  } catch {
    ms = undefined;
  }
  if (typeof ms !== 'number') return { failure: { outcome: `printed no time: ${result.stdout.trim() || '(nothing)'}`, spec: command } };
  return { ms };
}

/**
 * Runs a command that times both sides of a pair itself, in one process, and prints
 * `{"ours": [ms…], "reference": [ms…]}` as its last line (bench/hot-update.mjs --json):
 * `{ ours, reference }`, or `{ failure }`.
 */
export function reportedPair(command) {
  const result = spawnSync(command.file, command.args, { cwd: command.cwd, encoding: 'utf8', timeout: RUN_TIMEOUT_MS * 5 });
  const outcome = { spec: command, status: result.status, signal: result.signal, error: result.error };
  const failure = checkRun(command, outcome, 0);
  if (failure) return { failure: { side: 'ours', ...failure, spec: command } };
  let samples;
  try {
    samples = JSON.parse(result.stdout.trim().split('\n').at(-1));
  } catch {
    samples = undefined;
  }
  const valid = (list) => Array.isArray(list) && list.length > 0 && list.every((ms) => typeof ms === 'number');
  if (!valid(samples?.ours) || !valid(samples?.reference) || samples.ours.length !== samples.reference.length) {
    return { failure: { side: 'ours', outcome: `printed no pair of times: ${result.stdout.trim().split('\n').at(-1) || '(nothing)'}`, spec: command } };
  }
  return { ours: samples.ours, reference: samples.reference };
}

/**
 * The run-to-run spread of a figure: the median absolute deviation of its samples from their
 * median. For a ratio, the samples are the ratios of each round (ours over the reference run
 * beside it), so a burst of load that slows both sides does not count as spread.
 */
export function spreadOf(values) {
  if (values.length === 0) return null;
  const middle = median(values);
  return median(values.map((value) => Math.abs(value - middle)));
}

/** The ratio of each round: ours over the reference of the same round. */
export function roundRatios(ours, reference) {
  return ours.slice(0, reference.length).map((ms, i) => ms / reference[i]);
}

/**
 * PASS when the figure meets its goal; SPREAD when it misses by no more than its run-to-run
 * spread (reported, not chased: a rerun could land on either side); FAIL otherwise.
 */
export function judge(value, goal, spread) {
  if (value <= goal) return 'PASS';
  return spread !== null && value - goal <= spread ? 'SPREAD' : 'FAIL';
}

// Run in a child of its own, so that the memory it touches is fresh: 64 buffers of 1 MiB, each
// new and filled once, against one buffer filled 64 times. The difference is the price of the
// first touch of 16,384 pages, which this process's own page-fault count gives exactly.
const PROBE_PAGES = (64 * 2 ** 20) / 4096;
const PAGE_FAULT_PROBE = `
const MiB = 1 << 20, N = 64;
function fill(fresh) {
  const kept = [];
  const one = Buffer.allocUnsafeSlow(MiB).fill(0);
  const faults = process.resourceUsage().minorPageFault;
  const start = process.hrtime.bigint();
  for (let i = 0; i < N; i++) {
    const buffer = fresh ? Buffer.allocUnsafeSlow(MiB) : one;
    buffer.fill(i + 1);
    if (fresh) kept.push(buffer);
  }
  return { ns: Number(process.hrtime.bigint() - start), faults: process.resourceUsage().minorPageFault - faults };
}
fill(false);
const reused = fill(false);
const fresh = fill(true);
console.log(JSON.stringify({ ns: fresh.ns - reused.ns, faults: fresh.faults - reused.faults }));
`;

/**
 * What this machine charges for the first touch of a page of memory, in microseconds per minor
 * page fault: the median of `runs` probes, or null where a probe gives no price (see below). A
 * process that reads tens of megabytes into new buffers pays it for each 4 KiB; `unzip` and `zip`
 * work in a few fixed kilobytes and hardly pay it at all, so where it is high, every ratio against
 * them carries it.
 */
export function pageFaultCost(runs = 3) {
  const costs = [];
  for (let run = 0; run < runs; run++) {
    const probe = probePageFaults();
    // No faults counted (a system without the count), a probe that a burst of load made
    // meaningless, or fewer faults than 4 KiB pages (the kernel handed out huge pages, each a
    // fault of another price): no price of a page to give.
    if (probe === null || !(probe.faults >= PROBE_PAGES * 0.9) || !(probe.ns > 0)) return null;
    costs.push(probe.ns / 1000 / probe.faults);
  }
  return { usPerFault: median(costs), samples: costs };
}

/** One probe, in a child of its own: `{ ns, faults }` more for the fresh buffers than for the reused one, or null. */
export function probePageFaults() {
  const result = spawnSync(process.execPath, ['-e', PAGE_FAULT_PROBE], { encoding: 'utf8', timeout: RUN_TIMEOUT_MS });
  try {
    const probe = JSON.parse(result.stdout.trim());
    return typeof probe.ns === 'number' && typeof probe.faults === 'number' ? probe : null;
  } catch {
    return null;
  }
}

/**
 * Peak resident memory (KiB) of one command, per run, from GNU time's %M (maximum RSS, which the
 * kernel reports for the process and any children it waited for).
 */
export function measurePeakMemory({ timeBinary, command, runs, onRun = () => {} }) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-rss-'));
  const samplesKiB = [];
  try {
    for (let run = 0; run < runs; run++) {
      onRun(run + 1, runs);
      const out = path.join(dir, `rss-${run}`);
      const wrapped = { file: timeBinary, args: ['-f', '%M', '-o', out, command.file, ...command.args], cwd: command.cwd };
      const outcome = runOnce(wrapped, run);
      // GNU time passes the command's exit status through, so the usual check applies.
      const failure = checkRun(command, outcome, run);
      if (failure) return { samplesKiB, failure: { side: 'ours', ...failure, spec: command } };
      // On a non-zero exit GNU time writes a "Command exited…" line first; the number is last.
      const lines = existsSync(out) ? readFileSync(out, 'utf8').trim().split('\n') : [];
      const kib = Number(lines.at(-1));
      if (!(kib > 0)) {
        return { samplesKiB, failure: { side: 'ours', outcome: `GNU time reported no peak memory (${lines.join(' ') || 'empty output'})`, spec: command } };
      }
      samplesKiB.push(kib);
    }
    return { samplesKiB };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Times reported by the commands themselves (a line `{"ms": …}` on stdout), for work inside a
 * process whose start-up is not the point. Alternates ours and reference as timePair does.
 * Returns `{ ours: samplesMs[], reference: samplesMs[], failure? }`.
 */
export function timeReported({ ours, reference, runs, warmup, onRound = () => {} }) {
  const samples = { ours: [], reference: [] };
  const rounds = warmup + runs;
  for (let round = 0; round < rounds; round++) {
    onRound(round + 1, rounds);
    for (const [side, command] of [['ours', ours], ['reference', reference]]) {
      const { ms, failure } = reportedMs(command, round);
      if (failure) return { ...samples, failure: { side, ...failure } };
      if (round >= warmup) samples[side].push(ms);
    }
  }
  return samples;
}
