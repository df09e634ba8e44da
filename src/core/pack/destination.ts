import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { asDiskWriteError } from '../disk-errors.js';
import { UsageError } from '../errors.js';

/**
 * Where the zip goes. No `out`: the default name in `cwd`. A path ending in a slash, an existing
 * folder, or a new path whose name does not end in `.zip` (`-o dist`, `-o releases/v1.2`): the
 * default name inside that folder. A name ending in `.zip`: that file. pack writes only zips, so an
 * existing file under any other name is never the destination, even with --force.
 */
export async function resolveDestination(out: string | undefined, defaultName: string, cwd: string): Promise<string> {
  if (out === undefined || out === '') return path.join(cwd, defaultName);
  const resolved = path.resolve(cwd, out);
  if (/[\\/]$/.test(out)) return path.join(resolved, defaultName);
  const isZipName = path.extname(resolved).toLowerCase() === '.zip';
  const existing = await lstat(resolved).then(
    () => stat(resolved).catch(() => undefined),
    () => null,
  );
  if (existing === null) return isZipName ? resolved : path.join(resolved, defaultName);
  if (existing?.isDirectory()) return path.join(resolved, defaultName);
  if (!isZipName) throw new UsageError(`${out} exists and is not a .zip; pack writes only .zip files and never replaces anything else. Give a name ending in .zip, or a folder.`);
  return resolved;
}

export async function pathExists(file: string): Promise<boolean> {
  return lstat(file).then(
    () => true,
    () => false,
  );
}

/**
 * The most of the destination's name, in UTF-8 bytes, that the temporary file's name repeats: with
 * its dot, random part and `.tmp` it stays within the 255 bytes file systems allow, whatever name
 * the destination has.
 */
const TEMP_NAME_PART = 200;

/** A fresh, hidden file beside the destination, so the final rename never crosses file systems. */
export async function createTempFile(destination: string) {
  const folder = path.dirname(destination);
  await mkdir(folder, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST' || error.code === 'ENOTDIR') throw new UsageError(`cannot create the folder ${folder}: a file is in the way on that path.`);
    throw orUsageError(asDiskWriteError(error, destination), `cannot create the folder ${folder}: ${error.message}.`);
  });
  const temp = path.join(folder, `.${leadingBytes(path.basename(destination), TEMP_NAME_PART)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx').catch((error: Error) => {
    throw orUsageError(asDiskWriteError(error, destination), `cannot write in ${folder}: ${error.message}`);
  });
  return { temp, handle };
}

/** `error` when it already speaks to the author, else a UsageError saying `message`. */
function orUsageError(error: unknown, message: string): UsageError {
  return error instanceof UsageError ? error : new UsageError(message, { cause: error });
}

/** The longest start of `text` that takes at most `limit` bytes in UTF-8, never splitting a character. */
function leadingBytes(text: string, limit: number): string {
  let kept = '';
  let size = 0;
  for (const char of text) {
    size += Buffer.byteLength(char);
    if (size > limit) break;
    kept += char;
  }
  return kept;
}

/**
 * Puts the finished temporary file in place in one step, so the destination is either the old file
 * or the complete new one. Without `force`, a hard link is made instead of a rename: it fails
 * if the destination appeared in the meantime, where a rename would silently replace it.
 */
export async function commitTempFile(temp: string, destination: string, force: boolean): Promise<void> {
  try {
    if (force) {
      await rename(temp, destination);
    } else {
      const linked = await link(temp, destination).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'EEXIST') throw refuseOverwrite(destination);
          return false; // a file system without hard links
        },
      );
      if (linked) await unlink(temp);
      else {
        if (await pathExists(destination)) throw refuseOverwrite(destination);
        await rename(temp, destination);
      }
    }
  } catch (error) {
    throw orUsageError(asDiskWriteError(error, destination), `cannot write ${destination}: ${(error as Error).message}`);
  }
  await syncFolder(path.dirname(destination));
}

/** The destination exists and replacing it was not asked for (`force`, `--force` on the command line). */
export class DestinationExistsError extends UsageError {
  constructor(readonly destination: string) {
    super(`${destination} already exists; use --force to replace it.`);
  }
}

function refuseOverwrite(destination: string): DestinationExistsError {
  return new DestinationExistsError(destination);
}

/** Makes the rename itself durable. Not every platform can open a folder; that is not an error. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows and some file systems refuse; the data itself was already synced.
  }
}
