import { isContinuation, JS_NAME_PART, LF, stopTable } from './chars.js';
import { mayBeDirective } from './file-report.js';
import { lookupWord, MAX_WORD_LENGTH, W } from './words.js';

/*
 * A streaming JavaScript tokenizer over UTF-8 bytes. It is not a parser: it knows enough to never
 * mistake the inside of a comment, a string, a template's text or a regular expression for code,
 * and to hand the tokens of real code to a handler with their kind. It keeps its state between
 * chunks, so a file of any size is read in one pass with a few kilobytes of memory.
 *
 * Whether `/` starts a regular expression is decided, as in most fast tokenizers, by the token
 * before it; for `)` and `}` the bracket stack remembers whether the group was the head of an
 * `if`/`while`/`for` or a block (then a regular expression may follow) or an expression (then `/`
 * divides).
 */

// Punctuator kinds given to the handler.
export const P_DOT = 1;
export const P_OPT_DOT = 2;
export const P_LPAREN = 3;
export const P_RPAREN = 4;
export const P_LBRACKET = 5;
export const P_RBRACKET = 6;
export const P_LBRACE = 7;
export const P_RBRACE = 8;
export const P_COMMA = 9;
export const P_SEMI = 10;
export const P_COLON = 11;
export const P_QUESTION = 12;
export const P_ASSIGN = 13;
export const P_PLUS_ASSIGN = 14;
export const P_ARROW = 15;
export const P_PLUS = 16;
export const P_MINUS = 17;
export const P_INCDEC = 18;
export const P_SPREAD = 19;
/** Any other operator. */
export const P_OP = 20;
export const P_DIVIDE = 21;
/** `${` inside a template literal. */
export const P_TEMPLATE_OPEN = 22;
/** The `}` that ends a template's `${...}`. */
export const P_TEMPLATE_CLOSE = 23;
/** `#` before a private name: the name after it is a member, like one after a dot. */
export const P_HASH = 24;

// Frame kinds on the bracket stack.
export const F_PAREN = 1;
export const F_BRACKET = 2;
export const F_BLOCK = 3;
export const F_OBJECT = 4;
export const F_TEMPLATE = 5;

/** Receives the tokens of code (never of comments, strings' contents or template text). */
export interface JsTokenHandler {
  /** An identifier or keyword; `word` is its number in WORDS, or -1. */
  name(bytes: Buffer, start: number, end: number, word: number, afterDot: boolean): void;
  punct(kind: number, at: number): void;
  /** A string literal has ended; its value is available from `lexer.stringValue()` if short. */
  string(): void;
  number(bytes: Buffer, start: number, end: number): void;
  templateStart(): void;
  /** A template literal has ended; when `lexer.plainTemplate()`, its text is read like a string's. */
  templateEnd(): void;
  regex(): void;
  /** A comment's text, when it may be a directive. */
  comment(text: string, line: number, column: number, endLine: number): void;
  /** The input has ended. */
  finish(): void;
}

// What the previous token allows next, for the regular-expression decision.
const T_START = 0;
const T_VALUE = 1;
const T_EXPRESSION = 2;
const T_STATEMENT_END = 3;

const M_CODE = 0;
const M_STRING = 1;
const M_TEMPLATE = 2;
const M_BLOCK_COMMENT = 3;
const M_LINE_COMMENT = 4;
const M_REGEX = 5;

const QUOTE_SINGLE = 0x27;
const QUOTE_DOUBLE = 0x22;
const BACKTICK = 0x60;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const DOLLAR = 0x24;

const STRING_STOP = stopTable(QUOTE_SINGLE, QUOTE_DOUBLE, BACKSLASH, LF);
const TEMPLATE_STOP = stopTable(BACKTICK, DOLLAR, BACKSLASH, LF);
const REGEX_STOP = stopTable(SLASH, BACKSLASH, 0x5b, 0x5d, LF);
const BLOCK_COMMENT_STOP = stopTable(STAR, LF);

// Byte classes in code (0: any other byte).
const C_SPACE = 1;
const C_LF = 2;
const C_NAME = 3;
const C_DIGIT = 4;
const CODE_CLASS = new Uint8Array(256);
for (let c = 0; c < 256; c++) {
  if (c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || c === 0x0d) CODE_CLASS[c] = C_SPACE;
  else if (c === LF) CODE_CLASS[c] = C_LF;
  else if (c >= 0x30 && c <= 0x39) CODE_CLASS[c] = C_DIGIT;
  else if (JS_NAME_PART[c]) CODE_CLASS[c] = C_NAME;
}
// Characters that may continue an operator such as `>>>=`, `&&=`, `!==`, `**`.
const OPERATOR_TAIL = new Uint8Array(256);
for (const c of '<>=&|*^!%') OPERATOR_TAIL[c.charCodeAt(0)] = 1;

/** Tokens of a name or number longer than this are cut rather than carried between chunks. */
const MAX_CARRY = 4096;
/** A comment shorter than this is carried whole into the next chunk, so a directive is never cut. */
const DIRECTIVE_CARRY = 1024;
/** String values longer than this are not kept (no check needs a long one). */
const MAX_STRING_VALUE = 64;
const MAX_DEPTH = 1 << 16;

const utf8 = new TextDecoder('utf-8');

export interface LexerOrigin {
  /** Line and column of the first byte, when the code sits inside another file (a `<script>`). */
  line: number;
  column: number;
}

export class JsLexer {
  // Position: `line` is 1-based within this code; `lineStart` is the absolute offset of its first
  // byte; `continuations` counts UTF-8 continuation bytes seen on the line so far.
  line = 1;
  private lineStart = 0;
  private continuations = 0;
  /** Absolute offset of byte 0 of the buffer being scanned. */
  private base = 0;
  /** Absolute offset of the first byte of code (after a byte-order mark). */
  private codeStart = 0;
  /** True when a line break came between the previous token and the current one. */
  newlineBefore = false;

  private mode = M_CODE;
  private quote = 0;
  private pendingEscape = false;
  private pendingDollar = false;
  private pendingStar = false;
  private inClass = false;
  /** The template being read has had no `${...}` so far: its text is kept like a string's value. */
  private templatePlain = false;
  private carry: Buffer | undefined;
  /** The first bytes have not been looked at for a byte-order mark yet. */
  private atStart = true;

  private previous = T_START;
  /** Kind of the previous punctuator, or 0 when the previous token was not one. */
  previousPunct = 0;
  /** Word number of the previous token when it was a name, else -1. */
  previousWord = -1;

  // The bracket stack. Depth 0 is the top level; frame d lives at index d.
  depth = 0;
  private kinds = new Uint8Array(256);
  private controls = new Uint8Array(256);

  // The current string's value, when short.
  private stringStart = 0;
  private stringBytes = new Uint8Array(MAX_STRING_VALUE);
  private stringLength = 0;
  private stringBuffer: Buffer | undefined;
  private stringEnd = 0;

  // Where the current string began, for findings about object keys written as strings.
  private stringLineNumber = 0;
  private stringColumnNumber = 0;

  // Comment being read, for directive positions.
  private commentLine = 0;
  private commentColumn = 0;

  constructor(
    private readonly handler: JsTokenHandler,
    private readonly origin: LexerOrigin = { line: 1, column: 1 },
  ) {}

  write(chunk: Buffer): void {
    let bytes = chunk;
    if (this.carry) {
      bytes = Buffer.concat([this.carry, chunk]);
      this.carry = undefined;
    }
    this.scan(bytes, false);
  }

  end(): void {
    const rest = this.carry ?? Buffer.alloc(0);
    this.carry = undefined;
    this.scan(rest, true);
    this.handler.finish();
  }

  /** Line of the token being handled, in the enclosing file. */
  fileLine(): number {
    return this.line + this.origin.line - 1;
  }

  /** Column, in characters, of the byte at `index` of the current buffer, in the enclosing file. */
  fileColumn(index: number): number {
    const column = this.base + index - this.lineStart - this.continuations + 1;
    return this.line === 1 ? column + this.origin.column - 1 : column;
  }

  /**
   * The value of the string literal just ended (or of a template without `${...}`), if it is at most
   * 64 bytes long. Escapes are not decoded. Valid only while the handler is told of that literal.
   */
  stringValue(): string | undefined {
    if (this.stringLength > MAX_STRING_VALUE) return undefined;
    if (this.stringBuffer) return utf8.decode(this.stringBuffer.subarray(this.stringStart, this.stringEnd));
    return utf8.decode(this.stringBytes.subarray(0, this.stringLength));
  }

  /** The number in WORDS of the literal `stringValue()` would give, or -1; nothing is decoded. */
  stringWord(): number {
    if (this.stringLength > MAX_WORD_LENGTH) return -1;
    if (this.stringBuffer) return lookupWord(this.stringBuffer, this.stringStart, this.stringEnd);
    return lookupWord(this.stringBytes, 0, this.stringLength);
  }

  /** True while the handler is told of a template literal that had no `${...}`. */
  plainTemplate(): boolean {
    return this.templatePlain;
  }

  /** True when the token before the current one ends an operand (a name, `)`, `]`, a literal). */
  afterValue(): boolean {
    return this.previous === T_VALUE;
  }

  /** Length in bytes of the string just ended, to skip decoding values no check could want. */
  stringSize(): number {
    return this.stringLength;
  }

  /** Line of the opening quote of the string just ended. */
  stringLine(): number {
    return this.stringLineNumber;
  }

  stringColumn(): number {
    return this.stringColumnNumber;
  }

  /** Kind of the innermost open frame (0 at the top level). */
  frameKind(depth = this.depth): number {
    return depth > 0 && depth < MAX_DEPTH ? this.kinds[depth]! : 0;
  }

  private scan(bytes: Buffer, final: boolean): void {
    const n = bytes.length;
    let i = 0;
    if (this.atStart) {
      if (n < 3 && !final) {
        this.carryFrom(bytes, 0, n);
        return;
      }
      this.atStart = false;
      // A byte-order mark is not code: browsers drop it when they decode the file. Columns start
      // after it.
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
        i = 3;
        this.lineStart = 3;
        this.codeStart = 3;
      }
    }
    while (i < n) {
      switch (this.mode) {
        case M_CODE:
          i = this.scanCode(bytes, i, n, final);
          break;
        case M_STRING:
          i = this.scanString(bytes, i, n);
          break;
        case M_TEMPLATE:
          i = this.scanTemplate(bytes, i, n, final);
          break;
        case M_BLOCK_COMMENT:
          i = this.scanBlockComment(bytes, i, n, -1);
          break;
        case M_LINE_COMMENT: {
          const eol = bytes.indexOf(LF, i);
          if (eol < 0) i = n;
          else {
            this.mode = M_CODE;
            i = eol;
          }
          break;
        }
        default:
          i = this.scanRegex(bytes, i, n);
      }
    }
    if (this.mode === M_STRING || (this.mode === M_TEMPLATE && this.templatePlain)) this.keepStringTail(bytes, n);
    this.base += n - (this.carry ? this.carry.length : 0);
  }

  private newlineAt(index: number): void {
    this.line++;
    this.lineStart = this.base + index + 1;
    this.continuations = 0;
    this.newlineBefore = true;
  }

  private carryFrom(bytes: Buffer, index: number, n: number): number {
    this.carry = Buffer.from(bytes.subarray(index, n));
    return n;
  }

  private scanCode(bytes: Buffer, start: number, n: number, final: boolean): number {
    let i = start;
    while (i < n) {
      const c = bytes[i]!;
      const cls = CODE_CLASS[c]!;
      if (cls === C_SPACE) {
        i++;
        continue;
      }
      if (cls === C_LF) {
        this.newlineAt(i);
        i++;
        continue;
      }
      if (cls === C_NAME) {
        let j = i + 1;
        let high = c;
        for (let d: number; j < n && JS_NAME_PART[(d = bytes[j]!)]; j++) high |= d;
        if (j === n && !final && n - i < MAX_CARRY) return this.carryFrom(bytes, i, n);
        if (high >= 0x80) this.countContinuations(bytes, i, j);
        this.emitName(bytes, i, j);
        i = j;
        continue;
      }
      if (cls === C_DIGIT) {
        const j = this.numberEnd(bytes, i, n);
        if (j === n && !final && n - i < MAX_CARRY) return this.carryFrom(bytes, i, n);
        this.emitNumber(bytes, i, j);
        i = j;
        continue;
      }
      // Every other token needs up to four bytes of look-ahead.
      if (n - i < 4 && !final) return this.carryFrom(bytes, i, n);
      const next = i + 1 < n ? bytes[i + 1]! : -1;
      switch (c) {
        case QUOTE_SINGLE:
        case QUOTE_DOUBLE:
          this.mode = M_STRING;
          this.quote = c;
          this.startValue(bytes, i);
          return this.scanString(bytes, i + 1, n);
        case BACKTICK:
          // The value's position first: the handler reads it as the template's own.
          this.startValue(bytes, i);
          this.handler.templateStart();
          this.afterToken(T_EXPRESSION, 0, -1);
          this.mode = M_TEMPLATE;
          this.templatePlain = true;
          return this.scanTemplate(bytes, i + 1, n, final);
        case SLASH:
          if (next === SLASH) return this.lineComment(bytes, i, n, final);
          if (next === STAR) return this.blockComment(bytes, i, n, final);
          if (this.previous !== T_VALUE) {
            this.mode = M_REGEX;
            this.inClass = false;
            return this.scanRegex(bytes, i + 1, n);
          }
          this.punct(P_DIVIDE, i, T_EXPRESSION);
          i += next === 0x3d ? 2 : 1;
          continue;
        case 0x2e: // .
          if (next >= 0x30 && next <= 0x39) {
            const j = this.numberEnd(bytes, i, n);
            this.emitNumber(bytes, i, j);
            i = j;
          } else if (next === 0x2e && bytes[i + 2] === 0x2e) {
            this.punct(P_SPREAD, i, T_EXPRESSION);
            i += 3;
          } else {
            this.punct(P_DOT, i, T_EXPRESSION);
            i++;
          }
          continue;
        case 0x3f: // ?
          if (next === 0x2e && !(bytes[i + 2]! >= 0x30 && bytes[i + 2]! <= 0x39)) {
            this.punct(P_OPT_DOT, i, T_EXPRESSION);
            i += 2;
          } else if (next === 0x3f) {
            this.punct(P_OP, i, T_EXPRESSION);
            i += bytes[i + 2] === 0x3d ? 3 : 2;
          } else {
            this.punct(P_QUESTION, i, T_EXPRESSION);
            i++;
          }
          continue;
        case 0x28: // (
          this.open(F_PAREN, isControlWord(this.previousWord) && this.previousPunct === 0 ? 1 : 0);
          this.punct(P_LPAREN, i, T_EXPRESSION);
          i++;
          continue;
        case 0x29: {
          // )
          const control = this.depth > 0 && this.depth < MAX_DEPTH && this.kinds[this.depth] === F_PAREN && this.controls[this.depth] === 1;
          this.punct(P_RPAREN, i, control ? T_STATEMENT_END : T_VALUE);
          this.close();
          i++;
          continue;
        }
        case 0x5b: // [
          this.open(F_BRACKET, 0);
          this.punct(P_LBRACKET, i, T_EXPRESSION);
          i++;
          continue;
        case 0x5d: // ]
          this.punct(P_RBRACKET, i, T_VALUE);
          this.close();
          i++;
          continue;
        case 0x7b: // {
          this.open(this.braceKind(), 0);
          this.punct(P_LBRACE, i, T_STATEMENT_END);
          i++;
          continue;
        case 0x7d: {
          // }
          const kind = this.frameKind();
          if (kind === F_TEMPLATE) {
            this.punct(P_TEMPLATE_CLOSE, i, T_EXPRESSION);
            this.close();
            this.mode = M_TEMPLATE;
            this.templatePlain = false;
            return this.scanTemplate(bytes, i + 1, n, final);
          }
          this.punct(P_RBRACE, i, kind === F_OBJECT ? T_VALUE : T_STATEMENT_END);
          this.close();
          i++;
          continue;
        }
        case 0x2c:
          this.punct(P_COMMA, i, T_EXPRESSION);
          i++;
          continue;
        case 0x3b:
          this.punct(P_SEMI, i, T_STATEMENT_END);
          i++;
          continue;
        case 0x3a:
          this.punct(P_COLON, i, T_EXPRESSION);
          i++;
          continue;
        case 0x3d: // =
          if (next === 0x3e) {
            this.punct(P_ARROW, i, T_EXPRESSION);
            i += 2;
          } else if (next === 0x3d) {
            this.punct(P_OP, i, T_EXPRESSION);
            i += bytes[i + 2] === 0x3d ? 3 : 2;
          } else {
            this.punct(P_ASSIGN, i, T_EXPRESSION);
            i++;
          }
          continue;
        case 0x2b: // +
        case 0x2d: // -
          if (next === c) {
            // After `a++` a `/` divides; before an operand it does not matter.
            this.punct(P_INCDEC, i, this.previous === T_VALUE ? T_VALUE : T_EXPRESSION);
            i += 2;
          } else if (next === 0x3d) {
            this.punct(c === 0x2b ? P_PLUS_ASSIGN : P_OP, i, T_EXPRESSION);
            i += 2;
          } else {
            this.punct(c === 0x2b ? P_PLUS : P_MINUS, i, T_EXPRESSION);
            i++;
          }
          continue;
        case 0x23: // #
          if (this.base + i === this.codeStart && next === 0x21) return this.lineComment(bytes, i, n, final);
          this.punct(P_HASH, i, T_EXPRESSION);
          i++;
          continue;
        default:
          if (OPERATOR_TAIL[c]) {
            let j = i + 1;
            while (j < n && j - i < 4 && OPERATOR_TAIL[bytes[j]!]) j++;
            this.punct(P_OP, i, T_EXPRESSION);
            i = j;
            continue;
          }
          // `~`, `@`, `\` and control characters.
          this.punct(P_OP, i, T_EXPRESSION);
          i++;
      }
    }
    return i;
  }

  private countContinuations(bytes: Buffer, start: number, end: number): void {
    for (let k = start; k < end; k++) if (isContinuation(bytes[k]!)) this.continuations++;
  }

  private numberEnd(bytes: Buffer, start: number, n: number): number {
    let j = start + 1;
    const hexLike = bytes[start] === 0x30 && j < n && (bytes[j]! | 0x20) !== 0x65 && JS_NAME_PART[bytes[j]!] === 1 && bytes[j]! >= 0x41;
    while (j < n) {
      const d = bytes[j]!;
      if (JS_NAME_PART[d] || d === 0x2e) {
        j++;
        continue;
      }
      // An exponent's sign: 1e+5, 2.5E-3 (not in 0x1e+5, which is an addition).
      if ((d === 0x2b || d === 0x2d) && !hexLike && (bytes[j - 1]! | 0x20) === 0x65) {
        j++;
        continue;
      }
      break;
    }
    return j;
  }

  private emitName(bytes: Buffer, start: number, end: number): void {
    const afterDot = this.previousPunct === P_DOT || this.previousPunct === P_OPT_DOT || this.previousPunct === P_HASH;
    const word = lookupWord(bytes, start, end);
    this.handler.name(bytes, start, end, word, afterDot);
    this.afterToken(!afterDot && isExpressionKeyword(word) ? T_EXPRESSION : T_VALUE, 0, afterDot ? -1 : word);
  }

  private emitNumber(bytes: Buffer, start: number, end: number): void {
    this.handler.number(bytes, start, end);
    this.afterToken(T_VALUE, 0, -1);
  }

  private punct(kind: number, at: number, next: number): void {
    this.handler.punct(kind, at);
    this.afterToken(next, kind, -1);
  }

  private afterToken(previous: number, punct: number, word: number): void {
    this.previous = previous;
    this.previousPunct = punct;
    this.previousWord = word;
    this.newlineBefore = false;
  }

  /** Whether a `{` here opens an object literal (an expression) or a block. */
  private braceKind(): number {
    const p = this.previousPunct;
    if (p === P_RPAREN || p === P_ARROW || p === P_SEMI || p === P_LBRACE || p === P_RBRACE) return F_BLOCK;
    if (p === P_COLON) {
      // `case 1: {` and `label: {` open blocks; `key: {` inside an object or `a ? b : {` do not.
      const outer = this.frameKind();
      return outer === F_BLOCK || outer === 0 ? F_BLOCK : F_OBJECT;
    }
    if (p !== 0) return F_OBJECT;
    if (this.previousWord === W.else || this.previousWord === W.do) return F_BLOCK;
    if (this.previous === T_EXPRESSION) return F_OBJECT; // return {, typeof {, in {
    return F_BLOCK; // start, else {, try {, class X {, do {
  }

  private open(kind: number, control: number): void {
    this.depth++;
    if (this.depth < MAX_DEPTH) {
      if (this.depth >= this.kinds.length) {
        const kinds = new Uint8Array(this.kinds.length * 2);
        kinds.set(this.kinds);
        this.kinds = kinds;
        const controls = new Uint8Array(this.controls.length * 2);
        controls.set(this.controls);
        this.controls = controls;
      }
      this.kinds[this.depth] = kind;
      this.controls[this.depth] = control;
    }
  }

  private close(): void {
    // A stray closer at the top level is ignored; a mismatched one (`(...]`) still pops, which
    // recovers quickly from the rare misreading.
    if (this.depth > 0) this.depth--;
  }

  private scanString(bytes: Buffer, start: number, n: number): number {
    let i = start;
    if (this.pendingEscape) {
      this.pendingEscape = false;
      if (i < n) {
        if (bytes[i] === LF) this.newlineAt(i);
        else if (isContinuation(bytes[i]!)) this.continuations++;
        i++;
      }
    }
    const quote = this.quote;
    for (;;) {
      while (i < n && STRING_STOP[bytes[i]!] === 0) i++;
      if (i >= n) return n;
      const c = bytes[i]!;
      if (c === quote || c === LF) {
        // A line break ends an unterminated string: recover at the next line.
        this.endString(bytes, i);
        return c === LF ? i : i + 1;
      }
      if (c === BACKSLASH) {
        if (i + 1 >= n) {
          this.pendingEscape = true;
          return n;
        }
        const d = bytes[i + 1]!;
        if (d === LF) this.newlineAt(i + 1);
        else if (isContinuation(d)) this.continuations++;
        i += 2;
        continue;
      }
      if (isContinuation(c)) this.continuations++;
      i++;
    }
  }

  /** At the end of a chunk inside a string: keep what is needed of its value for the next chunk. */
  private keepStringTail(bytes: Buffer, n: number): void {
    const from = this.stringBuffer === bytes ? this.stringStart : 0;
    const part = n - from;
    if (this.stringLength + part <= MAX_STRING_VALUE) this.stringBytes.set(bytes.subarray(from, n), this.stringLength);
    this.stringLength += part;
    this.stringBuffer = undefined;
  }

  /** A string or template literal opens at `at`: its value is kept from the next byte. */
  private startValue(bytes: Buffer, at: number): void {
    this.stringStart = at + 1;
    this.stringLength = 0;
    this.stringLineNumber = this.fileLine();
    this.stringColumnNumber = this.fileColumn(at);
    this.stringBuffer = bytes;
  }

  private endString(bytes: Buffer, end: number): void {
    this.mode = M_CODE;
    this.endValue(bytes, end);
    this.handler.string();
    this.afterToken(T_VALUE, 0, -1);
    this.stringBuffer = undefined;
  }

  /** The literal whose value is being kept ends at `end`. */
  private endValue(bytes: Buffer, end: number): void {
    if (this.stringBuffer === bytes) {
      this.stringLength = end - this.stringStart;
      this.stringEnd = end;
    } else {
      // The string began in an earlier chunk: its start is in stringBytes.
      const part = end;
      if (this.stringLength + part <= MAX_STRING_VALUE) this.stringBytes.set(bytes.subarray(0, end), this.stringLength);
      this.stringLength += part;
      this.stringBuffer = undefined;
    }
  }

  private scanTemplate(bytes: Buffer, start: number, n: number, final: boolean): number {
    let i = start;
    if (this.pendingDollar) {
      this.pendingDollar = false;
      if (i < n && bytes[i] === 0x7b) return this.openTemplateExpression(i - 1);
    }
    if (this.pendingEscape) {
      this.pendingEscape = false;
      if (i < n) {
        if (bytes[i] === LF) this.newlineAt(i);
        else if (isContinuation(bytes[i]!)) this.continuations++;
        i++;
      }
    }
    for (;;) {
      while (i < n && TEMPLATE_STOP[bytes[i]!] === 0) i++;
      if (i >= n) return n;
      const c = bytes[i]!;
      if (c === BACKTICK) {
        this.mode = M_CODE;
        if (this.templatePlain) this.endValue(bytes, i);
        this.handler.templateEnd();
        this.afterToken(T_VALUE, 0, -1);
        this.templatePlain = false;
        this.stringBuffer = undefined;
        return i + 1;
      }
      if (c === DOLLAR) {
        if (i + 1 >= n) {
          if (!final) this.pendingDollar = true;
          return n;
        }
        if (bytes[i + 1] === 0x7b) return this.openTemplateExpression(i);
        i++;
        continue;
      }
      if (c === BACKSLASH) {
        if (i + 1 >= n) {
          this.pendingEscape = true;
          return n;
        }
        const d = bytes[i + 1]!;
        if (d === LF) this.newlineAt(i + 1);
        else if (isContinuation(d)) this.continuations++;
        i += 2;
        continue;
      }
      if (c === LF) this.newlineAt(i);
      else if (isContinuation(c)) this.continuations++;
      i++;
    }
  }

  /** `${` at `at` (the `$`, possibly -1 when it ended the previous chunk). */
  private openTemplateExpression(at: number): number {
    this.mode = M_CODE;
    this.templatePlain = false;
    this.open(F_TEMPLATE, 0);
    this.punct(P_TEMPLATE_OPEN, Math.max(at, 0), T_EXPRESSION);
    return at + 2;
  }

  private scanRegex(bytes: Buffer, start: number, n: number): number {
    let i = start;
    if (this.pendingEscape) {
      this.pendingEscape = false;
      if (i < n) {
        if (isContinuation(bytes[i]!)) this.continuations++;
        if (bytes[i] !== LF) i++;
      }
    }
    for (;;) {
      while (i < n && REGEX_STOP[bytes[i]!] === 0) i++;
      if (i >= n) return n;
      const c = bytes[i]!;
      if (c === SLASH && !this.inClass) {
        i++;
        while (i < n && JS_NAME_PART[bytes[i]!]) i++; // flags
        this.mode = M_CODE;
        this.handler.regex();
        this.afterToken(T_VALUE, 0, -1);
        return i;
      }
      if (c === BACKSLASH) {
        if (i + 1 >= n) {
          this.pendingEscape = true;
          return n;
        }
        if (bytes[i + 1] === LF) {
          // Not a regular expression after all: recover at the line break.
          this.mode = M_CODE;
          this.afterToken(T_VALUE, 0, -1);
          return i + 1;
        }
        if (isContinuation(bytes[i + 1]!)) this.continuations++;
        i += 2;
        continue;
      }
      if (c === 0x5b) this.inClass = true;
      else if (c === 0x5d) this.inClass = false;
      else if (c === LF) {
        // A line break cannot be inside a regular expression: the `/` divided. Recover here.
        this.mode = M_CODE;
        this.afterToken(T_VALUE, 0, -1);
        return i;
      } else if (isContinuation(c)) this.continuations++;
      i++;
    }
  }

  private lineComment(bytes: Buffer, start: number, n: number, final: boolean): number {
    const eol = bytes.indexOf(LF, start);
    if (eol < 0 && !final && n - start < DIRECTIVE_CARRY) return this.carryFrom(bytes, start, n);
    const end = eol < 0 ? n : eol;
    if (mayBeDirective(bytes, start + 2, end)) {
      const line = this.fileLine();
      this.handler.comment(utf8.decode(bytes.subarray(start + 2, end)), line, this.fileColumn(start), line);
    }
    if (eol < 0) {
      this.mode = M_LINE_COMMENT;
      return n;
    }
    return eol;
  }

  private blockComment(bytes: Buffer, start: number, n: number, final: boolean): number {
    if (!final && n - start < DIRECTIVE_CARRY && bytes.indexOf('*/', start + 2) < 0) return this.carryFrom(bytes, start, n);
    this.commentLine = this.fileLine();
    this.commentColumn = this.fileColumn(start);
    this.mode = M_BLOCK_COMMENT;
    this.pendingStar = false;
    return this.scanBlockComment(bytes, start + 2, n, start + 2);
  }

  /** `textStart` is where the comment's text begins in this buffer, or -1 when it began earlier. */
  private scanBlockComment(bytes: Buffer, start: number, n: number, textStart: number): number {
    let i = start;
    if (this.pendingStar) {
      this.pendingStar = false;
      if (i < n && bytes[i] === SLASH) {
        this.mode = M_CODE;
        return i + 1;
      }
    }
    for (;;) {
      while (i < n && BLOCK_COMMENT_STOP[bytes[i]!] === 0) i++;
      if (i >= n) return n;
      const c = bytes[i]!;
      if (c === STAR) {
        if (i + 1 >= n) {
          this.pendingStar = true;
          return n;
        }
        if (bytes[i + 1] === SLASH) {
          this.mode = M_CODE;
          if (textStart >= 0 && mayBeDirective(bytes, textStart, i)) {
            this.handler.comment(utf8.decode(bytes.subarray(textStart, i)), this.commentLine, this.commentColumn, this.fileLine());
          }
          return i + 2;
        }
      } else if (c === LF) this.newlineAt(i);
      else if (isContinuation(c)) this.continuations++;
      i++;
    }
  }

}

function isExpressionKeyword(word: number): boolean {
  return word >= W.return && word <= W.of;
}

function isControlWord(word: number): boolean {
  return word === W.if || word === W.while || word === W.for || word === W.with;
}
