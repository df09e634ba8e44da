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
  report?: string | true;
}

export function registerValidate(program: Command, context: CommandContext): void {
  program
    .command('validate')
    .description('check bundles (.zip) or tool folders against the marketplace rules')
    .argument('[bundles...]', 'zips, tool folders, project folders, or folders of zips (default: the project file\'s "source", else the current folder)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(formatNames).default('text'))
    .option('--max-warnings <count>', 'exit 1 when there are more warnings than this', parseCount('--max-warnings'))
    .option('-q, --quiet', 'report errors only', false)
    .option('--verbose', 'list every warning in library code (vendored or minified files), which text output otherwise sums up per file', false)
    .addOption(ruleOption())
    .addOption(configOption())
    .option('--report [file]', 'also write an HTML page of what the bundle is made of (by file, npm package and source) against the limits; default: beside the zip or the folder, <name>.report.html')
    .option('--print-config <file>', 'print the rule settings that apply to one file of the tool, as JSON, and check nothing')
    .addHelpText(
      'after',
      `
Examples:
  $ pipeline-tool validate                  the tool folder named in pipeline-tool.config.json
  $ pipeline-tool validate src --format json
  $ pipeline-tool validate dist/my-tool-1.0.0.zip --format github --max-warnings 0
  $ pipeline-tool validate --format sarif   SARIF 2.1.0 for code scanning (redirect it to a file)
  $ pipeline-tool validate dist/            every zip in the folder, with one summary
  $ pipeline-tool validate src dist/my-tool-1.0.0.zip --rule manifest-description=off
  $ pipeline-tool validate --print-config src/app.js
  $ pipeline-tool validate dist --report    and write dist.report.html beside dist/: where the bytes come from

Several paths are checked in one run: text and github print each report and one line for all,
json prints one document ({ ok, errorCount, warningCount, bundles: [...] }), sarif one log. A folder holding
pipeline-tool.config.json stands for its "source" folder; a folder of zips for its zips.

Exit codes: 0 clean, 1 problems found in any of them (errors, or more warnings in all than
--max-warnings; a broken or hostile archive counts), 2 could not run.
List every rule with: pipeline-tool rules; explain one with: pipeline-tool rules <id>`,
    )
    .action(async (bundles: string[], flags: ValidateFlags) => {
      const { runValidate } = await import('./run.js');
      context.setExitCode(await runValidate(bundles, flags, context.io));
    });
}
