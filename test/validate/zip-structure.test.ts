import zlib, { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { BundleSource } from '../../src/core/shipment/source.js';
import { openZipSource } from '../../src/core/bundle/zip/zip-source.js';
import type { Finding } from '../../src/core/problem.js';
import { goodEntries, writeBytes } from '../helpers/bundles.js';
import { buildZip, directoryFirst, extraField, unicodePathField, type ArchiveSpec, type EntrySpec } from '../helpers/zip-builder.js';

/**
 * What the zip reader finds in an archive's structure, finding for finding: the reason it gives
 * (shown to the user word for word), the offsets and sizes it names, and what it finds nothing
 * wrong with. The archives are built byte by byte around the clean tool's files.
 */

const MARK = 0xffffffff;
const good = goodEntries;
const plus = (...extra: EntrySpec[]) => [...good(), ...extra];

async function opened<T>(bytes: Buffer, use: (source: BundleSource) => T | Promise<T>): Promise<T> {
  const source = await openZipSource(writeBytes(bytes));
  try {
    return await use(source);
  } finally {
    await source.close();
  }
}

const findingsOf = (bytes: Buffer) => opened(bytes, (source) => source.findings);
const zipFindings = (entries: EntrySpec[], archive?: ArchiveSpec) => findingsOf(buildZip(entries, archive));
const corrupt = (reason: string, file?: string): Finding => ({ ruleId: 'archive-corrupt', ...(file ? { file } : {}), data: { reason } });
const truncated = (reason: string, file?: string): Finding => ({ ruleId: 'archive-truncated', ...(file ? { file } : {}), data: { reason } });
/** Where the central directory of `buildZip(entries)` starts and how long it is, from its end record. */
const directoryOf = (bytes: Buffer) => ({ offset: bytes.readUInt32LE(bytes.length - 6), size: bytes.readUInt32LE(bytes.length - 10) });
/** The length of an entry's local header, name and data as buildZip writes it (no descriptor, no extra). */
const localLength = (bytes: Buffer, at: number) => 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28) + bytes.readUInt32LE(at + 18);

/** The same archive with its central records rewritten in `order` (indexes into the original order). */
function inDirectoryOrder(bytes: Buffer, order: number[]): Buffer {
  const { offset, size } = directoryOf(bytes);
  const records: Buffer[] = [];
  for (let at = offset; at < offset + size; ) {
    const length = 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    records.push(bytes.subarray(at, at + length));
    at += length;
  }
  const copy = Buffer.from(bytes);
  Buffer.concat(order.map((i) => records[i]!)).copy(copy, offset);
  return copy;
}

describe('finding the end of the archive', () => {
  it('a file shorter than an end record is truncated when it starts like a zip, and no zip otherwise', async () => {
    const start = Buffer.from('504b0304', 'hex');
    expect(await findingsOf(Buffer.concat([start, Buffer.alloc(6)]))).toEqual([truncated('the file ends before the end-of-archive record')]);
    expect(await findingsOf(Buffer.concat([start, Buffer.alloc(17)]))).toEqual([truncated('the file ends before the end-of-archive record')]);
    expect(await findingsOf(Buffer.from('not a zip'))).toEqual([{ ruleId: 'archive-not-zip', data: { size: 9 } }]);
  });

  it('names the archive format a file that is not a zip has, from its first bytes', async () => {
    const ustar = Buffer.alloc(1024);
    ustar.write('ustar', 257, 'latin1');
    const cases: Array<[string, Buffer]> = [
      ['gzip', gzipSync(Buffer.from('a tar inside'))],
      ['tar', ustar],
      ['bzip2', Buffer.from('BZh91AY&SY')],
      ['xz', Buffer.from('fd377a585a0000', 'hex')],
      ['zstd', Buffer.from('28b52ffd0000', 'hex')],
      ['7z', Buffer.from('377abcaf271c0004', 'hex')],
      ['rar', Buffer.from('526172211a0700', 'hex')],
    ];
    for (const [format, bytes] of cases) {
      expect(await findingsOf(bytes), format).toEqual([{ ruleId: 'archive-not-zip', data: { size: bytes.length, format } }]);
    }
    // Too short for any mark, or text: only "not a zip".
    expect(await findingsOf(Buffer.from([0x1f]))).toEqual([{ ruleId: 'archive-not-zip', data: { size: 1 } }]);
  });

  it('an end record alone, 22 bytes, is an empty archive with nothing wrong', async () => {
    const empty = buildZip([]);
    expect(empty.length).toBe(22);
    expect(await opened(empty, (source) => [source.entries, source.findings])).toEqual([[], []]);
  });

  it('without an end record: truncated when it starts like a zip, no zip otherwise', async () => {
    const bytes = buildZip(good());
    expect(await findingsOf(bytes.subarray(0, bytes.length - 22))).toEqual([truncated('the end-of-archive record is missing')]);
    expect(await findingsOf(Buffer.alloc(100, 0x78))).toEqual([{ ruleId: 'archive-not-zip', data: { size: 100 } }]);
  });

  it('looks for the end record only within the largest comment, whatever lies behind', async () => {
    // 65,535 bytes of comment is the most an end record can have: found.
    expect(await zipFindings(good(), { comment: Buffer.alloc(0xffff, 0x20) })).toEqual([]);
    // More than that of junk after the end record: no reader finds it.
    expect(await zipFindings(good(), { trailing: Buffer.alloc(70_000, 0x41) })).toEqual([truncated('the end-of-archive record is missing')]);
  });

  it('looks again before zero padding only when the padding is longer than the comment window', async () => {
    // One junk byte, then zeros: the padding starts right after the junk.
    const padded = (zeros: number) => zipFindings(good(), { trailing: Buffer.concat([Buffer.from('!'), Buffer.alloc(zeros)]) });
    expect(await padded(0xffff)).toEqual([truncated('the end-of-archive record is missing')]);
    expect(await padded(0x10000)).toEqual([{ ruleId: 'archive-trailing-data', data: { bytes: 0x10001 } }]);
    // Padding longer than the 1 MB the search for the last data steps back by.
    expect(await zipFindings(good(), { trailing: Buffer.alloc(1_100_000) })).toEqual([{ ruleId: 'archive-trailing-data', data: { bytes: 1_100_000, zeros: true } }]);
  });

  it('a comment that runs past the end of the file', async () => {
    const bytes = buildZip(good(), { comment: Buffer.from('xy') });
    expect(await findingsOf(bytes.subarray(0, bytes.length - 1))).toEqual([truncated('the archive comment runs past the end of the file')]);
  });

  it('bytes after the end record: how many, and whether they are all zeros', async () => {
    expect(await zipFindings(good(), { trailing: Buffer.from([0, 0, 7]) })).toEqual([{ ruleId: 'archive-trailing-data', data: { bytes: 3 } }]);
    expect(await zipFindings(good(), { trailing: Buffer.alloc(5) })).toEqual([{ ruleId: 'archive-trailing-data', data: { bytes: 5, zeros: true } }]);
  });

  it('a second end record a backward scan meets first: where it is, and which one is used', async () => {
    // A partial signature at the very end of the comment.
    const partial = buildZip(good(), { comment: Buffer.from('504b0506', 'hex') });
    expect(await findingsOf(partial)).toEqual([{ ruleId: 'archive-ambiguous-end', data: { offset: partial.length - 4, end: partial.length - 26 } }]);

    // A whole end record inside the comment, followed by more comment: the real one is used.
    const fake = Buffer.concat([Buffer.from('504b0506', 'hex'), Buffer.alloc(18)]);
    const inside = buildZip(good(), { comment: Buffer.concat([fake, Buffer.from('tail')]) });
    const real = inside.length - 22 - 26;
    expect(await opened(inside, (source) => [source.entries.length, source.findings])).toEqual([
      4,
      [{ ruleId: 'archive-ambiguous-end', data: { offset: real + 22, end: real } }],
    ]);

    // An end record in a file's comment, whose own comment reaches the end of the file just as the
    // real one's does: a reader that scans backward from its start sees another archive.
    const entries = good();
    entries[3] = { ...entries[3]!, comment: Buffer.concat([Buffer.from('see '), fake]) };
    const hidden = buildZip(entries);
    const at = hidden.indexOf(fake);
    hidden.writeUInt16LE(hidden.length - at - 22, at + 20);
    expect(await findingsOf(hidden)).toEqual([{ ruleId: 'archive-ambiguous-end', data: { offset: at, end: hidden.length - 22 } }]);
  });

  it('end records back to back: one finding naming both, the first counted as the start of the end', async () => {
    const bytes = buildZip(good());
    const end = bytes.subarray(bytes.length - 22);
    const two = Buffer.concat([bytes, end]);
    expect(await findingsOf(two)).toEqual([{ ruleId: 'archive-ambiguous-end', data: { offset: bytes.length - 22, end: bytes.length, adjacent: true } }]);
    // A run of three names the first of them.
    expect(await findingsOf(Buffer.concat([two, end]))).toEqual([{ ruleId: 'archive-ambiguous-end', data: { offset: bytes.length - 22, end: bytes.length + 22, adjacent: true } }]);
    // An end record with a comment, then another: still back to back.
    const commented = buildZip(good(), { comment: Buffer.from('hi') });
    const first = commented.length - 24;
    expect(await findingsOf(Buffer.concat([commented, end]))).toEqual([{ ruleId: 'archive-ambiguous-end', data: { offset: first, end: commented.length, adjacent: true } }]);
  });

  it('a zip stored inside the bundle holds an end record of its own, which is no second end', async () => {
    const inner = buildZip([]);
    expect(await zipFindings(plus({ name: 'empty.zip', data: inner, method: 0 }))).toEqual([]);
    // Nor when bytes after the end make the search fall back to the last end record it saw.
    expect(await zipFindings(plus({ name: 'empty.zip', data: inner, method: 0 }), { trailing: Buffer.from('x') })).toEqual([
      { ruleId: 'archive-trailing-data', data: { bytes: 1 } },
    ]);
  });

  it('an end record that defers to a Zip64 end record that is not there', async () => {
    const none = corrupt('the end record says the central directory is described by a Zip64 end record, but there is none');
    expect(await zipFindings(good(), { cdOffset: MARK })).toEqual([none]);
    expect(await zipFindings(good(), { cdSize: MARK })).toEqual([none]);
  });

  it('where the central directory does not fit before the end records', async () => {
    const bytes = buildZip(good());
    const { size } = directoryOf(bytes);
    expect(await zipFindings(good(), { cdSize: size + 10 })).toEqual([corrupt('the central directory overlaps the end-of-archive records')]);
    // Up to the very last byte of the file is still inside it.
    expect(await zipFindings(good(), { cdSize: size + 22 })).toEqual([corrupt('the central directory overlaps the end-of-archive records')]);
    expect(await zipFindings(good(), { cdSize: size + 23 })).toEqual([truncated('the central directory runs past the end of the file')]);
  });
});

describe('Zip64 end records', () => {
  const locatorAt = (bytes: Buffer) => bytes.length - 22 - 20;

  it('a locator that points where no Zip64 end record is, or fits', async () => {
    expect(await zipFindings(good(), { zip64: { recordOffset: 3 } })).toEqual([corrupt('the Zip64 locator points to offset 3, where there is no Zip64 end record')]);
    const bare = buildZip(good(), { zip64: { omitRecord: true } });
    expect(await findingsOf(bare)).toEqual([corrupt(`the Zip64 locator points to offset ${locatorAt(bare)}, where no Zip64 end record fits`)]);
    expect(await zipFindings(good(), { zip64: { gap: Buffer.from('hidden') } })).toEqual([corrupt('the Zip64 end record does not end where the Zip64 locator begins')]);
  });

  it('a locator at the very start of the file is looked at too', async () => {
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    const bytes = Buffer.concat([locator, buildZip([])]);
    expect(await findingsOf(bytes)).toEqual([
      { ruleId: 'archive-ambiguous-end', data: { offset: 0, end: 20, locator: true } },
      { ruleId: 'archive-hidden-data', data: { offset: 0, bytes: 20, after: 'the central directory' } },
    ]);
  });

  it('a Zip64 archive after a prefix it does not count: the prefix, and nothing more', async () => {
    // The locator points where the Zip64 end record would be without the prefix.
    const archive = buildZip(good(), { zip64: { sentinels: false } });
    const script = Buffer.from('#!/bin/sh\nexit 0\n');
    expect(await findingsOf(Buffer.concat([script, archive]))).toEqual([{ ruleId: 'archive-prefix-data', data: { bytes: script.length } }]);
    // Deferred to it or not.
    expect(await findingsOf(Buffer.concat([script, buildZip(good(), { zip64: {} })]))).toEqual([{ ruleId: 'archive-prefix-data', data: { bytes: script.length } }]);
    // A record before the locator whose directory does not end where the locator points is no
    // such archive: the locator is wrong.
    const wrong = buildZip(good(), { zip64: { recordOffset: 7 } });
    expect(await findingsOf(wrong)).toEqual([corrupt('the Zip64 locator points to offset 7, where there is no Zip64 end record')]);
  });

  it('a Zip64 end record with extensible data is unsupported, and nothing more', async () => {
    expect(await zipFindings(good(), { zip64: { extensible: Buffer.from('0100020000000000', 'hex') } })).toEqual([
      { ruleId: 'archive-unsupported', data: { feature: 'zip64-extensible-data' } },
    ]);
  });

  it('stray locator bytes before an end record that does not defer are ambiguous, not corrupt', async () => {
    // The Zip64 end record and locator are then unused bytes after the directory.
    const bytes = buildZip(good(), { zip64: { sentinels: false, recordOffset: 3 } });
    expect(await opened(bytes, (source) => [source.entries.length, source.findings])).toEqual([
      4,
      [
        { ruleId: 'archive-ambiguous-end', data: { offset: locatorAt(bytes), end: bytes.length - 22, locator: true } },
        { ruleId: 'archive-hidden-data', data: { offset: locatorAt(bytes) - 56, bytes: 56 + 20, after: 'the central directory' } },
      ],
    ]);
  });

  it('an end record defers by any one field set to its marker: a count, or a size or offset', async () => {
    const failed = corrupt('the Zip64 locator points to offset 3, where there is no Zip64 end record');
    expect(await zipFindings(good(), { claimedCount: 0xffff, zip64: { sentinels: false, recordOffset: 3 } })).toEqual([failed]);
    expect(await zipFindings(good(), { cdOffset: MARK, zip64: { sentinels: false, recordOffset: 3 } })).toEqual([failed]);
    expect(await zipFindings(good(), { cdSize: MARK, zip64: { sentinels: false, recordOffset: 3 } })).toEqual([failed]);
  });

  it('names the field on which the two end records disagree, with both values', async () => {
    const bytes = buildZip(good());
    const { offset, size } = directoryOf(bytes);
    // Readers that look at the Zip64 record only for a field set to its marker take the first value.
    const disagree = (what: string, mark: string) =>
      corrupt(
        `the end record and the Zip64 end record disagree on the ${what}; readers that look at the Zip64 end record only when the end record's field is set to ${mark} (Info-ZIP unzip, Go, .NET) take the first`,
      );
    const cases: [ArchiveSpec, string, string][] = [
      [{ disk: 1, cdDisk: 0, zip64: { sentinels: false } }, 'disk number (1 and 0)', '0xFFFF'],
      [{ cdDisk: 1, zip64: { sentinels: false } }, "central directory's disk (1 and 0)", '0xFFFF'],
      [{ entriesOnDisk: 3, zip64: { sentinels: false } }, 'entries on this disk (3 and 4)', '0xFFFF'],
      [{ zip64: { sentinels: false, entries: 5, entriesOnDisk: 4 } }, 'entry count (4 and 5)', '0xFFFF'],
      [{ zip64: { sentinels: false, cdSize: 999 } }, `central directory size (${size} and 999)`, '0xFFFFFFFF'],
      [{ zip64: { sentinels: false, cdOffset: 7 } }, `central directory offset (${offset} and 7)`, '0xFFFFFFFF'],
    ];
    for (const [archive, what, mark] of cases) expect(await zipFindings(good(), archive), what).toEqual([disagree(what, mark)]);
  });

  it('the locator must name the disk the Zip64 end record is on', async () => {
    expect(await zipFindings(good(), { disk: 1, zip64: { disk: 1 } })).toEqual([corrupt('the Zip64 locator and the Zip64 end record disagree on the disk number')]);
  });
});

describe('disk fields', () => {
  const garbage = (disk: number, cdDisk: number, onDisk: number, total: number) =>
    corrupt(`the end record's disk fields do not describe one archive (disk ${disk}, directory on disk ${cdDisk}, ${onDisk} of ${total} entries on this disk)`);
  const multiDisk = { ruleId: 'archive-unsupported', data: { feature: 'multi-disk' } };

  it('the last part of a split archive is unsupported; fields no split archive has are corrupt', async () => {
    expect(await zipFindings(good(), { disk: 1, cdDisk: 0 })).toEqual([multiDisk]);
    expect(await zipFindings(good(), { disk: 1, cdDisk: 1, entriesOnDisk: 2 })).toEqual([multiDisk]);
    expect(await zipFindings(good(), { disk: 1, cdDisk: 2 })).toEqual([garbage(1, 2, 4, 4)]);
    expect(await zipFindings(good(), { disk: 1, entriesOnDisk: 5 })).toEqual([garbage(1, 1, 5, 4)]);
    expect(await zipFindings(good(), { cdDisk: 1 })).toEqual([garbage(0, 1, 4, 4)]);
    // Either way nothing is listed: the parts before this one hold entries that are not here.
    for (const archive of [{ disk: 1, cdDisk: 0 }, { cdDisk: 1 }]) expect(await opened(buildZip(good(), archive), (source) => source.entries)).toEqual([]);
  });

  it("the Zip64 locator's disk count: at most one for a single archive, one past the last disk for a split one", async () => {
    expect(await zipFindings(good(), { zip64: { totalDisks: 0 } })).toEqual([]);
    expect(await zipFindings(good(), { zip64: { totalDisks: 2 } })).toEqual([garbage(0, 0, 4, 4)]);
    // The last part of a split Zip64 archive: the locator says which disk holds the Zip64 end record.
    const split = (totalDisks: number) => {
      const bytes = buildZip(good(), { disk: 1, zip64: { disk: 1, totalDisks } });
      bytes.writeUInt32LE(1, bytes.length - 22 - 20 + 4);
      return findingsOf(bytes);
    };
    expect(await split(2)).toEqual([multiDisk]);
    expect(await split(3)).toEqual([garbage(1, 1, 4, 4)]);
  });
});

describe('the central directory', () => {
  const bytes = buildZip(good());
  const first = 46 + 'manifest.json'.length;

  it('says which record is damaged or runs past the directory', async () => {
    expect(await zipFindings(good(), { cdSize: first + 45 })).toEqual([corrupt('central directory record 2 is damaged')]);
    expect(await zipFindings(good(), { cdSize: first + 46 + 2 })).toEqual([corrupt("central directory record 2 runs past the directory's end")]);
    expect(await zipFindings(good(), { cdSize: 10 })).toEqual([corrupt('central directory record 1 is damaged')]);
  });

  it('a directory that is not where the end record says is damaged, unless a prefix shifted everything', async () => {
    const prefix = Buffer.from('#!/bin/sh\nexit 0\n');
    expect(await opened(Buffer.concat([prefix, bytes]), (source) => [source.entries, source.findings])).toEqual([
      [],
      [{ ruleId: 'archive-prefix-data', data: { bytes: prefix.length } }],
    ]);
    // Only the directory moved: no prefix explains it.
    expect(await zipFindings(good(), { cdOffset: 5 })).toEqual([corrupt('central directory record 1 is damaged')]);
    // Everything after the first entry moved: no local header where a prefix would put one.
    const moved = Buffer.concat([bytes.subarray(0, 40), Buffer.alloc(3), bytes.subarray(40)]);
    expect(await findingsOf(moved)).toEqual([corrupt('central directory record 1 is damaged')]);
  });

  it('a prefix is looked for only when the first record is damaged, not a later one', async () => {
    // The last entry's data ends in bytes that read as a central record; a prefix of that record's
    // length puts them where the end record says the directory starts. The first record then
    // reads, and it is the last real record, cut short, that is damaged: no prefix is claimed.
    const fake = Buffer.alloc(47);
    fake.writeUInt32LE(0x02014b50, 0);
    fake.writeUInt16LE(1, 28);
    fake.write('x', 46);
    const zip = buildZip(plus({ name: 'z.bin', data: Buffer.concat([Buffer.from('data'), fake]), method: 0 }));
    const shifted = Buffer.concat([Buffer.alloc(fake.length, 0x20), zip]);
    const found = await findingsOf(shifted);
    expect(found).toContainEqual(corrupt(`central directory record ${good().length + 2} is damaged`));
    expect(found.map((finding) => finding.ruleId)).not.toContain('archive-prefix-data');
  });

  it('reads every record the directory holds, whatever the count says', async () => {
    expect(await opened(buildZip(good(), { claimedCount: 2, entriesOnDisk: 2 }), (source) => [source.entries.length, source.findings])).toEqual([
      4,
      [{ ruleId: 'archive-entry-count', data: { claimed: 2, found: 4 } }],
    ]);
  });

  it('a last record of exactly 46 bytes, an empty name and nothing after it, is read like any other', async () => {
    const bytes = buildZip(plus({ name: '', data: 'x', method: 0 }));
    expect(await opened(bytes, (source) => [source.entries.map((e) => e.path), source.findings])).toEqual([
      ['manifest.json', 'index.html', 'app.js', 'styles.css', ''],
      [],
    ]);
  });

  it('stops after 65,535 records', async () => {
    const many = Array.from({ length: 65_536 }, (_, i): EntrySpec => ({ name: i.toString(36), method: 0 }));
    const result = await opened(buildZip(many, { claimedCount: 0xffff }), (source) => [source.entries.length, source.findings]);
    expect(result).toEqual([65_535, [corrupt('the central directory holds more than 65535 records')]]);
  });

  it('a version needed above 4.6 is unsupported, with the version', async () => {
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', versionNeeded: 46 }))).toEqual([]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', versionNeeded: 47 }))).toEqual([
      { ruleId: 'archive-unsupported', file: 'a.js', data: { feature: 'version-needed', version: '4.7' } },
    ]);
  });

  it('the central size, compressed size and offset deferred to a Zip64 field: which, and what is wrong with it', async () => {
    const deferred = (central: Partial<{ compressedSize: number; uncompressedSize: number; localOffset: number }>, centralExtra: Buffer) =>
      zipFindings(plus({ name: 'a.js', data: 'x', central, centralExtra }));
    const u64 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from(BigInt(v).toString(16).padStart(16, '0'), 'hex').reverse()));
    expect(await deferred({ compressedSize: MARK }, Buffer.alloc(0))).toEqual([
      corrupt('the central directory defers its compressed size to a Zip64 field that is missing', 'a.js'),
    ]);
    expect(await deferred({ uncompressedSize: MARK }, extraField(1, Buffer.alloc(0)))).toEqual([
      corrupt('the central directory defers its uncompressed size to a Zip64 field that is too short', 'a.js'),
    ]);
    expect(await deferred({ uncompressedSize: MARK, compressedSize: MARK, localOffset: MARK }, extraField(1, u64(1, 1)))).toEqual([
      corrupt('the central directory defers its uncompressed size, compressed size, local header offset to a Zip64 field that is too short', 'a.js'),
    ]);
    // Only the local header offset, and only it in the field.
    expect(await deferred({ localOffset: MARK }, extraField(1, u64(directoryOf(buildZip(good())).offset)))).toEqual([]);
  });
});

describe('Zip64 fields beside real sizes', () => {
  const u64 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from(BigInt(v).toString(16).padStart(16, '0'), 'hex').reverse()));
  const compressed = zlib.deflateRawSync('x').length;
  const reason = (where: string, slot: string, field: number, header: number) =>
    `the ${where}'s Zip64 field holds ${field} in the place of the ${slot}, which the header gives as ${header} itself; a Zip64 value counts only for a header field set to 0xFFFFFFFF (APPNOTE 4.5.3), so readers that follow the specification take ${header} and readers that read the field in order take ${field}`;

  it('a central field whose values contradict the header: which value, and both readings', async () => {
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', centralExtra: extraField(1, u64(999)) }))).toEqual([
      corrupt(reason('central directory record', 'uncompressed size', 999, 1), 'a.js'),
    ]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', centralExtra: extraField(1, u64(1, 999)) }))).toEqual([
      corrupt(reason('central directory record', 'compressed size', 999, compressed), 'a.js'),
    ]);
    // The offset slot: the entry is the first, at offset 0.
    expect(await zipFindings([{ name: 'a.js', data: 'x', central: { uncompressedSize: MARK }, centralExtra: extraField(1, u64(1, compressed, 64)) }, ...good()])).toEqual([
      corrupt(reason('central directory record', 'local header offset', 64, 0), 'a.js'),
    ]);
  });

  it('values that equal the header, an empty field, and a field holding only what is marked read the same to everyone', async () => {
    expect(await zipFindings([{ name: 'a.js', data: 'x', centralExtra: extraField(1, u64(1, compressed, 0)) }, ...good()])).toEqual([]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', centralExtra: extraField(1, Buffer.alloc(0)) }))).toEqual([]);
    // Info-ZIP's -fz: one size marked, its value alone in the field; a reader in order would take
    // it for the uncompressed size, which is what it is.
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', central: { uncompressedSize: MARK }, centralExtra: extraField(1, u64(1)) }))).toEqual([]);
  });

  it('a local field is judged only without a data descriptor, whose sizes are then the ones checked', async () => {
    // Streaming writers leave placeholders in the local header and its field; the descriptor
    // (8 bytes wide, as the field announces) holds the sizes.
    const streamed = { name: 'a.js', data: 'x', zip64: true, descriptor: true, local: { compressedSize: 0, uncompressedSize: 0 }, localExtra: extraField(1, u64(999, 999)) };
    expect(await zipFindings(plus(streamed), { zip64: {} })).toEqual([]);
  });
});

describe('gaps and overlaps between entries', () => {
  it('bytes between two entries: where, how many, after which entry', async () => {
    const bytes = buildZip(good(), { gapAfter: { index: 1, bytes: Buffer.from('hidden!') } });
    expect(await findingsOf(bytes)).toEqual([{ ruleId: 'archive-hidden-data', data: { offset: bytes.indexOf('hidden!'), bytes: 7, after: 'index.html' } }]);
  });

  it('bytes between the last entry and the directory, and between the directory and the end record', async () => {
    const before = buildZip(good(), { gapAfter: { index: 3, bytes: Buffer.from('hidden!') } });
    expect(await findingsOf(before)).toEqual([{ ruleId: 'archive-hidden-data', data: { offset: before.indexOf('hidden!'), bytes: 7, after: 'styles.css' } }]);
    const after = buildZip(good(), { beforeEnd: Buffer.from('junk') });
    expect(await findingsOf(after)).toEqual([{ ruleId: 'archive-hidden-data', data: { offset: after.indexOf('junk'), bytes: 4, after: 'the central directory' } }]);
  });

  it('bytes before the first entry, or before the directory of an empty archive', async () => {
    const prefix = Buffer.from('#!/bin/sh\nexit 0\n');
    expect(await zipFindings(good(), { prefix })).toEqual([{ ruleId: 'archive-prefix-data', data: { bytes: prefix.length } }]);
    expect(await zipFindings([], { prefix })).toEqual([{ ruleId: 'archive-prefix-data', data: { bytes: prefix.length } }]);
  });

  it('two records sharing one entry overlap, and the header no record uses is hidden data', async () => {
    const bytes = buildZip([{ name: 'a.js', data: 'x' }, { name: 'b.js', data: 'x', central: { localOffset: 0 } }]);
    const length = localLength(bytes, 0);
    expect(await findingsOf(bytes)).toEqual([
      { ruleId: 'archive-header-mismatch', file: 'b.js', data: { fields: ['name'] } },
      { ruleId: 'archive-overlap', file: 'b.js', data: { other: 'a.js', offset: 0 } },
      // After the first of the two: the second ends where it does.
      { ruleId: 'archive-hidden-data', data: { offset: length, bytes: length, after: 'a.js' } },
    ]);
  });

  it('a directory listed in another order than its entries are stored: nothing wrong, entries in directory order', async () => {
    const bytes = inDirectoryOrder(buildZip(good()), [3, 1, 0, 2]);
    expect(await opened(bytes, (source) => [source.entries.map((e) => e.path), source.findings])).toEqual([
      ['styles.css', 'index.html', 'manifest.json', 'app.js'],
      [],
    ]);
  });

  it('two records at one offset: the shorter is taken first, whatever order the directory lists them in', async () => {
    // b.js points at a.js's header too, with its own (longer) size: its span ends 4 bytes later.
    const entries: EntrySpec[] = [
      { name: 'a.js', data: 'x', method: 0 },
      { name: 'b.js', data: 'yyyyy', method: 0, central: { localOffset: 0 } },
    ];
    const expected = [
      { ruleId: 'archive-header-mismatch', file: 'b.js', data: { fields: ['name', 'CRC-32', 'compressed size', 'uncompressed size'] } },
      { ruleId: 'archive-overlap', file: 'b.js', data: { other: 'a.js', offset: 0 } },
      // b.js's own header, 30 + 4 + 5 bytes after a.js's 35, is used by no record.
      { ruleId: 'archive-hidden-data', data: { offset: 34 + 5, bytes: 35, after: 'b.js' } },
    ];
    expect(await zipFindings(entries)).toEqual(expected);
    const reversed = await findingsOf(inDirectoryOrder(buildZip(entries), [1, 0]));
    expect(reversed).toEqual(expected);
  });

  it('an entry whose data runs into the directory overlaps it', async () => {
    const entries = good();
    const stored = Buffer.from('body { font-family: sans-serif; }\n');
    const into = stored.length + 10;
    entries[3] = { name: 'styles.css', data: stored, method: 0, central: { compressedSize: into }, local: { compressedSize: into } };
    const bytes = buildZip(entries);
    expect(await findingsOf(bytes)).toEqual([{ ruleId: 'archive-overlap', file: 'styles.css', data: { other: 'the central directory', offset: directoryOf(bytes).offset } }]);
  });

  it('a directory written before the entries is named as such, once; gaps and overlaps around it still count', async () => {
    const first = corrupt(
      "the central directory is written at offset 0, before entries it lists; every zip tool writes it after them, and readers that work out where the archive starts from where the directory ends (Python's zipfile) cannot read it",
    );
    const bytes = directoryFirst(buildZip(good()));
    expect(await opened(bytes, (source) => [source.entries.map((e) => e.path), source.findings])).toEqual([good().map((e) => e.name), [first]]);
    // Bytes between the directory and the first entry are hidden data after the directory.
    const cdSize = bytes.readUInt32LE(bytes.length - 10);
    const gap = Buffer.concat([bytes.subarray(0, cdSize), Buffer.from('hidden'), bytes.subarray(cdSize)]);
    for (let at = 0; at < cdSize; at = at + 46 + gap.readUInt16LE(at + 28) + gap.readUInt16LE(at + 30) + gap.readUInt16LE(at + 32)) {
      gap.writeUInt32LE(gap.readUInt32LE(at + 42) + 6, at + 42);
    }
    expect(await findingsOf(gap)).toEqual([first, { ruleId: 'archive-hidden-data', data: { offset: cdSize, bytes: 6, after: 'the central directory' } }]);
  });

  it('no gap is reported when an entry cannot be located: its bytes are somewhere in it', async () => {
    expect(await zipFindings(plus({ name: 'far.js', data: 'x', central: { localOffset: 0x7fffffff } }))).toEqual([
      truncated('a local header lies past the end of the file', 'far.js'),
    ]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', central: { localOffset: 1 } }))).toEqual([
      corrupt('no local header where the central directory points', 'a.js'),
    ]);
  });
});

describe('local headers', () => {
  it('a local header cut short by the end of the file is truncated; a whole one that is not a header is corrupt', async () => {
    const bytes = buildZip(plus({ name: 'a.js', data: 'x' }));
    const at = (offset: number) => {
      const copy = Buffer.from(bytes);
      copy.writeUInt32LE(offset, copy.lastIndexOf(Buffer.from('PK\x01\x02')) + 42);
      return findingsOf(copy);
    };
    expect(await at(bytes.length - 30)).toEqual([corrupt('no local header where the central directory points', 'a.js')]);
    expect(await at(bytes.length - 29)).toEqual([truncated('a local header lies past the end of the file', 'a.js')]);
  });

  it('names each field in which the local header and the central record differ', async () => {
    const data = 'let x = 1;\n';
    const cases: [EntrySpec['local'], string[]][] = [
      [{ name: Buffer.from('b.js') }, ['name']],
      [{ method: 0 }, ['compression method']],
      [{ flags: 0x8 }, ['flags']],
      [{ crc: 5 }, ['CRC-32']],
      [{ compressedSize: 99 }, ['compressed size']],
      [{ uncompressedSize: 99 }, ['uncompressed size']],
      [{ crc: 5, uncompressedSize: 99 }, ['CRC-32', 'uncompressed size']],
    ];
    for (const [local, fields] of cases) {
      const found = await zipFindings(plus({ name: 'a.js', data, local }));
      expect(found.filter((f) => f.ruleId === 'archive-header-mismatch'), fields.join()).toEqual([{ ruleId: 'archive-header-mismatch', file: 'a.js', data: { fields } }]);
    }
  });

  it('the UTF-8 flag counts only for a name that is not ASCII', async () => {
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', local: { flags: 0x800 } }))).toEqual([]);
    expect(await zipFindings(plus({ name: 'é.js', data: 'x', local: { flags: 0 } }))).toEqual([
      { ruleId: 'archive-header-mismatch', file: 'é.js', data: { fields: ['flags'] } },
    ]);
    // 0x80 is the first byte that is not ASCII.
    const name = Buffer.from([0x61, 0x80]);
    expect(await zipFindings(plus({ name, data: 'x', flags: 0, local: { flags: 0x800 } }))).toEqual([
      { ruleId: 'path-encoding', file: 'a\ufffd', data: { hex: '6180' } },
      { ruleId: 'archive-header-mismatch', file: 'a\ufffd', data: { fields: ['flags'] } },
    ]);
  });

  it('with a data descriptor, CRC and sizes are checked against the descriptor instead', async () => {
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', descriptor: { signature: true }, local: { crc: 5, compressedSize: 7, uncompressedSize: 9 } }))).toEqual([]);
  });

  it('sizes a local header defers to its Zip64 field', async () => {
    const u64 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from(BigInt(v).toString(16).padStart(16, '0'), 'hex').reverse()));
    // A Zip64 field is read only for the sizes set to the marker: here neither, so values in it
    // that contradict the header's own sizes give readers that read the field anyway two sizes.
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', localExtra: extraField(1, u64(999, 999)) }))).toEqual([
      corrupt(
        "the local header's Zip64 field holds 999 in the place of the uncompressed size, which the header gives as 1 itself; a Zip64 value counts only for a header field set to 0xFFFFFFFF (APPNOTE 4.5.3), so readers that follow the specification take 1 and readers that read the field in order take 999",
        'a.js',
      ),
    ]);
    // Values that repeat the header's, or an empty field, read the same either way.
    const compressedSize = zlib.deflateRawSync('x').length;
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', localExtra: extraField(1, u64(1, compressedSize)) }))).toEqual([]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', localExtra: extraField(1, Buffer.alloc(0)) }))).toEqual([]);
    // Both sizes in the field, whichever one the header marks, as the specification asks of a local header.
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', local: { compressedSize: MARK }, localExtra: extraField(1, u64(1, compressedSize)) }))).toEqual([]);
    // Only the uncompressed size, and only it in the field.
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', local: { uncompressedSize: MARK }, localExtra: extraField(1, u64(1)) }))).toEqual([]);
    // Without a Zip64 field an uncompressed size of 0xFFFFFFFF is a plain size, here a wrong one.
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', local: { uncompressedSize: MARK } }))).toEqual([
      { ruleId: 'archive-header-mismatch', file: 'a.js', data: { fields: ['uncompressed size'] } },
    ]);
    // A deferred compressed size needs the field.
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', local: { compressedSize: MARK } }))).toEqual([
      corrupt('the local header marks its sizes as stored in a Zip64 field, but that field is missing or too short', 'a.js'),
    ]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', local: { compressedSize: MARK, uncompressedSize: MARK }, localExtra: extraField(1, u64(1)) }))).toEqual([
      corrupt('the local header marks its sizes as stored in a Zip64 field, but that field is missing or too short', 'a.js'),
    ]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', zip64: true, localExtra: extraField(1, u64(999, 999)) }), { zip64: {} })).toEqual([
      { ruleId: 'archive-header-mismatch', file: 'a.js', data: { fields: ['compressed size', 'uncompressed size'] } },
    ]);
  });

  it("an entry's data that runs past the end of the file; up to its last byte is fine", async () => {
    const bytes = buildZip(plus({ name: 'a.js', data: 'x', method: 0 }));
    const reaching = (extra: number) => {
      const copy = Buffer.from(bytes);
      const record = copy.lastIndexOf(Buffer.from('PK\x01\x02'));
      const local = copy.readUInt32LE(record + 42);
      const dataStart = local + 30 + 4;
      copy.writeUInt32LE(copy.length - dataStart + extra, record + 20);
      return findingsOf(copy);
    };
    const atEnd = await reaching(0);
    expect(atEnd.map((f) => f.ruleId)).not.toContain('archive-truncated');
    expect(await reaching(1)).toContainEqual(truncated("an entry's data runs past the end of the file", 'a.js'));
  });
});

describe('data descriptors', () => {
  /** One stored entry with a descriptor (signature first): where the descriptor's fields are. */
  const withDescriptor = (signature: boolean) => {
    const bytes = buildZip([{ name: 'a.js', data: 'hello', method: 0, descriptor: { signature } }]);
    return { bytes, at: 30 + 4 + 5 + (signature ? 4 : 0) };
  };

  it('sizes in the descriptor that differ from the central record', async () => {
    for (const [field, offset] of [['compressed', 4], ['uncompressed', 8]] as const) {
      const { bytes, at } = withDescriptor(true);
      bytes.writeUInt32LE(4, at + offset);
      expect(await findingsOf(bytes), field).toEqual([{ ruleId: 'archive-header-mismatch', file: 'a.js', data: { fields: ['data descriptor'] } }]);
    }
  });

  it('a descriptor of the other width than the local header announces: corrupt, and its real end taken', async () => {
    const wideWithoutField = plus({ name: 'a.js', data: 'x', zip64: true, descriptor: true, localExtra: Buffer.alloc(0), local: { compressedSize: 0, uncompressedSize: 0 } });
    expect(await zipFindings(wideWithoutField, { zip64: {} })).toEqual([
      corrupt(
        'the data descriptor holds 8-byte (Zip64) sizes, but the local header has no Zip64 field, which is what tells a reader to expect them (APPNOTE 4.3.9.2); readers that stream the archive read 4-byte sizes and fail (bsdtar from a pipe: "uncompressed data is wrong size")',
        'a.js',
      ),
    ]);
    // The other way round: a Zip64 field in the local header and 4-byte sizes after the data.
    const bytes = buildZip(plus({ name: 'a.js', data: 'x', descriptor: true, localExtra: extraField(1, Buffer.alloc(16)), local: { compressedSize: MARK, uncompressedSize: MARK } }));
    expect(await findingsOf(bytes)).toEqual([
      corrupt(
        'the data descriptor holds 4-byte sizes, but the local header has a Zip64 field, which tells a reader to expect 8-byte ones (APPNOTE 4.3.9.2); readers that stream the archive read other sizes and fail',
        'a.js',
      ),
    ]);
  });

  it('a descriptor without its signature is read from the data end on', async () => {
    const { bytes, at } = withDescriptor(false);
    expect(await findingsOf(bytes)).toEqual([]);
    bytes.writeUInt32LE(1, at);
    expect(await findingsOf(bytes)).toEqual([
      { ruleId: 'archive-crc-mismatch', file: 'a.js', data: { expected: bytes.readUInt32LE(bytes.indexOf('PK\x01\x02') + 16).toString(16).padStart(8, '0'), actual: '00000001', where: 'data descriptor' } },
    ]);
  });

  it('a descriptor that lies past the end of the file, even too close to it for a signature', async () => {
    // The data reaches to 5 or 2 bytes before the end: no room for the 12 bytes of a descriptor,
    // and with 2 not even for the optional signature.
    for (const left of [5, 2]) {
      const bytes = buildZip(plus({ name: 'a.js', data: 'x', method: 0, descriptor: { signature: false } }));
      const record = bytes.lastIndexOf(Buffer.from('PK\x01\x02'));
      const dataStart = bytes.readUInt32LE(record + 42) + 30 + 4;
      bytes.writeUInt32LE(bytes.length - left - dataStart, record + 20);
      expect(await findingsOf(bytes), `${left} bytes left`).toEqual([
        truncated('a data descriptor lies past the end of the file', 'a.js'),
        { ruleId: 'archive-overlap', file: 'a.js', data: { other: 'the central directory', offset: bytes.indexOf('PK\x01\x02') } },
      ]);
    }
  });
});

describe('entry names and kinds', () => {
  it('what an entry is, from its mode on Unix, its attributes on DOS, and its name', async () => {
    const entries: [string, Partial<EntrySpec>, string][] = [
      ['link', { unixMode: 0o120777 }, 'symlink'],
      ['link-dir/', { unixMode: 0o120777 }, 'symlink'],
      ['dir/', { unixMode: 0o40755 }, 'directory'],
      ['dir-without-slash', { unixMode: 0o40755 }, 'other'],
      ['fifo', { unixMode: 0o10644 }, 'other'],
      ['file-with-slash/', { unixMode: 0o100644 }, 'other'],
      ['file', { unixMode: 0o100644 }, 'file'],
      ['no-type', { unixMode: 0o644 }, 'file'],
      ['no-type-dir/', { unixMode: 0o755 }, 'directory'],
      ['reparse-point', { dosAttributes: 0x400 }, 'symlink'],
      ['dos-dir/', { dosAttributes: 0x10 }, 'directory'],
      ['dos-file', { dosAttributes: 0x20 }, 'file'],
      // On a DOS host the upper half holds no Unix mode, whatever bits are set there.
      ['dos-high-bits', { dosAttributes: 0xa1ff0020 }, 'file'],
    ];
    const bytes = buildZip(entries.map(([name, spec]) => ({ name, data: '', method: 0, ...spec })));
    expect(await opened(bytes, (source) => source.entries.map((e) => [e.path, e.kind]))).toEqual(entries.map(([name, , kind]) => [name, kind]));
  });

  it('an unflagged UTF-8 name: decoded as UTF-8, and what code page 437 readers make of it', async () => {
    expect(await zipFindings(plus({ name: Buffer.from('café.js'), data: 'x' }))).toEqual([{ ruleId: 'path-utf8-flag', file: 'café.js', data: { cp437: 'caf├⌐.js' } }]);
    expect(await zipFindings(plus({ name: Buffer.from('À.js'), data: 'x' }))).toEqual([{ ruleId: 'path-utf8-flag', file: 'À.js', data: { cp437: '├Ç.js' } }]);
    expect(await zipFindings(plus({ name: 'café.js', data: 'x' }))).toEqual([]);
  });

  it('a name that is not UTF-8: decoded lossily, with its bytes', async () => {
    expect(await opened(buildZip(plus({ name: Buffer.from([0x61, 0xff, 0x2e, 0x6a, 0x73]), data: 'x' })), (s) => [s.entries[4]!.path, s.findings])).toEqual([
      'a\ufffd.js',
      [{ ruleId: 'path-encoding', file: 'a\ufffd.js', data: { hex: '61ff2e6a73' } }],
    ]);
  });
});

describe('extra fields', () => {
  it('a sub-field that claims more than its block holds: where, which, how much', async () => {
    const lying = Buffer.concat([Buffer.from([0x0a, 0x00, 40, 0]), Buffer.alloc(8)]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', centralExtra: lying }))).toEqual([
      { ruleId: 'archive-extra-field', file: 'a.js', data: { where: 'central', id: '0x000a', declared: 40, available: 8 } },
    ]);
    // The second of two sub-fields: what is left after the first.
    const second = Buffer.concat([extraField(0x5455, Buffer.alloc(5)), Buffer.from([0x0a, 0x00, 20, 0]), Buffer.alloc(6)]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', centralExtra: second }))).toEqual([
      { ruleId: 'archive-extra-field', file: 'a.js', data: { where: 'central', id: '0x000a', declared: 20, available: 6 } },
    ]);
    // A sub-field header as the last 4 bytes, with no data for it.
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', localExtra: Buffer.from([0x55, 0x54, 5, 0]) }))).toEqual([
      { ruleId: 'archive-extra-field', file: 'a.js', data: { where: 'local', id: '0x5455', declared: 5, available: 0 } },
    ]);
  });

  it("a local header's Unicode Path field is held against the central name, and one name in both headers is one finding", async () => {
    const field = (name: string, nameCrc?: number) => unicodePathField(Buffer.from('a.js'), name, nameCrc);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', localExtra: field('manifest.json') }))).toEqual([
      { ruleId: 'path-unicode-mismatch', file: 'a.js', data: { other: 'manifest.json', crcMatches: true, where: 'local' } },
    ]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', localExtra: field('manifest.json', 7) }))).toEqual([
      { ruleId: 'path-unicode-mismatch', file: 'a.js', data: { other: 'manifest.json', crcMatches: false, where: 'local' } },
    ]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', extra: field('b.js') }))).toEqual([
      { ruleId: 'path-unicode-mismatch', file: 'a.js', data: { other: 'b.js', crcMatches: true, where: 'central' } },
    ]);
    // Two other names: one finding for each header.
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', centralExtra: field('b.js'), localExtra: field('c.js') }))).toEqual([
      { ruleId: 'path-unicode-mismatch', file: 'a.js', data: { other: 'b.js', crcMatches: true, where: 'central' } },
      { ruleId: 'path-unicode-mismatch', file: 'a.js', data: { other: 'c.js', crcMatches: true, where: 'local' } },
    ]);
    // A local field naming the entry as the central directory does is fine.
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', localExtra: field('a.js') }))).toEqual([]);
  });

  it('a Unicode Path field needs its version and checksum, 5 bytes; an empty name after them is a name', async () => {
    const field = (data: Buffer) => extraField(0x7075, data);
    const crcOfName = Buffer.alloc(4);
    crcOfName.writeUInt32LE(Number(BigInt.asUintN(32, BigInt((await import('node:zlib')).crc32(Buffer.from('a.js'))))));
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', extra: field(Buffer.concat([Buffer.from([1]), crcOfName])) }))).toEqual([
      { ruleId: 'path-unicode-mismatch', file: 'a.js', data: { other: '', crcMatches: true, where: 'central' } },
    ]);
    expect(await zipFindings(plus({ name: 'a.js', data: 'x', extra: field(Buffer.concat([Buffer.from([1]), crcOfName.subarray(0, 3)])) }))).toEqual([]);
  });
});
