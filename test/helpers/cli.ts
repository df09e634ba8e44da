import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/pipeline-tool.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built binary as a user would, with no terminal attached and colour settings cleared,
 * so that output is what CI would see.
 */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; input?: string; bin?: string } = {}): CliResult {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, CI: 'true', ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const result = spawnSync(process.execPath, [options.bin ?? BIN, ...args], {
    cwd: options.cwd,
    env: env as NodeJS.ProcessEnv,
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A stack trace line as Node prints them. A user mistake must never show one. */
export const STACK_TRACE = /^\s+at .+[:(]\d+:\d+\)?$/m;
