import type { Command } from 'commander';
import type { CommandContext } from '../../main.js';

export interface VersionFlags {
  force: boolean;
}

export function registerVersion(program: Command, context: CommandContext): void {
  program
    .command('version')
    .description("raise the tool's version in manifest.json (and package.json) for the next release")
    .argument('<release>', 'major, minor or patch, or the new version itself (strict SemVer, like 1.2.0)')
    .argument('[dir]', 'the tool folder, holding manifest.json, or a project folder (default: the project file\'s "source", else the current folder, or its src/)')
    .option('--force', 'accept a version that is not higher than the current one', false)
    .addHelpText(
      'after',
      `
Examples:
  $ pipeline-tool version patch             1.0.0 becomes 1.0.1, from anywhere in the project
  $ pipeline-tool version minor src         1.0.1 becomes 1.1.0, in src/manifest.json
  $ pipeline-tool version 2.0.0-beta.1      an explicit version; it must be higher
  $ pipeline-tool version 1.0.0 --force     go back, on purpose

The project's package.json (in the tool folder or the one above it, naming pipeline-tool as a
dependency) gets the same version when it has one. Then run pack: the zip is named after it.
Exit codes: 0 changed, 2 not changed (bad release, lower version, no manifest, manifest not JSON).`,
    )
    .action(async (release: string, dir: string | undefined, flags: VersionFlags) => {
      const { runVersion } = await import('./run.js');
      context.setExitCode(await runVersion(release, dir, flags, context.io));
    });
}
