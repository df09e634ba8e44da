import { describeDiskError, isDiskErrorCode } from '../core/disk-errors.js';
import { UsageError } from '../core/errors.js';
import { EXIT, type ExitCode } from './exit-codes.js';
import type { CliIo } from './io.js';

export { UsageError };

/**
 * The one place that turns an escaped error into an exit code: a user mistake is one line, an
 * internal error prints its stack and asks for a report.
 */
export function reportError(error: unknown, io: CliIo): ExitCode {
  if (error instanceof UsageError) {
    io.stderr(`pipeline-tool: ${error.message}\n`);
    return EXIT.failure;
  }
  const refused = describeRefusedWrite(error);
  if (refused !== undefined) {
    io.stderr(`pipeline-tool: ${refused}\n`);
    return EXIT.failure;
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr(
    `pipeline-tool: internal error. This is a bug in pipeline-tool, not in your tool; please report it with the output below.\n${stack}\n`,
  );
  return EXIT.failure;
}

/**
 * A full disk or a refused permission that reached here without a command putting it in context:
 * still the author's to fix, so one line naming the path, not a bug report.
 */
function describeRefusedWrite(error: unknown): string | undefined {
  const { code, path: where } = (error ?? {}) as NodeJS.ErrnoException;
  if (typeof where !== 'string' || !isDiskErrorCode(code)) return undefined;
  if (code === 'EACCES' || code === 'EPERM') return `permission denied on ${where} (${code}). Check its permissions and those of its folder.`;
  return describeDiskError(code, where);
}

/** Parses a whole, non-negative number from a flag value, or says which flag is wrong. */
export function parseCount(flag: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new UsageError(`${flag} takes a whole number of 0 or more, not "${value}".`);
    return Number(value);
  };
}
