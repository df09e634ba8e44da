import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { reportError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { processIo, type CliIo } from './io.js';
import { registerRules } from './commands/rules/command.js';
import { registerValidate } from './commands/validate/command.js';
import { registerDev } from './commands/dev/command.js';
import { registerPack } from './commands/pack/command.js';
import { registerInit } from './commands/init/command.js';
import { registerVersion } from './commands/version/command.js';

/** What every command's registration gets: where to print, and where to put its exit code. */
export interface CommandContext {
  io: CliIo;
  setExitCode(code: number): void;
}

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Runs the CLI and returns the exit code; it never calls process.exit, so tests can run it
 * in-process. Only commander is loaded up front: each command's implementation is imported when
 * that command runs, which keeps `--version` and `--help` fast.
 */
export async function run(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  let exitCode: number = EXIT.ok;
  const context: CommandContext = { io, setExitCode: (code) => (exitCode = code) };
  const program = new Command('pipeline-tool')
    .description('Scaffold, check, pack and run embedded tools for the Pipeline platform.')
    .version(packageJson.version, '-v, --version', 'print the pipeline-tool version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      outputError: (text, write) => write(text.replace(/^error: /, 'pipeline-tool: ')),
    })
    .exitOverride()
    .addHelpText(
      'after',
      `
Examples:
  $ pipeline-tool init my-tool --type quoting_extension --yes   create a tool that works at once
  $ pipeline-tool dev my-tool                                   run it inside an emulated host
  $ pipeline-tool pack my-tool                                  build my-tool/dist/my-tool-1.0.0.zip
  $ pipeline-tool validate my-tool/dist/my-tool-1.0.0.zip       check a bundle before upload

A folder holding pipeline-tool.config.json is a project: dev, pack and validate act on its
"source" folder (src/), and pack writes into its "out" folder (dist/). Inside a project they
need no path at all. Every command has --help with examples.

Exit codes: 0 clean, 1 problems found, 2 could not run.`,
    );

  registerValidate(program, context);
  registerDev(program, context);
  registerPack(program, context);
  registerInit(program, context);
  registerVersion(program, context);
  registerRules(program, context);

  for (const command of program.commands) command.exitOverride().configureOutput(program.configureOutput());
  try {
    await program.parseAsync([...argv], { from: 'node' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with code 0; any parse error is a usage error.
      return error.exitCode === 0 ? EXIT.ok : EXIT.failure;
    }
    return reportError(error, io);
  }
  return exitCode;
}

export { UsageError };
