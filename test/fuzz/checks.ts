import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { formatNames, loadFormatter } from '../../src/cli/formatters/index.js';
import type { BundleSource } from '../../src/core/shipment/source.js';
import { openZipSource } from '../../src/core/bundle/zip/zip-source.js';
import type { Report } from '../../src/core/problem.js';
import { ruleIds } from '../../src/core/rules/index.js';
import { MAX_UNPACKED_BYTES } from '../../src/core/rules/unpacked-size.js';
import { validateBundle } from '../../src/core/validate.js';
import { tempDir } from '../helpers/bundles.js';
import { atFileEnd } from '../helpers/file-end.js';
import { runCli, STACK_TRACE } from '../helpers/cli.js';
import { bodyBytes, buildBase, buildCase, type ZipCase } from './arbitraries.js';

/*
 * The predicates behind the properties. They live apart from the property declarations so that a
 * saved failing input (test/fixtures/fuzz-regressions) replays through exactly the same check.
 */

/** Per-case wall-clock bound. A valid bundle validates in milliseconds; this is far beyond any honest case. */
export const TIME_BOUND_MS = 5_000;

let scratchRoot: string | undefined;
let scratchCount = 0;

/** Writes bytes to a fresh file for one case; the caller removes it. */
function scratchFile(bytes: Buffer, name = 'case.zip'): string {
  scratchRoot ??= tempDir('pipeline-tool-fuzz-');
  const file = path.join(scratchRoot, `${scratchCount++}-${name}`);
  writeFileSync(file, bytes);
  return file;
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone; nothing to clean.
  }
}

/** Fails the case when `work` takes longer than the bound, instead of hanging the whole run. */
export async function withinBound<T>(work: Promise<T>, what: string, ms = TIME_BOUND_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Wraps a source so every byte it hands to validate is counted. */
function counting(source: BundleSource): { source: BundleSource; handed: () => number } {
  let handed = 0;
  return {
    source: { ...source, findings: source.findings, read: (entry, limit, sink) => source.read(entry, limit, (chunk) => ((handed += chunk.length), sink(chunk))) },
    handed: () => handed,
  };
}

/** The report's own bookkeeping holds, and every formatter can print it. */
async function expectWellFormed(report: Report): Promise<void> {
  expect(report.errorCount + report.warningCount).toBe(report.problems.length);
  expect(report.ok).toBe(report.errorCount === 0);
  for (const problem of report.problems) {
    expect(ruleIds).toContain(problem.ruleId);
    expect(typeof problem.message).toBe('string');
    expect(problem.message.length).toBeGreaterThan(0);
  }
  for (const name of formatNames) {
    const format = (await loadFormatter(name))!;
    for (const colour of [false, true]) {
      const text = format(report, { colour, quiet: false, cwd: '/' });
      expect(typeof text, name).toBe('string');
      if (name === 'json') expect(() => JSON.parse(text)).not.toThrow();
    }
  }
}

/**
 * Property 1, in-process: validate returns a well-formed report within the time bound, never
 * throws, and never hands out more inflated bytes than the budget.
 */
export async function checkValidateNeverBreaks(bytes: Buffer, budget?: number): Promise<Report> {
  const file = scratchFile(bytes);
  try {
    const limit = budget ?? MAX_UNPACKED_BYTES;
    const run = async () => {
      const opened = counting(await openZipSource(file));
      try {
        const report = await validateBundle(opened.source, budget === undefined ? {} : { budget });
        return { report, handed: opened.handed() };
      } finally {
        await opened.source.close();
      }
    };
    const { report, handed } = await withinBound(run(), 'validate');
    await expectWellFormed(report);
    expect(handed, 'bytes inflated and handed to validate').toBeLessThanOrEqual(limit);
    return report;
  } finally {
    removeQuietly(file);
  }
}

export async function checkMutatedZip(c: ZipCase): Promise<void> {
  await checkValidateNeverBreaks(buildCase(c), c.budget);
}

export async function checkByteString(input: { hex: string }): Promise<void> {
  const report = await checkValidateNeverBreaks(Buffer.from(input.hex, 'hex'));
  // Fewer than 22 bytes cannot hold even an empty archive's end record.
  if (input.hex.length < 44) expect(report.ok).toBe(false);
}

/** The generator's starting points really are valid bundles: otherwise mutating them proves little. */
export async function checkCleanBase(c: ZipCase): Promise<void> {
  const report = await checkValidateNeverBreaks(buildBase(c.base));
  expect(report.problems.map((p) => `${p.ruleId} ${p.file ?? ''}`)).toEqual([]);
}

/** Bombs against the real 50,000,000-byte budget; unmutated, the limit must be reported. */
export async function checkBomb(c: ZipCase): Promise<void> {
  const report = await checkValidateNeverBreaks(buildCase(c));
  if (c.mutations.length === 0) {
    const total = c.base.files.reduce((sum, f) => sum + bodyBytes(f.body).length, 0);
    expect(report.problems.some((p) => p.ruleId === 'unpacked-size')).toBe(total > MAX_UNPACKED_BYTES);
  }
}

let python: string | undefined;
/**
 * The Python interpreter itself: version-manager shims (pyenv, asdf) are shell scripts that add
 * about a tenth of a second to every start, which adds up over hundreds of cases.
 */
export function pythonExecutable(): string {
  python ??= execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
  return python;
}

const PYTHON_READER = `
import hashlib, json, sys, zipfile
out = {}
with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        name = info.filename
        if not info.flag_bits & 0x800:
            # zipfile decodes unflagged names as cp437; validate reads them as UTF-8 and warns.
            try: name = name.encode('cp437').decode('utf-8')
            except UnicodeError: pass
        if info.is_dir(): continue
        out[name] = hashlib.sha256(z.read(info)).hexdigest()
print(json.dumps(out))
`;

/**
 * What validate accepts is what an independent reader extracts: when a mutated archive passes
 * (no errors), Python's zipfile reads it without complaint and sees exactly the files, with
 * exactly the bytes, that validate checked. Otherwise the gate would have checked another bundle
 * than the one the marketplace unpacks.
 */
export async function checkAcceptedMeansReadable(c: ZipCase): Promise<void> {
  const bytes = buildCase(c);
  const report = await checkValidateNeverBreaks(bytes);
  if (!report.ok) return;
  const file = scratchFile(bytes);
  try {
    const ours: Record<string, string> = {};
    const source = await openZipSource(file);
    try {
      for (const entry of source.entries) {
        if (entry.kind !== 'file') continue;
        const hash = createHash('sha256');
        await source.read(entry, MAX_UNPACKED_BYTES, (chunk) => hash.update(chunk));
        ours[entry.path] = hash.digest('hex');
      }
    } finally {
      await source.close();
    }
    let theirs: Record<string, string>;
    try {
      theirs = JSON.parse(execFileSync(pythonExecutable(), ['-c', PYTHON_READER, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? String(error);
      throw new Error(`validate accepted the archive, but Python's zipfile cannot read it: ${stderr.trim().split('\n').at(-1)}`, { cause: error });
    }
    expect(theirs).toEqual(ours);
  } finally {
    removeQuietly(file);
  }
}

let cliCopy: string | undefined;
// Both folders go with the test file that made them (tempDir), so the next file takes its own.
atFileEnd(() => {
  scratchRoot = undefined;
  cliCopy = undefined;
});
/**
 * The binary this property runs: a private copy of bin/ and dist/, taken on first use. A campaign
 * runs for many minutes in a working tree where anyone may run `npm run build`, which empties
 * dist/ while it compiles; without the copy, every case spawned meanwhile fails with Node's own
 * "Cannot find module" trace, and that would be shrunk and saved as if validate had crashed.
 */
function cliBinary(): string {
  if (!cliCopy) {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const copy = tempDir('pipeline-tool-fuzz-cli-');
    for (const part of ['bin', 'dist', 'package.json']) cpSync(path.join(root, part), path.join(copy, part), { recursive: true });
    symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
    cliCopy = path.join(copy, 'bin', 'pipeline-tool.js');
  }
  return cliCopy;
}

/** The real binary on hostile input: a report and exit 0 or 1, never a stack trace. */
export async function checkCli(input: { zip: ZipCase } | { hex: string }, format: string): Promise<void> {
  const bytes = 'zip' in input ? buildCase(input.zip) : Buffer.from(input.hex, 'hex');
  const file = scratchFile(bytes);
  try {
    const result = runCli(['validate', file, '--format', format], { bin: cliBinary() });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect([0, 1], result.stderr).toContain(result.code);
    if (format === 'json') expect(() => JSON.parse(result.stdout)).not.toThrow();
  } finally {
    removeQuietly(file);
  }
}
