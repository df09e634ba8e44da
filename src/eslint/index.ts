import type { ESLint, Linter, Rule } from 'eslint';
import { CODE_RULE_IDS, JS_SYNTAX, JSON_SYNTAX, REFERENCE_INSECURE, REFERENCE_MISSING, REFERENCE_REMOTE, REFERENCE_ROOT_ABSOLUTE, UNKNOWN_DISABLE_DIRECTIVE } from '../core/code/rule-ids.js';
import { packageFacts, ruleHelpUri } from '../core/rule-docs.js';
import { rules as registry } from '../core/rules/index.js';
import type { AnyRule } from '../core/rules/rule.js';
import { lintFile, type FileResult } from './lint-file.js';

/*
 * `pipeline-tool/eslint`: the code rules of `validate` in the author's editor, as an ESLint 9+
 * plugin. It adds a way in, not a second rule set: each ESLint rule hands the file to the detectors
 * validate runs (lint-file.ts) and reports what they find at the author's line and column.
 *
 *   import pipeline from 'pipeline-tool/eslint';
 *   export default [...pipeline.configs.recommended];
 */

/** The rules that read a script on its own; the others need the bundle (its files, its pages, V8's verdict). */
const NOT_PER_FILE = new Set([REFERENCE_MISSING, REFERENCE_ROOT_ABSOLUTE, REFERENCE_INSECURE, REFERENCE_REMOTE, JSON_SYNTAX, JS_SYNTAX, UNKNOWN_DISABLE_DIRECTIVE]);
const codeRules: readonly AnyRule[] = registry.filter((rule) => CODE_RULE_IDS.includes(rule.id) && !NOT_PER_FILE.has(rule.id));

/** Every rule of one file shares one run of the detectors: ESLint gives them one SourceCode. */
const results = new WeakMap<object, FileResult>();

function resultOf(context: Rule.RuleContext): FileResult {
  const source = context.sourceCode;
  let result = results.get(source);
  if (!result) {
    result = lintFile(source.text, context.filename, context.physicalFilename, context.cwd);
    results.set(source, result);
  }
  return result;
}

function eslintRule(rule: AnyRule): Rule.RuleModule {
  return {
    meta: {
      type: 'problem',
      docs: { description: rule.description, recommended: true, url: ruleHelpUri(rule.id) },
      schema: [],
    },
    create(context) {
      return {
        Program() {
          const result = resultOf(context);
          if (result.unreadable) {
            if (!result.unreadable.told) context.report({ loc: { line: 1, column: 0 }, message: result.unreadable.message });
            result.unreadable.told = true;
            return;
          }
          for (const problem of result.byRule.get(rule.id) ?? []) context.report({ loc: { line: problem.line, column: problem.column }, message: problem.message });
        },
      };
    },
  };
}

const rules: Record<string, Rule.RuleModule> = Object.fromEntries(codeRules.map((rule) => [rule.id, eslintRule(rule)]));

const plugin = {
  meta: { name: 'pipeline-tool', version: packageFacts().version },
  rules,
  configs: {} as { recommended: Linter.Config[] },
} satisfies ESLint.Plugin;

/** Every code rule on, at the severity validate gives it. */
plugin.configs.recommended = [
  {
    name: 'pipeline-tool/recommended',
    plugins: { 'pipeline-tool': plugin },
    rules: Object.fromEntries(codeRules.map((rule) => [`pipeline-tool/${rule.id}`, rule.severity === 'error' ? 'error' : 'warn'])),
  },
];

export default plugin;
