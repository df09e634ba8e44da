import { expect } from 'vitest';
import { spawnDev } from '../dev/dev-process.js';
import { runCli, STACK_TRACE } from './cli.js';

/*
 * Running a command as a page or a help text shows it: the examples of every --help
 * (test/cli/examples.test.ts) and the command lines of README.md and docs/ (test/docs/commands.test.ts).
 */

/** The words of a command line, as a POSIX shell splits it (double and single quotes, no expansion). */
export function words(line: string): string[] {
  const found: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) found.push(match[1] ?? match[2] ?? match[3]!);
  return found;
}

/** Runs one example and checks it exits as documented; dev is stopped once it serves. */
export async function runExample(args: string[], cwd: string): Promise<string | undefined> {
  const shown = `pipeline-tool ${args.join(' ')} (in ${cwd})`;
  if (args[0] === 'dev') {
    const dev = spawnDev(args.slice(1), { cwd });
    try {
      await dev.waitForOutput(/Stop: +Ctrl-C/);
      expect(dev.stderr(), shown).not.toMatch(/manifest\.json/);
    } finally {
      expect(await dev.stop(), `${shown}\n${dev.stderr()}`).toBe(0);
    }
    return undefined;
  }
  const result = runCli(args, { cwd });
  expect(result.stderr, shown).not.toMatch(STACK_TRACE);
  if (args[0] === 'init' && !args.includes('--yes') && !args.includes('-y')) {
    // Asks on a terminal for what no flag gives; a test has none, and the help says what happens then.
    expect(result.code, shown).toBe(2);
    expect(result.stderr).toContain('there is no terminal to ask on');
    expect(result.stderr).toContain('add --yes');
    return undefined;
  }
  expect(result.code, `${shown}\n${result.stdout}${result.stderr}`).toBe(0);
  return result.stdout;
}
