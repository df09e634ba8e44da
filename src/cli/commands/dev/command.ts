import type { Command } from 'commander';
import { parseCount } from '../../errors.js';
import type { CommandContext } from '../../main.js';
import { listenForStop } from './stop-signal.js';
import { configOption } from '../../config-flag.js';

export interface DevFlags {
  /** Left out unless given: then a busy default port moves to the next free one. */
  port?: number;
  host?: string;
  fixtures?: string;
  sdk?: string;
  config?: string;
  url?: string;
  manifest?: string;
}

/**
 * DEFAULT_API_KEY of the built-in data, written out: importing it would carry the whole data set
 * into the CLI's entry bundle. A test keeps the two equal.
 */
const BUILT_IN_API_KEY = 'kck_dev_2f6c1e0b9a7d4e58';

export function registerDev(program: Command, context: CommandContext): void {
  program
    .command('dev')
    .description('run a tool folder inside an emulated Pipeline host, with live reload')
    .argument('[dir]', 'the tool folder (default: the project file\'s "source", else the current folder)')
    .option('-p, --port <number>', 'port of the host page; default 4800, or the next free one after it (the tool gets a second, free port)', parseCount('--port'))
    .option('--fixtures <file>', 'a fixture file with your own customers, products, quotes…; reloaded when it changes')
    .option('--sdk <version>', 'act as an older SDK (2.1.0 to 2.5.0); later methods are then absent')
    .option('--host <address>', 'listen on another address than 127.0.0.1 (exposes the server to your network)')
    .option('--url <address>', "frame the page of another dev server (webpack, Parcel, a backend) instead of serving the folder; [dir] is then the build output, validated for the findings")
    .option('--manifest <file>', 'with --url: the manifest.json naming the tool and its type, when it is not in [dir] (such as public/manifest.json)')
    .addOption(configOption())
    .addHelpText(
      'after',
      `
Examples:
  $ pipeline-tool dev                       the project's tool (pipeline-tool.config.json), or the folder you stand in
  $ pipeline-tool dev --sdk 2.3.0           act as an older host: methods of later versions are absent
  $ pipeline-tool dev src --port 0          a tool folder by path, on free ports (a port given must be free)
  $ pipeline-tool dev --url http://localhost:5173/   frame the page another dev server serves (webpack, Parcel…)

Open the printed address in a browser. Settings the tool stores are kept in
.pipeline-tool/settings.json beside pipeline-tool.config.json, or without one in the folder you
run the command from. The same address serves the platform's REST API v1 under /api/v1 over the
same data; the API keys in use are printed at start. With the built-in data, try:
  curl -H "Authorization: Bearer ${BUILT_IN_API_KEY}" http://127.0.0.1:4800/api/v1/customers
Stop with Ctrl-C.`,
    )
    .action(async (dir: string | undefined, flags: DevFlags) => {
      // Before the server's code even loads, so that an early Ctrl-C still ends cleanly.
      const stop = listenForStop();
      try {
        const { runDev } = await import('./run.js');
        context.setExitCode(await runDev(dir, flags, context.io, stop.stopped));
      } finally {
        stop.dispose();
      }
    });
}
