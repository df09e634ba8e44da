import path from 'node:path';
import { scanScriptText } from '../core/code/js-scanner.js';
import { UsageError } from '../core/errors.js';
import { rules as registry } from '../core/rules/index.js';
import type { AnyRule } from '../core/rules/rule.js';
import { silencedLines, sourceDirectives } from '../core/source-map/source-directives.js';
import type { TextPosition } from '../core/source-map/text-map.js';
import { UnreadableFileError } from './peers.js';
import { projectOf } from './project.js';
import { scriptsOf } from './scripts.js';

/** One problem, where ESLint shows it: line 1-based, column 0-based in UTF-16 units. */
export interface LintProblem extends TextPosition {
  message: string;
}

/** What the code rules say about one file, worked out once for all of them. */
export interface FileResult {
  byRule: Map<string, LintProblem[]>;
  /** Why the file could not be read, told once (by the first rule to run) rather than by each. */
  unreadable?: { message: string; told: boolean };
}

const byId = new Map<string, AnyRule>(registry.map((rule) => [rule.id, rule]));

/**
 * Runs every code rule over one file as validate runs them over a bundle: the file made JavaScript
 * (scripts.ts), read by the same detectors, each finding placed back in the author's text; then,
 * as validate does, the project file's settings for this file and the file's own
 * `pipeline-tool-disable-next-line` comments. `filename` names the language (`x.vue`,
 * `notes.md/0.ts` under a processor); `physical` is where the file lies, for its project; `cwd` is
 * ESLint's working folder. Never throws: one file that cannot be checked must not end the run.
 */
export function lintFile(text: string, filename: string, physical: string, cwd: string): FileResult {
  const result: FileResult = { byRule: new Map() };
  try {
    const project = projectOf(path.resolve(cwd, physical), cwd);
    const file = path.relative(project.root, path.resolve(cwd, physical)).split(path.sep).join('/');
    const silenced = silencedLines(sourceDirectives(text, file));
    const seen = new Set<string>();
    for (const script of scriptsOf(text, filename)) {
      for (const finding of scanScriptText(script.text, file, project.toolType).findings) {
        const place = script.place(finding.line!, finding.column!);
        if (!place) continue;
        if (project.settings.settingFor(finding.ruleId, file) === 'off') continue;
        const rules = silenced.get(`${place.line}:${file}`);
        if (rules === 'all' || rules?.has(finding.ruleId)) continue;
        const rule = byId.get(finding.ruleId)!;
        const message = rule.message(finding.data, file);
        // A compiler may write one piece of source twice (a Vue template's handler); it is one problem.
        const key = `${finding.ruleId}:${place.line}:${place.column}:${message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        let list = result.byRule.get(finding.ruleId);
        if (!list) result.byRule.set(finding.ruleId, (list = []));
        list.push({ ...place, message });
      }
    }
  } catch (error) {
    const known = error instanceof UnreadableFileError || error instanceof UsageError;
    // Anything else is a fault of pipeline-tool's, said as such rather than as the author's.
    const message = known ? error.message : `pipeline-tool could not check this file, which is a bug in pipeline-tool: ${String((error as Error)?.stack ?? error).split('\n').slice(0, 2).join(' ')}. Please report it, with the file if you can.`;
    result.byRule.clear();
    result.unreadable = { message, told: false };
  }
  return result;
}
