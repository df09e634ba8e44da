/**
 * A benchmark report as bench/run.mjs gives it to the formatters of bench/report.mjs, with one of
 * everything set to 1, for tests of how the results are written.
 */
export function benchReport(results: unknown[], machine: { pageFaultUs?: number | null } = {}) {
  return {
    machine: { node: 'v20', platform: 'linux x64', cpus: 2, cpuModel: 'cpu', memoryGiB: 1, loadAverage: [1, 1, 1], ...machine },
    tools: { zip: { available: true, version: '3.0' }, unzip: { available: true, version: '6.00' }, time: { available: true } },
    cli: { version: { available: true, value: '0.1.0' } },
    inputs: {
      typical: { files: 1, rawBytes: 1, zipBytes: 1 },
      max: { files: 1, rawBytes: 1, zipBytes: 1 },
      maxjs: { files: 1, rawBytes: 1, zipBytes: 1 },
      maxmin: { files: 1, rawBytes: 1, zipBytes: 1 },
      bomb: { rawBytes: 1, zipBytes: 1 },
      fixtures: { small: { rows: 1, bytes: 1 }, large: { rows: 1, bytes: 1 } },
    },
    settings: { runs: 1, startupBoundRuns: 3, warmup: 1, memoryRuns: 1, removedVariables: [] },
    results,
  };
}
