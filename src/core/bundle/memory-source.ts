import type { BundleEntry, BundleSource } from '../shipment/source.js';

/** One file of a bundle held in memory: its slash-separated path and its bytes. */
export interface MemoryFile {
  path: string;
  bytes: Buffer;
}

/**
 * Files held in memory as a bundle, so that validate's rules run on them as on a folder: a dev
 * server's modules exist as the server transformed them, nowhere on disk. `location` is the folder
 * the files stand for (where their source maps' relative sources are resolved from).
 */
export function openMemorySource(location: string, files: readonly MemoryFile[]): BundleSource {
  const bytes = new Map<string, Buffer>();
  const entries: BundleEntry[] = [];
  for (const file of files) {
    bytes.set(file.path, file.bytes);
    entries.push({ path: file.path, kind: 'file', declaredSize: file.bytes.length, readable: true });
  }
  return {
    kind: 'folder',
    location,
    entries,
    findings: [],
    read: async (entry, limit, sink) => {
      const held = bytes.get(entry.path) ?? Buffer.alloc(0);
      const given = held.subarray(0, limit);
      if (given.length > 0) sink(given);
      return { bytes: given.length, stoppedAtLimit: held.length > limit };
    },
    close: async () => {},
  };
}
