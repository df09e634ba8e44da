import { promisify } from 'node:util';
import zlib from 'node:zlib';

/*
 * What a zip written by pack (core/pack/write-zip.ts) costs, known before it is written: each
 * file's stored bytes and the records around them. The shipment measures a folder's zip with these,
 * and the writer writes with them, so the size predicted is the size written.
 */

const deflateRaw = promisify(zlib.deflateRaw);

/** Fixed sizes of a local header, a central directory record and the end record (APPNOTE.TXT). */
export const LOCAL_SIZE = 30;
export const CENTRAL_SIZE = 46;
export const END_SIZE = 22;

/** zlib's own default output chunk, and the most one deflate allocates at once. */
const MIN_DEFLATE_CHUNK = 16 * 1024;
const MAX_DEFLATE_CHUNK = 8 * 1024 * 1024;

/**
 * A file's bytes as the zip stores them: deflated, or kept as they are when deflate would not make
 * them smaller (and when empty). Measuring a folder's zip uses this too, so the size it predicts
 * is the size written.
 */
export async function compressContent(content: Buffer, level: number): Promise<{ data: Buffer; method: 'deflate' | 'store' }> {
  if (content.length === 0) return { data: content, method: 'store' };
  // One output buffer large enough for the whole result in most cases, so zlib does the file in one
  // job on the thread pool instead of returning to the main thread every 16 KiB it writes.
  const chunkSize = Math.min(Math.max(content.length + 1024, MIN_DEFLATE_CHUNK), MAX_DEFLATE_CHUNK);
  const deflated = await deflateRaw(content, { ...deflateOptions(level), chunkSize });
  if (deflated.length >= content.length) return { data: content, method: 'store' };
  // zlib hands back a view of its output buffer, which is as large as the file: a copy of the
  // bytes written lets that buffer go now rather than once the entry is written.
  return { data: deflated.buffer.byteLength > deflated.length ? Buffer.from(deflated) : deflated, method: 'deflate' };
}

/**
 * The length of the data {@link compressContent} gives for `content`, on this thread: for bytes
 * that are measured and never stored (the bundle report weighs each source's text by it), and are
 * small enough that handing them to the thread pool, and back, costs more than deflating them.
 */
export function storedSizeOf(content: Buffer, level: number): number {
  if (content.length === 0) return 0;
  return Math.min(zlib.deflateRawSync(content, deflateOptions(level)).length, content.length);
}

/** memLevel 9 is zlib's largest hash table: slightly smaller output, no slower. Fixed, like the level, because both change the bytes. */
function deflateOptions(level: number): zlib.ZlibOptions {
  return { level, memLevel: 9 };
}

/**
 * The size of the zip `writeZip` makes from entries with these stored sizes: a local header and a
 * central record per entry, each followed by the name, then the end record. Nothing else goes in.
 */
export function zipSizeOf(entries: readonly { name: string; storedSize: number }[]): number {
  let size = END_SIZE;
  for (const entry of entries) size += LOCAL_SIZE + CENTRAL_SIZE + 2 * Buffer.byteLength(entry.name, 'utf8') + entry.storedSize;
  return size;
}
