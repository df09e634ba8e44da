import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { openRegularFile } from '../regular-file.js';
import type { Finding } from '../problem.js';
import type { BundleEntry, BundleSource, EntryKind, ReadResult } from './source.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');
const CHUNK = 256 * 1024;

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
    const size = kind === 'file' ? (await lstat(childAbsolute)).size : 0;
    entries.push({ path: entryPath, kind, declaredSize: size, readable: kind === 'file', absolute: childAbsolute });
    if (kind === 'directory' && descend(entryPath)) await walk(childAbsolute, entryPath, entries, findings, descend, omit);
  }
}

async function readFile(entry: FolderEntry, limit: number, sink: (chunk: Buffer) => void): Promise<ReadResult> {
  if (!entry.readable) return { bytes: 0, stoppedAtLimit: false };
  // If the file was swapped for a link or a named pipe since the walk, it is refused, not followed
  // or waited on.
  const { handle } = await openRegularFile(entry.absolute, { followLinks: false });
  try {
    let passed = 0;
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null);
      if (bytesRead === 0) return { bytes: passed, stoppedAtLimit: false };
      const room = limit - passed;
      if (bytesRead > room) {
        if (room > 0) sink(Buffer.from(buffer.subarray(0, room)));
        return { bytes: limit, stoppedAtLimit: true };
      }
      sink(Buffer.from(buffer.subarray(0, bytesRead)));
      passed += bytesRead;
    }
  } finally {
    await handle.close();
  }
}
