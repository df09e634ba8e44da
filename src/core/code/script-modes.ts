import type { BundleFacts } from './js-rule.js';

/** Records how a script file is loaded; a module load wins over a classic one. */
export function noteScriptMode(facts: BundleFacts, path: string | undefined, mode: 'classic' | 'module'): void {
  if (path !== undefined && facts.scriptModes.get(path) !== 'module') facts.scriptModes.set(path, mode);
}
