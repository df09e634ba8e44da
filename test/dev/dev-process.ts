import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from '../helpers/cli.js';
import { waitFor } from './helpers.js';
import { SETTLE_MS } from './helpers.js';

/** `pipeline-tool dev` as a user runs it: the real binary, its output collected as it comes. */
export interface DevProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Waits until stdout or stderr (as chosen) matches. */
  waitForOutput(pattern: RegExp, stream?: 'stdout' | 'stderr', timeout?: number): Promise<RegExpExecArray>;
  /** The host page's address, once printed. */
  url(): Promise<string>;
  /** Sends the signal and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<ChildProcess>();
process.on('exit', () => running.forEach((child) => child.kill('SIGKILL')));

export function spawnDev(args: string[], options: { cwd: string; env?: Record<string, string>; nodeOptions?: string[] }): DevProcess {
  const child = spawn(process.execPath, [...(options.nodeOptions ?? []), BIN, 'dev', ...args], {
    cwd: options.cwd,
    env: { ...process.env, CI: 'true', NO_COLOR: '1', ...options.env },
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const waitForOutput = (pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout', timeout = SETTLE_MS) =>
    waitFor(() => pattern.exec(stream === 'stdout' ? stdout : stderr), timeout, `${pattern} in the ${stream} of dev (stdout: ${stdout}; stderr: ${stderr})`);
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    waitForOutput,
    url: async () => (await waitForOutput(/Open: +(http:\/\/\S+)/))[1]!,
    async stop(signal = 'SIGINT') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await Promise.race([exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 10_000))]);
      if (code === 'timeout') {
        child.kill('SIGKILL');
        throw new Error(`dev did not stop within 10 s of ${signal}`);
      }
      return code;
    },
  };
}
