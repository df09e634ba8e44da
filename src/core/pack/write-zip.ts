import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { crc32 } from '../bundle/zip/crc32.js';
import { CENTRAL_SIZE, compressContent, END_SIZE, LOCAL_SIZE } from '../shipment/zip-size.js';

// Record signatures and layout from the ZIP application note (APPNOTE.TXT).
const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
const FLAG_UTF8 = 0x0800;
/** "Made by" Unix, so readers take the external attributes as a Unix mode; format version 2.0. */
const MADE_BY_UNIX = (3 << 8) | 20;
const VERSION_STORED = 10;
const VERSION_DEFLATE = 20;
/** Every file: a regular file, rw-r--r--, whatever its mode on disk. */
const EXTERNAL_ATTRIBUTES = (0o100644 << 16) >>> 0;
/**
 * Past these the format needs zip64, which the marketplace's limits never require. A 32-bit size
 * or offset of 0xffffffff is itself the mark that sends a reader to a zip64 field, so the largest
 * value written is one less.
 */
const MAX_32 = 0xfffffffe;
const MAX_ENTRIES = 0xffff;

export interface ZipInput {
  /** Slash-separated path inside the zip, exactly as it will be stored (UTF-8). */
  name: string;
  /** The file's complete content. Called at most once, shortly before the entry is needed. */
  read(): Promise<Buffer>;
}

export interface WrittenEntry {
  name: string;
  size: number;
  compressedSize: number;
  method: 'deflate' | 'store';
  crc32: number;
}

export interface WriteZipOptions {
  /** zlib deflate level, 1 to 9. */
  level: number;
  /** The time recorded on every entry; only its UTC calendar fields are used. */
  timestamp: Date;
  /**
   * How many entries are read and compressed ahead of the one being written. zlib runs on libuv's
   * thread pool, so several files compress at once on a machine with several cores.
   */
  window?: number;
  signal?: AbortSignal;
  onEntry?: (written: number, total: number) => void;
  /** The largest size or offset written in a 32-bit field; lowered by tests to reach the limit. */
  max32?: number;
}

export interface WrittenZip {
  entries: WrittenEntry[];
  /** Bytes written. */
  size: number;
  /** SHA-256 of the bytes written, in hex. */
  sha256: string;
}

interface Prepared {
  nameBytes: Buffer;
  data: Buffer;
  size: number;
  crc: number;
  method: number;
}

/**
 * Writes a zip holding `inputs` in the order given, to the current position of `handle`, which
 * must be at the start of an empty file. The bytes depend only on the names, the contents, the
 * level and the timestamp: no file times, modes, owners, time zone or extra fields go in, so the
 * same input gives the same zip on every machine (for a given zlib).
 */
export async function writeZip(inputs: readonly ZipInput[], handle: FileHandle, options: WriteZipOptions): Promise<WrittenZip> {
  if (inputs.length > MAX_ENTRIES) throw new Error(`cannot write more than ${MAX_ENTRIES} entries without zip64`);
  const { time, date } = dosDateTime(options.timestamp);
  const hash = createHash('sha256');
  const entries: WrittenEntry[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const max32 = options.max32 ?? MAX_32;

  const write = async (buffer: Buffer) => {
    hash.update(buffer);
    for (let done = 0; done < buffer.length; ) {
      const { bytesWritten } = await handle.write(buffer, done, buffer.length - done);
      done += bytesWritten;
    }
    offset += buffer.length;
  };

  // Entries are prepared (read, checksummed, compressed) ahead of time but written strictly in order.
  const ahead = Math.max(1, options.window ?? 8);
  const pending: (Promise<Prepared> | undefined)[] = [];
  for (let i = 0; i < inputs.length; i++) {
    options.signal?.throwIfAborted();
    while (pending.length < inputs.length && pending.length < i + ahead) {
      const promise = prepare(inputs[pending.length]!, options.level);
      // Handled when its turn comes; this only stops Node reporting it as unhandled in the meantime.
      promise.catch(() => {});
      pending.push(promise);
    }
    const entry = await pending[i]!;
    pending[i] = undefined; // the written data can be collected
    options.signal?.throwIfAborted();
    // The stored size is never above the size: compressContent stores what deflate does not shrink.
    if (offset > max32 || entry.size > max32) throw new Error('the zip would need zip64');
    const header = Buffer.alloc(LOCAL_SIZE);
    const flags = isAscii(entry.nameBytes) ? 0 : FLAG_UTF8;
    header.writeUInt32LE(SIG_LOCAL, 0);
    header.writeUInt16LE(entry.method === METHOD_DEFLATE ? VERSION_DEFLATE : VERSION_STORED, 4);
    header.writeUInt16LE(flags, 6);
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt32LE(entry.crc, 14);
    header.writeUInt32LE(entry.data.length, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(entry.nameBytes.length, 26);
    header.writeUInt16LE(0, 28);
    const localOffset = offset;
    await write(Buffer.concat([header, entry.nameBytes]));
    await write(entry.data);

    const record = Buffer.alloc(CENTRAL_SIZE);
    record.writeUInt32LE(SIG_CENTRAL, 0);
    record.writeUInt16LE(MADE_BY_UNIX, 4);
    header.copy(record, 6, 4, 30); // version needed … extra length: the same as the local header
    record.writeUInt16LE(0, 32); // comment length
    record.writeUInt16LE(0, 34); // disk number
    record.writeUInt16LE(0, 36); // internal attributes
    record.writeUInt32LE(EXTERNAL_ATTRIBUTES, 38);
    record.writeUInt32LE(localOffset, 42);
    central.push(record, entry.nameBytes);
    entries.push({
      name: inputs[i]!.name,
      size: entry.size,
      compressedSize: entry.data.length,
      method: entry.method === METHOD_DEFLATE ? 'deflate' : 'store',
      crc32: entry.crc,
    });
    options.onEntry?.(i + 1, inputs.length);
  }

  const directory = Buffer.concat(central);
  const directoryOffset = offset;
  if (directoryOffset > max32) throw new Error('the zip would need zip64');
  const end = Buffer.alloc(END_SIZE);
  end.writeUInt32LE(SIG_END, 0);
  end.writeUInt16LE(inputs.length, 8);
  end.writeUInt16LE(inputs.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(directoryOffset, 16);
  await write(Buffer.concat([directory, end]));
  return { entries, size: offset, sha256: hash.digest('hex') };
}

/** Reads, checksums and compresses one entry. */
async function prepare(input: ZipInput, level: number): Promise<Prepared> {
  const nameBytes = Buffer.from(input.name, 'utf8');
  const content = await input.read();
  const crc = crc32(content);
  const { data, method } = await compressContent(content, level);
  return { nameBytes, data, size: content.length, crc, method: method === 'deflate' ? METHOD_DEFLATE : METHOD_STORED };
}

function isAscii(bytes: Buffer): boolean {
  for (const byte of bytes) if (byte >= 0x80) return false;
  return true;
}

/**
 * MS-DOS date and time fields from the UTC calendar fields, so the time zone of the machine never
 * shows. The format starts in 1980, ends in 2107 and counts seconds in twos.
 */
export function dosDateTime(timestamp: Date): { time: number; date: number } {
  const min = Date.UTC(1980, 0, 1);
  const max = Date.UTC(2107, 11, 31, 23, 59, 58);
  const t = new Date(Math.min(Math.max(timestamp.getTime(), min), max));
  return {
    time: (t.getUTCHours() << 11) | (t.getUTCMinutes() << 5) | (t.getUTCSeconds() >> 1),
    date: ((t.getUTCFullYear() - 1980) << 9) | ((t.getUTCMonth() + 1) << 5) | t.getUTCDate(),
  };
}
