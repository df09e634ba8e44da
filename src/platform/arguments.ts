import type { BridgeProblem, BridgeProblemCode } from '../bridge/types.js';
import { nearestName } from '../core/nearest.js';
import type { BridgeWarning, WarningCode } from './errors.js';

/*
 * Reading what a tool passes to the bridge. Tool code is untrusted: any field may hold any value,
 * so every read goes through here, checks the type, and records a problem instead of throwing.
 * Only own properties are read, so `__proto__`, `constructor` and inherited keys are never taken
 * for arguments.
 */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where a value sits in a call's arguments. */
export interface Place {
  path: string;
  index: number | null;
  field: string | null;
}

/** `lines[3].qty`, `lines[3]`, `customerEmail`, or `lines` for the list itself. */
export function placeOf(list: string | null, index: number | null, field: string | null): Place {
  const item = list === null ? '' : index === null ? list : `${list}[${index}]`;
  const path = field === null ? item : item === '' ? field : `${item}.${field}`;
  return { path, index, field };
}

/** Problems and warnings gathered while checking one call, so all of them are reported at once. */
export class CallChecks {
  readonly problems: BridgeProblem[] = [];
  readonly warnings: BridgeWarning[] = [];

  constructor(readonly method: string) {}

  get failed(): boolean {
    return this.problems.length > 0;
  }

  problem(code: BridgeProblemCode, place: Place, message: string): void {
    this.problems.push({ code, path: place.path, index: place.index, field: place.field, message });
  }

  warn(code: WarningCode, place: Place | null, message: string): void {
    this.warnings.push({ code, method: this.method, path: place?.path ?? null, message });
  }
}

/** Names a received value for a message without echoing arbitrary amounts of tool data. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

interface NumberRange {
  min?: number;
  /** True when `min` itself is not allowed (qty must be above 0). */
  minExclusive?: boolean;
  max?: number;
}

/** Reads the fields of one object of a call's arguments: a line, a section, a request, options. */
export class RecordReader {
  constructor(
    readonly record: Record<string, unknown>,
    private readonly checks: CallChecks,
    private readonly list: string | null = null,
    private readonly index: number | null = null,
  ) {}

  at(field: string | null): Place {
    return placeOf(this.list, this.index, field);
  }

  raw(field: string): unknown {
    return Object.prototype.hasOwnProperty.call(this.record, field) ? this.record[field] : undefined;
  }

  /** Present with a value other than null. The bridge treats null and a missing field alike. */
  has(field: string): boolean {
    const value = this.raw(field);
    return value !== undefined && value !== null;
  }

  /** A string, null when absent, or undefined after recording why not. */
  optionalString(field: string): string | null | undefined {
    const value = this.raw(field);
    if (value === undefined || value === null) return null;
    if (typeof value === 'string') return value;
    this.checks.problem('INVALID_TYPE', this.at(field), `must be a string, got ${describeValue(value)}`);
    return undefined;
  }

  /** One of a fixed set of tokens, `fallback` when absent, or undefined after recording `code`. */
  optionalToken<T extends string>(field: string, allowed: readonly T[], fallback: T, code: BridgeProblemCode): T | undefined {
    const value = this.raw(field);
    if (value === undefined || value === null) return fallback;
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    this.checks.problem(code, this.at(field), `is ${describeValue(value)}; expected one of ${allowed.join(', ')}`);
    return undefined;
  }

  /** A finite number, or undefined after recording why not. */
  requiredNumber(field: string, range: NumberRange = {}): number | undefined {
    if (!this.has(field)) {
      this.checks.problem('REQUIRED', this.at(field), 'is required');
      return undefined;
    }
    return this.number(field, range);
  }

  /** A finite number, null when absent, or undefined after recording why not. */
  optionalNumber(field: string, range: NumberRange = {}): number | null | undefined {
    return this.has(field) ? this.number(field, range) : null;
  }

  private number(field: string, range: NumberRange): number | undefined {
    const value = this.raw(field);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      this.checks.problem('INVALID_TYPE', this.at(field), `must be a finite number, got ${describeValue(value)}`);
      return undefined;
    }
    const { min, minExclusive = false, max } = range;
    const tooSmall = min !== undefined && (minExclusive ? value <= min : value < min);
    const tooLarge = max !== undefined && value > max;
    if (tooSmall || tooLarge) {
      const lower = min === undefined ? '' : `${minExclusive ? 'greater than' : 'at least'} ${min}`;
      const upper = max === undefined ? '' : `at most ${max}`;
      const rule = [lower, upper].filter(Boolean).join(' and ');
      this.checks.problem('OUT_OF_RANGE', this.at(field), `must be ${rule}, got ${value}`);
      return undefined;
    }
    return value;
  }

  /** A whole number of at least 1 (page, pageSize), null when absent. */
  optionalPositiveInteger(field: string): number | null | undefined {
    const value = this.optionalNumber(field, { min: 1 });
    if (value === undefined || value === null) return value;
    if (!Number.isInteger(value)) {
      this.checks.problem('NOT_AN_INTEGER', this.at(field), `must be a whole number, got ${value}`);
      return undefined;
    }
    return value;
  }

  /** Warns about fields the method does not know, with the nearest known name when one is close. */
  warnUnknownFields(known: readonly string[], owner = 'the bridge'): void {
    for (const field of Object.keys(this.record)) {
      if (known.includes(field)) continue;
      const nearest = nearestName(field, known);
      const hint = nearest === undefined ? '' : ` (did you mean ${nearest}?)`;
      this.checks.warn('UNKNOWN_FIELD', this.at(field), `is not a field ${owner} knows and is ignored${hint}`);
    }
  }
}

export interface ListLimits {
  /** At least this many items (EMPTY_LIST below it). */
  min?: number;
  /** At most this many items (TOO_MANY_ITEMS above it); the items are then not read at all. */
  max: number;
  /** Says where `max` comes from, for the message: "a quote takes at most 200". */
  maxRule: string;
}

/**
 * Reads an array argument item by item, collecting every item's problems. Undefined when the
 * array itself is missing, not an array, or of a length outside `limits`.
 */
export function readList<T>(
  value: unknown,
  place: Place,
  checks: CallChecks,
  limits: ListLimits,
  readItem: (raw: unknown, index: number) => T | undefined,
): T[] | undefined {
  if (value === undefined || value === null) {
    checks.problem('REQUIRED', place, 'is required');
    return undefined;
  }
  if (!Array.isArray(value)) {
    checks.problem('INVALID_TYPE', place, `must be an array, got ${describeValue(value)}`);
    return undefined;
  }
  if (value.length < (limits.min ?? 0)) {
    checks.problem('EMPTY_LIST', place, `is empty; at least ${limits.min} needed`);
    return undefined;
  }
  if (value.length > limits.max) {
    checks.problem('TOO_MANY_ITEMS', place, `holds ${value.length} items; ${limits.maxRule}`);
    return undefined;
  }
  const items: T[] = [];
  // A plain loop, not map: map skips the holes of a sparse array, and holes must be reported.
  for (let index = 0; index < value.length; index++) {
    const item = readItem(value[index], index);
    if (item !== undefined) items.push(item);
  }
  return items;
}
