import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { openRegularFile } from '../regular-file.js';
import type { Finding } from '../problem.js';
import type { BundleEntry, BundleSource, EntryKind, ReadResult } from './source.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');
const CHUNK = 256 * 1024;
/**
 * A file up to this size that the caller takes whole (a limit past its size) is read into one
 * buffer of its size: pack's and validate's deflating want it whole, and joining 256 KiB chunks
 * copied every larger file once more into fresh memory (a tenth of `validate` on a 50 MB folder).
 */
const WHOLE_MAX = 16 * 1024 * 1024;
/** Files whose sizes are asked for at once while walking. */
const STAT_BATCH = 64;

interface FolderEntry extends BundleEntry {
  /** Absolute path as raw bytes, so names that are not valid UTF-8 can still be opened. */
  readonly absolute: Buffer;
}

export interface FolderSourceOptions {
  /**
   * Whether to walk into a folder, given its path (ending in "/"). A folder not walked into is still
   * listed; `pack` uses this to skip node_modules and .git instead of reading thousands of names.
   */
  descend?: (directoryPath: string) => boolean;
  /** Whether to leave an entry out entirely (a folder's path ends in "/"): not listed, not walked. */
  omit?: (entryPath: string) => boolean;
}

/**
 * Opens a folder as a bundle. Symbolic links and special files are listed (rules report them) but
 * never followed or read, so nothing outside the folder is ever touched.
 */
export async function openFolderSource(root: string, options: FolderSourceOptions = {}): Promise<BundleSource> {
  const entries: FolderEntry[] = [];
  const findings: Finding[] = [];
  await walk(Buffer.from(path.resolve(root)), '', entries, findings, options.descend ?? (() => true), options.omit ?? (() => false));
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    kind: 'folder',
    location: root,
    entries,
    findings,
    read: (entry, limit, sink) => readFile(entry as FolderEntry, limit, sink),
    close: async () => {},
  };
}

async function walk(
  absolute: Buffer,
  relative: string,
  entries: FolderEntry[],
  findings: Finding[],
  descend: (directoryPath: string) => boolean,
  omit: (entryPath: string) => boolean,
): Promise<void> {
  const children = await readdir(absolute, { withFileTypes: true, encoding: 'buffer' });
  const listed: Array<FolderEntry & { declaredSize: number }> = [];
  for (const child of children) {
    const nameBytes = child.name as unknown as Buffer;
    let name: string;
    try {
      name = utf8.decode(nameBytes);
    } catch {
      name = lossy.decode(nameBytes);
      findings.push({ ruleId: 'path-encoding', file: relative + name, data: { hex: nameBytes.toString('hex') } });
    }
    const childAbsolute = Buffer.concat([absolute, Buffer.from(path.sep), nameBytes]);
    const kind: EntryKind = child.isSymbolicLink() ? 'symlink' : child.isDirectory() ? 'directory' : child.isFile() ? 'file' : 'other';
    const entryPath = relative + name + (kind === 'directory' ? '/' : '');
    if (omit(entryPath)) continue;
    listed.push({ path: entryPath, kind, declaredSize: 0, readable: kind === 'file', absolute: childAbsolute });
  }
  // The files' sizes are asked for a batch at a time, not one after another: each is a trip to the
  // thread pool, and a folder of a few hundred files spent most of its walk waiting on them.
  for (let first = 0; first < listed.length; first += STAT_BATCH) {
    await Promise.all(
      listed.slice(first, first + STAT_BATCH).map(async (entry) => {
        if (entry.kind === 'file') entry.declaredSize = (await lstat(entry.absolute)).size;
      }),
    );
  }
  for (const entry of listed) entries.push(entry);
  for (const entry of listed) if (entry.kind === 'directory' && descend(entry.path)) await walk(entry.absolute, entry.path, entries, findings, descend, omit);
}

async function readFile(entry: FolderEntry, limit: number, sink: (chunk: Buffer) => void): Promise<ReadResult> {
  if (!entry.readable) return { bytes: 0, stoppedAtLimit: false };
  // If the file was swapped for a link or a named pipe since the walk, it is refused, not followed
  // or waited on.
  const { handle, info } = await openRegularFile(entry.absolute, { followLinks: false });
  try {
    let passed = 0;
    const size = info.size;
    const chunk = limit > size && size < WHOLE_MAX ? WHOLE_MAX : CHUNK;
    for (;;) {
      // Each chunk is read into its own buffer and handed on as it is, not copied. The buffer fits
      // what is left of the file as it was opened, and one byte more: a file read whole holds no
      // spare memory, and a read that leaves that byte unfilled at the file's size has found its
      // end, without one more read to be told so. A file that reports no size is read to its end.
      const want = passed < size ? Math.min(chunk, size - passed + 1) : CHUNK;
      const buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await handle.read(buffer, 0, want, null);
      if (bytesRead === 0) return { bytes: passed, stoppedAtLimit: false };
      const room = limit - passed;
      if (bytesRead > room) {
        if (room > 0) sink(buffer.subarray(0, room));
        return { bytes: limit, stoppedAtLimit: true };
      }
      sink(buffer.subarray(0, bytesRead));
      passed += bytesRead;
      if (bytesRead < want && passed >= size && size > 0) return { bytes: passed, stoppedAtLimit: false };
    }
  } finally {
    await handle.close();
  }
}
