import { describe, expect, it } from 'vitest';
import { judge, roundRatios, spreadOf } from '../../bench/measure.mjs';
import { formatMissed, formatText } from '../../bench/report.mjs';
import { benchReport } from '../helpers/bench-report.js';

describe('the bench: a goal missed by less than the run-to-run spread', () => {
  it('takes the spread of a ratio from the ratio of each round, so load that slows both sides is not spread', () => {
    // Every round twice as slow as the one before, on both sides: the ratio never moves.
    expect(spreadOf(roundRatios([10, 20, 40, 80, 160], [5, 10, 20, 40, 80]))).toBe(0);
    // Ratios 1.0, 1.1, 1.2, 1.3, 1.4: median 1.2, deviations 0.2, 0.1, 0, 0.1, 0.2.
    expect(spreadOf(roundRatios([10, 11, 12, 13, 14], [10, 10, 10, 10, 10]))).toBeCloseTo(0.1);
    expect(spreadOf([])).toBeNull();
  });

  it('passes a goal met, marks SPREAD a miss no larger than the spread, and fails the rest', () => {
    expect(judge(1.0, 1.1, 0.05)).toBe('PASS');
    expect(judge(1.14, 1.1, 0.05)).toBe('SPREAD');
    expect(judge(1.16, 1.1, 0.05)).toBe('FAIL');
    expect(judge(1.11, 1.1, null)).toBe('FAIL');
  });

  it('shows the spread beside each ratio and names such misses apart from the others', () => {
    const row = (id: string, ratio: number, spread: number, status: string) => ({
      id,
      kind: 'ratio',
      measure: id,
      reference: 'ref',
      goal: { max: 1.1, unit: 'ratio' },
      ours: { medianMs: ratio * 10, samplesMs: [] },
      ref: { medianMs: 10, samplesMs: [] },
      ratio,
      spread,
      status,
      note: null,
    });
    const results = [row('a', 1.0, 0.02, 'PASS'), row('b', 1.13, 0.04, 'SPREAD'), row('c', 1.5, 0.04, 'FAIL')];
    expect(formatMissed(results)).toBe('bench: 1 of 3 goals met; missed by less than the run-to-run spread: b; missed: c');
    expect(formatMissed([results[0]!, results[1]!])).toBe('bench: 1 of 2 goals met; missed by less than the run-to-run spread: b');
    const report = benchReport(results);
    const lines = formatText(report).split('\n');
    expect(lines.find((line) => line.startsWith('b '))).toMatch(/1\.13x\s+±0\.04x\s+<= 1\.10x\s+SPREAD$/);
  });
});
