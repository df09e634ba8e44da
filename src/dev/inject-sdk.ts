/*
 * Puts the SDK's <script> tag into a tool's HTML ahead of the tool's own scripts, so that the
 * tool's code finds `window.pipeline` from its first line, as it would on the platform. The page
 * is handled as bytes (read as latin1, which maps each byte to one character) so that a file in
 * any encoding comes out unchanged apart from the inserted tag.
 *
 * Finding <head> takes a small tokenizer rather than a search: a `<head>` inside a comment, an
 * attribute value, a template, or the text of a script, style, textarea or title is not a tag,
 * and putting the SDK's tag there would break that text (a string in a script, say).
 *
 * The scan walks the text once, with charCodeAt. Searches and patterns run again at every tag were
 * measured to make a 3 MB page of many small tags take quadratic time; the scan stays linear
 * (test/dev/units.test.ts times such pages).
 */

const BOM = '\u00ef\u00bb\u00bf';

/** Elements whose content the HTML parser reads as text up to their own end tag. */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

const LT = 0x3c; // <
const GT = 0x3e; // >
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const DASH = 0x2d;
const EQUALS = 0x3d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const isAsciiLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** The index of the next character `code` from `from`, or -1. */
function indexOfCode(text: string, code: number, from: number): number {
  for (let i = from; i < text.length; i++) if (text.charCodeAt(i) === code) return i;
  return -1;
}

/** Just past the next `>` from `from`, or the end of the text. */
function pastNextGreaterThan(text: string, from: number): number {
  const at = indexOfCode(text, GT, from);
  return at === -1 ? text.length : at + 1;
}

/** Where the tag name starting at `from` ends, as the HTML parser reads it. */
function endOfTagName(text: string, from: number): number {
  let end = from;
  for (; end < text.length; end++) {
    const c = text.charCodeAt(end);
    if (isSpace(c) || c === SLASH || c === GT) break;
  }
  return end;
}

/** Where a comment whose text starts at `from` ends: `-->`, `--!>`, or the abrupt `<!-->` and `<!--->`. */
function endOfComment(text: string, from: number): number {
  if (text.charCodeAt(from) === GT) return from + 1;
  if (text.charCodeAt(from) === DASH && text.charCodeAt(from + 1) === GT) return from + 2;
  for (let i = from; i + 2 < text.length; i++) {
    if (text.charCodeAt(i) !== DASH || text.charCodeAt(i + 1) !== DASH) continue;
    if (text.charCodeAt(i + 2) === GT) return i + 3;
    if (text.charCodeAt(i + 2) === BANG && text.charCodeAt(i + 3) === GT) return i + 4;
  }
  return text.length;
}

/**
 * Just past the `>` that closes a start tag whose attributes begin at `from`, or -1 when the file
 * ends first. Follows the parser's attribute states, so a `>` inside a quoted value is skipped.
 */
function endOfStartTag(text: string, from: number): number {
  let state: 'between' | 'name' | 'afterName' | 'beforeValue' | 'unquoted' = 'between';
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === GT) return i + 1;
    switch (state) {
      case 'between':
        if (!isSpace(c) && c !== SLASH) state = 'name';
        break;
      case 'name':
      case 'afterName':
        if (c === EQUALS) state = 'beforeValue';
        else if (c === SLASH) state = 'between';
        else if (isSpace(c)) state = 'afterName';
        else state = 'name';
        break;
      case 'beforeValue':
        if (c === QUOTE || c === APOSTROPHE) {
          const close = indexOfCode(text, c, i + 1);
          if (close === -1) return -1;
          i = close;
          state = 'between';
        } else if (!isSpace(c)) {
          state = 'unquoted';
        }
        break;
      case 'unquoted':
        if (isSpace(c)) state = 'between';
        break;
    }
  }
  return -1;
}

/** True when `</name` followed by a space, `/` or `>` starts at `at`, in any letter case. */
function isEndTagOf(text: string, at: number, name: string): boolean {
  if (text.charCodeAt(at) !== LT || text.charCodeAt(at + 1) !== SLASH) return false;
  for (let k = 0; k < name.length; k++) {
    // ASCII letters only: setting bit 0x20 folds upper case onto lower case.
    if ((text.charCodeAt(at + 2 + k) | 0x20) !== name.charCodeAt(k)) return false;
  }
  const after = text.charCodeAt(at + 2 + name.length);
  return isSpace(after) || after === SLASH || after === GT;
}

/** Just past the end tag that closes raw text starting at `from`, or -1 when the text runs to the end. */
function endOfRawText(text: string, name: string, from: number): number {
  for (let at = indexOfCode(text, LT, from); at !== -1; at = indexOfCode(text, LT, at + 1)) {
    if (isEndTagOf(text, at, name)) return pastNextGreaterThan(text, at + 2 + name.length);
  }
  return -1;
}

/** True when the text from `from` to `to` is only spaces. */
function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** True when `<!doctype` starts at `at`, in any letter case. */
function isDoctype(text: string, at: number): boolean {
  return text.slice(at + 2, at + 9).toLowerCase() === 'doctype';
}

interface RootTags {
  /** Where the first real <head> start tag ends, or -1. */
  head: number;
  /** Where the first real <html> start tag ends, or -1. */
  html: number;
  /** Where a doctype with only spaces and comments before it ends, or -1. */
  doctype: number;
}

function findRootTags(text: string): RootTags {
  let html = -1;
  let doctype = -1;
  let templates = 0;
  // Still in the part before any content, where a doctype may stand.
  let prologue = true;
  let at = text.startsWith(BOM) ? BOM.length : 0;
  for (;;) {
    const open = indexOfCode(text, LT, at);
    if (open === -1) break;
    if (prologue && !isBlank(text, at, open)) prologue = false;
    const next = text.charCodeAt(open + 1);
    if (next === BANG && text.charCodeAt(open + 2) === DASH && text.charCodeAt(open + 3) === DASH) {
      at = endOfComment(text, open + 4);
      continue;
    }
    const wasPrologue = prologue;
    prologue = false;
    if (next === BANG || next === QUESTION) {
      // A doctype, CDATA or processing instruction: to the parser, text up to the next `>`.
      at = pastNextGreaterThan(text, open + 2);
      if (wasPrologue && next === BANG && isDoctype(text, open)) doctype = at;
    } else if (next === SLASH) {
      if (templates > 0 && isEndTagOf(text, open, 'template')) templates -= 1;
      at = pastNextGreaterThan(text, open + 2);
    } else if (isAsciiLetter(next)) {
      const nameEnd = endOfTagName(text, open + 1);
      const name = text.slice(open + 1, nameEnd).toLowerCase();
      const end = endOfStartTag(text, nameEnd);
      // A tag the file never closes is dropped by the parser, and nothing after it is markup.
      if (end === -1) break;
      // Inside a template, <head> and <html> belong to a fragment, not to the page.
      if (templates === 0 && name === 'head') return { head: end, html, doctype };
      if (templates === 0 && name === 'html' && html === -1) html = end;
      if (name === 'template') templates += 1;
      if (name === 'plaintext') break;
      at = RAW_TEXT_ELEMENTS.has(name) ? endOfRawText(text, name, end) : end;
      if (at === -1) break;
    } else {
      // A `<` that starts no tag is text.
      at = open + 1;
    }
  }
  return { head: -1, html, doctype };
}

/**
 * Where the SDK tag goes: just inside the first real <head>, else just inside the first real
 * <html>, else after the doctype, else at the very start (after a byte order mark).
 */
export function findInsertPoint(html: string): number {
  const tags = findRootTags(html);
  if (tags.head !== -1) return tags.head;
  if (tags.html !== -1) return tags.html;
  if (tags.doctype !== -1) return tags.doctype;
  return html.startsWith(BOM) ? BOM.length : 0;
}

export function sdkScriptTag(sdkPath: string): string {
  return `<script src="${sdkPath}"></script>`;
}

/**
 * Inserts the SDK's tag, or several tags in the order given (the frame reporter, then the SDK),
 * at the insert point.
 */
export function injectSdkScript(page: Buffer, sdkPath: string | readonly string[]): Buffer {
  const at = findInsertPoint(page.toString('latin1'));
  const tags = (typeof sdkPath === 'string' ? [sdkPath] : sdkPath).map(sdkScriptTag).join('');
  return Buffer.concat([page.subarray(0, at), Buffer.from(tags, 'latin1'), page.subarray(at)]);
}
