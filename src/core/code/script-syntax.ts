import type { Finding } from '../problem.js';
import { checkClassic, checkInWorker, decodeScript, meansModule, type SyntaxProblem, type SyntaxResult } from './js-syntax.js';
import type { BundleFacts } from './js-rule.js';
import { JS_SYNTAX } from './rule-ids.js';

/*
 * The js-syntax rule's work for one script. A script is parsed where it is cheap: a small classic
 * one here, at once; a module, or a script large enough that parsing it would hold up reading the
 * rest of the bundle, in the syntax worker, while reading goes on. Whether a .js file is a module
 * is known only once every page has been read (`<script type="module" src>`, an import from
 * another module), so the choice between its two parses is made then.
 */

/**
 * Scripts up to this size are parsed in the reading thread, until the scripts of the bundle parsed
 * there reach IN_PROCESS_TOTAL: a small tool never starts the worker, and a large bundle's scripts
 * are parsed on the other core while the reading thread inflates and scans.
 */
export const IN_PROCESS_LIMIT = 256 * 1024;
export const IN_PROCESS_TOTAL = 1024 * 1024;

/**
 * A minifier's output of this size or more is not parsed: the minifier has parsed it already, and
 * parsing the megabytes of minified libraries a large bundle ships would take V8 longer than
 * everything else validate does. Minified means lines of more than MINIFIED_LINE bytes on average.
 */
export const MINIFIED_SIZE = 128 * 1024;
const MINIFIED_LINE = 1000;

/** True for a large file of very long lines: a minified build (see MINIFIED_SIZE). */
export function isMinifiedBuild(chunks: readonly Uint8Array[]): boolean {
  let size = 0;
  let lines = 1;
  for (const chunk of chunks) {
    size += chunk.length;
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) lines++;
  }
  return size >= MINIFIED_SIZE && size / lines > MINIFIED_LINE;
}

/** Bytes parsed in the reading thread, per bundle (its file list). */
const parsedHere = new WeakMap<object, number>();

export interface ScriptOrigin {
  line: number;
  column: number;
}

/** How a script is loaded: known for inline scripts, looked up in the bundle's facts for files. */
export type ScriptKind = 'classic' | 'module' | { file: string; facts: BundleFacts };

/** Starts checking a script's bytes (the caller's own copy); the returned function gives the findings. */
export function checkScript(bytes: Uint8Array, kind: ScriptKind, file: string, origin: ScriptOrigin = { line: 1, column: 1 }): () => Promise<Finding[]> {
  // A page or module read earlier may already say how the file is loaded.
  const pending = parse(bytes, typeof kind === 'string' ? kind : (kind.facts.scriptModes.get(kind.file) ?? kind), typeof kind === 'string' ? undefined : kind.facts);
  return async () => {
    const result = await pending;
    const problem = pick(result, typeof kind === 'string' ? kind : kind.facts.scriptModes.get(kind.file));
    if (!problem) return [];
    const finding: Finding = { ruleId: JS_SYNTAX, file, data: { message: problem.message } };
    if (problem.line !== undefined) {
      finding.line = problem.line + origin.line - 1;
      if (problem.column !== undefined) finding.column = problem.line === 1 ? problem.column + origin.column - 1 : problem.column;
    }
    return [finding];
  };
}

function parse(bytes: Uint8Array, kind: ScriptKind, facts: BundleFacts | undefined): Promise<SyntaxResult> {
  if (kind === 'module') return checkInWorker(bytes, 'module');
  const here = facts ? (parsedHere.get(facts) ?? 0) : 0;
  if (bytes.length > IN_PROCESS_LIMIT || here + bytes.length > IN_PROCESS_TOTAL) return checkInWorker(bytes, kind === 'classic' ? 'script' : 'auto');
  if (facts) parsedHere.set(facts, here + bytes.length);
  const script = checkClassic(decodeScript(bytes));
  // A file that may be a module is parsed as one too when its error says it is one.
  if (kind !== 'classic' && script && meansModule(script)) {
    return checkInWorker(bytes, 'module').then((result) => ({ script, module: result.module }));
  }
  return Promise.resolve({ script });
}

/** The error the browser would report, given how the script is loaded (undefined: not known). */
function pick(result: SyntaxResult, mode: 'classic' | 'module' | undefined): SyntaxProblem | null | undefined {
  if (mode === 'classic') return result.script;
  if (mode === 'module') return result.module !== undefined ? result.module : result.script;
  // Loaded some other way (a worker, a dynamic script element): whichever way parses is taken.
  if (!result.script) return null;
  return result.module !== undefined ? result.module : result.script;
}
