import { isLibraryPath } from '../core/code/library.js';
import { BROWSER_STORAGE } from '../core/code/rule-ids.js';
import type { ToolProblem } from './tool-problems.js';

/*
 * The sandbox's own errors: in the platform's frame (an opaque origin) reading localStorage,
 * sessionStorage, indexedDB or document.cookie throws a SecurityError. Chromium leaves the frame
 * that touched storage out of the error's stack, so the place it gives is the caller's: in a
 * React effect or a Vue setup, the framework's code. The code rules know where the tool uses
 * storage (the findings panel's browser-storage findings, checked as served or in the folder), so
 * that is where such an error is placed; where they cannot tell, the message says so plainly.
 */

/** A place in a file, as a finding has it. */
export interface FoundPlace {
  ruleId: string;
  file?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  data?: Record<string, unknown> | undefined;
}

const STORAGE_ERROR = /SecurityError\b.*'(localStorage|sessionStorage|indexedDB|cookie)'/s;

/** The storage API a sandbox SecurityError is about (`localStorage`, `document.cookie`…), or undefined for any other error. */
export function storageApiOf(message: string): string | undefined {
  const name = STORAGE_ERROR.exec(message)?.[1];
  return name === undefined ? undefined : name === 'cookie' ? 'document.cookie' : name;
}

const placeOf = (where: { file?: string | null | undefined; line?: number | null | undefined; column?: number | null | undefined }) =>
  `${where.file ?? ''}${where.line ? `:${where.line}${where.column ? `:${where.column}` : ''}` : ''}`;

/**
 * A storage SecurityError placed at the author's use of that storage, from the code rules' findings
 * (`found`): at the browser's place when a use is there, else at the one use of that API in the
 * caller's file or in the tool; with several, the message lists them. Any other problem is returned as it is.
 */
export function placeStorageError(problem: ToolProblem, found: readonly FoundPlace[]): ToolProblem {
  const api = storageApiOf(problem.message);
  if (api === undefined || (problem.kind !== 'error' && problem.kind !== 'rejection')) return problem;
  const uses = found.filter(
    (finding) =>
      finding.ruleId === BROWSER_STORAGE &&
      finding.file !== undefined &&
      !isLibraryPath(finding.file) &&
      typeof finding.data?.['api'] === 'string' &&
      (finding.data['api'] === api || finding.data['api'].endsWith(`.${api}`)),
  );
  if (uses.some((use) => use.file === problem.file && use.line === problem.line)) return problem;
  const inCaller = uses.filter((use) => use.file === problem.file);
  const candidates = inCaller.length > 0 ? inCaller : uses;
  const authorsPlace = problem.file !== null && !isLibraryPath(problem.file);
  if (candidates.length === 1) {
    const use = candidates[0]!;
    return {
      ...unplaced(problem),
      file: use.file ?? null,
      line: use.line ?? null,
      column: use.column ?? null,
      message: `${problem.message} (The browser names only the code that called it${authorsPlace ? `, ${placeOf(problem)}` : ''}; this is where the tool uses ${api}.)`,
    };
  }
  if (candidates.length > 1) {
    const listed = candidates.slice(0, 3).map(placeOf).join(', ');
    const more = candidates.length > 3 ? ` and ${candidates.length - 3} more` : '';
    return { ...(authorsPlace ? problem : unplaced(problem)), message: `${problem.message} (The browser names only the code that called it; the tool uses ${api} at ${listed}${more}.)` };
  }
  if (authorsPlace) return problem;
  return {
    ...unplaced(problem),
    message: `${problem.message} (The browser gives no place in the tool's own code for it, only the framework's code that ran it; look for ${api} in the code that runs then.)`,
  };
}

/** The problem with no place: the one the browser gave is the framework's, which says nothing to the author. */
function unplaced(problem: ToolProblem): ToolProblem {
  const { built: _built, served: _served, ...rest } = problem;
  return { ...rest, file: null, line: null, column: null };
}
