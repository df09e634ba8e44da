import type { Finding } from '../../problem.js';
import { FORMAT_HEAD_BYTES, otherFormat } from '../file-format.js';
import type { EntryKind } from '../../shipment/source.js';
import { readArchiveEnd, type ArchiveEnd } from './end-record.js';
import { decodeName, entryKind } from './entry-names.js';
import { findField, parseExtra, unicodePathMismatch, ZIP64_EXTRA_ID, ZIP64_SLOTS, zip64Contradiction, zip64Values } from './extra-fields.js';
import { checkDescriptor, checkLocalHeader, extraOverrun } from './local-header.js';
import type { RandomAccess } from './random-access.js';
import {
  CENTRAL_SIZE,
  corrupt,
  FLAG_DESCRIPTOR,
  FLAG_ENCRYPTED,
  FLAG_PATCHED,
  FLAG_STRONG_ENCRYPTION,
  METHOD_AES,
  SIG_CENTRAL,
  SIG_LOCAL,
  ZIP64_MARK,
} from './zip-format.js';

/** More central records than this is an attack on the reader, not a bundle (the limit is 200 files). */
const MAX_RECORDS = 65_535;

/**
 * Stored and deflated entries need version 2.0 (4.5 with Zip64). Readers skip or refuse entries
 * that claim more than they implement: Info-ZIP unzip 6.0 anything above 4.6, Python above 6.3.
 */
const MAX_VERSION_NEEDED = 46;

/** One entry as the central directory describes it, checked against its local header. */
export interface ZipRecord {
  index: number;
  /** Decoded name (lossy when the bytes are not UTF-8; a finding says so). */
  name: string;
  kind: EntryKind;
  flags: number;
  method: number;
  crc32: number;
  /** Real sizes and offset: from the Zip64 field where the header defers to it. */
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
  /** Where the entry's compressed bytes start; undefined when the entry cannot be located. */
  dataOffset?: number;
  encrypted: boolean;
  /** The local header has a Zip64 field, so a data descriptor carries 8-byte sizes. */
  descriptor64?: boolean;
}

export interface ZipStructure {
  records: ZipRecord[];
  findings: Finding[];
}

/**
 * Reads the archive's structure without trusting it: every offset, size and count is checked
 * against the file and against the other records, and whatever does not add up becomes a finding.
 * Reading stops early only where nothing further can be located reliably.
 */
export async function readZipStructure(file: RandomAccess): Promise<ZipStructure> {
  const findings: Finding[] = [];
  const records: ZipRecord[] = [];
  const result = { records, findings };

  const head = await file.read(0, FORMAT_HEAD_BYTES);
  const startsLikeZip = head.length >= 4 && head.readUInt32LE(0) === SIG_LOCAL;
  const end = await readArchiveEnd(file, startsLikeZip, findings);
  if (!end) {
    // Not a zip at all: say what it is, when its first bytes tell (a .tar.gz is a gzip archive).
    const format = otherFormat(head);
    for (const finding of findings) if (finding.ruleId === 'archive-not-zip' && format) finding.data['format'] = format;
    return result;
  }

  // Central directory: walk records until its stated size is used up, whatever the count claims,
  // so entries hidden beyond the count are still seen.
  const cd = await file.read(end.cdOffset, end.cdSize);
  let pos = 0;
  while (pos < cd.length) {
    if (records.length >= MAX_RECORDS) {
      findings.push(corrupt(`the central directory holds more than ${MAX_RECORDS} records`));
      return result;
    }
    if (pos + CENTRAL_SIZE > cd.length || cd.readUInt32LE(pos) !== SIG_CENTRAL) {
      const found = pos === 0 ? await findPrefix(file, end) : 0;
      findings.push(found > 0 ? { ruleId: 'archive-prefix-data', data: { bytes: found } } : corrupt(`central directory record ${records.length + 1} is damaged`));
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
    const record = await readRecord(file, cd.subarray(pos, recordEnd), records.length, findings);
    records.push(record);
    pos = recordEnd;
  }
  if (records.length !== end.totalEntries) {
    findings.push({ ruleId: 'archive-entry-count', data: { claimed: end.totalEntries, found: records.length } });
  }

  const layout = await spans(file, records, findings);
  checkLayout(records, layout, end, findings);
  return result;
}

/** One central record (exactly its bytes), checked on its own and against its local header. */
async function readRecord(file: RandomAccess, bytes: Buffer, index: number, findings: Finding[]): Promise<ZipRecord> {
  const nameLength = bytes.readUInt16LE(28);
  const extraLength = bytes.readUInt16LE(30);
  const nameBytes = bytes.subarray(CENTRAL_SIZE, CENTRAL_SIZE + nameLength);
  const flags = bytes.readUInt16LE(8);
  const method = bytes.readUInt16LE(10);
  const name = decodeName(nameBytes, flags, findings);
  const record: ZipRecord = {
    index,
    name,
    kind: entryKind(name, bytes.readUInt16LE(4) >> 8, bytes.readUInt32LE(38)),
    flags,
    method,
    crc32: bytes.readUInt32LE(16),
    compressedSize: bytes.readUInt32LE(20),
    uncompressedSize: bytes.readUInt32LE(24),
    localOffset: bytes.readUInt32LE(42),
    encrypted: (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION)) !== 0 || method === METHOD_AES,
  };
  // Only the low byte is the version; readers check the central copy, not the local one.
  const versionNeeded = bytes[6]!;
  if (versionNeeded > MAX_VERSION_NEEDED) {
    findings.push({ ruleId: 'archive-unsupported', file: name, data: { feature: 'version-needed', version: (versionNeeded / 10).toFixed(1) } });
  }
  // Python's zipfile refuses such an entry outright; other readers extract the patch as the file.
  if (flags & FLAG_PATCHED) findings.push({ ruleId: 'archive-unsupported', file: name, data: { feature: 'patched-data' } });

  const extra = parseExtra(bytes.subarray(CENTRAL_SIZE + nameLength, CENTRAL_SIZE + nameLength + extraLength));
  const overrun = extraOverrun(extra, 'central', name);
  if (overrun) findings.push(overrun);
  const renamed = unicodePathMismatch(extra, nameBytes, name, 'central');
  if (renamed) findings.push(renamed);
  if (!resolveZip64(record, findField(extra, ZIP64_EXTRA_ID), findings)) return record;
  const unicodeName = renamed ? (renamed.data['other'] as string) : undefined;
  await checkLocalHeader(file, record, { nameBytes, flags, method, ...(unicodeName !== undefined ? { unicodeName } : {}) }, findings);
  return record;
}

/**
 * Replaces the sizes and offset that a central record defers to its Zip64 field. An uncompressed
 * size of exactly 0xFFFFFFFF without a Zip64 field is a plain (huge) size, as Go's archive/zip
 * also reads it; a deferred compressed size or offset without the field, or a field too short
 * for what it stands for, leaves the entry unlocatable: a corrupt archive. So is a field whose
 * other values contradict the header's own sizes: readers would take two sizes for one entry.
 */
function resolveZip64(record: ZipRecord, field: ReturnType<typeof findField>, findings: Finding[]): boolean {
  const marked = [record.uncompressedSize === ZIP64_MARK, record.compressedSize === ZIP64_MARK, record.localOffset === ZIP64_MARK];
  if (marked.some(Boolean) && (field || marked[1] || marked[2])) {
    const values = field ? zip64Values(field, marked) : undefined;
    if (!values) {
      const what = ZIP64_SLOTS.filter((_, i) => marked[i]).join(', ');
      findings.push(corrupt(`the central directory defers its ${what} to a Zip64 field that is ${field ? 'too short' : 'missing'}`, record.name));
      return false;
    }
    record.uncompressedSize = values[0] ?? record.uncompressedSize;
    record.compressedSize = values[1] ?? record.compressedSize;
    record.localOffset = values[2] ?? record.localOffset;
  }
  const contradiction = field && zip64Contradiction(field, marked, [record.uncompressedSize, record.compressedSize, record.localOffset], 'central directory record');
  if (contradiction) findings.push(corrupt(contradiction, record.name));
  return true;
}

interface Span {
  /** Absent for the central directory. */
  record?: ZipRecord;
  start: number;
  end: number;
}

/** Byte range each entry occupies: local header, name, extra, data and any data descriptor. */
async function spans(file: RandomAccess, records: ZipRecord[], findings: Finding[]): Promise<Span[]> {
  const result: Span[] = [];
  for (const record of records) {
    if (record.dataOffset === undefined) continue;
    let end = record.dataOffset + record.compressedSize;
    if (record.flags & FLAG_DESCRIPTOR) end = await checkDescriptor(file, record, end, findings);
    result.push({ record, start: record.localOffset, end });
  }
  return result.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * Entries must tile the file: the first at offset 0, each starting where the previous ended, the
 * central directory right after the last, the end records right after that. A gap can hide data
 * that some readers extract; an overlap lets two names share bytes (the classic zip bomb trick).
 * Gaps are not reported when an entry could not be located: its bytes are somewhere in them.
 * The directory is a piece of the tiling like an entry, so a directory written before the entries
 * is named as such once, instead of as data before the first entry and an overlap.
 */
function checkLayout(records: ZipRecord[], layout: Span[], end: ArchiveEnd, findings: Finding[]) {
  const { cdOffset, cdSize, endStart } = end;
  const located = layout.length === records.length;
  const directory: Span = { start: cdOffset, end: cdOffset + cdSize };
  const pieces = [...layout, directory].sort((a, b) => a.start - b.start || a.end - b.end);
  const label = (span: Span) => span.record?.name ?? 'the central directory';
  if (pieces.some((span) => span.record && span.start >= directory.end)) {
    findings.push(corrupt(`the central directory is written at offset ${cdOffset}, before entries it lists; every zip tool writes it after them, and readers that work out where the archive starts from where the directory ends (Python's zipfile) cannot read it`));
  }
  let cursor = 0;
  let previous: Span | undefined;
  for (const span of pieces) {
    if (span.start > cursor && located) {
      findings.push(
        previous
          ? { ruleId: 'archive-hidden-data', data: { offset: cursor, bytes: span.start - cursor, after: label(previous) } }
          : { ruleId: 'archive-prefix-data', data: { bytes: span.start } },
      );
    } else if (span.start < cursor && previous) {
      // Named on the entry, whichever of the two comes first.
      const [entry, other] = span.record ? [span, previous] : [previous, span];
      findings.push({ ruleId: 'archive-overlap', file: label(entry), data: { other: label(other), offset: span.start } });
    }
    if (span.end > cursor || !previous) {
      cursor = span.end;
      previous = span;
    }
  }
  if (cursor < endStart && previous && (located || !previous.record)) {
    findings.push({ ruleId: 'archive-hidden-data', data: { offset: cursor, bytes: endStart - cursor, after: label(previous) } });
  }
}

/** When the directory is not where the end record says, it may sit later by a prefix's length. */
async function findPrefix(file: RandomAccess, end: ArchiveEnd): Promise<number> {
  const actual = end.endStart - end.cdSize;
  if (actual <= end.cdOffset) return 0;
  const delta = actual - end.cdOffset;
  // A prefix shifts everything: the directory and the first local header both sit `delta` later.
  const central = await file.read(actual, 4);
  const local = await file.read(delta, 4);
  const shifted = (b: Buffer, sig: number) => b.length === 4 && b.readUInt32LE(0) === sig;
  return shifted(central, SIG_CENTRAL) && shifted(local, SIG_LOCAL) ? delta : 0;
}
