import type { Finding } from '../../problem.js';
import { findField, parseExtra, unicodePathMismatch, ZIP64_EXTRA_ID, zip64Contradiction, zip64Values, type ExtraBlock } from './extra-fields.js';
import type { RandomAccess } from './random-access.js';
import { corrupt, FLAG_DESCRIPTOR, FLAG_ENCRYPTED, FLAG_UTF8, LOCAL_SIZE, readUInt64, SIG_DESCRIPTOR, SIG_LOCAL, truncated, ZIP64_MARK } from './zip-format.js';
import type { ZipRecord } from './zip-structure.js';

/** What the central record says, to hold the local header against. */
export interface CentralCopy {
  nameBytes: Buffer;
  flags: number;
  method: number;
  /** The name the central record's Unicode Path field gives, when it differs (already reported). */
  unicodeName?: string;
}

/** The finding for an extra-field block whose sub-field runs past its end. */
export function extraOverrun(block: ExtraBlock, where: 'central' | 'local', file: string): Finding | undefined {
  if (!block.overrun) return undefined;
  const { id, declared, available } = block.overrun;
  return { ruleId: 'archive-extra-field', file, data: { where, id: `0x${id.toString(16).padStart(4, '0')}`, declared, available } };
}

/**
 * Compares the local header with the central record; readers differ on which one they trust.
 * Sets the record's data offset when the header is usable.
 */
export async function checkLocalHeader(file: RandomAccess, record: ZipRecord, central: CentralCopy, findings: Finding[]): Promise<void> {
  const header = await file.read(record.localOffset, LOCAL_SIZE);
  if (header.length < LOCAL_SIZE) {
    findings.push({ ...truncated('a local header lies past the end of the file'), file: record.name });
    return;
  }
  if (header.readUInt32LE(0) !== SIG_LOCAL) {
    findings.push(corrupt('no local header where the central directory points', record.name));
    return;
  }
  const nameLength = header.readUInt16LE(26);
  const extraLength = header.readUInt16LE(28);
  // The name and the extra field follow the header: one read for both.
  const variable = await file.read(record.localOffset + LOCAL_SIZE, nameLength + extraLength);
  const name = variable.subarray(0, nameLength);
  const extra = parseExtra(variable.subarray(nameLength));
  const overrun = extraOverrun(extra, 'local', record.name);
  if (overrun) findings.push(overrun);
  // The same other name in both headers is one finding, made for the central record.
  const renamed = unicodePathMismatch(extra, name, record.name, 'local');
  if (renamed && renamed.data['other'] !== central.unicodeName) findings.push(renamed);
  const zip64 = findField(extra, ZIP64_EXTRA_ID);
  // With a Zip64 field in the local header, a data descriptor carries 8-byte sizes.
  record.descriptor64 = zip64 !== undefined;

  let uncompressed = header.readUInt32LE(22);
  let compressed = header.readUInt32LE(18);
  const marked = [uncompressed === ZIP64_MARK, compressed === ZIP64_MARK];
  if (marked[1] || (marked[0] && zip64)) {
    // A local header's Zip64 field holds both sizes (APPNOTE 4.5.3), whichever one is marked.
    const values = zip64 ? zip64Values(zip64, zip64.data.length >= 16 ? [true, true] : marked) : undefined;
    if (!values) {
      findings.push(corrupt('the local header marks its sizes as stored in a Zip64 field, but that field is missing or too short', record.name));
      return;
    }
    if (marked[0]) uncompressed = values[0]!;
    if (marked[1]) compressed = values[1]!;
  }
  // Behind a data descriptor the header's sizes are placeholders; the descriptor's are checked.
  const flags = header.readUInt16LE(6);
  const contradiction = zip64 && !(flags & FLAG_DESCRIPTOR) && zip64Contradiction(zip64, marked, [uncompressed, compressed], 'local header');
  if (contradiction) findings.push(corrupt(contradiction, record.name));

  const differs: string[] = [];
  if (!name.equals(central.nameBytes)) differs.push('name');
  if (header.readUInt16LE(8) !== central.method) differs.push('compression method');
  // The UTF-8 flag decides how a non-ASCII name is decoded; readers that decode the local name by
  // its own flag (Python's zipfile) then find it differs from the central one and refuse the entry.
  const nonAscii = central.nameBytes.some((b) => b >= 0x80);
  const compared = FLAG_ENCRYPTED | FLAG_DESCRIPTOR | (nonAscii ? FLAG_UTF8 : 0);
  if ((flags & compared) !== (central.flags & compared)) differs.push('flags');
  // With a data descriptor the local header may leave CRC and sizes as zero; they are checked
  // against the descriptor instead.
  if (!(flags & FLAG_DESCRIPTOR)) {
    if (header.readUInt32LE(14) !== record.crc32) differs.push('CRC-32');
    if (compressed !== record.compressedSize) differs.push('compressed size');
    if (uncompressed !== record.uncompressedSize) differs.push('uncompressed size');
  }
  if (differs.length > 0) findings.push({ ruleId: 'archive-header-mismatch', file: record.name, data: { fields: differs } });
  record.dataOffset = record.localOffset + LOCAL_SIZE + nameLength + extraLength;
  if (record.dataOffset + record.compressedSize > file.size) {
    findings.push({ ...truncated("an entry's data runs past the end of the file"), file: record.name });
    record.dataOffset = undefined;
  }
}

/**
 * Where a data descriptor ends, after checking it against the central record. Its sizes are 8
 * bytes each when the local header has a Zip64 field, else 4 (APPNOTE 4.3.9.2): that is all a
 * reader that streams the archive can go by. A descriptor that holds the other width, as yazl
 * writes with forceZip64Format (and yauzl's zip64.zip test archive holds), reads right only to
 * readers that take the sizes from the central directory; bsdtar reading from a pipe and Java's
 * ZipInputStream read another size and fail. Malformed Zip64, so corrupt.
 */
export async function checkDescriptor(file: RandomAccess, record: ZipRecord, at: number, findings: Finding[]): Promise<number> {
  const wide = record.descriptor64 === true;
  const descriptor = await file.read(at, 24);
  // The descriptor's signature is optional.
  const skip = descriptor.length >= 4 && descriptor.readUInt32LE(0) === SIG_DESCRIPTOR ? 4 : 0;
  const announced = readDescriptor(descriptor, skip, wide);
  if (!announced) {
    findings.push({ ...truncated('a data descriptor lies past the end of the file'), file: record.name });
    return at + skip + (wide ? 20 : 12);
  }
  const agrees = (d: Descriptor) => d.crc === record.crc32 && d.compressed === record.compressedSize && d.uncompressed === record.uncompressedSize;
  const other = agrees(announced) ? undefined : readDescriptor(descriptor, skip, !wide);
  if (other && agrees(other)) {
    findings.push(
      corrupt(
        wide
          ? "the data descriptor holds 4-byte sizes, but the local header has a Zip64 field, which tells a reader to expect 8-byte ones (APPNOTE 4.3.9.2); readers that stream the archive read other sizes and fail"
          : "the data descriptor holds 8-byte (Zip64) sizes, but the local header has no Zip64 field, which is what tells a reader to expect them (APPNOTE 4.3.9.2); readers that stream the archive read 4-byte sizes and fail (bsdtar from a pipe: \"uncompressed data is wrong size\")",
        record.name,
      ),
    );
    return at + skip + other.length;
  }
  if (announced.crc !== record.crc32) {
    findings.push({ ruleId: 'archive-crc-mismatch', file: record.name, data: { expected: hex(record.crc32), actual: hex(announced.crc), where: 'data descriptor' } });
  }
  if (announced.compressed !== record.compressedSize || announced.uncompressed !== record.uncompressedSize) {
    findings.push({ ruleId: 'archive-header-mismatch', file: record.name, data: { fields: ['data descriptor'] } });
  }
  return at + skip + announced.length;
}

interface Descriptor {
  crc: number;
  compressed: number;
  uncompressed: number;
  /** Its length after the optional signature. */
  length: number;
}

/** A descriptor's fields with sizes of one width; undefined when the file ends before them. */
function readDescriptor(bytes: Buffer, skip: number, wide: boolean): Descriptor | undefined {
  const length = wide ? 20 : 12;
  if (bytes.length < skip + length) return undefined;
  return {
    crc: bytes.readUInt32LE(skip),
    compressed: wide ? readUInt64(bytes, skip + 4) : bytes.readUInt32LE(skip + 4),
    uncompressed: wide ? readUInt64(bytes, skip + 12) : bytes.readUInt32LE(skip + 8),
    length,
  };
}

export function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}
