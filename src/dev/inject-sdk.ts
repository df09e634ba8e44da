/*
 * Puts the SDK's <script> tag into a tool's HTML ahead of the tool's own scripts, so that the
 * tool's code finds `window.pipeline` from its first line, as it would on the platform. The page
 * is handled as bytes (read as latin1, which maps each byte to one character) so that a file in
 * any encoding comes out unchanged apart from the inserted tag.
 */

/** Comments are skipped so that a `<head>` mentioned in one is not taken for the real one. */
const HEAD_OR_COMMENT = /<!--[\s\S]*?(?:-->|$)|<head(?=[\s>/])[^>]*>/gi;
const HTML_OR_COMMENT = /<!--[\s\S]*?(?:-->|$)|<html(?=[\s>/])[^>]*>/gi;
const DOCTYPE = /^\s*(?:<!--[\s\S]*?-->\s*)*<!doctype[^>]*>/i;
const BOM = '\u00ef\u00bb\u00bf';

/** Where the first real (not commented) match of `pattern` ends, or -1. */
function endOfFirstTag(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (!match[0].startsWith('<!--')) return match.index + match[0].length;
  }
  return -1;
}

/** Where the SDK tag goes: just inside <head>, else just inside <html>, else after the doctype. */
export function findInsertPoint(html: string): number {
  const head = endOfFirstTag(html, HEAD_OR_COMMENT);
  if (head !== -1) return head;
  const root = endOfFirstTag(html, HTML_OR_COMMENT);
  if (root !== -1) return root;
  const doctype = DOCTYPE.exec(html);
  if (doctype) return doctype[0].length;
  return html.startsWith(BOM) ? BOM.length : 0;
}

export function sdkScriptTag(sdkPath: string): string {
  return `<script src="${sdkPath}"></script>`;
}

export function injectSdkScript(page: Buffer, sdkPath: string): Buffer {
  const at = findInsertPoint(page.toString('latin1'));
  return Buffer.concat([page.subarray(0, at), Buffer.from(sdkScriptTag(sdkPath), 'latin1'), page.subarray(at)]);
}
