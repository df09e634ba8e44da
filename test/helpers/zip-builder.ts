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
  /** Extra-field block of the local header and of the central record (after any Zip64 field). */
  extra?: Buffer;
  /** Replaces the whole extra-field block of the local header / the central record. */
  localExtra?: Buffer;
  centralExtra?: Buffer;
  /** The central record's file comment. */
  comment?: Buffer;
  /**
   * Write the entry in Zip64 form, as streaming writers do: sizes and offset set to 0xFFFFFFFF in
   * both headers, their real values in Zip64 extra fields, and a descriptor with 8-byte sizes.
   */
  zip64?: boolean;
  /** "Version needed to extract" in both headers (default 20, or 45 for Zip64). */
  versionNeeded?: number;
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
  /** Override the central directory size written in the end record. */
  cdSize?: number;
  disk?: number;
  /** The disk the central directory starts on (default: `disk`). */
  cdDisk?: number;
  /** The entries-on-this-disk count (default: the claimed count). */
  entriesOnDisk?: number;
  /** Write a Zip64 end record and locator before the end record, with overrides for tests. */
  zip64?: Zip64End;
}

export interface Zip64End {
  /** Put 0xFFFF / 0xFFFFFFFF in the classic end record (default true). */
  sentinels?: boolean;
  /** Values of the Zip64 end record (default: the real ones). */
  entries?: number;
  entriesOnDisk?: number;
  cdSize?: number;
  cdOffset?: number;
  disk?: number;
  /** Where the locator says the Zip64 end record is (default: where it is). */
  recordOffset?: number;
  totalDisks?: number;
  /** Leave the Zip64 end record out, keeping the locator. */
  omitRecord?: boolean;
  /** Bytes between the Zip64 end record and the locator. */
  gap?: Buffer;
  /** "Extensible data" inside the Zip64 end record (counted in its size field). */
  extensible?: Buffer;
}

const MARK = 0xffffffff;

function u64(...values: number[]): Buffer {
  const b = Buffer.alloc(8 * values.length);
  values.forEach((v, i) => b.writeBigUInt64LE(BigInt(v), 8 * i));
  return b;
}

/** An extra-field sub-field: id, length, data. */
export function extraField(id: number, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16LE(id, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
}

/** An Info-ZIP Unicode Path field (0x7075) naming `unicodeName` for the raw name `rawName`. */
export function unicodePathField(rawName: Buffer, unicodeName: string, nameCrc = crc(rawName)): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(1, 0);
  head.writeUInt32LE(nameCrc >>> 0, 1);
  return extraField(0x7075, Buffer.concat([head, Buffer.from(unicodeName, 'utf8')]));
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
    const zip64 = entry.zip64 === true;
    const sizes64 = zip64 ? { compressedSize: MARK, uncompressedSize: MARK } : {};
    const local = { ...real, ...(descriptor ? { crc: 0, compressedSize: 0, uncompressedSize: 0 } : {}), ...sizes64, ...entry.local };
    const central = { ...real, ...sizes64, ...(zip64 ? { localOffset: MARK } : {}), ...entry.central };
    const extra = entry.extra ?? Buffer.alloc(0);
    const localExtra =
      entry.localExtra ??
      Buffer.concat([zip64 ? extraField(1, descriptor ? u64(0, 0) : u64(real.uncompressedSize, real.compressedSize)) : Buffer.alloc(0), extra]);
    const centralExtra =
      entry.centralExtra ?? Buffer.concat([zip64 ? extraField(1, u64(real.uncompressedSize, real.compressedSize, real.localOffset)) : Buffer.alloc(0), extra]);
    const comment = entry.comment ?? Buffer.alloc(0);
    const version = entry.versionNeeded ?? (zip64 ? 45 : 20);

    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(version, 4);
    header.writeUInt16LE(local.flags, 6);
    header.writeUInt16LE(local.method, 8);
    header.writeUInt16LE(0, 10);
    header.writeUInt16LE(0x21, 12);
    header.writeUInt32LE(local.crc >>> 0, 14);
    header.writeUInt32LE(local.compressedSize, 18);
    header.writeUInt32LE(local.uncompressedSize, 22);
    header.writeUInt16LE(local.name.length, 26);
    header.writeUInt16LE(localExtra.length, 28);
    push(Buffer.concat([header, local.name, localExtra, payload]));
    if (descriptor) {
      const signature = Buffer.alloc(descriptor.signature ? 4 : 0);
      if (descriptor.signature) signature.writeUInt32LE(0x08074b50, 0);
      const checksum = Buffer.alloc(4);
      checksum.writeUInt32LE((descriptor.crc ?? real.crc) >>> 0, 0);
      const sizes = zip64 ? u64(real.compressedSize, real.uncompressedSize) : Buffer.alloc(8);
      if (!zip64) {
        sizes.writeUInt32LE(real.compressedSize, 0);
        sizes.writeUInt32LE(real.uncompressedSize, 4);
      }
      push(Buffer.concat([signature, checksum, sizes]));
    }
    if (archive.gapAfter?.index === index) push(archive.gapAfter.bytes);

    const record = Buffer.alloc(46);
    const unix = entry.unixMode !== undefined;
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(((unix ? 3 : 0) << 8) | version, 4);
    record.writeUInt16LE(version, 6);
    record.writeUInt16LE(central.flags, 8);
    record.writeUInt16LE(central.method, 10);
    record.writeUInt16LE(0, 12);
    record.writeUInt16LE(0x21, 14);
    record.writeUInt32LE(central.crc >>> 0, 16);
    record.writeUInt32LE(central.compressedSize, 20);
    record.writeUInt32LE(central.uncompressedSize, 24);
    record.writeUInt16LE(central.name.length, 28);
    record.writeUInt16LE(centralExtra.length, 30);
    record.writeUInt16LE(comment.length, 32);
    record.writeUInt32LE(unix ? ((entry.unixMode! << 16) >>> 0) : (entry.dosAttributes ?? 0), 38);
    record.writeUInt32LE(central.localOffset, 42);
    centrals.push(Buffer.concat([record, central.name, centralExtra, comment]));
  });

  const cdOffset = offset;
  const cd = Buffer.concat(centrals);
  push(cd);
  if (archive.beforeEnd) push(archive.beforeEnd);
  const count = archive.claimedCount ?? entries.length;
  const z64 = archive.zip64;
  if (z64) {
    const recordAt = offset;
    if (!z64.omitRecord) {
      const head = Buffer.alloc(24);
      head.writeUInt32LE(0x06064b50, 0);
      head.writeBigUInt64LE(BigInt(44 + (z64.extensible?.length ?? 0)), 4);
      head.writeUInt16LE(45, 12);
      head.writeUInt16LE(45, 14);
      head.writeUInt32LE(z64.disk ?? 0, 16);
      head.writeUInt32LE(z64.disk ?? 0, 20);
      const entriesOnDisk = z64.entriesOnDisk ?? z64.entries ?? count;
      push(Buffer.concat([head, u64(entriesOnDisk, z64.entries ?? count, z64.cdSize ?? cd.length, z64.cdOffset ?? archive.cdOffset ?? cdOffset), z64.extensible ?? Buffer.alloc(0)]));
    }
    if (z64.gap) push(z64.gap);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(z64.recordOffset ?? recordAt), 8);
    locator.writeUInt32LE(z64.totalDisks ?? 1, 16);
    push(locator);
  }
  const sentinels = z64 !== undefined && z64.sentinels !== false;
  const comment = archive.comment ?? Buffer.alloc(0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(archive.disk ?? 0, 4);
  end.writeUInt16LE(archive.cdDisk ?? archive.disk ?? 0, 6);
  end.writeUInt16LE(sentinels ? 0xffff : (archive.entriesOnDisk ?? count), 8);
  end.writeUInt16LE(sentinels ? 0xffff : count, 10);
  end.writeUInt32LE(sentinels ? MARK : (archive.cdSize ?? cd.length), 12);
  end.writeUInt32LE(sentinels ? MARK : (archive.cdOffset ?? cdOffset), 16);
  end.writeUInt16LE(comment.length, 20);
  push(Buffer.concat([end, comment]));
  if (archive.trailing) push(archive.trailing);
  return Buffer.concat(parts);
}

/**
 * The same archive with its central directory written first, at offset 0, and the entries after
 * it: a layout no zip tool writes, which readers that work out a prefix from where the directory
 * ends (Python's zipfile) read differently. For an archive without Zip64 records or a comment.
 */
export function directoryFirst(bytes: Buffer): Buffer {
  const end = bytes.subarray(bytes.length - 22);
  const cdSize = end.readUInt32LE(12);
  const cdOffset = end.readUInt32LE(16);
  const cd = Buffer.from(bytes.subarray(cdOffset, cdOffset + cdSize));
  for (let at = 0; at < cd.length; at += 46 + cd.readUInt16LE(at + 28) + cd.readUInt16LE(at + 30) + cd.readUInt16LE(at + 32)) {
    cd.writeUInt32LE(cd.readUInt32LE(at + 42) + cdSize, at + 42);
  }
  const newEnd = Buffer.from(end);
  newEnd.writeUInt32LE(0, 16);
  return Buffer.concat([cd, bytes.subarray(0, cdOffset), bytes.subarray(cdOffset + cdSize, bytes.length - 22), newEnd]);
}
