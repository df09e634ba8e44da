import path from 'node:path';
import type { BundleEntry, BundleSource } from '../shipment/source.js';
import { pathInside, readInside } from './read-inside.js';
import { MAX_MAP_BYTES } from './source-placer.js';

/**
 * The text of a built file of the bundle, to be read through a map of `folder` (the folder the
 * bundle is, or for a zip the folder it was packed from); undefined when its bytes cannot be
 * trusted (an entry the archive could not vouch for, one too large to map). A zip's entry is
 * `unmatched` when the folder does not hold the same bytes at its path: a map describes one
 * build's bytes, and another build's would place findings at made-up lines.
 */
export async function builtTextOf(source: BundleSource, entry: BundleEntry, folder: string): Promise<{ text: string } | { unmatched: true } | undefined> {
  if (entry.kind !== 'file' || !entry.readable || entry.declaredSize > MAX_MAP_BYTES) return undefined;
  if (source.findings.some((finding) => finding.file === entry.path)) return undefined;
  const chunks: Buffer[] = [];
  const read = await source.read(entry, entry.declaredSize + 1, (chunk) => chunks.push(chunk));
  if (read.stoppedAtLimit) return undefined;
  const bytes = Buffer.concat(chunks);
  if (source.kind === 'zip' && !(await folderHolds(folder, entry.path, bytes))) return { unmatched: true };
  return { text: bytes.toString('utf8') };
}

/** Whether `folder` holds `bytes`, byte for byte, at `file` (slash-separated), as a regular file inside it. */
async function folderHolds(folder: string, file: string, bytes: Buffer): Promise<boolean> {
  const absolute = path.join(folder, ...file.split('/'));
  if (pathInside(folder, absolute) === undefined) return false;
  const copy = await readInside(folder, absolute, bytes.length);
  return copy !== undefined && copy.equals(bytes);
}
