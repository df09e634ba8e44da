import { FileReport } from '../code/file-report.js';
import type { DisableDirective } from '../code/scanner.js';
import { codePointColumn, lineStartsOf } from './source-placer.js';

const DIRECTIVE = 'pipeline-tool-disable-next-line';

/** Comment openers, with what closes each: `//` ends at the line's end. */
const CLOSERS: Record<string, string | undefined> = { '//': undefined, '/*': '*/', '<!--': '-->' };
const OPENER = /(\/\/|\/\*|<!--)[\s*{]*$/;

/**
 * The `pipeline-tool-disable-next-line` comments of an original source file (TypeScript, JSX, a Vue
 * component, a stylesheet), whose language pipeline-tool does not parse: a directive is read
 * where it follows a comment opener (`//`, `/*`, `<!--`, JSX's `{/*`) on its line, and silences the
 * line after the comment's end, with the same wording rules as in the bundle's own files.
 */
export function sourceDirectives(text: string, file: string): DisableDirective[] {
  if (!text.includes(DIRECTIVE)) return [];
  const report = new FileReport(file);
  const starts = lineStartsOf(text);
  const lineAt = (offset: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  for (let at = text.indexOf(DIRECTIVE); at >= 0; at = text.indexOf(DIRECTIVE, at + DIRECTIVE.length)) {
    const line = lineAt(at);
    const lineStart = starts[line]!;
    const opener = OPENER.exec(text.slice(lineStart, at));
    if (!opener) continue;
    const closer = CLOSERS[opener[1]!];
    const lineEnd = line + 1 < starts.length ? starts[line + 1]! : text.length;
    // A line comment ends with its line; a block comment where it closes (or, unclosed, at the end).
    const blockEnd = closer ? text.indexOf(closer, at) : -1;
    const end = closer ? (blockEnd < 0 ? text.length : blockEnd) : lineEnd;
    const openAt = lineStart + opener.index;
    const body = text.slice(openAt + opener[1]!.length, end).replace(/[\r\n]+$/, '');
    const endLine = closer ? lineAt(end) : line;
    report.comment(body, line + 1, codePointColumn(text.slice(lineStart, lineEnd), openAt - lineStart), endLine + 1);
  }
  return report.finish().directives;
}
