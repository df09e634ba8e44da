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

/** Scripts up to this size are parsed in the reading thread. */
export const IN_PROCESS_LIMIT = 256 * 1024;

export interface ScriptOrigin {
  line: number;
  column: number;
}

/** How a script is loaded: known for inline scripts, looked up in the bundle's facts for files. */
export type ScriptKind = 'classic' | 'module' | { file: string; facts: BundleFacts };

/** Starts checking a script's bytes (the caller's own copy); the returned function gives the findings. */
export function checkScript(bytes: Uint8Array, kind: ScriptKind, file: string, origin: ScriptOrigin = { line: 1, column: 1 }): () => Promise<Finding[]> {
  // A page or module read earlier may already say how the file is loaded.
  const pending = parse(bytes, typeof kind === 'string' ? kind : (kind.facts.scriptModes.get(kind.file) ?? kind));
  return async () => {
    const result = await pending;
    const problem = pick(result, typeof kind === 'string' ? kind : kind.facts.scriptModes.get(kind.file));
    if (!problem) return [];
    const line = problem.line + origin.line - 1;
    const column = problem.column === undefined ? undefined : problem.line === 1 ? problem.column + origin.column - 1 : problem.column;
    const finding: Finding = { ruleId: JS_SYNTAX, file, line, data: { message: problem.message } };
    if (column !== undefined) finding.column = column;
    return [finding];
  };
}

function parse(bytes: Uint8Array, kind: ScriptKind): Promise<SyntaxResult> {
  if (kind === 'module') return checkInWorker(bytes, 'module');
  if (bytes.length > IN_PROCESS_LIMIT) return checkInWorker(bytes, kind === 'classic' ? 'script' : 'auto');
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
