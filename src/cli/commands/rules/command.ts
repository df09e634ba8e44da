import { Option, type Command } from 'commander';
import { unknownRuleMessage } from '../../../core/nearest.js';
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../../main.js';
import { explainRule } from '../../../core/rule-docs.js';

export function registerRules(program: Command, context: CommandContext): void {
  program
    .command('rules')
    .description('list every rule validate applies, or explain one: what it catches, why, how to fix it, whether it is locked')
    .argument('[id]', 'the rule to explain')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addHelpText(
      'after',
      `
Examples:
  $ pipeline-tool rules                   every rule, with its severity and whether it is locked
  $ pipeline-tool rules unsafe-html       what it catches, why, and how to fix it
  $ pipeline-tool rules --format json`,
    )
    .action(async (id: string | undefined, flags: { format: 'text' | 'json' }) => {
      const { rules } = await import('../../../core/rules/index.js');
      const asJson = (rule: (typeof rules)[number]) => ({
        id: rule.id,
        severity: rule.severity,
        locked: rule.locked === true,
        description: rule.description,
        why: rule.why,
        fix: rule.fix,
      });
      if (id !== undefined) {
        const rule = rules.find((r) => r.id === id);
        if (!rule) throw new UsageError(unknownRuleMessage(id, rules.map((r) => r.id)));
        context.io.stdout(flags.format === 'json' ? `${JSON.stringify(asJson(rule), null, 2)}\n` : explainRule(rule));
        return;
      }
      if (flags.format === 'json') {
        context.io.stdout(`${JSON.stringify(rules.map(asJson), null, 2)}\n`);
        return;
      }
      const width = Math.max(...rules.map((r) => r.id.length));
      for (const rule of rules) {
        context.io.stdout(`${rule.id.padEnd(width)}  ${rule.severity.padEnd(7)}  ${(rule.locked ? 'locked' : '').padEnd(6)}  ${rule.description}\n`);
      }
      context.io.stdout(
        '\nLocked rules are marketplace limits or archive integrity checks: --rule, config files and comments cannot relax them.\n' +
          'Explain one rule with: pipeline-tool rules <id>\n',
      );
    });
}
