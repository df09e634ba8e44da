import { open, readFile, stat, type FileHandle } from 'node:fs/promises';

/** Reads byte ranges of a file. Small archives are held in memory; large ones are read on demand. */
export interface RandomAccess {
  readonly size: number;
  /** Returns exactly the bytes in [offset, offset + length) clipped to the end of the file. */
  read(offset: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * Archives up to this size are read whole: one read is much faster than hundreds of small ones,
 * and a valid bundle is at most 10 MB anyway. Anything larger is read piece by piece, so a huge
 * file never costs its size in memory.
 */
const IN_MEMORY_LIMIT = 32 * 1024 * 1024;

export async function openRandomAccess(path: string): Promise<RandomAccess> {
  const { size } = await stat(path);
  if (size <= IN_MEMORY_LIMIT) {
    const data = await readFile(path);
    return {
      size: data.length,
      read: async (offset, length) => data.subarray(Math.min(offset, data.length), Math.min(offset + length, data.length)),
      close: async () => {},
    };
  }
  const handle: FileHandle = await open(path, 'r');
  return {
    size,
    async read(offset, length) {
      const want = Math.max(0, Math.min(length, size - offset));
      const buffer = Buffer.alloc(want);
      let filled = 0;
      while (filled < want) {
        const { bytesRead } = await handle.read(buffer, filled, want - filled, offset + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    },
    close: () => handle.close(),
  };
}
