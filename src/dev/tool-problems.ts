import { lstat, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { groupDigits } from '../core/format-bytes.js';
import { nearestName } from '../core/nearest.js';
import { describeFileKind } from '../core/regular-file.js';
import type { ReportKind } from './assets/frame-reporter.js';
import { describeMissingEntry } from './tool-manifest.js';
import { placeText } from '../core/place-text.js';

/*
 * What goes wrong inside the tool's frame, said in the host page and in the terminal: what the
 * frame reporter sends (through the host page, POST /__pipeline/report) and the tool's own files
 * it asked for that are not there, which only the server knows.
 */

export type ToolProblemKind = ReportKind | 'missing';

export interface ToolProblem {
  kind: ToolProblemKind;
  message: string;
  /** Relative to the tool folder when the file is the tool's own; else as the browser gave it. */
  file: string | null;
  line: number | null;
  column: number | null;
  /**
   * Where the error happened in the served file, when a source map placed it at the author's source
   * (`file`, `line` and `column` are then the source's, relative to the project's folder).
   */
  built?: { file: string; line: number; column: number };
  /** As `built`, for a file another dev server serves (Vite's module, transformed), which is no build. */
  served?: { file: string; line: number; column: number };
}

const REPORT_KINDS: readonly string[] = ['error', 'rejection', 'console', 'blocked'];
const MAX_MESSAGE = 2000;
const MAX_FILE = 500;

const positiveInteger = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null);

/**
 * Reads a report the host page passes on from the frame: untrusted, since the tool wrote it. The
 * tool's base URL (which holds the random token) becomes a relative path, and the token is
 * removed from anywhere else, so the terminal never shows it. With `frameBase` (the folder of a
 * page framed from another dev server, such as `http://localhost:5173/t/<token>/`), the files
 * below it become relative paths too, without the query a bundler adds (`src/App.tsx?t=17…` is
 * `src/App.tsx`), and the base is removed from messages. Undefined when the body is no report.
 */
export function readToolReport(body: Record<string, unknown>, token: string, frameBase?: string): ToolProblem | undefined {
  const { kind, message, file, line, column } = body;
  if (typeof kind !== 'string' || !REPORT_KINDS.includes(kind) || typeof message !== 'string') return undefined;
  if (file !== null && file !== undefined && typeof file !== 'string') return undefined;
  // The tool's files are served at http://<any name the host answers to>:<port>/t/<token>/.
  const toolUrl = new RegExp(`https?://[^\\s/]+/t/${token.replace(/[^A-Za-z0-9_-]/g, '')}/`, 'g');
  const unframed = (text: string) => (frameBase === undefined ? text : text.split(frameBase).join(''));
  const hide = (text: string) => unframed(text.replace(toolUrl, '')).split(token).join('…');
  const framed = (text: string) => (frameBase !== undefined && text.startsWith(frameBase) ? text.slice(frameBase.length).replace(/[?#].*$/s, '') : text);
  return {
    kind: kind as ReportKind,
    message: hide(message.slice(0, MAX_MESSAGE)),
    file: typeof file === 'string' && file !== '' ? hide(framed(file.slice(0, MAX_FILE))) : null,
    line: positiveInteger(line),
    column: positiveInteger(column),
  };
}

/**
 * The version of the page's code a report names (new at each load of the page and each hot update,
 * as the frame reporter counts them), or undefined when it names none that can be used.
 */
export function reportVersion(body: Record<string, unknown>): string | undefined {
  const { version } = body;
  return typeof version === 'string' && version !== '' && version.length <= MAX_VERSION ? version : undefined;
}

const MAX_VERSION = 100;

const LABELS: Record<ToolProblemKind, string> = {
  error: 'uncaught error',
  rejection: 'unhandled rejection',
  console: 'console.error',
  blocked: 'blocked by the sandbox',
  missing: 'file not found (404)',
};

/**
 * Text from the tool made safe for a terminal: control characters (escape sequences could recolour
 * or rewrite the log) become `\u…`, and a line break indents the next line, so that no text of the
 * tool can pass for a line of the log.
 */
function printable(text: string): string {
  return text
    .replace(/\r?\n/g, '\n    ')
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * One line for the terminal: `tool: uncaught error at app.js:3:5: TypeError: …`; a place found
 * through a source map also names the built file's: `at src/App.tsx:12:5 (built: assets/index.js:1:4821)`,
 * or the served module's: `(served: src/App.tsx:26:9)`.
 */
export function describeToolProblem(problem: ToolProblem): string {
  const place = problem.file === null ? '' : ` at ${placeText(problem.file, problem.line, problem.column)}`;
  const at = (label: string, where: { file: string; line: number; column: number } | undefined) => (where ? ` (${label}: ${placeText(where.file, where.line, where.column)})` : '');
  const built = at('built', problem.built) || at('served', problem.served);
  return printable(`tool: ${LABELS[problem.kind]}${place}${built}: ${problem.message}`);
}

/** What to say about a missing file: the entry page gets its own words, others a "did you mean". */
export async function describeMissingFile(realRoot: string, file: string, entry: string): Promise<string> {
  if (file === entry) return (await describeMissingEntry(realRoot, entry)) ?? `${file} is not in the folder.`;
  const parts = file.split('/');
  const info = await lstat(path.join(realRoot, ...parts)).catch(() => undefined);
  if (info !== undefined && !info.isFile() && !info.isDirectory() && !info.isSymbolicLink()) {
    return `The tool asked for ${file}, which is ${describeFileKind(info)}, not a regular file; only regular files are served.`;
  }
  // The name is there, but was not served: a link whose target lies outside the tool folder.
  if (info?.isSymbolicLink()) {
    const target = await stat(path.join(realRoot, ...parts)).catch(() => undefined);
    return target === undefined
      ? `The tool asked for ${file}, a link to a file that does not exist.`
      : `The tool asked for ${file}, a link that leads out of the tool folder; only files inside it are served. Copy the file into the folder.`;
  }
  const name = parts.pop() ?? '';
  const folder = parts.join('/');
  const siblings = await readdir(path.join(realRoot, ...parts)).catch(() => undefined);
  // Never the asked name itself: it is there only in a form that is not served.
  const guess = siblings === undefined ? undefined : nearestName(name, siblings.filter((sibling) => !sibling.startsWith('.') && sibling !== name));
  const hint = siblings === undefined ? ` There is no folder ${folder}/.` : guess === undefined ? '' : ` Did you mean ${folder === '' ? guess : `${folder}/${guess}`}?`;
  return `The tool asked for ${file}, which is not in the folder.${hint}`;
}

/** How long the same missing file is not logged again: a tool polling for it must not flood the terminal. */
const REPEAT_MS = 2_000;

/**
 * Tells of each missing file of the tool and gives the 404's text. Every one goes to the page
 * (whose box empties at each reload, so a reload must show it again); the terminal hears of the
 * same path at most once every two seconds.
 */
export function createMissingFileReporter(options: {
  realRoot: string;
  entry: () => string;
  show: (problem: ToolProblem) => void;
  log: (problem: ToolProblem) => void;
}): (file: string) => Promise<string> {
  const lastLogged = new Map<string, number>();
  return async (file) => {
    const message = await describeMissingFile(options.realRoot, file, options.entry());
    const problem: ToolProblem = { kind: 'missing', message, file, line: null, column: null };
    options.show(problem);
    const now = Date.now();
    if ((lastLogged.get(file) ?? -Infinity) + REPEAT_MS <= now) {
      if (lastLogged.size > 1000) lastLogged.clear();
      lastLogged.set(file, now);
      options.log(problem);
    }
    return message;
  };
}

/** Reports of the running tool printed per second at most; the rest are counted. */
export const REPORTS_PER_SECOND = 20;

/**
 * The terminal's share of the tool's reports: at most {@link REPORTS_PER_SECOND} in any one second
 * (a window that starts at its first report); past that they are counted, and the first report of
 * a later window is preceded by one line saying how many were not printed. A tool that throws in
 * a loop cannot fill the terminal (20,000 reports wrote 40 MB), and the page still shows each.
 */
export function createReportLimiter(print: (level: 'warning' | 'error', message: string) => void, now: () => number = Date.now): (level: 'warning' | 'error', message: string) => void {
  let windowStart = -Infinity;
  let printed = 0;
  let dropped = 0;
  let flushLater: NodeJS.Timeout | undefined;
  const flush = () => {
    clearTimeout(flushLater);
    flushLater = undefined;
    if (dropped > 0) print('warning', `tool: ${groupDigits(dropped)} more ${dropped === 1 ? 'report was' : 'reports were'} not printed (at most ${REPORTS_PER_SECOND} a second); the host page lists them.`);
    dropped = 0;
  };
  return (level, message) => {
    const time = now();
    if (time - windowStart >= 1_000) {
      flush();
      windowStart = time;
      printed = 0;
    }
    if (printed < REPORTS_PER_SECOND) {
      printed++;
      print(level, message);
      return;
    }
    dropped++;
    // Said at the window's end even when no report follows; the timer never keeps dev running.
    flushLater ??= setTimeout(flush, Math.max(0, windowStart + 1_000 - time)).unref();
  };
}
