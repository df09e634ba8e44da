import { extensionOf } from '../paths.js';
import { isAsciiSpace, isContinuation, LF, lowerByte } from './chars.js';
import { FileReport, mayBeDirective } from './file-report.js';
import { Gate, wordSearch } from './gate.js';
import { LibraryHead } from './library.js';
import { bundleIndex, checkReference, type BundleIndex, type ReferenceKind } from './references.js';
import type { ContentScanner, ScanOutput, ScanSession } from './scanner.js';

/*
 * Finds the references in CSS: `url(…)` and `@import "…"`, skipping comments and strings, for a
 * .css file, a <style> element or a style="" attribute. A byte-at-a-time state machine, so chunk
 * boundaries fall anywhere.
 */

const S_CODE = 0;
const S_COMMENT = 1;
const S_STRING = 2;
const S_URL_START = 3;
const S_URL_RAW = 4;
const S_URL_STRING = 5;

const MAX_URL = 4096;
const MAX_COMMENT = 1024;
const IMPORT = [0x69, 0x6d, 0x70, 0x6f, 0x72, 0x74]; // import

/** Bytes that mean nothing to the reader outside comments and strings: skipped in a tight loop. */
const PLAIN = new Uint8Array(256);
for (let c = 0x20; c < 0x80; c++) PLAIN[c] = 1;
for (const c of '/*"\'()@;{}') PLAIN[c.charCodeAt(0)] = 0;
PLAIN[0x09] = 1;

function isNameByte(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f || c >= 0x80;
}

export interface CssOrigin {
  line: number;
  column: number;
}

export class CssReader {
  private state = S_CODE;
  private line: number;
  private column: number;
  private quote = 0;
  private escape = false;
  private star = false;
  /** The last four bytes of code, lower-cased, to recognise `url(`. */
  private recent = 0;
  /** Bytes of "import" matched after an `@`, or -1. */
  private atRule = -1;
  private importing = false;
  /** Parentheses open in code, and the depth of an `image-set(` whose strings are URLs (0: none). */
  private parens = 0;
  private imageSet = 0;
  private value: number[] = [];
  private valueLine = 0;
  private valueColumn = 0;
  private comment: number[] = [];
  private commentLine = 0;
  private commentColumn = 0;

  constructor(
    private readonly report: FileReport,
    private readonly index: BundleIndex,
    /** The file whose folder relative URLs resolve from (the page, for inline CSS). */
    private readonly from: string,
    origin: CssOrigin = { line: 1, column: 1 },
  ) {
    this.line = origin.line;
    this.column = origin.column;
  }

  write(bytes: Uint8Array): void {
    const n = bytes.length;
    for (let i = 0; i < n; i++) {
      if (this.state === S_CODE && this.atRule < 0) {
        const run = i;
        while (i < n && PLAIN[bytes[i]!] === 1) i++;
        if (i > run) {
          this.column += i - run;
          // `recent` needs only the last four bytes before a `(`.
          for (let k = Math.max(run, i - 4); k < i; k++) this.recent = ((this.recent << 8) | lowerByte(bytes[k]!)) >>> 0;
        }
        if (i >= n) return;
      }
      const c = bytes[i]!;
      this.byte(c);
      if (c === LF) {
        this.line++;
        this.column = 1;
      } else if (!isContinuation(c)) this.column++;
    }
  }

  end(): void {
    if (this.state === S_URL_RAW || this.state === S_URL_STRING) this.endUrl();
  }

  private byte(c: number): void {
    switch (this.state) {
      case S_CODE:
        this.code(c);
        return;
      case S_COMMENT:
        if (this.star && c === 0x2f) {
          this.state = S_CODE;
          this.comment.pop(); // the star
          const bytes = Uint8Array.from(this.comment);
          if (mayBeDirective(bytes, 0, bytes.length)) this.report.comment(Buffer.from(bytes).toString('utf8'), this.commentLine, this.commentColumn, this.line);
          return;
        }
        this.star = c === 0x2a;
        if (this.comment.length < MAX_COMMENT) this.comment.push(c);
        return;
      case S_STRING:
      case S_URL_STRING:
        if (this.escape) this.escape = false;
        else if (c === 0x5c) this.escape = true;
        else if (c === this.quote) {
          if (this.state === S_URL_STRING) {
            this.state = S_URL_RAW; // until the `)`
            this.quote = -1;
            return;
          }
          this.state = S_CODE;
          if (this.importing) this.endValue('stylesheet');
          else if (this.imageSet > 0 && this.parens === this.imageSet) this.endValue('resource');
          return;
        } else if (c === LF) {
          this.state = S_CODE; // an unterminated string ends at the line break
          this.value = [];
          return;
        }
        if ((this.importing || this.imageSet > 0 || this.state === S_URL_STRING) && this.value.length < MAX_URL) this.value.push(c);
        return;
      case S_URL_START:
        if (isAsciiSpace(c)) return;
        this.valueLine = this.line;
        this.valueColumn = this.column;
        this.value = [];
        this.escape = false;
        if (c === 0x22 || c === 0x27) {
          this.state = S_URL_STRING;
          this.quote = c;
          this.valueColumn++;
          return;
        }
        this.state = S_URL_RAW;
        this.quote = 0;
        this.byte(c);
        return;
      default:
        // S_URL_RAW. White space is kept: it may end a hex escape (`\2f x`); the ends are trimmed.
        if (this.escape) this.escape = false;
        else if (c === 0x5c) this.escape = this.quote === 0;
        else if (c === 0x29) {
          this.endUrl();
          return;
        }
        if (this.quote === 0 && this.value.length < MAX_URL) this.value.push(c);
    }
  }

  private code(c: number): void {
    if (c === 0x2a && (this.recent & 0xff) === 0x2f) {
      this.state = S_COMMENT;
      this.star = false;
      this.comment = [];
      this.commentLine = this.line;
      this.commentColumn = this.column - 1;
      this.recent = 0;
      return;
    }
    if (c === 0x22 || c === 0x27) {
      this.state = S_STRING;
      this.quote = c;
      this.escape = false;
      this.value = [];
      this.valueLine = this.line;
      this.valueColumn = this.column + 1;
      this.recent = 0;
      return;
    }
    if (c === 0x28 && (this.recent & 0xffffff) === 0x75726c && !isNameByte(this.recent >>> 24)) {
      this.state = S_URL_START;
      this.recent = 0;
      return;
    }
    if (c === 0x28) {
      this.parens++;
      // `image-set(` and `-webkit-image-set(`: the only functions whose name ends in "-set".
      if (this.recent === 0x2d736574 && this.imageSet === 0) this.imageSet = this.parens;
    } else if (c === 0x29 && this.parens > 0) {
      if (this.parens === this.imageSet) this.imageSet = 0;
      this.parens--;
    }
    if (c === 0x40) this.atRule = 0;
    else if (this.atRule >= 0) {
      if (lowerByte(c) === IMPORT[this.atRule]) {
        this.atRule++;
        if (this.atRule === IMPORT.length) {
          this.importing = true;
          this.atRule = -1;
        }
      } else this.atRule = -1;
    }
    if (c === 0x3b || c === 0x7b || c === 0x7d) this.importing = false;
    this.recent = ((this.recent << 8) | lowerByte(c)) >>> 0;
  }

  private endUrl(): void {
    this.state = S_CODE;
    this.endValue(this.importing ? 'stylesheet' : 'resource');
  }

  private endValue(kind: ReferenceKind): void {
    const text = decodeCssEscapes(Buffer.from(this.value).toString('utf8'));
    this.value = [];
    if (kind === 'stylesheet') this.importing = false;
    checkReference(text, kind, { report: this.report, index: this.index, from: this.from, line: this.valueLine, column: this.valueColumn });
  }
}

/**
 * CSS escapes: `\` and one to six hex digits is that code point, and one white space character
 * after them (CR LF counting as one) belongs to the escape; `\` before a line break (in a string)
 * continues the line; `\` before any other character is that character.
 */
const CSS_ESCAPE = /\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\n\r\f])?|(\r\n|[\n\r\f])|([^]))/g;

export function decodeCssEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(CSS_ESCAPE, (_match, hex: string | undefined, lineBreak: string | undefined, other: string | undefined) => {
    if (hex !== undefined) {
      const code = parseInt(hex, 16);
      // What CSS puts in place of NUL, a surrogate or a number past Unicode.
      return String.fromCodePoint(code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff ? 0xfffd : code);
    }
    return lineBreak !== undefined ? '' : other!;
  });
}

/**
 * Every CSS finding needs one of these: the forms the reader takes references from (`url(`,
 * `@import`, `image-set(` and `-webkit-image-set(`, the only functions whose name ends in `-set`)
 * and the disable comment (which may name an unknown rule). A stylesheet without them is not read.
 */
const CSS_TRIGGER = /url\(|@import|-set\(|pipeline-tool-disable/i;
const CSS_TRIGGER_LONGEST = 'pipeline-tool-disable'.length;

export const cssScanner: ContentScanner = {
  name: 'css',
  accepts: (entry) => extensionOf(entry.path) === '.css',
  begin: (entry, context): ScanSession => {
    const report = new FileReport(entry.path);
    let reader: CssReader | undefined;
    const gate = new Gate(wordSearch(CSS_TRIGGER, CSS_TRIGGER_LONGEST), () => {
      const opened = new CssReader(report, bundleIndex(context.files), entry.path);
      reader = opened;
      return (chunk) => opened.write(chunk);
    });
    const head = new LibraryHead();
    return {
      write: (chunk) => {
        if (!head.full) head.write(chunk);
        gate.write(chunk);
      },
      end: (): ScanOutput => {
        if (gate.close()) reader?.end();
        const output = report.finish();
        output.library = head.test();
        return output;
      },
    };
  },
};
