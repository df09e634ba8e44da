import type { Finding } from '../../problem.js';
import { findField, parseExtra, ZIP64_EXTRA_ID, zip64Values, type ExtraBlock } from './extra-fields.js';
import type { RandomAccess } from './random-access.js';
import { corrupt, FLAG_DESCRIPTOR, FLAG_ENCRYPTED, FLAG_UTF8, LOCAL_SIZE, readUInt64, SIG_DESCRIPTOR, SIG_LOCAL, truncated, ZIP64_MARK } from './zip-format.js';
import type { ZipRecord } from './zip-structure.js';

/** What the central record says, to hold the local header against. */
export interface CentralCopy {
  nameBytes: Buffer;
  flags: number;
  method: number;
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
  const zip64 = findField(extra, ZIP64_EXTRA_ID);
  // With a Zip64 field in the local header, a data descriptor carries 8-byte sizes.
  record.descriptor64 = zip64 !== undefined;

  let uncompressed = header.readUInt32LE(22);
  let compressed = header.readUInt32LE(18);
  const marked = [uncompressed === ZIP64_MARK, compressed === ZIP64_MARK];
  if (marked[1] || (marked[0] && zip64)) {
    const values = zip64 ? zip64Values(zip64, marked) : undefined;
    if (!values) {
      findings.push(corrupt('the local header marks its sizes as stored in a Zip64 field, but that field is missing or too short', record.name));
      return;
    }
    uncompressed = values[0] ?? uncompressed;
    compressed = values[1] ?? compressed;
  }

  const flags = header.readUInt16LE(6);
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

/** Where a data descriptor ends, after checking it against the central record. */
export async function checkDescriptor(file: RandomAccess, record: ZipRecord, at: number, findings: Finding[]): Promise<number> {
  const wide = record.descriptor64 === true;
  const length = wide ? 20 : 12;
  const descriptor = await file.read(at, length + 4);
  // The descriptor's signature is optional.
  const skip = descriptor.length >= 4 && descriptor.readUInt32LE(0) === SIG_DESCRIPTOR ? 4 : 0;
  if (descriptor.length < skip + length) {
    findings.push({ ...truncated('a data descriptor lies past the end of the file'), file: record.name });
    return at + skip + length;
  }
  const crc = descriptor.readUInt32LE(skip);
  const compressed = wide ? readUInt64(descriptor, skip + 4) : descriptor.readUInt32LE(skip + 4);
  const uncompressed = wide ? readUInt64(descriptor, skip + 12) : descriptor.readUInt32LE(skip + 8);
  if (crc !== record.crc32) {
    findings.push({ ruleId: 'archive-crc-mismatch', file: record.name, data: { expected: hex(record.crc32), actual: hex(crc), where: 'data descriptor' } });
  }
  if (compressed !== record.compressedSize || uncompressed !== record.uncompressedSize) {
    findings.push({ ruleId: 'archive-header-mismatch', file: record.name, data: { fields: ['data descriptor'] } });
  }
  return at + skip + length;
}

export function hex(n: number): string {
  return n.toString(16).padStart(8, '0');
}
