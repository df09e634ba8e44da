import { Option, type Command } from 'commander';
import type { CommandContext } from '../../main.js';

export interface InitFlags {
  type?: string;
  name?: string;
  shortName?: string;
  description?: string;
  version?: string;
  yes: boolean;
  force: boolean;
  pipelineTool?: string;
  template?: string;
}

export function registerInit(program: Command, context: CommandContext): void {
  // `init --version 1.2.0` names the new tool's version. Without positional options the program
  // would take that flag as its own `--version` and print pipeline-tool's version instead.
  // Program options (-v, -h) still work before the command name.
  program.enablePositionalOptions();

  program
    .command('init')
    .description('create a new tool project that passes validate and pack from the start')
    .argument('[dir]', 'folder for the project (asked for on a terminal; my-tool with --yes)')
    // Listed here rather than imported, so that loading the CLI never loads the rules.
    .addOption(new Option('--type <type>', 'kind of tool').choices(['standalone', 'quoting_extension']))
    .addOption(new Option('--template <name>', 'what the tool is built with: vanilla (HTML, CSS and JavaScript, no build step; the default), react or vue (TypeScript and Vite)').choices(['vanilla', 'react', 'vue']))
    .option('--name <name>', 'full display name for the marketplace listing')
    .option('--short-name <name>', 'short name for tab labels, 24 characters at most')
    .option('--description <sentence>', 'one sentence saying what the tool does')
    .option('--version <semver>', "the tool's own version (offered at the prompt and taken with --yes: 1.0.0)")
    .option('-y, --yes', 'never ask: use defaults for whatever is not given', false)
    .option('--force', 'add to a folder that is not empty; existing files are kept, never overwritten', false)
    .option(
      '--pipeline-tool <spec>',
      "where the project's npm install gets pipeline-tool: a version range, a folder or .tgz path, a git URL (default: ^<version> when this copy came from the npm registry, else this copy packed into the project's vendor/ folder)",
    )
    .addHelpText(
      'after',
      `
Examples:
  $ pipeline-tool init                      asks for what it needs (on a terminal)
  $ pipeline-tool init my-tool --yes        a standalone tool, defaults for everything not given
  $ pipeline-tool init estimator --type quoting_extension --name "Kitchen Estimator" --short-name Kitchen --yes
  $ pipeline-tool init desk --template react --yes   React, TypeScript and Vite (or --template vue)
  $ pipeline-tool init crm-panel --yes --pipeline-tool ^0.1.0   install pipeline-tool from the npm registry

Without a terminal (CI) nothing is asked: give every value as a flag, or add --yes.
Exit codes: 0 created, 2 could not create (bad input, folder not empty, no terminal to ask on).`,
    )
    .action(async (dir: string | undefined, flags: InitFlags) => {
      const { runInit } = await import('./run.js');
      context.setExitCode(await runInit(dir, flags, context.io));
    });
}
