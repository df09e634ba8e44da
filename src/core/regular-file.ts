import { constants, type Stats } from 'node:fs';
import { lstat, open, stat, type FileHandle } from 'node:fs/promises';
import { UsageError } from './errors.js';

/*
 * Opening a named pipe (FIFO) for reading waits for a writer, on one of the four threads Node
 * does all its file work on, for as long as none comes: four such opens stall every file read and
 * write of the process, and Ctrl-C cannot end it. A device file may do worse. So every file
 * pipeline-tool reads is looked at before it is opened, opened without waiting (O_NONBLOCK, where
 * the platform has it), and looked at again through the open descriptor, which nothing can swap.
 */

/** What a directory entry is. */
export type FileType = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'character-device' | 'block-device' | 'other';

const PHRASES: Record<FileType, string> = {
  file: 'a regular file',
  directory: 'a folder',
  symlink: 'a symbolic link',
  fifo: 'a named pipe (FIFO)',
  socket: 'a socket',
  'character-device': 'a character device',
  'block-device': 'a block device',
  other: 'a special file',
};

export function fileTypeOf(info: Stats): FileType {
  if (info.isFile()) return 'file';
  if (info.isDirectory()) return 'directory';
  if (info.isSymbolicLink()) return 'symlink';
  if (info.isFIFO()) return 'fifo';
  if (info.isSocket()) return 'socket';
  if (info.isCharacterDevice()) return 'character-device';
  if (info.isBlockDevice()) return 'block-device';
  return 'other';
}

/** What a file is, as a phrase for a message: `a named pipe (FIFO)`. */
export function describeFileKind(info: Stats): string {
  return PHRASES[fileTypeOf(info)];
}

/** A file that is something other than a regular file: a folder, a named pipe, a device, a socket, a link. */
export class NotRegularFileError extends UsageError {
  /** What it is instead, as a phrase for a message: `a folder`, `a named pipe (FIFO)`... */
  readonly kind: string;

  constructor(
    /** The path as given. */
    readonly file: string,
    readonly type: Exclude<FileType, 'file'>,
  ) {
    super(`${file} is ${PHRASES[type]}, not a regular file`);
    this.kind = PHRASES[type];
  }
}

export interface RegularFileOptions {
  /** Follow a symbolic link to what it names (true), or refuse the link itself (false). Default true. */
  followLinks?: boolean;
}

/**
 * Opens a regular file for reading, or rejects with a NotRegularFileError naming what it is
 * instead. Other failures (ENOENT, EACCES...) reject with the file system's own error.
 */
export async function openRegularFile(file: string | Buffer, options: RegularFileOptions = {}): Promise<{ handle: FileHandle; info: Stats }> {
  const follow = options.followLinks ?? true;
  const shown = file.toString();
  const before = await (follow ? stat(file) : lstat(file));
  const expected = fileTypeOf(before);
  if (expected !== 'file') throw new NotRegularFileError(shown, expected);
  // Checked again once open: the name may have been given to a pipe in the meantime. O_NOFOLLOW
  // refuses a link that took its place; O_NONBLOCK makes even a pipe open at once.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (follow ? 0 : (constants.O_NOFOLLOW ?? 0));
  let handle: FileHandle;
  try {
    handle = await open(file, flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP' && !follow) throw new NotRegularFileError(shown, 'symlink');
    throw error;
  }
  let info: Stats;
  try {
    info = await handle.stat();
  } catch (error) {
    await handle.close();
    throw error;
  }
  const type = fileTypeOf(info);
  if (type !== 'file') {
    await handle.close();
    throw new NotRegularFileError(shown, type);
  }
  return { handle, info };
}

/**
 * Reads a regular file whole, or its first `maxBytes` bytes when given. Rejects as
 * openRegularFile does.
 */
export async function readRegularFile(file: string | Buffer, options: RegularFileOptions & { maxBytes?: number } = {}): Promise<Buffer> {
  const { handle } = await openRegularFile(file, options);
  try {
    if (options.maxBytes === undefined) return await handle.readFile();
    const buffer = Buffer.alloc(options.maxBytes);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}
