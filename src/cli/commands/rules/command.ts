import { Option, type Command } from 'commander';
import type { CommandContext } from '../../main.js';

export function registerRules(program: Command, context: CommandContext): void {
  program
    .command('rules')
    .description('list every rule validate applies, with its id, default severity and whether it is locked')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (flags: { format: 'text' | 'json' }) => {
      const { rules } = await import('../../../core/rules/index.js');
      if (flags.format === 'json') {
        const list = rules.map(({ id, severity, locked, description }) => ({ id, severity, locked: locked === true, description }));
        context.io.stdout(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      const width = Math.max(...rules.map((r) => r.id.length));
      for (const rule of rules) {
        context.io.stdout(`${rule.id.padEnd(width)}  ${rule.severity.padEnd(7)}  ${(rule.locked ? 'locked' : '').padEnd(6)}  ${rule.description}\n`);
      }
      context.io.stdout('\nLocked rules are marketplace limits or archive integrity checks: --rule, config files and comments cannot relax them.\n');
    });
}
