import type { Finding } from '../../problem.js';
import type { RandomAccess } from './random-access.js';
import {
  corrupt,
  EOCD_SIZE,
  MAX_COMMENT,
  notZip,
  readUInt64,
  SIG_EOCD,
  SIG_ZIP64_EOCD,
  SIG_ZIP64_LOCATOR,
  truncated,
  ZIP64_COUNT_MARK,
  ZIP64_EOCD_SIZE,
  ZIP64_LOCATOR_SIZE,
  ZIP64_MARK,
} from './zip-format.js';

/** Where the central directory is, as the end record (and, for Zip64, its Zip64 record) says. */
export interface ArchiveEnd {
  eocdOffset: number;
  /** Where the end structures begin: the Zip64 end record when there is one, else the end record. */
  endStart: number;
  cdOffset: number;
  cdSize: number;
  totalEntries: number;
}

interface Fields {
  disk: number;
  cdDisk: number;
  entriesOnDisk: number;
  totalEntries: number;
  cdSize: number;
  cdOffset: number;
}

const FIELD_NAMES: Record<keyof Fields, string> = {
  disk: 'disk number',
  cdDisk: "central directory's disk",
  entriesOnDisk: 'entries on this disk',
  totalEntries: 'entry count',
  cdSize: 'central directory size',
  cdOffset: 'central directory offset',
};

/**
 * Finds the end record and, when it defers to one, the Zip64 end record. Returns undefined (with
 * findings saying why) when the central directory cannot be located reliably.
 */
export async function readArchiveEnd(file: RandomAccess, startsLikeZip: boolean, findings: Finding[]): Promise<ArchiveEnd | undefined> {
  const size = file.size;
  if (size < EOCD_SIZE) {
    findings.push(startsLikeZip ? truncated('the file ends before the end-of-archive record') : notZip(size));
    return undefined;
  }
  let located = await locateEnd(file, size);
  if (!located) {
    // Zero padding longer than the comment window (a writer filling whole blocks, as on a pipe or
    // tape) hides the end record from the first search: look again just before the padding.
    const dataEnd = await endOfData(file);
    if (dataEnd < size - MAX_COMMENT) located = await locateEnd(file, Math.min(size, dataEnd + EOCD_SIZE));
  }
  if (!located) {
    findings.push(startsLikeZip ? truncated('the end-of-archive record is missing') : notZip(size));
    return undefined;
  }
  const { eocdOffset, record } = located;
  const commentEnd = eocdOffset + EOCD_SIZE + record.readUInt16LE(20);
  if (commentEnd > size) {
    findings.push(truncated('the archive comment runs past the end of the file'));
    return undefined;
  }
  if (commentEnd < size) {
    const rest = await file.read(commentEnd, size - commentEnd);
    findings.push({ ruleId: 'archive-trailing-data', data: { bytes: rest.length, ...(rest.every((b) => b === 0) ? { zeros: true } : {}) } });
  }
  if (located.second !== undefined) findings.push({ ruleId: 'archive-ambiguous-end', data: { offset: located.second, end: eocdOffset } });
  if (located.before !== undefined) findings.push({ ruleId: 'archive-ambiguous-end', data: { offset: located.before, end: eocdOffset, adjacent: true } });

  const classic: Fields = {
    disk: record.readUInt16LE(4),
    cdDisk: record.readUInt16LE(6),
    entriesOnDisk: record.readUInt16LE(8),
    totalEntries: record.readUInt16LE(10),
    cdSize: record.readUInt32LE(12),
    cdOffset: record.readUInt32LE(16),
  };
  const zip64 = await readZip64(file, eocdOffset, classic, findings);
  if (zip64 === 'failed') return undefined;
  const fields = zip64?.fields ?? classic;
  if (!zip64 && (classic.cdSize === ZIP64_MARK || classic.cdOffset === ZIP64_MARK)) {
    findings.push(corrupt('the end record says the central directory is described by a Zip64 end record, but there is none'));
    return undefined;
  }
  if (!checkDisks(fields, zip64?.totalDisks, findings)) return undefined;

  const endStart = zip64?.recordOffset ?? located.before ?? eocdOffset;
  if (fields.cdOffset + fields.cdSize > endStart) {
    findings.push(
      fields.cdOffset + fields.cdSize > size
        ? truncated('the central directory runs past the end of the file')
        : corrupt('the central directory overlaps the end-of-archive records'),
    );
    return undefined;
  }
  return { eocdOffset, endStart, cdOffset: fields.cdOffset, cdSize: fields.cdSize, totalEntries: fields.totalEntries };
}

/**
 * Searches the last 22 + 65,535 bytes before `end` for the end record. A candidate whose comment
 * ends exactly at the end of the file is preferred; a signature inside a comment must not fool
 * us. Any other plausible end record a backward scan could meet first (inside the comment, or
 * one whose own comment swallows ours) is reported: two readers could see two archives. So are
 * end records written back to back (`before`: where the first of them starts); Python's zipfile
 * counts the first one as part of the directory, and finds none.
 */
async function locateEnd(file: RandomAccess, end: number): Promise<{ eocdOffset: number; record: Buffer; second?: number; before?: number } | undefined> {
  const size = file.size;
  const start = Math.max(0, end - EOCD_SIZE - MAX_COMMENT);
  const tail = await file.read(start, end - start);
  const candidates: number[] = [];
  // Every place the signature occurs, last first (a native search: the tail can be 64 KB).
  const signature = Buffer.alloc(4);
  signature.writeUInt32LE(SIG_EOCD);
  for (let i = tail.lastIndexOf(signature); i >= 0; i = i === 0 ? -1 : tail.lastIndexOf(signature, i - 1)) candidates.push(i);
  const fullRecord = candidates.filter((i) => i + EOCD_SIZE <= tail.length);
  const commentEnd = (i: number) => start + i + EOCD_SIZE + tail.readUInt16LE(i + 20);
  const chosen = fullRecord.find((i) => commentEnd(i) === size) ?? fullRecord[0];
  if (chosen === undefined) return undefined;
  // A candidate before the chosen one is a whole record (the chosen one's 22 bytes fit after it).
  const second = candidates.find((i) => i !== chosen && (i > chosen || commentEnd(i) === size));
  let before: number | undefined;
  for (let next = chosen, i: number | undefined; (i = fullRecord.find((j) => j < next && commentEnd(j) === start + next)) !== undefined; next = i) before = i;
  return {
    eocdOffset: start + chosen,
    record: tail.subarray(chosen, chosen + EOCD_SIZE),
    ...(second !== undefined ? { second: start + second } : {}),
    ...(before !== undefined ? { before: start + before } : {}),
  };
}

/** Offset just past the last non-zero byte of the file. */
async function endOfData(file: RandomAccess): Promise<number> {
  const step = 1024 * 1024;
  for (let end = file.size; end > 0; end -= step) {
    const start = Math.max(0, end - step);
    const chunk = await file.read(start, end - start);
    for (let i = chunk.length - 1; i >= 0; i--) if (chunk[i] !== 0) return start + i + 1;
  }
  return 0;
}

/**
 * Reads the Zip64 locator and end record, if the archive has them. Bytes that merely look like a
 * locator (Go's issue 12449: a comment ending in "PK\x06\x07") do not make an archive Zip64 unless
 * the end record defers to one; when it does, a locator or record that does not hold up is a
 * corrupt archive. A valid Zip64 end record is used even when the end record does not defer to
 * it, as Python's zipfile does; the values must then agree.
 */
async function readZip64(
  file: RandomAccess,
  eocdOffset: number,
  classic: Fields,
  findings: Finding[],
): Promise<{ fields: Fields; recordOffset: number; totalDisks: number } | undefined | 'failed'> {
  const deferred = (Object.keys(classic) as (keyof Fields)[]).some((key) => classic[key] === (key === 'cdSize' || key === 'cdOffset' ? ZIP64_MARK : ZIP64_COUNT_MARK));
  const locatorOffset = eocdOffset - ZIP64_LOCATOR_SIZE;
  const locator = locatorOffset >= 0 ? await file.read(locatorOffset, ZIP64_LOCATOR_SIZE) : Buffer.alloc(0);
  if (locator.length < ZIP64_LOCATOR_SIZE || locator.readUInt32LE(0) !== SIG_ZIP64_LOCATOR) return undefined;
  const fail = (reason: string) => {
    if (deferred) {
      findings.push(corrupt(reason));
      return 'failed' as const;
    }
    // Not Zip64; but Python's zipfile and yauzl look for the locator whatever the end record
    // says, and fail on these bytes, so the archive reads differently in different readers.
    findings.push({ ruleId: 'archive-ambiguous-end', data: { offset: locatorOffset, end: eocdOffset, locator: true } });
    return undefined;
  };
  const pointed = readUInt64(locator, 8);
  const there = pointed + ZIP64_EOCD_SIZE <= locatorOffset ? await file.read(pointed, ZIP64_EOCD_SIZE) : undefined;
  const found = there?.readUInt32LE(0) === SIG_ZIP64_EOCD ? { at: pointed, record: there } : await prefixedRecord(file, locatorOffset, pointed);
  if (found === undefined) {
    return fail(`the Zip64 locator points to offset ${pointed}, where ${there ? 'there is no Zip64 end record' : 'no Zip64 end record fits'}`);
  }
  const { at: recordOffset, record } = found;
  // Some readers take the record from the locator's offset, others from just before the locator;
  // both must find the same one.
  const recordEnd = recordOffset + 12 + readUInt64(record, 4);
  if (recordEnd !== locatorOffset) return fail('the Zip64 end record does not end where the Zip64 locator begins');
  // Version 2 of the record carries "extensible data" (PKWARE's central directory encryption);
  // readers that assume the plain 56-byte record (Python's zipfile before 3.12) misplace the archive.
  if (recordEnd - recordOffset !== ZIP64_EOCD_SIZE) {
    findings.push({ ruleId: 'archive-unsupported', data: { feature: 'zip64-extensible-data' } });
    return 'failed';
  }
  const fields: Fields = {
    disk: record.readUInt32LE(16),
    cdDisk: record.readUInt32LE(20),
    entriesOnDisk: readUInt64(record, 24),
    totalEntries: readUInt64(record, 32),
    cdSize: readUInt64(record, 40),
    cdOffset: readUInt64(record, 48),
  };
  for (const key of Object.keys(classic) as (keyof Fields)[]) {
    const mark = key === 'cdSize' || key === 'cdOffset' ? ZIP64_MARK : ZIP64_COUNT_MARK;
    if (classic[key] !== mark && classic[key] !== fields[key]) {
      // Python's zipfile takes the Zip64 record's value; Info-ZIP unzip, Go and .NET consult that
      // record only for a field set to its marker, so they take the end record's.
      findings.push(
        corrupt(
          `the end record and the Zip64 end record disagree on the ${FIELD_NAMES[key]} (${classic[key]} and ${fields[key]}); readers that look at the Zip64 end record only when the end record's field is set to ${mark === ZIP64_MARK ? '0xFFFFFFFF' : '0xFFFF'} (Info-ZIP unzip, Go, .NET) take the first`,
        ),
      );
      return 'failed';
    }
  }
  if (locator.readUInt32LE(4) !== fields.disk) {
    findings.push(corrupt('the Zip64 locator and the Zip64 end record disagree on the disk number'));
    return 'failed';
  }
  return { fields, recordOffset, totalDisks: locator.readUInt32LE(16) };
}

/**
 * A Zip64 archive written after other bytes (a script or an installer stub: CPython's exe_with_z64
 * test data is a shell script followed by the output of `zip -0 < file`) keeps the offsets it was
 * written with, so its locator points as far before its Zip64 end record as the prefix is long.
 * The record is then right before the locator, and its directory ends at the offset the locator
 * gives, as Python's zipfile checks before reading it there. Returns where the record is, so that
 * the prefix can be measured and reported like any other, with the record's bytes; undefined when
 * the bytes there are not such a record.
 */
async function prefixedRecord(file: RandomAccess, locatorOffset: number, pointed: number): Promise<{ at: number; record: Buffer } | undefined> {
  const at = locatorOffset - ZIP64_EOCD_SIZE;
  if (at <= pointed) return undefined;
  const record = await file.read(at, ZIP64_EOCD_SIZE);
  if (record.readUInt32LE(0) !== SIG_ZIP64_EOCD || readUInt64(record, 4) !== ZIP64_EOCD_SIZE - 12) return undefined;
  return readUInt64(record, 40) + readUInt64(record, 48) === pointed ? { at, record } : undefined;
}

/**
 * A real multi-part archive's last part has a disk number above zero and the directory on that
 * disk or an earlier one; anything else in these fields is garbage, so the archive is corrupt.
 */
function checkDisks(fields: Fields, totalDisks: number | undefined, findings: Finding[]): boolean {
  const { disk, cdDisk, entriesOnDisk, totalEntries } = fields;
  const single = disk === 0 && cdDisk === 0 && entriesOnDisk === totalEntries && (totalDisks === undefined || totalDisks <= 1);
  if (single) return true;
  const split = disk > 0 && cdDisk <= disk && entriesOnDisk <= totalEntries && (totalDisks === undefined || totalDisks === disk + 1);
  findings.push(
    split
      ? { ruleId: 'archive-unsupported', data: { feature: 'multi-disk' } }
      : corrupt(`the end record's disk fields do not describe one archive (disk ${disk}, directory on disk ${cdDisk}, ${entriesOnDisk} of ${totalEntries} entries on this disk)`),
  );
  return false;
}
