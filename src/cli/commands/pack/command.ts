import { Option, type Command } from 'commander';
import { formatNames } from '../../formatters/names.js';
import type { CommandContext } from '../../main.js';
import { configOption } from '../../config-flag.js';
import { ruleOption } from '../../rule-flags.js';

export interface PackFlags {
  out?: string;
  force?: boolean;
  dryRun?: boolean;
  format: string;
  quiet?: boolean;
  verbose?: boolean;
  rule: string[];
  config?: string;
  report?: string | true;
}

export function registerPack(program: Command, context: CommandContext): void {
  program
    .command('pack')
    .description('build the marketplace zip from a tool folder; it is checked with the validate rules before it is kept')
    .argument('[dir]', 'the tool folder, holding manifest.json (default: the project file\'s "source", else the current folder)')
    .option('-o, --out <path>', 'the zip to write (a name ending in .zip), or a folder to put <shortName>-<version>.zip in (any other name); default: the project file\'s "out", else the current folder')
    .option('--force', 'replace an existing file at the destination')
    .option('--dry-run', 'list every file that would go in and every one left out, with the reason; write nothing')
    .addOption(new Option('-f, --format <format>', 'output format').choices(formatNames).default('text'))
    .option('--report [file]', 'also write an HTML page of what the bundle is made of (by file, npm package and source) against the limits; default: beside the zip, <name>.report.html')
    .option('-q, --quiet', 'no progress, report errors only, print nothing when the zip is written')
    .option('--verbose', 'list every warning in library code (vendored or minified files), which text output otherwise sums up per file')
    .addOption(ruleOption())
    .addOption(configOption())
    .addHelpText(
      'after',
      `
Examples:
  $ pipeline-tool pack                      the project's tool into its "out" folder: dist/my-tool-1.0.0.zip
                                            (without a project file: the folder you stand in, zip here)
  $ pipeline-tool pack --force              again, replacing the zip of the same version
  $ pipeline-tool pack --dry-run            what would go in, what stays out, and why
  $ pipeline-tool pack src -o out/          a tool folder by path; the zip goes into out/
  $ pipeline-tool pack --format json --force   a result for CI scripts
  $ pipeline-tool pack --report --force     the zip, and a page of where its bytes come from
  $ pipeline-tool pack --rule unsafe-html=off --force   the same rule settings as validate

The zip is named <shortName>-<version>.zip from manifest.json, the short name in lower case.

What stays out: dot-files and dot-folders, node_modules, OS debris (__MACOSX, Thumbs.db),
source maps, project files (package.json, lockfiles, tsconfig), symbolic links, files of types the
marketplace refuses, and whatever .pipelineignore (gitignore syntax) excludes.
Entries carry SOURCE_DATE_EPOCH as their time when it is set, 1980-01-01 otherwise, so the same
files always give the same zip.

Exit codes: 0 written (or, with --dry-run, the files pass), 1 problems found and nothing written,
2 could not run (bad flags, missing folder, the destination exists without --force),
130 interrupted (Ctrl-C; 143 for SIGTERM): nothing is left behind.`,
    )
    .action(async (dir: string | undefined, flags: PackFlags) => {
      const { runPack } = await import('./run.js');
      context.setExitCode(await runPack(dir, flags, context.io));
    });
}
