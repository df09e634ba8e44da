import path from 'node:path';
import { UsageError } from './errors.js';

/*
 * A write the file system refuses is the author's to fix (free space, another place, permissions),
 * not a fault of pipeline-tool: each refusal gets its own sentence, naming the file that could not
 * be written and the folder it was going to.
 */

const SENTENCES = {
  ENOSPC: (target: string, folder: string) => `the disk holding ${folder} is full (ENOSPC), so ${target} could not be written. Free some space, then try again.`,
  EDQUOT: (target: string, folder: string) =>
    `your disk quota for ${folder} is used up (EDQUOT), so ${target} could not be written. Free some space or ask for a larger quota, then try again.`,
  EROFS: (target: string, folder: string) => `${folder} is on a read-only file system (EROFS), so ${target} could not be written. Write it somewhere else.`,
  EACCES: (target: string, folder: string) =>
    `you may not write in ${folder} (EACCES, permission denied), so ${target} could not be written. Change the folder's permissions, or write it somewhere else.`,
  EPERM: (target: string, folder: string) =>
    `the system does not permit writing ${target} in ${folder} (EPERM). Check the folder's permissions and attributes, or write it somewhere else.`,
} as const;

export type DiskErrorCode = keyof typeof SENTENCES;

export function isDiskErrorCode(code: unknown): code is DiskErrorCode {
  return typeof code === 'string' && Object.hasOwn(SENTENCES, code);
}

/** The sentence for a refused write of `target`, or undefined when `code` is not one of the refusals. */
export function describeDiskError(code: unknown, target: string): string | undefined {
  return isDiskErrorCode(code) ? SENTENCES[code](target, path.dirname(target)) : undefined;
}

/** The file system refused to write a file; the message says why and what to do. */
export class DiskWriteError extends UsageError {
  constructor(
    readonly code: DiskErrorCode,
    /** The file that could not be written: the one the author knows of, not a temporary one. */
    readonly target: string,
    options?: ErrorOptions,
  ) {
    super(SENTENCES[code](target, path.dirname(target)), options);
  }
}

/** `error` as a DiskWriteError about `target` when the file system refused the write, else `error` itself. */
export function asDiskWriteError(error: unknown, target: string): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return isDiskErrorCode(code) && !(error instanceof UsageError) ? new DiskWriteError(code, target, { cause: error }) : error;
}
