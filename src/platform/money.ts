/*
 * Exact money arithmetic. A tool sends 19.99 as the JSON text "19.99", and the platform computes
 * with that decimal value, not with the binary double nearest to it (19.98999…). So every amount
 * is taken from its shortest decimal spelling, computed exactly with BigInt, and rounded half
 * away from zero to cents only where decisions.md says: once for a line's nett, once for its tax.
 */

/** An exact decimal number: coefficient / 10^scale. */
export interface Decimal {
  coefficient: bigint;
  scale: number;
}

/** The largest amount, in cents, that a JavaScript number still holds exactly. */
export const MAX_SAFE_CENTS = BigInt(Number.MAX_SAFE_INTEGER);

/** The decimal a finite number stands for, read from its shortest round-trip spelling. */
export function decimalOf(value: number): Decimal {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) throw new RangeError(`unexpected number spelling: ${value}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let coefficient = BigInt(`${sign}${whole}${fraction}`);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    coefficient *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { coefficient, scale };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [a.coefficient * 10n ** BigInt(scale - a.scale), b.coefficient * 10n ** BigInt(scale - b.scale), scale];
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return { coefficient: a.coefficient * b.coefficient, scale: a.scale + b.scale };
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  const [x, y, scale] = align(a, b);
  return { coefficient: x - y, scale };
}

/** Divides by 100 exactly, as turning a percentage into a fraction does. */
export function percentToFraction(percent: Decimal): Decimal {
  return { coefficient: percent.coefficient, scale: percent.scale + 2 };
}

/** Rounds to whole cents, halves away from zero (2.345 → 2.35, −2.345 → −2.35). */
export function roundToCents(value: Decimal): bigint {
  if (value.scale <= 2) return value.coefficient * 10n ** BigInt(2 - value.scale);
  const divisor = 10n ** BigInt(value.scale - 2);
  const quotient = value.coefficient / divisor;
  const remainder = value.coefficient % divisor;
  const magnitude = remainder < 0n ? -remainder : remainder;
  if (magnitude * 2n < divisor) return quotient;
  return value.coefficient < 0n ? quotient - 1n : quotient + 1n;
}

/** A cent amount as the number a JSON reader expects (1999n → 19.99). Needs |cents| ≤ MAX_SAFE_CENTS. */
export function centsToNumber(cents: bigint): number {
  // Integer division by 100 in IEEE arithmetic is correctly rounded, so this is the double
  // nearest to the exact amount: the same one parsing "19.99" gives.
  return Number(cents) / 100;
}

/** An exact decimal as the nearest number (0.125 stays 0.125; used for normalised tax rates). */
export function decimalToNumber(value: Decimal): number {
  const digits = (value.coefficient < 0n ? -value.coefficient : value.coefficient).toString().padStart(value.scale + 1, '0');
  const point = digits.length - value.scale;
  const sign = value.coefficient < 0n ? '-' : '';
  return Number(`${sign}${digits.slice(0, point)}.${digits.slice(point) || '0'}`);
}

export interface LineAmountInput {
  /** Sell price per unit. */
  unitPrice: number;
  qty: number;
  /** 0 to 100; 0 when the line has none. */
  discountPercent: number;
  /** Already a fraction: 0.15 for 15%. */
  taxRate: Decimal;
}

export interface LineAmounts {
  nettCents: bigint;
  taxCents: bigint;
}

/**
 * A line's nett and tax in cents: nett = sell × qty × (1 − discount / 100), rounded; tax = the
 * rounded nett × tax rate, rounded. Totals are sums of these, so they never round again.
 */
export function computeLineAmounts(line: LineAmountInput): LineAmounts {
  const hundred: Decimal = { coefficient: 100n, scale: 0 };
  const remaining = percentToFraction(subtract(hundred, decimalOf(line.discountPercent)));
  const nettCents = roundToCents(multiply(multiply(decimalOf(line.unitPrice), decimalOf(line.qty)), remaining));
  const taxCents = roundToCents(multiply({ coefficient: nettCents, scale: 2 }, line.taxRate));
  return { nettCents, taxCents };
}

export interface MoneyTotals {
  nett: number;
  tax: number;
  total: number;
}

/** Sums lines' cents into the nett, tax and total a quote or section shows. */
export function sumAmounts(lines: readonly { nettCents: bigint; taxCents: bigint }[]): MoneyTotals {
  let nett = 0n;
  let tax = 0n;
  for (const line of lines) {
    nett += line.nettCents;
    tax += line.taxCents;
  }
  return { nett: centsToNumber(nett), tax: centsToNumber(tax), total: centsToNumber(nett + tax) };
}
