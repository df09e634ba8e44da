/*
 * Library code: files a tool ships as someone else wrote them (a vendored jQuery, a minified chart
 * library). Their findings are real, but most need nothing from the author, and dozens of them can
 * hide the one that matters in the author's own code; so problems in such a file carry a mark, and
 * the text output sums up its warnings. A file is library code when:
 *
 * - it sits in a folder named for vendored code, at any level: vendor, vendors, third_party,
 *   third-party, thirdparty, node_modules, bower_components, web_modules (not lib/ or libs/, where
 *   authors keep helpers of their own just as often);
 * - its name ends in .min.js or .min.css;
 * - it begins (after white space and an @charset rule) with a licence banner as library builds keep
 *   them: a comment opening with `/*!`, or one holding `@license` or `@preserve`; webpack's own
 *   `/*! For license information please see …` (which heads the author's bundle) is not one;
 * - or its first kilobyte holds a UMD wrapper (`typeof exports` and `define.amd`), the shape in
 *   which libraries are distributed and tools are not.
 */

const LIBRARY_FOLDERS = new Set(['vendor', 'vendors', 'third_party', 'third-party', 'thirdparty', 'node_modules', 'bower_components', 'web_modules']);
const MINIFIED_NAME = /\.min\.(js|css)$/i;

/** True when a file's path alone says it is library code. */
export function isLibraryPath(path: string): boolean {
  if (MINIFIED_NAME.test(path)) return true;
  const folders = path.split('/').slice(0, -1);
  return folders.some((folder) => LIBRARY_FOLDERS.has(folder.toLowerCase()));
}

/** Bytes looked at for a banner or a UMD wrapper. */
const HEAD_BYTES = 1024;

const LEADING = /^(?:\ufeff)?\s*(?:@charset\s+"[^"]*"\s*;\s*)?/;
const WEBPACK_NOTICE = /^\/\*!\s*For license information please see/;

/** True when a file's first bytes say it is library code (a licence banner, a UMD wrapper). */
export function isLibraryHead(head: string): boolean {
  const text = head.slice(LEADING.exec(head)?.[0].length ?? 0);
  if (text.startsWith('/*')) {
    const end = text.indexOf('*/');
    const comment = end < 0 ? text : text.slice(0, end);
    if (comment.startsWith('/*!')) return !WEBPACK_NOTICE.test(comment);
    if (/@license\b|@preserve\b/.test(comment)) return true;
  }
  return head.includes('define.amd') && /typeof\s*exports\b/.test(head);
}

/** Collects the first kilobyte of a file from its chunks, copying no more than that. */
export class LibraryHead {
  private readonly parts: Buffer[] = [];
  private size = 0;

  get full(): boolean {
    return this.size >= HEAD_BYTES;
  }

  write(chunk: Buffer): void {
    if (this.size >= HEAD_BYTES) return;
    const part = chunk.subarray(0, HEAD_BYTES - this.size);
    this.parts.push(Buffer.from(part));
    this.size += part.length;
  }

  isLibrary(): boolean {
    return isLibraryHead(Buffer.concat(this.parts).toString('utf8'));
  }
}
