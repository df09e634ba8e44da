import { readFileSync } from 'node:fs';
import { CODE_RULE_IDS } from './code/rule-ids.js';
import type { AnyRule } from './rules/rule.js';

/** `pipeline-tool rules <id>`: one rule, from the same fields as the list and the table of docs/rules.md. */
export function explainRule(rule: AnyRule): string {
  const lock = rule.locked
    ? 'yes: a marketplace limit or archive integrity check; --rule, pipeline-tool.config.json and disable comments cannot turn it off or down'
    : 'no: --rule, pipeline-tool.config.json (also for some files only) and disable comments can turn it off or change its severity';
  const rows: Array<[string, string]> = [
    ['Severity', rule.severity],
    ['Locked', lock],
    ['Catches', rule.description],
    ['Why', rule.why],
    ['Fix', rule.fix],
  ];
  return `${rule.id}\n${rows.map(([label, text]) => `  ${`${label}:`.padEnd(10)}${text}`).join('\n')}\n`;
}

/**
 * A rules table of docs/rules.md, made from the rule definitions (a test keeps the page equal to it).
 * Each row ends with an anchor, `#rule-<id>`, which the SARIF output's help links point at.
 */
export function rulesTable(rules: readonly AnyRule[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = rules.map((rule) => `| \`${rule.id}\` | ${rule.severity}${rule.locked ? ', locked' : ''} | ${cell(rule.description)} | ${cell(rule.fix)} <a id="rule-${rule.id}"></a> |`);
  return ['| id | severity | what it catches | how to fix it |', '|---|---|---|---|', ...rows].join('\n');
}

/** The two tables of docs/rules.md: the code checks (rules whose findings the scanners make) and the others. */
export function rulesPageTables(registry: readonly AnyRule[]): { bundle: string; code: string } {
  const code = new Set(CODE_RULE_IDS);
  return { bundle: rulesTable(registry.filter((rule) => !code.has(rule.id))), code: rulesTable(registry.filter((rule) => code.has(rule.id))) };
}

interface PackageFacts {
  version: string;
  homepage: string;
}

let facts: PackageFacts | undefined;

/** The package's version and home page, read once. */
export function packageFacts(): PackageFacts {
  facts ??= JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as PackageFacts;
  return facts;
}

/**
 * Where a rule is explained (SARIF's help links, the ESLint rules' docs): the anchor its row carries
 * in docs/rules.md, the page as this version of the package ships it. The package has no web site
 * of its own beyond the registry's page, which shows the README alone, so the link goes to the
 * registry's file CDN.
 */
export function ruleHelpUri(ruleId: string): string {
  return `https://unpkg.com/pipeline-tool@${packageFacts().version}/docs/rules.md#rule-${ruleId}`;
}
