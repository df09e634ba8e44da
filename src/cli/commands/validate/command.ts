import { Option, type Command } from 'commander';
import { parseCount } from '../../errors.js';
import { formatNames } from '../../formatters/names.js';
import type { CommandContext } from '../../main.js';
import { configOption } from '../../config-flag.js';
import { ruleOption } from '../../rule-flags.js';

export interface ValidateFlags {
  format: string;
  maxWarnings?: number;
  quiet: boolean;
  verbose: boolean;
  rule: string[];
  config?: string;
  printConfig?: string;
}

export function registerValidate(program: Command, context: CommandContext): void {
  program
    .command('validate')
    .description('check a bundle (.zip) or a tool folder against the marketplace rules')
    .argument('[bundle]', 'a .zip bundle or a tool folder (default: the project file\'s "source", else the current folder)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(formatNames).default('text'))
    .option('--max-warnings <count>', 'exit 1 when there are more warnings than this', parseCount('--max-warnings'))
    .option('-q, --quiet', 'report errors only', false)
    .option('--verbose', 'list every warning in library code (vendored or minified files), which text output otherwise sums up per file', false)
    .addOption(ruleOption())
    .addOption(configOption())
    .option('--print-config <file>', 'print the rule settings that apply to one file of the tool, as JSON, and check nothing')
    .addHelpText(
      'after',
      `
Examples:
  $ pipeline-tool validate                  the tool folder named in pipeline-tool.config.json
  $ pipeline-tool validate estimator-1.2.0.zip
  $ pipeline-tool validate ./estimator --format json
  $ pipeline-tool validate bundle.zip --format github --max-warnings 0
  $ pipeline-tool validate --format sarif > pipeline-tool.sarif   for code scanning
  $ pipeline-tool validate bundle.zip --rule manifest-description=off
  $ pipeline-tool validate --print-config src/vendor/katex.css

Exit codes: 0 clean, 1 problems found (errors, or more warnings than --max-warnings;
a broken or hostile archive counts), 2 could not run.
List every rule with: pipeline-tool rules; explain one with: pipeline-tool rules <id>`,
    )
    .action(async (bundle: string | undefined, flags: ValidateFlags) => {
      const { runValidate } = await import('./run.js');
      context.setExitCode(await runValidate(bundle, flags, context.io));
    });
}
