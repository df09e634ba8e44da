import zlib from 'node:zlib';

/**
 * Builds zip archives byte by byte, so tests can produce exactly the malformed or hostile
 * structures a real zip tool never writes. Every field can be overridden separately in the local
 * header and the central directory, which is what most attacks on zip readers rely on.
 */
export interface EntrySpec {
  name: string | Buffer;
  data?: Buffer | string;
  /** 0 stored, 8 deflate (default), anything else is written as-is with deflate-free data. */
  method?: number;
  flags?: number;
  /** Unix mode (e.g. 0o120777 for a symlink) recorded with "made by Unix". */
  unixMode?: number;
  /** DOS attribute byte for entries "made by MS-DOS" (used when unixMode is undefined). */
  dosAttributes?: number;
  /** Overrides applied to the central directory record only. */
  central?: Partial<HeaderFields>;
  /** Overrides applied to the local header only. */
  local?: Partial<HeaderFields>;
  /** Write a data descriptor after the data (sets flag bit 3 and zeroes local CRC/sizes). */
  descriptor?: boolean | { signature: boolean; crc?: number };
  /** Raw bytes to use as the compressed payload instead of compressing `data`. */
  payload?: Buffer;
}

export interface HeaderFields {
  name: Buffer;
  method: number;
  flags: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
}

export interface ArchiveSpec {
  /** Bytes written before the first entry. */
  prefix?: Buffer;
  /** Bytes inserted after the entry with this index. */
  gapAfter?: { index: number; bytes: Buffer };
  /** Bytes between the central directory and the end record. */
  beforeEnd?: Buffer;
  /** Bytes after the end record (not counted as comment). */
  trailing?: Buffer;
  /** The entry count the end record claims (default: the real count). */
  claimedCount?: number;
  comment?: Buffer;
  /** Override the central directory offset written in the end record. */
  cdOffset?: number;
  disk?: number;
}

export function crc(data: Buffer): number {
  return zlib.crc32(data) >>> 0;
}

export function buildZip(entries: EntrySpec[], archive: ArchiveSpec = {}): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  const push = (b: Buffer) => {
    parts.push(b);
    offset += b.length;
  };
  if (archive.prefix) push(archive.prefix);

  const centrals: Buffer[] = [];
  entries.forEach((entry, index) => {
    const name = Buffer.isBuffer(entry.name) ? entry.name : Buffer.from(entry.name, 'utf8');
    const data = Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data ?? '', 'utf8');
    const method = entry.method ?? 8;
    const payload = entry.payload ?? (method === 8 ? zlib.deflateRawSync(data) : data);
    const utf8Flag = name.some((b) => b >= 0x80) && !Buffer.isBuffer(entry.name) ? 0x800 : 0;
    const descriptor = entry.descriptor === true ? { signature: true } : entry.descriptor || undefined;
    const flags = (entry.flags ?? utf8Flag) | (descriptor ? 0x8 : 0);
    const real: HeaderFields = { name, method, flags, crc: crc(data), compressedSize: payload.length, uncompressedSize: data.length, localOffset: offset };
    const local = { ...real, ...(descriptor ? { crc: 0, compressedSize: 0, uncompressedSize: 0 } : {}), ...entry.local };
    const central = { ...real, ...entry.central };

    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(local.flags, 6);
    header.writeUInt16LE(local.method, 8);
    header.writeUInt16LE(0, 10);
    header.writeUInt16LE(0x21, 12);
    header.writeUInt32LE(local.crc >>> 0, 14);
    header.writeUInt32LE(local.compressedSize, 18);
    header.writeUInt32LE(local.uncompressedSize, 22);
    header.writeUInt16LE(local.name.length, 26);
    header.writeUInt16LE(0, 28);
    push(Buffer.concat([header, local.name, payload]));
    if (descriptor) {
      const d = Buffer.alloc(descriptor.signature ? 16 : 12);
      let at = 0;
      if (descriptor.signature) d.writeUInt32LE(0x08074b50, (at += 4) - 4);
      d.writeUInt32LE((descriptor.crc ?? real.crc) >>> 0, at);
      d.writeUInt32LE(real.compressedSize, at + 4);
      d.writeUInt32LE(real.uncompressedSize, at + 8);
      push(d);
    }
    if (archive.gapAfter?.index === index) push(archive.gapAfter.bytes);

    const record = Buffer.alloc(46);
    const unix = entry.unixMode !== undefined;
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(((unix ? 3 : 0) << 8) | 20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(central.flags, 8);
    record.writeUInt16LE(central.method, 10);
    record.writeUInt16LE(0, 12);
    record.writeUInt16LE(0x21, 14);
    record.writeUInt32LE(central.crc >>> 0, 16);
    record.writeUInt32LE(central.compressedSize, 20);
    record.writeUInt32LE(central.uncompressedSize, 24);
    record.writeUInt16LE(central.name.length, 28);
    record.writeUInt32LE(unix ? ((entry.unixMode! << 16) >>> 0) : (entry.dosAttributes ?? 0), 38);
    record.writeUInt32LE(central.localOffset, 42);
    centrals.push(Buffer.concat([record, central.name]));
  });

  const cdOffset = offset;
  const cd = Buffer.concat(centrals);
  push(cd);
  if (archive.beforeEnd) push(archive.beforeEnd);
  const comment = archive.comment ?? Buffer.alloc(0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(archive.disk ?? 0, 4);
  end.writeUInt16LE(archive.disk ?? 0, 6);
  end.writeUInt16LE(archive.claimedCount ?? entries.length, 8);
  end.writeUInt16LE(archive.claimedCount ?? entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(archive.cdOffset ?? cdOffset, 16);
  end.writeUInt16LE(comment.length, 20);
  push(Buffer.concat([end, comment]));
  if (archive.trailing) push(archive.trailing);
  return Buffer.concat(parts);
}
