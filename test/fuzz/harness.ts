import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fc from 'fast-check';
import { it } from 'vitest';

/*
 * How the properties run. Under `npm test` each property gets a fixed seed and a small number of
 * runs, so CI is fast and a failure reproduces exactly. `npm run fuzz` (scripts/fuzz.mjs) runs
 * the same files with FUZZ_SEED / FUZZ_RUNS / FUZZ_PROPERTY set for a long campaign.
 */

/** The CI seed. Changing it is allowed, but a new seed can surface new failures: fix them. */
export const CI_SEED = 20_260_509;

const env = process.env;
const campaignRuns = env['FUZZ_RUNS'] ? Number(env['FUZZ_RUNS']) : undefined;

export const fuzzSettings = {
  seed: env['FUZZ_SEED'] ? Number(env['FUZZ_SEED']) : CI_SEED,
  /** Runs per property in a campaign; undefined under `npm test`. */
  campaignRuns,
  /** Run only this property (or properties under this prefix, e.g. "validate"). */
  only: env['FUZZ_PROPERTY'] || undefined,
  /** A file that gets one JSON line per property run, read by scripts/fuzz.mjs for its summary. */
  summaryFile: env['FUZZ_SUMMARY'] || undefined,
  /** A fast-check path ("3:1:0") to replay one case of a seed instead of searching. */
  path: env['FUZZ_PATH'] || undefined,
  /** Failing cases are saved for replay unless FUZZ_SAVE=0. */
  save: env['FUZZ_SAVE'] !== '0',
};

export const REGRESSION_DIR = fileURLToPath(new URL('../fixtures/fuzz-regressions/', import.meta.url));

export interface PropertyOptions {
  /** Runs under `npm test`. */
  ciRuns: number;
  /** Share of a campaign's --runs this property gets; spawning processes is much slower than validating in-process. */
  campaignShare?: number;
  /** Test timeout under `npm test`. */
  timeout?: number;
  /** Throws when the property cannot run at all (say, the CLI is not built): not a failing case. */
  precondition?: () => void;
}

/** A saved failure: enough to replay the case and to remember why it is kept. */
export interface RegressionFile {
  property: string;
  /** What broke and how it was fixed. Written by hand once the bug is fixed. */
  broke: string;
  found: { seed: number; path: string; error: string };
  input: unknown;
}

export function isSelected(name: string): boolean {
  const only = fuzzSettings.only;
  return !only || only.split(',').some((o) => name === o || name.startsWith(`${o}/`));
}

/**
 * Declares one property as a vitest test. A failure throws fast-check's report (seed, path and
 * shrunk counterexample) and saves the shrunk input as a regression file.
 */
export function fuzzProperty<T>(name: string, arbitrary: fc.Arbitrary<T>, check: (input: T) => Promise<void>, options: PropertyOptions): void {
  const numRuns = campaignRuns === undefined ? options.ciRuns : Math.max(1, Math.ceil(campaignRuns * (options.campaignShare ?? 1)));
  const timeout = campaignRuns === undefined ? (options.timeout ?? 60_000) : 7 * 24 * 3600 * 1000;
  (isSelected(name) ? it : it.skip)(
    name,
    async () => {
      options.precondition?.();
      const started = performance.now();
      const details = await fc.check(fc.asyncProperty(arbitrary, check), {
        seed: fuzzSettings.seed,
        numRuns,
        ...(fuzzSettings.path ? { path: fuzzSettings.path, endOnFailure: true } : {}),
      });
      const ms = Math.round(performance.now() - started);
      let saved: string | undefined;
      if (details.failed && fuzzSettings.save && details.counterexample) {
        saved = saveRegression(name, details.seed, details.counterexamplePath ?? '', firstLine(details.errorInstance), details.counterexample[0]);
      }
      if (fuzzSettings.summaryFile) {
        appendFileSync(
          fuzzSettings.summaryFile,
          JSON.stringify({
            property: name,
            seed: details.seed,
            runs: details.numRuns,
            failed: details.failed,
            ms,
            shrinks: details.numShrinks,
            path: details.counterexamplePath,
            error: details.failed ? firstLine(details.errorInstance) : undefined,
            counterexample: details.counterexample?.[0],
            saved,
          }) + '\n',
        );
      }
      if (details.failed) {
        throw new Error(`${fc.defaultReportMessage(details)}${saved ? `\n\nSaved for replay as ${saved}` : ''}`);
      }
    },
    timeout,
  );
}

/** One line on what failed; for an assertion, with what was expected and what came. */
function firstLine(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.split('\n')[0]!.slice(0, 300);
  const { actual, expected } = (error ?? {}) as { actual?: unknown; expected?: unknown };
  if (actual === undefined && expected === undefined) return line;
  return `${line} (actual ${JSON.stringify(actual)?.slice(0, 600)}, expected ${JSON.stringify(expected)?.slice(0, 600)})`;
}

function saveRegression(property: string, seed: number, counterexamplePath: string, error: string, input: unknown): string {
  mkdirSync(REGRESSION_DIR, { recursive: true });
  const file = path.join(REGRESSION_DIR, `${property.replace(/\//g, '--')}-seed${seed}.json`);
  const record: RegressionFile = {
    property,
    broke: 'TODO: say what broke and how it was fixed',
    found: { seed, path: counterexamplePath, error },
    input,
  };
  // Non-ASCII is escaped so that an editor normalising Unicode on save cannot change the case.
  const json = JSON.stringify(record, null, 2).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  writeFileSync(file, `${json}\n`);
  return path.relative(process.cwd(), file);
}
