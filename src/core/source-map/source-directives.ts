import { FileReport } from '../code/file-report.js';
import type { DisableDirective } from '../code/scanner.js';
import { codePointColumn, lineStartsOf } from './source-placer.js';

const DIRECTIVE = 'pipeline-tool-disable-next-line';

/** Comment openers, with what closes each: a line comment ends with its line. */
const OPENERS: ReadonlyArray<[string, string | undefined]> = [
  ['//', undefined],
  ['/*', '*/'],
  ['<!--', '-->'],
];

/**
 * The `pipeline-tool-disable-next-line` comments of an original source file (TypeScript, JSX, a Vue
 * component, a stylesheet), whose language pipeline-tool does not parse. A directive is read where
 * it starts a comment: after `//` on its line, or after `/*` or `<!--` with only white space,
 * stars and JSX's `{` between (a JSDoc block may put the opener on the line above). It silences
 * the line after the comment's end, with the same wording rules as in the bundle's own files.
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
    // Back over what may stand between an opener and the directive, to the nearest opener.
    let before = at;
    let found = OPENERS.find(([opener]) => text.endsWith(opener, before));
    while (!found && before > 0 && /[\s*{]/.test(text[before - 1]!)) {
      before--;
      found = OPENERS.find(([opener]) => text.endsWith(opener, before));
    }
    if (!found) continue;
    const [opener, closer] = found;
    const openAt = before - opener.length;
    const line = lineAt(openAt);
    // A line comment cannot reach the next line.
    if (closer === undefined && lineAt(at) !== line) continue;
    const lineEnd = line + 1 < starts.length ? starts[line + 1]! : text.length;
    const blockEnd = closer === undefined ? -1 : text.indexOf(closer, at);
    const end = closer === undefined ? lineEnd : blockEnd < 0 ? text.length : blockEnd;
    const body = text.slice(openAt + opener.length, end).replace(/[\r\n]+$/, '');
    const endLine = closer === undefined ? line : lineAt(end);
    report.comment(body, line + 1, codePointColumn(text.slice(starts[line]!, lineEnd), openAt - starts[line]!), endLine + 1);
  }
  return report.finish().directives;
}

/** The lines the directives silence, by `line:file`, with the rules silenced there (or all). */
export function silencedLines(directives: readonly DisableDirective[]): Map<string, 'all' | Set<string>> {
  const silenced = new Map<string, 'all' | Set<string>>();
  for (const directive of directives) {
    const key = `${directive.target}:${directive.file}`;
    const current = silenced.get(key);
    if (directive.ruleIds.length === 0 || current === 'all') silenced.set(key, 'all');
    else silenced.set(key, new Set([...(current ?? []), ...directive.ruleIds]));
  }
  return silenced;
}
