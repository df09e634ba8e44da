import { describe, expect, it } from 'vitest';
import { computeLineAmounts, decimalOf, decimalToNumber, percentToFraction, roundToCents, subtract, sumAmounts } from '../../src/platform/money.js';

const fraction = (rate: number) => decimalOf(rate);
const amounts = (unitPrice: number, qty: number, discountPercent: number, taxRate: number) => {
  const { nettCents, taxCents } = computeLineAmounts({ unitPrice, qty, discountPercent, taxRate: fraction(taxRate) });
  return { nett: Number(nettCents), tax: Number(taxCents) };
};

describe('decimalOf', () => {
  it('reads the decimal a number is written as, not its binary value', () => {
    expect(decimalOf(19.99)).toEqual({ coefficient: 1999n, scale: 2 });
    expect(decimalOf(0.1)).toEqual({ coefficient: 1n, scale: 1 });
    expect(decimalOf(-0.5)).toEqual({ coefficient: -5n, scale: 1 });
    expect(decimalOf(365)).toEqual({ coefficient: 365n, scale: 0 });
  });

  it('handles exponent spellings', () => {
    expect(decimalOf(1e21)).toEqual({ coefficient: 10n ** 21n, scale: 0 });
    expect(decimalOf(1.5e-7)).toEqual({ coefficient: 15n, scale: 8 });
  });

  it('refuses NaN and Infinity', () => {
    expect(() => decimalOf(Number.NaN)).toThrow(new RangeError('not a finite number: NaN'));
    expect(() => decimalOf(Number.POSITIVE_INFINITY)).toThrow(new RangeError('not a finite number: Infinity'));
  });
});

describe('roundToCents (half away from zero)', () => {
  it.each([
    [2.345, 235n],
    [2.344, 234n],
    [-2.345, -235n],
    [1.005, 101n], // 1.005 * 100 in binary floating point is 100.49999…, which would round down
    [0.125, 13n],
    [7, 700n],
  ])('%d → %d cents', (value, cents) => {
    expect(roundToCents(decimalOf(value))).toBe(cents);
  });
});

describe('line amounts', () => {
  it('nett = sell × qty, tax on the rounded nett', () => {
    // 19.99 × 3 = 59.97; 59.97 × 0.15 = 8.9955 → 9.00
    expect(amounts(19.99, 3, 0, 0.15)).toEqual({ nett: 5997, tax: 900 });
  });

  it('rounds the tax half away from zero where floating point would round down', () => {
    // 10.10 × 3 = 30.30; 30.30 × 0.15 = 4.545 → 4.55 (Math.round(4.545 * 100) gives 454)
    expect(amounts(10.1, 3, 0, 0.15)).toEqual({ nett: 3030, tax: 455 });
  });

  it('applies the discount before rounding the nett', () => {
    // 99.99 × 3 × (1 − 0.125) = 262.47375 → 262.47; × 0.15 = 39.3705 → 39.37
    expect(amounts(99.99, 3, 12.5, 0.15)).toEqual({ nett: 26247, tax: 3937 });
    // 10 × (1 − 0.3333) = 6.667 → 6.67
    expect(amounts(10, 1, 33.33, 0)).toEqual({ nett: 667, tax: 0 });
    expect(amounts(10, 1, 100, 0.15)).toEqual({ nett: 0, tax: 0 });
  });

  it('is exact for fractional quantities and prices', () => {
    // 0.1 × 3 = 0.3 (not 0.30000000000000004); 89.90 × 2.5 = 224.75
    expect(amounts(0.1, 3, 0, 0)).toEqual({ nett: 30, tax: 0 });
    expect(amounts(89.9, 2.5, 0, 0.15)).toEqual({ nett: 22475, tax: 3371 });
  });

  it('takes percentages turned into fractions exactly (12.5 → 0.125)', () => {
    const rate = percentToFraction(decimalOf(12.5));
    expect(rate).toEqual({ coefficient: 125n, scale: 3 });
    // 0.20 × 0.125 = 0.025 → 0.03
    expect(computeLineAmounts({ unitPrice: 0.2, qty: 1, discountPercent: 0, taxRate: rate })).toEqual({ nettCents: 20n, taxCents: 3n });
  });

  it('sums cents, so totals never drift', () => {
    const lines = Array.from({ length: 10 }, () => ({ nettCents: 10n, taxCents: 1n }));
    expect(sumAmounts(lines)).toEqual({ nett: 1, tax: 0.1, total: 1.1 });
  });
});

describe('subtract and decimalToNumber', () => {
  it('subtract aligns both scales, whichever is finer', () => {
    // 0.1 − 0.01 = 0.09; 1.5 − 1 = 0.5
    expect(subtract({ coefficient: 1n, scale: 1 }, { coefficient: 1n, scale: 2 })).toEqual({ coefficient: 9n, scale: 2 });
    expect(subtract({ coefficient: 15n, scale: 1 }, { coefficient: 1n, scale: 0 })).toEqual({ coefficient: 5n, scale: 1 });
  });

  it('decimalToNumber keeps leading zeros of the fraction and the sign', () => {
    expect(decimalToNumber({ coefficient: 5n, scale: 2 })).toBe(0.05);
    expect(decimalToNumber({ coefficient: 125n, scale: 3 })).toBe(0.125);
    expect(decimalToNumber({ coefficient: -5n, scale: 1 })).toBe(-0.5);
    expect(decimalToNumber({ coefficient: 15n, scale: 0 })).toBe(15);
  });
});
