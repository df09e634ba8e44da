import { FirstBytes } from '../first-bytes.js';

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
 *   `/*! For license information please see ...` (which heads the author's bundle) is not one;
 * - or its first kilobyte holds a UMD wrapper (`typeof exports` and `define.amd`), the shape in
 *   which libraries are distributed and tools are not.
 *
 * The first kilobyte is kept for every script and stylesheet, but looked at only for a file that
 * has findings.
 */

const LIBRARY_FOLDERS = new Set(['vendor', 'vendors', 'third_party', 'third-party', 'thirdparty', 'node_modules', 'bower_components', 'web_modules']);
const MINIFIED_NAME = /\.min\.(js|css)$/i;

/** True when a file's path alone says it is library code. */
export function isLibraryPath(path: string): boolean {
  if (MINIFIED_NAME.test(path)) return true;
  const folders = path.split('/').slice(0, -1);
  return folders.some((folder) => LIBRARY_FOLDERS.has(folder.toLowerCase()));
}

/** The npm package a path under node_modules/ belongs to (`@scope/name` or `name`), else undefined. */
export function packageOf(path: string): string | undefined {
  const parts = path.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length - 1) return undefined;
  const first = parts[at + 1]!;
  if (!first.startsWith('@')) return first;
  return at + 2 < parts.length - 1 ? `${first}/${parts[at + 2]}` : undefined;
}

/** Bytes looked at for a banner or a UMD wrapper. */
const HEAD_BYTES = 1024;

const WEBPACK_NOTICE = /^\/\*!\s*For license information please see/;
const CHARSET = Buffer.from('@charset');

/** True when a file's first bytes say it is library code (a licence banner, a UMD wrapper). */
export function isLibraryHead(head: Buffer): boolean {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  i = skipSpace(head, i);
  if (head.subarray(i, i + CHARSET.length).equals(CHARSET)) {
    const semicolon = head.indexOf(0x3b, i);
    if (semicolon > 0) i = skipSpace(head, semicolon + 1);
  }
  if (head[i] === 0x2f && head[i + 1] === 0x2a) {
    const end = head.indexOf('*/', i + 2);
    const comment = head.subarray(i, end < 0 ? head.length : end);
    if (comment[2] === 0x21) return !WEBPACK_NOTICE.test(comment.toString('latin1', 0, 64));
    if (comment.includes('@license') || comment.includes('@preserve')) return true;
  }
  return head.includes('define.amd') && head.includes('typeof exports');
}

function skipSpace(bytes: Buffer, from: number): number {
  let i = from;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09 || bytes[i] === 0x0c)) i++;
  return i;
}

/** Keeps a copy of the first kilobyte of a file from its chunks; judged only if the file has findings. */
export class LibraryHead extends FirstBytes {
  constructor() {
    super(HEAD_BYTES);
  }

  /** The judgement, made when first asked. */
  test(): () => boolean {
    let verdict: boolean | undefined;
    return () => (verdict ??= isLibraryHead(this.bytes()));
  }
}
