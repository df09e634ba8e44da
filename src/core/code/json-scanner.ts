import { extensionOf, MANIFEST_PATH } from '../paths.js';
import { isContinuation, LF } from './chars.js';
import { FileReport } from './file-report.js';
import { JSON_SYNTAX } from './rule-ids.js';
import type { ContentScanner, ScanOutput, ScanSession } from './scanner.js';

/*
 * Checks JSON syntax on a stream, without building the value, so a large data file costs no
 * memory. It follows RFC 8259 as JSON.parse does, except that a byte-order mark is allowed at the
 * start: fetch().json() and response.text() remove it before parsing.
 */

const V_VALUE = 0; // a value is expected
const V_AFTER_VALUE = 1; // `,`, a closer or the end
const V_KEY = 2; // a key string is expected (or `}` right after `{`)
const V_COLON = 3;
const V_STRING = 4;
const V_NUMBER = 5;
const V_LITERAL = 6;
const V_DONE = 7;
const V_FAILED = 8;
const V_BOM = 9;

// Number states: what was read last.
const N_MINUS = 1;
const N_ZERO = 2;
const N_INT = 3;
const N_DOT = 4;
const N_FRACTION = 5;
const N_E = 6;
const N_E_SIGN = 7;
const N_EXPONENT = 8;

const ARRAY = 1;
const OBJECT = 2;

const LITERALS = ['true', 'false', 'null'].map((w) => Buffer.from(w));
const BOM = [0xef, 0xbb, 0xbf];

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}

function describe(c: number): string {
  if (c >= 0x20 && c < 0x7f) return `"${String.fromCharCode(c)}"`;
  return `byte 0x${c.toString(16).padStart(2, '0')}`;
}

export interface JsonError {
  line: number;
  column: number;
  detail: string;
}

export class JsonChecker {
  private state: number = V_BOM;
  private stack = new Uint8Array(64);
  private depth = 0;
  private line: number;
  private column: number;
  private seenValue = false;
  // Inside a string.
  private escape = false;
  private unicode = 0; // hex digits still expected after \u
  private isKey = false;
  // Inside a number or literal.
  private numberState = 0;
  private literal = 0;
  private literalIndex = 0;
  private bomIndex = 0;
  /** A `,` was read and no value or key after it yet: a closer now is a trailing comma. */
  private commaPending = false;
  /** Where that comma is (not an object: this runs for every comma of a file). */
  private commaLine = 0;
  private commaColumn = 0;
  error: JsonError | undefined;

  constructor(origin: { line: number; column: number } = { line: 1, column: 1 }) {
    this.line = origin.line;
    this.column = origin.column;
  }

  write(bytes: Uint8Array): void {
    const n = bytes.length;
    for (let i = 0; i < n && this.state !== V_FAILED; i++) {
      if (this.state === V_STRING && !this.escape && this.unicode === 0) {
        // Fast path through a string's ordinary bytes.
        while (i < n) {
          const d = bytes[i]!;
          if (d === 0x22 || d === 0x5c || d < 0x20) break;
          if (!isContinuation(d)) this.column++;
          i++;
        }
        if (i >= n) return;
      }
      const b = bytes[i]!;
      this.step(b);
      if (b === LF) {
        this.line++;
        this.column = 1;
      } else if (!isContinuation(b)) this.column++;
    }
  }

  /** Ends the input; `complete` is false when only part of the file was read. */
  end(complete: boolean): JsonError | undefined {
    if (this.state === V_FAILED || !complete) return this.error;
    if (this.state === V_NUMBER && this.numberEnds()) this.state = this.depth === 0 ? V_DONE : V_AFTER_VALUE;
    if (this.state === V_BOM || (this.state === V_VALUE && this.depth === 0 && !this.seenValue)) this.fail('the file is empty; a JSON file must hold a value such as {} or []');
    else if (this.state !== V_DONE) this.fail('the file ends before the JSON is complete (a bracket or quote is not closed)');
    return this.error;
  }

  /** Where the pending comma is: a trailing comma is reported there, not at the bracket after it. */
  private commaAt(): { line: number; column: number } {
    return { line: this.commaLine, column: this.commaColumn };
  }

  private fail(detail: string, at?: { line: number; column: number }): void {
    if (this.state === V_FAILED) return;
    this.error = { line: at?.line ?? this.line, column: at?.column ?? this.column, detail };
    this.state = V_FAILED;
  }

  private step(c: number): void {
    switch (this.state) {
      case V_BOM:
        if (c === BOM[this.bomIndex]) {
          if (++this.bomIndex === BOM.length) this.state = V_VALUE;
          return;
        }
        if (this.bomIndex > 0) return this.fail(`unexpected ${describe(c)}`);
        this.state = V_VALUE;
        return this.step(c);
      case V_VALUE:
        return this.valueStart(c);
      case V_AFTER_VALUE:
        return this.afterValue(c);
      case V_KEY:
        if (isSpace(c)) return;
        if (c === 0x22) {
          this.state = V_STRING;
          this.isKey = true;
          this.commaPending = false;
          return;
        }
        if (c === 0x7d && !this.commaPending) return this.close();
        if (c === 0x7d) return this.fail('a trailing comma before "}" (JSON does not allow one)', this.commaAt());
        if (c === 0x27) return this.fail('a key in single quotes (JSON needs double quotes)');
        if (c === 0x2f) return this.fail('a comment (JSON does not allow comments)');
        return this.fail(`unexpected ${describe(c)} where a key in double quotes was expected`);
      case V_COLON:
        if (isSpace(c)) return;
        if (c === 0x3a) {
          this.state = V_VALUE;
          return;
        }
        return this.fail(`unexpected ${describe(c)} where ":" was expected after a key`);
      case V_STRING:
        return this.stringByte(c);
      case V_NUMBER:
        return this.numberByte(c);
      case V_LITERAL: {
        const word = LITERALS[this.literal]!;
        if (c !== word[this.literalIndex]) return this.fail(`unexpected ${describe(c)} in "${word.toString()}"`);
        if (++this.literalIndex === word.length) this.valueEnded();
        return;
      }
      case V_DONE:
        if (isSpace(c)) return;
        if (c === 0x2f) return this.fail('a comment (JSON does not allow comments)');
        return this.fail(`unexpected ${describe(c)} after the end of the JSON value`);
      default:
    }
  }

  private valueStart(c: number): void {
    if (isSpace(c)) return;
    this.seenValue = true;
    if (c !== 0x5d) this.commaPending = false;
    switch (c) {
      case 0x7b:
        this.push(OBJECT);
        this.state = V_KEY;
        return;
      case 0x5b:
        this.push(ARRAY);
        return;
      case 0x5d:
        if (this.depth > 0 && this.stack[this.depth] === ARRAY) {
          if (this.commaPending) return this.fail('a trailing comma before "]" (JSON does not allow one)', this.commaAt());
          return this.close();
        }
        return this.fail(`unexpected "]"`);
      case 0x22:
        this.state = V_STRING;
        this.isKey = false;
        return;
      case 0x2d:
        this.state = V_NUMBER;
        this.numberState = N_MINUS;
        return;
      case 0x74:
      case 0x66:
      case 0x6e:
        this.state = V_LITERAL;
        this.literal = c === 0x74 ? 0 : c === 0x66 ? 1 : 2;
        this.literalIndex = 1;
        return;
      case 0x27:
        return this.fail('a string in single quotes (JSON needs double quotes)');
      case 0x2f:
        return this.fail('a comment (JSON does not allow comments)');
      default:
        if (isDigit(c)) {
          this.state = V_NUMBER;
          this.numberState = c === 0x30 ? N_ZERO : N_INT;
          return;
        }
        return this.fail(`unexpected ${describe(c)} where a value was expected`);
    }
  }

  private push(kind: number): void {
    this.depth++;
    if (this.depth >= this.stack.length) {
      const stack = new Uint8Array(this.stack.length * 2);
      stack.set(this.stack);
      this.stack = stack;
    }
    this.stack[this.depth] = kind;
    this.state = kind === OBJECT ? V_KEY : V_VALUE;
    this.commaPending = false;
  }

  private close(): void {
    this.depth--;
    this.commaPending = false;
    this.valueEnded();
  }

  private valueEnded(): void {
    this.state = this.depth === 0 ? V_DONE : V_AFTER_VALUE;
  }

  private afterValue(c: number): void {
    if (isSpace(c)) return;
    const container = this.stack[this.depth];
    if (c === 0x2c) {
      this.commaPending = true;
      this.commaLine = this.line;
      this.commaColumn = this.column;
      this.state = container === OBJECT ? V_KEY : V_VALUE;
      return;
    }
    if (c === 0x5d && container === ARRAY) return this.close();
    if (c === 0x7d && container === OBJECT) return this.close();
    if (c === 0x2f) return this.fail('a comment (JSON does not allow comments)');
    const expected = container === OBJECT ? '"," or "}"' : '"," or "]"';
    return this.fail(`unexpected ${describe(c)} where ${expected} was expected`);
  }

  private stringByte(c: number): void {
    if (this.unicode > 0) {
      if (!isHex(c)) return this.fail('a \\u escape needs four hex digits');
      this.unicode--;
      return;
    }
    if (this.escape) {
      this.escape = false;
      if (c === 0x75) this.unicode = 4;
      else if (!(c === 0x22 || c === 0x5c || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74)) {
        return this.fail(`"\\${String.fromCharCode(c)}" is not a JSON escape`);
      }
      return;
    }
    if (c === 0x5c) {
      this.escape = true;
      return;
    }
    if (c === 0x22) {
      if (this.isKey) this.state = V_COLON;
      else this.valueEnded();
      return;
    }
    if (c < 0x20) return this.fail('a line break or control character inside a string (write \\n instead)');
  }

  private numberEnds(): boolean {
    const s = this.numberState;
    return s === N_ZERO || s === N_INT || s === N_FRACTION || s === N_EXPONENT;
  }

  private numberByte(c: number): void {
    const s = this.numberState;
    if (isDigit(c)) {
      if (s === N_MINUS) this.numberState = c === 0x30 ? N_ZERO : N_INT;
      else if (s === N_ZERO) return this.fail('a number with a leading zero');
      else if (s === N_DOT) this.numberState = N_FRACTION;
      else if (s === N_E || s === N_E_SIGN) this.numberState = N_EXPONENT;
      return;
    }
    if (c === 0x2e && (s === N_ZERO || s === N_INT)) {
      this.numberState = N_DOT;
      return;
    }
    if ((c === 0x65 || c === 0x45) && (s === N_ZERO || s === N_INT || s === N_FRACTION)) {
      this.numberState = N_E;
      return;
    }
    if ((c === 0x2b || c === 0x2d) && s === N_E) {
      this.numberState = N_E_SIGN;
      return;
    }
    if (!this.numberEnds()) return this.fail(`an incomplete number before ${describe(c)}`);
    this.valueEnded();
    this.step(c);
  }
}

/**
 * Files up to this size are buffered and given to JSON.parse, which is native and much faster than
 * a byte-at-a-time checker on a cold start; the checker then only runs to locate an error. Larger
 * files stream through the checker, so memory stays bounded.
 */
export const PARSE_LIMIT = 1_000_000;

const utf8 = new TextDecoder('utf-8');

class JsonSession implements ScanSession {
  private readonly report: FileReport;
  private held: Buffer[] | undefined = [];
  private heldBytes = 0;
  private checker: JsonChecker | undefined;

  constructor(path: string) {
    this.report = new FileReport(path);
  }

  write(chunk: Buffer): void {
    if (this.held) {
      this.held.push(chunk);
      this.heldBytes += chunk.length;
      if (this.heldBytes <= PARSE_LIMIT) return;
      this.checker = new JsonChecker();
      for (const part of this.held) this.checker.write(part);
      this.held = undefined;
      return;
    }
    this.checker!.write(chunk);
  }

  end(complete: boolean): ScanOutput {
    if (!complete) return this.report.finish();
    let error: JsonError | undefined;
    if (this.held) {
      const bytes = Buffer.concat(this.held);
      this.held = undefined;
      let text = utf8.decode(bytes);
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      try {
        JSON.parse(text);
      } catch (parseError) {
        const checker = new JsonChecker();
        checker.write(bytes);
        // The checker follows the same grammar; should it ever disagree, JSON.parse has the last word.
        error = checker.end(true) ?? { line: 1, column: 1, detail: (parseError as Error).message };
      }
    } else error = this.checker!.end(true);
    if (error) this.report.add(JSON_SYNTAX, error.line, error.column, { detail: error.detail });
    return this.report.finish();
  }
}

export const jsonScanner: ContentScanner = {
  name: 'json',
  // manifest.json has rules of its own (manifest-syntax and the rest).
  accepts: (entry) => extensionOf(entry.path) === '.json' && entry.path !== MANIFEST_PATH,
  begin: (entry) => new JsonSession(entry.path),
};
