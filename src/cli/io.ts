/** Where a command writes, so tests can run commands in-process and read what they printed. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout / stderr are interactive terminals (decides colour and spinners). */
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdin: NodeJS.ReadableStream;
  stdinIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * The process's own streams. Each is looked at only when a command asks: Node builds
 * `process.stdin` on first use, which costs about a tenth of Node's own start-up, and only `init`
 * and `dev` read it.
 */
export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    get stdoutIsTTY() {
      return Boolean(process.stdout.isTTY);
    },
    get stderrIsTTY() {
      return Boolean(process.stderr.isTTY);
    },
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

/**
 * Colour follows the conventions: NO_COLOR (any non-empty value) turns it off, FORCE_COLOR turns
 * it on (FORCE_COLOR=0 off), otherwise colour only when writing to a terminal.
 */
export function useColour(io: CliIo, isTTY: boolean): boolean {
  if (io.env['NO_COLOR']) return false;
  const force = io.env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return isTTY;
}
