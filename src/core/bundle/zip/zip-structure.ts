import type { Finding } from '../../problem.js';
import type { EntryKind } from '../source.js';
import type { RandomAccess } from './random-access.js';

// Record signatures and fixed sizes from the ZIP application note (APPNOTE.TXT).
const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const SIG_DESCRIPTOR = 0x08074b50;
const EOCD_SIZE = 22;
const CENTRAL_SIZE = 46;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;
/** More central records than this is an attack on the reader, not a bundle (the limit is 200 files). */
const MAX_RECORDS = 65_535;

/**
 * Stored and deflated entries need version 2.0 (4.5 with Zip64). Readers skip or refuse entries
 * that claim more than they implement: Info-ZIP unzip 6.0 anything above 4.6, Python above 6.3.
 */
const MAX_VERSION_NEEDED = 46;

const FLAG_ENCRYPTED = 0x0001;
const FLAG_DESCRIPTOR = 0x0008;
/** PKWARE's "compressed patched data": the entry holds a patch, not the file. */
const FLAG_PATCHED = 0x0020;
const FLAG_STRONG_ENCRYPTION = 0x0040;
const FLAG_UTF8 = 0x0800;
const METHOD_AES = 99;

/** One entry as the central directory describes it, checked against its local header. */
export interface ZipRecord {
  index: number;
  /** Decoded name (lossy when the bytes are not UTF-8; a finding says so). */
  name: string;
  kind: EntryKind;
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
  /** Where the entry's compressed bytes start; undefined when the local header is unusable. */
  dataOffset?: number;
  encrypted: boolean;
}

export interface ZipStructure {
  records: ZipRecord[];
  findings: Finding[];
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');
const cp437High =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/**
 * Reads the archive's structure without trusting it: every offset, size and count is checked
 * against the file and against the other records, and whatever does not add up becomes a finding.
 * Reading stops early only where nothing further can be located reliably.
 */
export async function readZipStructure(file: RandomAccess): Promise<ZipStructure> {
  const findings: Finding[] = [];
  const records: ZipRecord[] = [];
  const result = { records, findings };
  const size = file.size;

  const head = await file.read(0, 4);
  const startsLikeZip = head.length === 4 && head.readUInt32LE(0) === SIG_LOCAL;
  if (size < EOCD_SIZE) {
    findings.push(startsLikeZip ? truncated('the file ends before the end-of-archive record') : notZip(size));
    return result;
  }

  // The end record sits in the last 22 + up to 65,535 comment bytes. Prefer a candidate whose
  // comment ends exactly at the end of the file; a signature inside a comment must not fool us.
  const tailStart = Math.max(0, size - EOCD_SIZE - MAX_COMMENT);
  const tail = await file.read(tailStart, size - tailStart);
  let eocdAt = -1;
  let fallback = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== SIG_EOCD) continue;
    const commentLength = tail.readUInt16LE(i + 20);
    if (i + EOCD_SIZE + commentLength === tail.length) {
      eocdAt = i;
      break;
    }
    if (fallback < 0) fallback = i;
  }
  if (eocdAt < 0 && fallback >= 0) {
    eocdAt = fallback;
    const end = eocdAt + EOCD_SIZE + tail.readUInt16LE(eocdAt + 20);
    if (end < tail.length) findings.push({ ruleId: 'archive-trailing-data', data: { bytes: tail.length - end } });
    else {
      findings.push(truncated('the archive comment runs past the end of the file'));
      return result;
    }
  }
  if (eocdAt < 0) {
    findings.push(startsLikeZip ? truncated('the end-of-archive record is missing') : notZip(size));
    return result;
  }

  const eocd = tail.subarray(eocdAt);
  const eocdOffset = tailStart + eocdAt;
  const disk = eocd.readUInt16LE(4);
  const cdDisk = eocd.readUInt16LE(6);
  const entriesOnDisk = eocd.readUInt16LE(8);
  const totalEntries = eocd.readUInt16LE(10);
  const cdSize = eocd.readUInt32LE(12);
  const cdOffset = eocd.readUInt32LE(16);

  const zip64Locator = eocdOffset >= 20 ? await file.read(eocdOffset - 20, 4) : Buffer.alloc(0);
  if (
    (zip64Locator.length === 4 && zip64Locator.readUInt32LE(0) === SIG_ZIP64_LOCATOR) ||
    totalEntries === 0xffff ||
    cdSize === 0xffffffff ||
    cdOffset === 0xffffffff
  ) {
    findings.push({ ruleId: 'archive-unsupported', data: { feature: 'zip64' } });
    return result;
  }
  if (disk !== 0 || cdDisk !== 0 || entriesOnDisk !== totalEntries) {
    findings.push({ ruleId: 'archive-unsupported', data: { feature: 'multi-disk' } });
    return result;
  }
  if (cdOffset + cdSize > eocdOffset) {
    findings.push(
      cdOffset + cdSize > size
        ? truncated('the central directory runs past the end of the file')
        : corrupt('the central directory overlaps the end-of-archive record'),
    );
    return result;
  }

  // Central directory: walk records until its stated size is used up, whatever the count claims,
  // so entries hidden beyond the count are still seen.
  const cd = await file.read(cdOffset, cdSize);
  let pos = 0;
  while (pos < cd.length) {
    if (records.length >= MAX_RECORDS) {
      findings.push(corrupt(`the central directory holds more than ${MAX_RECORDS} records`));
      return result;
    }
    if (pos + CENTRAL_SIZE > cd.length || cd.readUInt32LE(pos) !== SIG_CENTRAL) {
      const found = pos === 0 ? await findPrefix(file, cdOffset, cdSize, eocdOffset) : 0;
      findings.push(
        found > 0
          ? { ruleId: 'archive-prefix-data', data: { bytes: found } }
          : corrupt(`central directory record ${records.length + 1} is damaged`),
      );
      return result;
    }
    const nameLength = cd.readUInt16LE(pos + 28);
    const extraLength = cd.readUInt16LE(pos + 30);
    const commentLength = cd.readUInt16LE(pos + 32);
    const recordEnd = pos + CENTRAL_SIZE + nameLength + extraLength + commentLength;
    if (recordEnd > cd.length) {
      findings.push(corrupt(`central directory record ${records.length + 1} runs past the directory's end`));
      return result;
    }
    const nameBytes = cd.subarray(pos + CENTRAL_SIZE, pos + CENTRAL_SIZE + nameLength);
    const flags = cd.readUInt16LE(pos + 8);
    const method = cd.readUInt16LE(pos + 10);
    const record: ZipRecord = {
      index: records.length,
      name: decodeName(nameBytes, flags, findings),
      kind: 'file',
      flags,
      method,
      crc32: cd.readUInt32LE(pos + 16),
      compressedSize: cd.readUInt32LE(pos + 20),
      uncompressedSize: cd.readUInt32LE(pos + 24),
      localOffset: cd.readUInt32LE(pos + 42),
      encrypted: (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) !== 0 || method === METHOD_AES,
    };
    record.kind = entryKind(record.name, cd.readUInt16LE(pos + 4) >> 8, cd.readUInt32LE(pos + 38));
    records.push(record);
    // Only the low byte is the version; readers check the central copy, not the local one.
    const versionNeeded = cd[pos + 6]!;
    if (versionNeeded > MAX_VERSION_NEEDED) {
      findings.push({ ruleId: 'archive-unsupported', file: record.name, data: { feature: 'version-needed', version: (versionNeeded / 10).toFixed(1) } });
    }
    // Python's zipfile refuses such an entry outright; other readers extract the patch as the file.
    if (flags & FLAG_PATCHED) findings.push({ ruleId: 'archive-unsupported', file: record.name, data: { feature: 'patched-data' } });
    const centralZip64 =
      record.compressedSize === ZIP64_MARK ||
      record.uncompressedSize === ZIP64_MARK ||
      record.localOffset === ZIP64_MARK ||
      hasZip64Extra(cd.subarray(pos + CENTRAL_SIZE + nameLength, pos + CENTRAL_SIZE + nameLength + extraLength));
    const central = { nameBytes, flags, method, crc32: record.crc32, compressed: record.compressedSize, uncompressed: record.uncompressedSize };
    const localZip64 = await checkLocalHeader(file, record, central, findings);
    if (centralZip64 || localZip64) findings.push({ ruleId: 'archive-unsupported', file: record.name, data: { feature: 'zip64' } });
    pos = recordEnd;
  }
  if (records.length !== totalEntries) {
    findings.push({ ruleId: 'archive-entry-count', data: { claimed: totalEntries, found: records.length } });
  }

  checkLayout(records, await spans(file, records, findings), cdOffset, cdSize, eocdOffset, findings);
  return result;
}

interface CentralCopy {
  nameBytes: Buffer;
  flags: number;
  method: number;
  crc32: number;
  compressed: number;
  uncompressed: number;
}

/** A size or offset field set to this means "see the Zip64 extra field". */
const ZIP64_MARK = 0xffffffff;
const ZIP64_EXTRA_ID = 0x0001;

/** Whether an extra-field block holds a Zip64 field; a malformed block simply ends the search. */
function hasZip64Extra(extra: Buffer): boolean {
  for (let at = 0; at + 4 <= extra.length; at += 4 + extra.readUInt16LE(at + 2)) {
    if (extra.readUInt16LE(at) === ZIP64_EXTRA_ID) return true;
  }
  return false;
}

/**
 * Compares the local header with the central record; readers differ on which one they trust.
 * Returns whether the local header uses Zip64 (its sizes then live in the extra field, so they
 * are not compared: the entry is reported as Zip64 instead of as a mismatch).
 */
async function checkLocalHeader(file: RandomAccess, record: ZipRecord, central: CentralCopy, findings: Finding[]): Promise<boolean> {
  const header = await file.read(record.localOffset, LOCAL_SIZE);
  if (header.length < LOCAL_SIZE) {
    findings.push({ ...truncated('a local header lies past the end of the file'), file: record.name });
    return false;
  }
  if (header.readUInt32LE(0) !== SIG_LOCAL) {
    findings.push({ ...corrupt('no local header where the central directory points'), file: record.name });
    return false;
  }
  const nameLength = header.readUInt16LE(26);
  const extraLength = header.readUInt16LE(28);
  // The name and the extra field follow the header: one read for both.
  const variable = await file.read(record.localOffset + LOCAL_SIZE, nameLength + extraLength);
  const name = variable.subarray(0, nameLength);
  const zip64 = header.readUInt32LE(18) === ZIP64_MARK || header.readUInt32LE(22) === ZIP64_MARK || hasZip64Extra(variable.subarray(nameLength));
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
    if (header.readUInt32LE(14) !== central.crc32) differs.push('CRC-32');
    if (!zip64 && header.readUInt32LE(18) !== central.compressed) differs.push('compressed size');
    if (!zip64 && header.readUInt32LE(22) !== central.uncompressed) differs.push('uncompressed size');
  }
  if (differs.length > 0) findings.push({ ruleId: 'archive-header-mismatch', file: record.name, data: { fields: differs } });
  record.dataOffset = record.localOffset + LOCAL_SIZE + nameLength + extraLength;
  if (record.dataOffset + record.compressedSize > file.size) {
    findings.push({ ...truncated("an entry's data runs past the end of the file"), file: record.name });
    record.dataOffset = undefined;
  }
  return zip64;
}

interface Span {
  record: ZipRecord;
  start: number;
  end: number;
}

/** Byte range each entry occupies: local header, name, extra, data and any data descriptor. */
async function spans(file: RandomAccess, records: ZipRecord[], findings: Finding[]): Promise<Span[]> {
  const result: Span[] = [];
  for (const record of records) {
    if (record.dataOffset === undefined) continue;
    let end = record.dataOffset + record.compressedSize;
    if (record.flags & FLAG_DESCRIPTOR) {
      const descriptor = await file.read(end, 16);
      // The descriptor's signature is optional; when present the record is 16 bytes, else 12.
      const at = descriptor.length >= 4 && descriptor.readUInt32LE(0) === SIG_DESCRIPTOR ? 4 : 0;
      if (descriptor.length < at + 12) {
        findings.push({ ...truncated('a data descriptor lies past the end of the file'), file: record.name });
      } else if (
        descriptor.readUInt32LE(at) !== record.crc32 ||
        descriptor.readUInt32LE(at + 4) !== record.compressedSize ||
        descriptor.readUInt32LE(at + 8) !== record.uncompressedSize
      ) {
        findings.push({ ruleId: 'archive-header-mismatch', file: record.name, data: { fields: ['data descriptor'] } });
      }
      end += at + 12;
    }
    result.push({ record, start: record.localOffset, end });
  }
  return result.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * Entries must tile the file: the first at offset 0, each starting where the previous ended, the
 * central directory right after the last, the end record right after that. A gap can hide data
 * that some readers extract; an overlap lets two names share bytes (the classic zip bomb trick).
 */
function checkLayout(records: ZipRecord[], layout: Span[], cdOffset: number, cdSize: number, eocdOffset: number, findings: Finding[]) {
  let cursor = 0;
  let previous: Span | undefined;
  for (const span of layout) {
    if (span.start > cursor) {
      findings.push(
        previous
          ? { ruleId: 'archive-hidden-data', data: { offset: cursor, bytes: span.start - cursor, after: previous.record.name } }
          : { ruleId: 'archive-prefix-data', data: { bytes: span.start } },
      );
    } else if (span.start < cursor && previous) {
      findings.push({ ruleId: 'archive-overlap', file: span.record.name, data: { other: previous.record.name, offset: span.start } });
    }
    if (span.end > cursor) {
      cursor = span.end;
      previous = span;
    }
  }
  if (records.length === 0 && cdOffset > 0) findings.push({ ruleId: 'archive-prefix-data', data: { bytes: cdOffset } });
  else if (cursor < cdOffset && previous) {
    findings.push({ ruleId: 'archive-hidden-data', data: { offset: cursor, bytes: cdOffset - cursor, after: previous.record.name } });
  } else if (cursor > cdOffset && previous) {
    findings.push({ ruleId: 'archive-overlap', file: previous.record.name, data: { other: 'the central directory', offset: cdOffset } });
  }
  if (cdOffset + cdSize < eocdOffset) {
    findings.push({ ruleId: 'archive-hidden-data', data: { offset: cdOffset + cdSize, bytes: eocdOffset - cdOffset - cdSize, after: 'the central directory' } });
  }
}

/** When the directory is not where the end record says, it may sit later by a prefix's length. */
async function findPrefix(file: RandomAccess, cdOffset: number, cdSize: number, eocdOffset: number): Promise<number> {
  const actual = eocdOffset - cdSize;
  if (actual <= cdOffset) return 0;
  const delta = actual - cdOffset;
  // A prefix shifts everything: the directory and the first local header both sit `delta` later.
  const central = await file.read(actual, 4);
  const local = await file.read(delta, 4);
  const shifted = (b: Buffer, sig: number) => b.length === 4 && b.readUInt32LE(0) === sig;
  return shifted(central, SIG_CENTRAL) && shifted(local, SIG_LOCAL) ? delta : 0;
}

function decodeName(bytes: Buffer, flags: number, findings: Finding[]): string {
  const ascii = bytes.every((b) => b < 0x80);
  if (ascii) return bytes.toString('latin1');
  try {
    const name = utf8.decode(bytes);
    if (!(flags & FLAG_UTF8)) {
      // Readers that follow the format decode unflagged names as code page 437.
      const asCp437 = Array.from(bytes, (b) => (b < 0x80 ? String.fromCharCode(b) : cp437High[b - 0x80])).join('');
      findings.push({ ruleId: 'path-utf8-flag', file: name, data: { cp437: asCp437 } });
    }
    return name;
  } catch {
    const name = lossy.decode(bytes);
    findings.push({ ruleId: 'path-encoding', file: name, data: { hex: bytes.toString('hex') } });
    return name;
  }
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const HOST_UNIX = 3;
const DOS_REPARSE_POINT = 0x400;

/** What the entry is, from its name and, where the creating host recorded one, its file mode. */
function entryKind(name: string, host: number, external: number): EntryKind {
  const namedAsDirectory = name.endsWith('/');
  if (host === HOST_UNIX) {
    const type = (external >>> 16) & S_IFMT;
    if (type === S_IFLNK) return 'symlink';
    if (type === S_IFDIR) return namedAsDirectory ? 'directory' : 'other';
    if (type !== 0 && type !== S_IFREG) return 'other';
    if (type === S_IFREG && namedAsDirectory) return 'other';
  }
  if (external & DOS_REPARSE_POINT) return 'symlink';
  return namedAsDirectory ? 'directory' : 'file';
}

function notZip(size: number): Finding {
  return { ruleId: 'archive-not-zip', data: { size } };
}

function truncated(reason: string): Finding {
  return { ruleId: 'archive-truncated', data: { reason } };
}

function corrupt(reason: string): Finding {
  return { ruleId: 'archive-corrupt', data: { reason } };
}

export const ZIP_FLAGS = { FLAG_DESCRIPTOR, FLAG_UTF8 } as const;
