/*
 * Carrying bridge arguments from the host page to the server. The tool's arguments arrive in the
 * host page by structured cloning, which keeps NaN, undefined and Dates; plain JSON would quietly
 * turn NaN into null and the author would be told "qty is required" instead of "qty is NaN". So
 * values JSON cannot hold travel as tagged objects and are rebuilt on the server, where the
 * platform model judges them as the real host would.
 */

/** Marks a tagged value. A NUL key cannot come from tool code by accident, and is escaped if it does. */
export const WIRE_TAG = '\u0000wire';

/**
 * Runs in the host page (embedded through Function.prototype.toString), so it must stay
 * self-contained: no imports, no outer variables, plain JavaScript after compilation.
 */
export function encodeWireValue(root: unknown): unknown {
  const tag = '\u0000wire';
  const path: unknown[] = [];
  const encode = (value: unknown, depth: number): unknown => {
    if (value === undefined) return { [tag]: 'undefined' };
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : { [tag]: 'number', value: String(value) };
    if (typeof value !== 'object') return { [tag]: 'unsupported', type: typeof value };
    if (depth > 100) return { [tag]: 'unsupported', type: 'too deeply nested' };
    if (path.includes(value)) return { [tag]: 'unsupported', type: 'circular reference' };
    path.push(value);
    try {
      if (Array.isArray(value)) {
        const items: unknown[] = [];
        for (let i = 0; i < value.length; i++) items.push(encode(value[i], depth + 1));
        return items;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) {
        return { [tag]: 'unsupported', type: Object.prototype.toString.call(value).slice(8, -1) };
      }
      const keys = Object.keys(value);
      const record = value as Record<string, unknown>;
      if (keys.includes(tag)) return { [tag]: 'object', entries: keys.map((key) => [key, encode(record[key], depth + 1)]) };
      const out: Record<string, unknown> = {};
      for (const key of keys) Object.defineProperty(out, key, { value: encode(record[key], depth + 1), enumerable: true, writable: true, configurable: true });
      return out;
    } finally {
      path.pop();
    }
  };
  return encode(root, 0);
}

/** Stands for a value JSON cannot describe (a Date, a Map, a BigInt): the model sees a non-plain object. */
export class UnsupportedValue {
  constructor(readonly type: string) {}
}

export class WireError extends Error {}

/** Deeper than the encoder ever writes; guards the server's stack against hand-made bodies. */
const MAX_DEPTH = 200;

function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, not assignment: a key named __proto__ must stay data, not become a prototype.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Rebuilds a value written by encodeWireValue; throws WireError for anything it could not have written. */
export function decodeWireValue(value: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new WireError(`arguments are nested more than ${MAX_DEPTH} levels deep`);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => decodeWireValue(item, depth + 1));
  const record = value as Record<string, unknown>;
  if (Object.prototype.hasOwnProperty.call(record, WIRE_TAG)) return decodeTagged(record, depth);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) defineKey(out, key, decodeWireValue(record[key], depth + 1));
  return out;
}

function decodeTagged(record: Record<string, unknown>, depth: number): unknown {
  const kind = record[WIRE_TAG];
  if (kind === 'undefined') return undefined;
  if (kind === 'number') {
    const text = record['value'];
    if (text === 'NaN') return Number.NaN;
    if (text === 'Infinity') return Number.POSITIVE_INFINITY;
    if (text === '-Infinity') return Number.NEGATIVE_INFINITY;
    throw new WireError('a tagged number is not NaN, Infinity or -Infinity');
  }
  if (kind === 'unsupported') return new UnsupportedValue(typeof record['type'] === 'string' ? record['type'].slice(0, 100) : 'unknown');
  if (kind === 'object' && Array.isArray(record['entries'])) {
    const out: Record<string, unknown> = {};
    for (const entry of record['entries'] as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string') throw new WireError('a tagged object has a malformed entry');
      defineKey(out, entry[0], decodeWireValue(entry[1], depth + 1));
    }
    return out;
  }
  throw new WireError('an argument carries an unknown tag');
}
