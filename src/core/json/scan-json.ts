/*
 * Where things are in a JSON text. JSON.parse says what is wrong but, on Node 20, often not where
 * ("Unexpected token '}', … is not valid JSON" carries no position), and schema errors come only
 * with a JSON pointer. This strict scanner walks the text once and either stops at the first
 * syntax error, with its offset and a plain explanation, or records where each value starts (keyed
 * by JSON pointer) and which keys repeat within one object.
 */

export type JsonScan =
  /** `stopped`: the scan ended early, once every pointer it was asked for had been found. */
  | { ok: true; offsets: Map<string, number>; duplicates: { pointer: string; offset: number }[]; stopped?: true }
  /** `tooDeep`: the text may be valid JSON, but nests deeper than MAX_JSON_DEPTH. */
  | { ok: false; offset: number; message: string; tooDeep?: true };

class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly tooDeep = false,
  ) {
    super(message);
  }
}

/**
 * The most objects and arrays one JSON text may nest, in every JSON file pipeline-tool reads (the
 * manifest, the project file, a fixture file). The platform's records are .NET-shaped, and .NET's
 * JSON reader stops at 64 levels by default, so 512 is generous for data; deeper nesting is an
 * attack on a parser. It also bounds the scanner's recursion.
 */
export const MAX_JSON_DEPTH = 512;

/** Why a text that nests too deeply is refused, in words that name the limit. */
export const TOO_DEEP_MESSAGE = `objects and arrays are nested more than ${MAX_JSON_DEPTH} levels deep here; the limit is ${MAX_JSON_DEPTH}`;

/** Escapes a key for a JSON pointer (RFC 6901). */
export function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Returns a function from character offset to 1-based line and column. The line starts are found
 * once, so locating many offsets in a large text stays cheap.
 */
export function positionFinder(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    const at = Math.max(0, Math.min(offset, text.length));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: at - starts[low]! + 1 };
  };
}

/** Line and column (1-based) of one character offset in a text. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  return positionFinder(text)(offset);
}

/** Thrown inside the scan to end it once every wanted pointer is placed. */
const ALL_FOUND = Symbol('all found');

/**
 * Scans a JSON text. With `stopOnceFound`, for a text already known to be valid: the scan ends as
 * soon as every pointer of the set has its offset, so placing a few problems near the start of a
 * large file does not scan all of it.
 */
export function scanJson(text: string, { stopOnceFound }: { stopOnceFound?: ReadonlySet<string> } = {}): JsonScan {
  const offsets = new Map<string, number>();
  const duplicates: { pointer: string; offset: number }[] = [];
  let i = 0;
  const found = new Set<string>();
  const placed = (pointer: string) => {
    if (stopOnceFound === undefined || !stopOnceFound.has(pointer)) return;
    found.add(pointer);
    if (found.size === stopOnceFound.size) throw ALL_FOUND;
  };

  const fail = (message: string, at = i): never => {
    throw new JsonSyntaxError(message, at);
  };
  const skipWhitespace = () => {
    for (;;) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++;
      else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) fail('comments are not allowed in JSON');
      else return;
    }
  };
  const describeHere = () => (i >= text.length ? 'the end of the file' : JSON.stringify(text[i]));

  const readString = (): string => {
    const start = i;
    i++; // opening quote
    let value = '';
    while (i < text.length) {
      const c = text[i]!;
      if (c === '"') {
        i++;
        return value;
      }
      if (c < ' ') fail('a line break or control character inside a string (write \\n instead)');
      if (c === '\\') {
        const escape = text.slice(i, i + 6);
        const simple = /^\\["\\/bfnrt]/.test(escape);
        if (!simple && !/^\\u[0-9a-fA-F]{4}$/.test(escape)) fail('an invalid escape sequence in a string');
        value += JSON.parse(`"${simple ? escape.slice(0, 2) : escape}"`) as string;
        i += simple ? 2 : 6;
        continue;
      }
      value += c;
      i++;
    }
    return fail('a string is not closed', start);
  };

  /** `isMember`: the value of an object's member, whose place is its key's, set by the caller. */
  const readValue = (pointer: string, depth: number, isMember = false): void => {
    skipWhitespace();
    const c = text[i];
    // `depth` objects and arrays enclose this value; one more would pass the limit.
    if ((c === '{' || c === '[') && depth >= MAX_JSON_DEPTH) throw new JsonSyntaxError(TOO_DEEP_MESSAGE, i, true);
    offsets.set(pointer, i);
    if (!isMember) placed(pointer);
    if (c === '{') {
      i++;
      skipWhitespace();
      if (text[i] === '}') {
        i++;
        return;
      }
      const keys = new Set<string>();
      // A trailing comma is reported where it is, not at the bracket after it.
      let comma = i;
      for (;;) {
        skipWhitespace();
        if (text[i] === '}') fail('a trailing comma before "}"', comma);
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describeHere()}`);
        const keyOffset = i;
        const key = readString();
        const member = `${pointer}/${pointerToken(key)}`;
        // JSON.parse keeps the last of two equal keys, other parsers the first.
        const repeated = keys.has(key);
        if (repeated) duplicates.push({ pointer: member, offset: keyOffset });
        keys.add(key);
        const first = offsets.get(member);
        skipWhitespace();
        if (text[i] !== ':') fail(`expected ":" after the property name, found ${describeHere()}`);
        i++;
        readValue(member, depth + 1, true);
        // Problems about a member read best at its key ("price": -1), not at its value; a
        // repeated key keeps the place of its first occurrence.
        offsets.set(member, repeated && first !== undefined ? first : keyOffset);
        placed(member);
        skipWhitespace();
        if (text[i] === ',') {
          comma = i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected "," or "}" after a property value, found ${describeHere()}`);
      }
    }
    if (c === '[') {
      i++;
      skipWhitespace();
      if (text[i] === ']') {
        i++;
        return;
      }
      let comma = i;
      for (let index = 0; ; index++) {
        skipWhitespace();
        if (text[i] === ']') fail('a trailing comma before "]"', comma);
        readValue(`${pointer}/${index}`, depth + 1);
        skipWhitespace();
        if (text[i] === ',') {
          comma = i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected "," or "]" after an array item, found ${describeHere()}`);
      }
    }
    if (c === '"') {
      readString();
      return;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (literal && !/^[\w.+-]/.test(text[i + literal[0].length] ?? '')) {
      i += literal[0].length;
      return;
    }
    if (c === "'") fail('strings and names must use double quotes');
    fail(i >= text.length ? 'the file ends where a value should be' : `unexpected ${describeHere()}`);
  };

  try {
    readValue('', 0);
    skipWhitespace();
    if (i < text.length) fail(`unexpected ${describeHere()} after the end of the JSON value`);
    return { ok: true, offsets, duplicates };
  } catch (error) {
    if (error === ALL_FOUND) return { ok: true, offsets, duplicates, stopped: true };
    if (error instanceof JsonSyntaxError) return { ok: false, offset: error.offset, message: error.message, ...(error.tooDeep ? { tooDeep: true as const } : {}) };
    throw error;
  }
}

/**
 * Whether a parsed value nests objects and arrays more than MAX_JSON_DEPTH levels deep (`level`:
 * how many enclose `value`, itself included). The recursion stops one level past the limit, so it
 * cannot run out of stack; a value is a few times cheaper to walk than its text is to scan.
 */
export function nestsTooDeep(value: object, level = 1): boolean {
  if (level > MAX_JSON_DEPTH) return true;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (typeof item === 'object' && item !== null && nestsTooDeep(item, level + 1)) return true;
    return false;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (typeof item === 'object' && item !== null && nestsTooDeep(item, level + 1)) return true;
  }
  return false;
}

/** `cause`: JSON.parse's own error, when it threw one. */
export type JsonRead = { ok: true; value: unknown } | { ok: false; offset: number; message: string; tooDeep?: true; cause?: unknown };

/**
 * The one way JSON files are read when nothing but their value is needed: JSON.parse, then the
 * depth limit on the value, and for either failure the scanner's offset and plain explanation
 * (JSON.parse on Node 20 often gives no position). Readers that need positions scan the text
 * (scanJson), which applies the same limit.
 */
export function readJson(text: string): JsonRead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const scan = scanJson(text);
    return scan.ok ? { ok: false, offset: 0, message: String((error as Error).message), cause: error } : { ...scan, cause: error };
  }
  if (typeof value === 'object' && value !== null && nestsTooDeep(value, 1)) {
    const scan = scanJson(text);
    // The scanner stops at the bracket that passes the limit.
    return scan.ok ? { ok: false, offset: 0, message: TOO_DEEP_MESSAGE, tooDeep: true } : scan;
  }
  return { ok: true, value };
}
