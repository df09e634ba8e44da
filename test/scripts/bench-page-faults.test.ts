import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childPageFaults, probePageFaults } from '../../bench/measure.mjs';
import { formatMarkdown, formatText } from '../../bench/report.mjs';
import { benchReport } from '../helpers/bench-report.js';

const linux = process.platform === 'linux';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the bench: pages of memory touched for the first time', () => {
  it("reads the children's minor faults after the command name, whatever it holds", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-stat-'));
    dirs.push(dir);
    const stat = path.join(dir, 'stat');
    // pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt …
    writeFileSync(stat, '4242 (node ) (x) S 1 4242 4242 0 -1 4194560 1876 52013 0 0 12 3\n');
    expect(childPageFaults(stat)).toBe(52013);
    writeFileSync(stat, 'not a stat line');
    expect(childPageFaults(stat)).toBeNull();
    expect(childPageFaults(path.join(dir, 'missing'))).toBeNull();
  });

  it.runIf(linux)("counts a child's faults once it has been waited for, its own count included", () => {
    const before = childPageFaults();
    // 16 MiB of new memory, touched: 4,096 pages at least, which the child counts itself.
    const child = spawnSync(process.execPath, ['-e', 'const b = Buffer.allocUnsafeSlow(16 << 20).fill(1); console.log(process.resourceUsage().minorPageFault)'], { encoding: 'utf8' });
    const after = childPageFaults();
    const own = Number(child.stdout.trim());
    expect(own).toBeGreaterThan(4096);
    expect(after! - before!).toBeGreaterThanOrEqual(own);
  });

  it.runIf(linux)('prices a fault by the pages of 64 MiB touched for the first time in a child, against the same filling of one buffer', () => {
    const probe = probePageFaults();
    expect(probe).not.toBeNull();
    // 64 MiB of new buffers against one reused: 16,384 faults more with 4 KiB pages (16,490 on the
    // development machine), far fewer where the kernel hands out huge pages, never more.
    expect(probe!.faults).toBeGreaterThan(0);
    expect(probe!.faults).toBeLessThan(17_500);
    expect(Number.isFinite(probe!.ns)).toBe(true);
  });

  const row = (id: string, faults: { ours: number; reference: number } | undefined, parts?: Record<string, { medianMs: number; samplesMs: number[] }>) => ({
    id,
    kind: 'ratio',
    measure: `validate ${id}.zip`,
    reference: `unzip -t ${id}.zip`,
    goal: { max: 1.8, unit: 'ratio' },
    ours: { medianMs: 400, samplesMs: [] },
    ref: { medianMs: 250, samplesMs: [], ...(parts ? { parts } : {}) },
    ratio: 1.6,
    spread: 0.02,
    status: 'PASS',
    note: null,
    ...(faults ? { faults } : {}),
  });
  const report = (pageFaultUs: number | null, results: unknown[]) => benchReport(results, { pageFaultUs });

  it("shows the machine's price and what each pair's difference in faults costs at it", () => {
    const parts = { 'unzip -t maxjs.zip': { medianMs: 250, samplesMs: [] }, 'V8 parse': { medianMs: 450, samplesMs: [] } };
    const text = formatText(report(18.75, [row('max', { ours: 10_400, reference: 400 }), row('maxjs', { ours: 27_000, reference: 370 }, parts), row('bomb', undefined)]));
    expect(text).toContain('memory   18.8 µs per page touched for the first time');
    const section = text.split('\n\n').find((part) => part.startsWith('pages touched for the first time'))!.split('\n');
    // 10,000 more at 18.75 µs: 187.5 ms; 26,630 more: 499.3 ms. A row without counts is left out.
    expect(section.slice(1)).toEqual([
      '  validate max.zip: ours 10,400, reference 400; the difference at 18.8 µs each: about 188 ms',
      '  validate maxjs.zip: ours 27,000, reference 370 (unzip -t maxjs.zip alone); the difference at 18.8 µs each: about 499 ms',
    ]);
    const markdown = formatMarkdown(report(18.75, [row('max', { ours: 10_400, reference: 400 })]));
    expect(markdown).toContain('Pages touched for the first time (minor page faults, median per run); one costs 18.8 µs on this machine');
    expect(markdown).toContain('- validate max.zip: ours 10,400, reference 400; the difference at 18.8 µs each: about 188 ms');
  });

  it('leaves the price out where faults are not counted, and the section out where no run counted any', () => {
    const unpriced = formatText(report(null, [row('max', { ours: 900, reference: 1000 })]));
    expect(unpriced).toContain('memory   the price of a page fault could not be measured on this system');
    // Fewer faults than the reference: nothing to price.
    expect(unpriced).toContain('  validate max.zip: ours 900, reference 1,000\n');
    const none = formatText(report(null, [row('max', undefined)]));
    expect(none).not.toContain('pages touched for the first time');
    expect(formatMarkdown(report(null, [row('max', undefined)]))).not.toContain('pages touched');
  });
});
