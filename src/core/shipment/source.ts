import type { Finding } from '../problem.js';
import type { ExcludedEntry } from './left-out.js';

export type EntryKind = 'file' | 'directory' | 'symlink' | 'other';

/** One entry of a bundle, whether it comes from a zip's central directory or a folder walk. */
export interface BundleEntry {
  /** Slash-separated path relative to the bundle root; directories end with "/". */
  readonly path: string;
  readonly kind: EntryKind;
  /** Size the entry claims: the header's uncompressed size for a zip, the file size for a folder. */
  readonly declaredSize: number;
  /** Stored (compressed) size inside a zip; undefined for folders. */
  readonly compressedSize?: number;
  /**
   * False when the entry cannot be read at all (encrypted, unknown compression, outside the file):
   * the reader has already recorded why.
   */
  readonly readable: boolean;
}

export interface ReadResult {
  /** Bytes handed to the sink. */
  bytes: number;
  /** True when reading stopped because `limit` was reached, so `bytes` undercounts the entry. */
  stoppedAtLimit: boolean;
}

/**
 * A bundle as rules see it: a list of entries, each readable as a stream of chunks. A folder and
 * a zip are both one of these, so every rule runs the same way on both.
 */
export interface BundleSource {
  readonly kind: 'zip' | 'folder';
  /** The path the bundle was opened from. */
  readonly location: string;
  /** Size of the archive file itself (zip only). */
  readonly archiveSize?: number;
  readonly entries: readonly BundleEntry[];
  /**
   * Problems noticed while reading the bundle's structure, and while reading entries (a CRC that
   * does not match, an entry that inflates to another size than it declares). Reading appends here.
   */
  readonly findings: Finding[];
  /**
   * For a folder opened as what pack would ship: the files and folders it leaves out, and why.
   * Absent for a zip (it holds what it holds).
   */
  readonly excluded?: readonly ExcludedEntry[];
  /**
   * Streams an entry's content to `sink`, never more than `limit` bytes plus one chunk's worth of
   * lookahead that is not passed on. Integrity problems found on the way are added to `findings`.
   */
  read(entry: BundleEntry, limit: number, sink: (chunk: Buffer) => void): Promise<ReadResult>;
  /**
   * For a folder whose zip is measured while its files are read: settles once `archiveSize` and
   * each entry's `compressedSize` are filled in, and rejects as opening the folder would have (a
   * file that changed while it was read). Absent when the sizes are known from the start.
   */
  readonly sized?: Promise<void>;
  close(): Promise<void>;
}

/** Reads a whole (small) entry into memory, at most `limit` bytes. */
export async function readEntryBytes(source: BundleSource, entry: BundleEntry, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await source.read(entry, limit, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}
