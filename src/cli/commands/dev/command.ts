import type { Command } from 'commander';
import { parseCount } from '../../errors.js';
import type { CommandContext } from '../../main.js';
import { configOption } from '../../config-flag.js';

export interface DevFlags {
  port: number;
  host?: string;
  fixtures?: string;
  sdk?: string;
  config?: string;
}

export function registerDev(program: Command, context: CommandContext): void {
  program
    .command('dev')
    .description('run a tool folder inside an emulated Pipeline host, with live reload')
    .argument('[dir]', 'the tool folder (default: the project file\'s "source", else the current folder)')
    .option('-p, --port <number>', 'port of the host page (the tool gets a second, free port)', parseCount('--port'), 4800)
    .option('--fixtures <file>', 'a fixture file with your own customers, products, quotes…; reloaded when it changes')
    .option('--sdk <version>', 'act as an older SDK (2.1.0 to 2.5.0); later methods are then absent')
    .option('--host <address>', 'listen on another address than 127.0.0.1 (exposes the server to your network)')
    .addOption(configOption())
    .addHelpText(
      'after',
      `
Examples:
  $ pipeline-tool dev
  $ pipeline-tool dev dist --port 4810 --fixtures fixtures.json --sdk 2.3.0

Open the printed address in a browser. Settings the tool stores are kept in
.pipeline-tool/settings.json beside pipeline-tool.config.json, or without one in the folder you
run the command from. Stop with Ctrl-C.`,
    )
    .action(async (dir: string | undefined, flags: DevFlags) => {
      const { runDev } = await import('./run.js');
      context.setExitCode(await runDev(dir, flags, context.io));
    });
}
