import { Option, type Command } from 'commander';
import type { CommandContext } from '../../main.js';

export function registerRules(program: Command, context: CommandContext): void {
  program
    .command('rules')
    .description('list every rule validate applies, with its id and default severity')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (flags: { format: 'text' | 'json' }) => {
      const { rules } = await import('../../../core/rules/index.js');
      if (flags.format === 'json') {
        const list = rules.map(({ id, severity, description }) => ({ id, severity, description }));
        context.io.stdout(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      const width = Math.max(...rules.map((r) => r.id.length));
      for (const rule of rules) context.io.stdout(`${rule.id.padEnd(width)}  ${rule.severity.padEnd(7)}  ${rule.description}\n`);
    });
}
