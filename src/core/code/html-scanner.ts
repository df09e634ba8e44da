import type { BundleEntry } from '../shipment/source.js';
import { extensionOf } from '../paths.js';
import { isAsciiSpace, isContinuation, LF, lowerByte } from './chars.js';
import { CssReader } from './css-scanner.js';
import { FileReport, joinLater, mayBeDirective } from './file-report.js';
import type { JsFileState } from './js-file.js';
import { beginScript, jsFileState } from './js-scanner.js';
import { noteScriptMode } from './script-modes.js';
import { checkScript } from './script-syntax.js';
import type { Finding } from '../problem.js';
import { JsonChecker } from './json-scanner.js';
import { bundleIndex, checkReference, resolveReference, type BundleIndex, type ReferenceKind } from './references.js';
import { JS_SYNTAX, JSON_SYNTAX } from './rule-ids.js';
import type { ContentScanner, ScanContext, ScanOutput, ScanSession } from './scanner.js';

/*
 * A streaming HTML tokenizer, after the WHATWG states that matter here: text, tags with their
 * attributes, comments, and the raw text of <script> and <style>. It hands inline scripts and
 * on*="" handlers to the JavaScript checks, <style> and style="" to the CSS reader, JSON script
 * blocks to the JSON checker, and every src/href/srcset to the reference check. Positions are
 * those of the page, so a finding in an inline script points at the page's line.
 */

const S_TEXT = 0;
const S_TAG_OPEN = 1; // after <
const S_END_TAG = 2; // after </, up to >
const S_MARKUP = 3; // after <!
const S_MARKUP_DASH = 4; // after <!-
const S_COMMENT = 5;
const S_BOGUS = 6; // <!DOCTYPE …>, <?…>: up to >
const S_TAG_NAME = 7;
const S_BEFORE_ATTRIBUTE = 8;
const S_ATTRIBUTE_NAME = 9;
const S_AFTER_ATTRIBUTE_NAME = 10;
const S_BEFORE_VALUE = 11;
const S_VALUE_QUOTED = 12;
const S_VALUE_UNQUOTED = 13;
const S_SELF_CLOSING = 14;
const S_RAW = 15; // contents of <script>, <style>, <textarea>…

/** Elements whose content is not markup; the tokenizer looks only for their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);
const MAX_NAME = 64;
const MAX_VALUE = 64 * 1024;
const MAX_COMMENT = 1024;

/** Script types that hold JavaScript (the empty string is an absent or empty type). */
const JS_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript', 'application/ecmascript', 'text/jscript', 'text/livescript', 'application/x-javascript', 'application/x-ecmascript', 'text/x-javascript', 'text/x-ecmascript', 'text/javascript1.0', 'text/javascript1.1', 'text/javascript1.2', 'text/javascript1.3', 'text/javascript1.4', 'text/javascript1.5']);
const JSON_TYPES = new Set(['application/json', 'importmap', 'application/ld+json', 'speculationrules']);

/** Which attributes load what, by element. */
function referenceKind(tag: string, attribute: string, rel: string, as: string): ReferenceKind | undefined {
  switch (attribute) {
    case 'src':
      if (tag === 'script') return 'script';
      return ['img', 'iframe', 'frame', 'embed', 'audio', 'video', 'source', 'track', 'input', 'image'].includes(tag) ? 'resource' : undefined;
    case 'href':
    case 'xlink:href':
      if (tag === 'a' || tag === 'area') return 'link';
      if (tag === 'link') return linkKind(rel, as);
      return tag === 'use' || tag === 'image' || tag === 'feimage' ? 'resource' : undefined;
    case 'poster':
      return tag === 'video' ? 'resource' : undefined;
    case 'data':
      return tag === 'object' ? 'resource' : undefined;
    case 'action':
      return tag === 'form' ? 'link' : undefined;
    case 'formaction':
      return tag === 'button' || tag === 'input' ? 'link' : undefined;
    default:
      return undefined;
  }
}

function linkKind(rel: string, as: string): ReferenceKind | undefined {
  const tokens = rel.toLowerCase().split(/\s+/);
  if (tokens.includes('stylesheet')) return 'stylesheet';
  if (tokens.includes('modulepreload')) return 'script';
  if (tokens.includes('preload') || tokens.includes('prefetch')) return as.toLowerCase() === 'script' ? 'script' : as.toLowerCase() === 'style' ? 'stylesheet' : 'resource';
  if (tokens.some((t) => t === 'icon' || t === 'apple-touch-icon' || t === 'apple-touch-icon-precomposed' || t === 'mask-icon' || t === 'manifest')) return 'resource';
  // canonical, alternate, preconnect, dns-prefetch, help, license…: nothing is loaded into the tool.
  return undefined;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', tab: '\t', newline: '\n' };

/** Decodes the character references an attribute value may hold. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);?/g, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

interface Attribute {
  name: string;
  value: string;
  line: number;
  column: number;
}

type RawConsumer = { write(bytes: Buffer): void; end(): void };

export class HtmlReader {
  private state = S_TEXT;
  private line: number;
  private column: number;

  private name: number[] = [];
  private tag = '';
  private endTag = false;
  private attributes: Attribute[] = [];
  private attributeName: number[] = [];
  private value: number[] = [];
  private valueLine = 0;
  private valueColumn = 0;
  private quote = 0;

  /** `<template>` elements open around the current position: their content never runs as it stands. */
  private templates = 0;
  private endTagName: number[] = [];

  private comment: number[] = [];
  private commentLine = 0;
  private commentColumn = 0;
  private dashes = 0;

  // Raw text: the element whose end tag ends it, how much of `</name` is matched, and who reads it.
  private rawTag = '';
  private rawMatched = 0;
  private rawHeld: number[] = [];
  private raw: RawConsumer | undefined;

  private readonly scripts: JsFileState;
  /** Syntax checks of the page's scripts, settled once the bundle is read. */
  readonly later: Array<() => Promise<Finding[]>> = [];

  constructor(
    private readonly report: FileReport,
    private readonly index: BundleIndex,
    private readonly file: string,
    private readonly context: ScanContext,
    /** Where the markup starts, when it sits inside an attribute (`<iframe srcdoc>`). */
    origin: { line: number; column: number } = { line: 1, column: 1 },
    /** The markup is inside a `<template>` (an `<iframe srcdoc>` there): references only, no code. */
    inert = false,
  ) {
    this.line = origin.line;
    this.column = origin.column;
    if (inert) this.templates = 1;
    this.scripts = jsFileState({ path: file, kind: 'file', declaredSize: 0, readable: true }, context, report);
  }

  write(bytes: Buffer): void {
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      if (this.state === S_RAW) {
        i = this.rawText(bytes, i, n);
        continue;
      }
      const c = bytes[i]!;
      this.byte(c);
      if (c === LF) {
        this.line++;
        this.column = 1;
      } else if (!isContinuation(c)) this.column++;
      i++;
    }
  }

  end(): void {
    if (this.state === S_RAW) {
      if (this.rawHeld.length > 0) this.raw?.write(Buffer.from(this.rawHeld));
      this.raw?.end();
      this.raw = undefined;
    }
    this.scripts.flush();
  }

  private byte(c: number): void {
    switch (this.state) {
      case S_TEXT:
        if (c === 0x3c) this.state = S_TAG_OPEN;
        return;
      case S_TAG_OPEN:
        if (c === 0x21) this.state = S_MARKUP;
        else if (c === 0x2f) {
          this.state = S_END_TAG;
          this.endTagName = [];
        } else if (isLetter(c)) {
          this.state = S_TAG_NAME;
          this.name = [lowerByte(c)];
          this.attributes = [];
        } else if (c === 0x3f) this.state = S_BOGUS;
        else {
          this.state = S_TEXT;
          if (c === 0x3c) this.state = S_TAG_OPEN;
        }
        return;
      case S_END_TAG:
        if (c === 0x3e) {
          this.state = S_TEXT;
          if (this.templates > 0 && Buffer.from(this.endTagName).toString('latin1').split(' ')[0] === 'template') this.templates--;
        } else if (this.endTagName.length <= MAX_NAME) this.endTagName.push(isAsciiSpace(c) || c === 0x2f ? 0x20 : lowerByte(c));
        return;
      case S_BOGUS:
        if (c === 0x3e) this.state = S_TEXT;
        return;
      case S_MARKUP:
        if (c === 0x2d) this.state = S_MARKUP_DASH;
        else this.state = c === 0x3e ? S_TEXT : S_BOGUS;
        return;
      case S_MARKUP_DASH:
        if (c === 0x2d) {
          this.state = S_COMMENT;
          this.comment = [];
          this.dashes = 0;
          this.commentLine = this.line;
          this.commentColumn = this.column - 3;
        } else this.state = c === 0x3e ? S_TEXT : S_BOGUS;
        return;
      case S_COMMENT:
        if (c === 0x3e && this.dashes >= 2) {
          this.state = S_TEXT;
          this.endComment();
          return;
        }
        this.dashes = c === 0x2d ? this.dashes + 1 : 0;
        if (this.comment.length < MAX_COMMENT) this.comment.push(c);
        return;
      case S_TAG_NAME:
        if (isAsciiSpace(c)) this.state = S_BEFORE_ATTRIBUTE;
        else if (c === 0x2f) this.state = S_SELF_CLOSING;
        else if (c === 0x3e) this.emitTag();
        else if (this.name.length < MAX_NAME) this.name.push(lowerByte(c));
        return;
      case S_BEFORE_ATTRIBUTE:
        if (isAsciiSpace(c)) return;
        if (c === 0x2f) this.state = S_SELF_CLOSING;
        else if (c === 0x3e) this.emitTag();
        else {
          this.state = S_ATTRIBUTE_NAME;
          this.attributeName = [lowerByte(c)];
        }
        return;
      case S_ATTRIBUTE_NAME:
        if (isAsciiSpace(c)) this.state = S_AFTER_ATTRIBUTE_NAME;
        else if (c === 0x3d) this.state = S_BEFORE_VALUE;
        else if (c === 0x2f) {
          this.endAttribute(false);
          this.state = S_SELF_CLOSING;
        } else if (c === 0x3e) {
          this.endAttribute(false);
          this.emitTag();
        } else if (this.attributeName.length < MAX_NAME) this.attributeName.push(lowerByte(c));
        return;
      case S_AFTER_ATTRIBUTE_NAME:
        if (isAsciiSpace(c)) return;
        if (c === 0x3d) {
          this.state = S_BEFORE_VALUE;
          return;
        }
        this.endAttribute(false);
        this.state = S_BEFORE_ATTRIBUTE;
        this.byte(c);
        return;
      case S_BEFORE_VALUE:
        if (isAsciiSpace(c)) return;
        this.value = [];
        this.valueLine = this.line;
        if (c === 0x22 || c === 0x27) {
          this.state = S_VALUE_QUOTED;
          this.quote = c;
          this.valueColumn = this.column + 1;
        } else if (c === 0x3e) {
          this.endAttribute(false);
          this.emitTag();
        } else {
          this.state = S_VALUE_UNQUOTED;
          this.valueColumn = this.column;
          this.value.push(c);
        }
        return;
      case S_VALUE_QUOTED:
        if (c === this.quote) {
          this.endAttribute(true);
          this.state = S_BEFORE_ATTRIBUTE;
        } else if (this.value.length < MAX_VALUE) this.value.push(c);
        return;
      case S_VALUE_UNQUOTED:
        if (isAsciiSpace(c)) {
          this.endAttribute(true);
          this.state = S_BEFORE_ATTRIBUTE;
        } else if (c === 0x3e) {
          this.endAttribute(true);
          this.emitTag();
        } else if (this.value.length < MAX_VALUE) this.value.push(c);
        return;
      case S_SELF_CLOSING:
        if (c === 0x3e) this.emitTag();
        else {
          this.state = S_BEFORE_ATTRIBUTE;
          this.byte(c);
        }
        return;
      default:
    }
  }

  private endComment(): void {
    // The text between <!-- and -->.
    const text = this.comment.slice(0, Math.max(0, this.comment.length - 2));
    const bytes = Uint8Array.from(text);
    if (mayBeDirective(bytes, 0, bytes.length)) this.report.comment(Buffer.from(bytes).toString('utf8'), this.commentLine, this.commentColumn, this.line);
  }

  private endAttribute(hasValue: boolean): void {
    const name = Buffer.from(this.attributeName).toString('latin1');
    const value = hasValue ? decodeEntities(Buffer.from(this.value).toString('utf8')) : '';
    const attribute = { name, value, line: this.valueLine, column: this.valueColumn };
    this.attributes.push(attribute);
    this.value = [];
    // Handlers and inline styles are read at once, where they stand (a handler in a template only
    // runs in a copy the page makes of it, if ever: it is not read as code).
    if (name.startsWith('on') && name.length > 2 && hasValue) {
      if (this.templates === 0) this.scanScript(value, attribute.line, attribute.column);
    } else if (name === 'style' && hasValue) this.scanStyle(value, attribute.line, attribute.column);
    else if (name === 'srcdoc' && hasValue && Buffer.from(this.name).toString('latin1') === 'iframe') this.scanDocument(value, attribute.line, attribute.column);
  }

  private emitTag(): void {
    this.state = S_TEXT;
    const tag = Buffer.from(this.name).toString('latin1');
    const attribute = (name: string) => this.attributes.find((a) => a.name === name);
    const rel = attribute('rel')?.value ?? '';
    const as = attribute('as')?.value ?? '';
    for (const a of this.attributes) {
      if (a.name === 'srcset' && (tag === 'img' || tag === 'source')) {
        for (const candidate of a.value.split(',')) {
          const url = candidate.trim().split(/\s+/)[0] ?? '';
          this.reference(url, 'resource', a);
        }
        continue;
      }
      const kind = referenceKind(tag, a.name, rel, as);
      if (kind) {
        const code = this.reference(a.value, kind, a);
        if (code !== undefined && this.templates === 0) this.scanScript(code, a.line, a.column + 'javascript:'.length);
      }
    }
    if (tag === 'script' && attribute('src')) this.noteScript(attribute('src')!.value, attribute('type')?.value);
    if (tag === 'link' && rel.toLowerCase().split(/\s+/).includes('modulepreload') && attribute('href')) this.noteScript(attribute('href')!.value, 'module');
    if (RAW_TEXT.has(tag)) this.startRaw(tag, attribute('type')?.value, attribute('src') !== undefined);
    // A template's content is parsed, but left out of the page: it runs only once the page's own
    // code clones it in. Its references still matter then; its code is not read.
    else if (tag === 'template') this.templates++;
    this.attributes = [];
  }

  private reference(url: string, kind: ReferenceKind, at: Attribute): string | undefined {
    return checkReference(url, kind, { report: this.report, index: this.index, from: this.file, line: at.line, column: at.column });
  }

  /** Which way a page loads a script file decides how its syntax is read. */
  private noteScript(src: string, type: string | undefined): void {
    const kind = (type ?? '').trim().toLowerCase();
    if (!JS_TYPES.has(kind)) return;
    noteScriptMode(this.scripts.bundle, resolveReference(this.file, src), kind === 'module' ? 'module' : 'classic');
  }

  private startRaw(tag: string, type: string | undefined, hasSource: boolean): void {
    this.state = S_RAW;
    this.rawTag = tag;
    this.rawMatched = 0;
    this.rawHeld = [];
    this.raw = undefined;
    const origin = { line: this.line, column: this.column + 1 };
    if (tag === 'style') {
      this.raw = new CssReader(this.report, this.index, this.file, origin);
      return;
    }
    if (tag !== 'script' || hasSource || this.templates > 0) return; // the browser ignores the text of a script with src
    const kind = (type ?? '').trim().toLowerCase();
    if (JS_TYPES.has(kind)) {
      const walker = beginScript(this.scripts, origin, kind === 'module');
      const chunks: Buffer[] | undefined = this.context.ruleOff?.(JS_SYNTAX, this.file) ? undefined : [];
      this.raw = {
        write: (b) => {
          chunks?.push(Buffer.from(b));
          walker.lexer.write(b);
        },
        end: () => {
          walker.lexer.end();
          if (chunks) this.later.push(checkScript(Buffer.concat(chunks), kind === 'module' ? 'module' : 'classic', this.file, origin));
        },
      };
    } else if (JSON_TYPES.has(kind)) {
      const checker = new JsonChecker(origin);
      this.raw = {
        write: (b) => checker.write(b),
        end: () => {
          const error = checker.end(true);
          if (error) this.report.add(JSON_SYNTAX, error.line, error.column, { detail: error.detail });
        },
      };
    }
    // Any other type (text/template, text/x-handlebars…) is data for the page's own code.
  }

  /**
   * Reads raw text up to `</tag` followed by a space, `/` or `>`, passing it on in runs. A partly
   * matched end tag at the end of a chunk is held until the next chunk says whether it is one.
   */
  private rawText(bytes: Buffer, start: number, n: number): number {
    const tag = this.rawTag;
    const full = 2 + tag.length;
    let runStart = start;
    for (let i = start; i < n; i++) {
      const c = bytes[i]!;
      if (this.rawMatched > 0) {
        if (this.rawMatched === full && (isAsciiSpace(c) || c === 0x2f || c === 0x3e)) {
          // The end tag: the text is over; what was matched of `</tag` is not part of it.
          this.rawHeld = [];
          this.raw?.end();
          this.raw = undefined;
          this.rawMatched = 0;
          this.state = c === 0x3e ? S_TEXT : S_END_TAG;
          // The rest of `</style >` is read as an end tag's: its name is this one's, not the last.
          this.endTagName = [...Buffer.from(tag, 'latin1')];
          this.advance(c);
          return i + 1;
        }
        const expected = this.rawMatched === 1 ? 0x2f : tag.charCodeAt(this.rawMatched - 2);
        if (this.rawMatched < full && lowerByte(c) === expected) {
          this.rawMatched++;
          this.advance(c);
          continue;
        }
        // Not an end tag after all: the bytes held from the previous chunk are text, and so are
        // those of this chunk, which are still in the current run.
        this.rawMatched = 0;
        if (this.rawHeld.length > 0) {
          this.raw?.write(Buffer.from(this.rawHeld));
          this.rawHeld = [];
        }
      }
      if (c === 0x3c) {
        if (i > runStart) this.raw?.write(bytes.subarray(runStart, i));
        runStart = i;
        this.rawMatched = 1;
      }
      this.advance(c);
    }
    if (this.rawMatched > 0) {
      for (let k = runStart; k < n; k++) this.rawHeld.push(bytes[k]!);
    } else if (n > runStart) this.raw?.write(bytes.subarray(runStart, n));
    return n;
  }

  private advance(c: number): void {
    if (c === LF) {
      this.line++;
      this.column = 1;
    } else if (!isContinuation(c)) this.column++;
  }

  private scanScript(code: string, line: number, column: number): void {
    const walker = beginScript(this.scripts, { line, column });
    walker.lexer.write(Buffer.from(code));
    walker.lexer.end();
  }

  /**
   * The page an `<iframe srcdoc>` holds: a document of its own (its scripts share nothing with this
   * page's), read with positions from the attribute's start (character references in it shift them).
   */
  private scanDocument(html: string, line: number, column: number): void {
    const nested = new HtmlReader(this.report, this.index, this.file, this.context, { line, column }, this.templates > 0);
    nested.write(Buffer.from(html));
    nested.end();
    this.later.push(...nested.later);
  }

  private scanStyle(css: string, line: number, column: number): void {
    const reader = new CssReader(this.report, this.index, this.file, { line, column });
    reader.write(Buffer.from(css));
    reader.end();
  }
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

export const htmlScanner: ContentScanner = {
  name: 'html',
  accepts: (entry) => extensionOf(entry.path) === '.html',
  begin: (entry: BundleEntry, context: ScanContext): ScanSession => {
    const report = new FileReport(entry.path);
    const reader = new HtmlReader(report, bundleIndex(context.files), entry.path, context);
    return {
      write: (chunk) => reader.write(chunk),
      end: (): ScanOutput => {
        reader.end();
        const output = report.finish();
        if (reader.later.length > 0) output.later = joinLater(output.later, async () => (await Promise.all(reader.later.map((settle) => settle()))).flat());
        return output;
      },
    };
  },
};
