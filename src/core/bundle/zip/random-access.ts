import { open, type FileHandle } from 'node:fs/promises';

/** Reads byte ranges of a file. */
export interface RandomAccess {
  readonly size: number;
  /** Returns exactly the bytes in [offset, offset + length) clipped to the end of the file. */
  read(offset: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

/**
 * Archives up to this size are read whole, in one read: one large read beats hundreds of small
 * ones, and a valid bundle is at most 10 MB anyway. A larger file is read a window at a time, so
 * it never costs its size in memory; the reader walks it front to back (headers, then data), so
 * each window serves many reads.
 */
export interface ReadLimits {
  inMemory: number;
  window: number;
}

const LIMITS: ReadLimits = { inMemory: 32 * 1024 * 1024, window: 4 * 1024 * 1024 };

/** `limits` exists for tests, which exercise the windowed path on small files. */
export async function openRandomAccess(path: string, limits: ReadLimits = LIMITS): Promise<RandomAccess> {
  const handle: FileHandle = await open(path, 'r');
  let size: number;
  let window: Buffer;
  try {
    size = (await handle.stat()).size;
    window = size <= limits.inMemory ? await readRange(handle, 0, size) : Buffer.alloc(0);
  } catch (error) {
    await handle.close();
    throw error;
  }
  let windowStart = 0;
  return {
    size,
    async read(offset, length) {
      const start = Math.min(Math.max(0, offset), size);
      const end = Math.max(start, Math.min(offset + Math.max(0, length), size));
      if (start >= windowStart && end <= windowStart + window.length) return window.subarray(start - windowStart, end - windowStart);
      if (end - start > limits.window) return readRange(handle, start, end - start);
      // A new buffer each time: slices of the old window may still be in use.
      window = await readRange(handle, start, Math.min(limits.window, size - start));
      windowStart = start;
      return window.subarray(0, Math.min(end - start, window.length));
    },
    close: () => handle.close(),
  };
}

async function readRange(handle: FileHandle, offset: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
