import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { openRegularFile } from '../regular-file.js';
import { leavesFolder } from '../relative-path.js';

/**
 * `target` (absolute, or relative to `root`) as a path inside `root`, or undefined when it lies
 * outside. Only the names are compared; see {@link readInside} for what is on disk.
 */
export function pathInside(root: string, target: string): string | undefined {
  const absolute = path.resolve(root, target);
  const relative = path.relative(root, absolute);
  if (relative === '' || leavesFolder(relative)) return undefined;
  return absolute;
}

/** `file`'s real path when it lies inside the real `root` (links resolved), else undefined. */
async function realPathInside(root: string, file: string): Promise<string | undefined> {
  const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]);
  return pathInside(realRoot, realFile) === undefined ? undefined : realFile;
}

/**
 * True when `file` is a regular file whose real path (links resolved) is still inside the real
 * `root`: a source map may name any path, and a link inside the project may point anywhere.
 */
export async function isFileInside(root: string, file: string): Promise<boolean> {
  try {
    const realFile = await realPathInside(root, file);
    return realFile !== undefined && (await lstat(realFile)).isFile();
  } catch {
    return false;
  }
}

/**
 * The bytes of `file` when it is a regular file inside `root` (links resolved, as
 * {@link isFileInside}) of at most `limit` bytes; undefined otherwise, whatever the reason.
 */
export async function readInside(root: string, file: string, limit: number): Promise<Buffer | undefined> {
  try {
    if ((await realPathInside(root, file)) === undefined) return undefined;
  } catch {
    return undefined;
  }
  return readRegularUpTo(file, limit);
}

/**
 * The bytes of a regular file of at most `limit` bytes; undefined otherwise, whatever the reason.
 * Opened as every regular file is (openRegularFile), so a pipe or a link put in its place is never
 * read. For a path already known to lie inside the project.
 */
export async function readRegularUpTo(file: string, limit: number): Promise<Buffer | undefined> {
  try {
    const { handle, info } = await openRegularFile(file, { followLinks: false });
    try {
      if (info.size > limit) return undefined;
      const bytes = await handle.readFile();
      return bytes.length > limit ? undefined : bytes;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
