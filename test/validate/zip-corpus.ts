import { goodEntries } from '../helpers/bundles.js';
import { buildZip, extraField, unicodePathField, type EntrySpec } from '../helpers/zip-builder.js';

/**
 * Archive shapes from other readers' test suites (yauzl, Go's archive/zip, CPython's zipfile) and
 * from real writers, rebuilt byte by byte with our own builder around the clean tool's files, with
 * what validate must say about each. The reader tests check the verdicts; the oracle test reads
 * every one with yauzl as a second opinion.
 */
export interface Shape {
  name: string;
  bytes: () => Buffer;
  /** No problem at all. */
  clean?: boolean;
  /** Rule ids that must be reported. */
  has?: string[];
  /** Rule ids that must not be. */
  lacks?: string[];
  /** False when yauzl cannot serve as a second opinion on this shape (the comment says why). */
  oracle?: false;
}

const MARK = 0xffffffff;
const good = goodEntries;
const plus = (...extra: EntrySpec[]) => [...good(), ...extra];
const zip64Entries = () => good().map((e) => ({ ...e, zip64: true }));
const u64 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from(BigInt(v).toString(16).padStart(16, '0'), 'hex').reverse()));
const withSizes = (central: Partial<{ compressedSize: number; uncompressedSize: number; localOffset: number }>, centralExtra: Buffer): EntrySpec => ({
  name: 'a.js',
  data: 'x',
  central,
  centralExtra,
});
/** The clean tool with its last entry's file comment set. */
const withComment = (comment: Buffer, extra?: Buffer) => {
  const entries = good();
  entries[entries.length - 1] = { ...entries[entries.length - 1]!, comment, ...(extra ? { extra } : {}) };
  return entries;
};
/** A well-formed archive with its last `n` bytes cut off. */
const cut = (bytes: Buffer, n: number) => bytes.subarray(0, bytes.length - n);

export const shapes: Shape[] = [
  // Zip64, as streaming writers (.NET's ZipArchive, Java and Node zippers) write small files.
  { name: 'Zip64: every entry and the end in Zip64 form', bytes: () => buildZip(zip64Entries(), { zip64: {} }), clean: true },
  {
    name: 'Zip64: data descriptors with 8-byte sizes',
    bytes: () => buildZip(zip64Entries().map((e, i) => ({ ...e, descriptor: { signature: i % 2 === 0 } })), { zip64: {} }),
    clean: true,
  },
  { name: 'Zip64: a Zip64 end record the end record does not defer to', bytes: () => buildZip(good(), { zip64: { sentinels: false } }), clean: true },
  {
    name: 'Zip64 limits apply to real sizes: 51 MB behind Zip64 headers',
    bytes: () => buildZip([...zip64Entries(), { name: 'zeros.js', data: Buffer.alloc(51_000_000), zip64: true }], { zip64: {} }),
    has: ['unpacked-size'],
    lacks: ['archive-corrupt', 'archive-unsupported'],
  },
  {
    // Go issue 12449: the last central record's comment ends in "PK\x06\x07" and 16 junk bytes,
    // right before the end record, and an extra field holds "PK\x05\x06": not Zip64, and not
    // corrupt; but Python's zipfile and yauzl 3.4 take the junk for a locator (yauzl throws
    // outside its callback), so two readers see two archives.
    name: 'Go 12449: stray locator bytes before a plain end record',
    oracle: false,
    bytes: () =>
      buildZip(
        withComment(
          Buffer.concat([Buffer.from('release notes '), Buffer.from('504b0607c819c1af949c6144be9419425812c65b', 'hex')]),
          extraField(0x7875, Buffer.from('504b0506000000000100010000', 'hex')),
        ).map((e) => ({ ...e, descriptor: true })),
      ),
    has: ['archive-ambiguous-end'],
    lacks: ['archive-corrupt', 'archive-unsupported'],
  },
  {
    // A plain size of 4 GB: more than the whole budget, so judged by its header, not inflated.
    name: 'an uncompressed size of exactly 0xFFFFFFFF without a Zip64 field is a plain (lying) size',
    bytes: () => buildZip(plus({ name: 'a.js', data: 'x', central: { uncompressedSize: MARK }, local: { uncompressedSize: MARK } })),
    has: ['unpacked-size'],
    lacks: ['archive-corrupt', 'archive-unsupported'],
  },

  // Malformed Zip64 is corrupt (CPython's test_bad_zip64_extra, yauzl's zip64 failures).
  ...(
    [
      ['uncompressed size', { uncompressedSize: MARK }, Buffer.alloc(0)],
      ['compressed size', { uncompressedSize: MARK, compressedSize: MARK }, u64(1)],
      ['local header offset', { uncompressedSize: MARK, compressedSize: MARK, localOffset: MARK }, u64(1, 1)],
    ] as const
  ).map(([what, central, data]) => ({
    name: `CPython bad_zip64_extra: the Zip64 field lacks the ${what}`,
    bytes: () => buildZip(plus(withSizes(central, extraField(1, data)))),
    has: ['archive-corrupt'],
    lacks: ['archive-unsupported'],
  })),
  {
    name: 'yauzl: a compressed size deferred to a Zip64 field that is missing',
    bytes: () => buildZip(plus(withSizes({ compressedSize: MARK }, Buffer.alloc(0)))),
    has: ['archive-corrupt'],
  },
  {
    name: 'a local header deferring its sizes to a Zip64 field it lacks',
    bytes: () => buildZip(plus({ name: 'a.js', data: 'x', zip64: true, localExtra: Buffer.alloc(0) }), { zip64: {} }),
    has: ['archive-corrupt'],
  },
  {
    name: "a local header's Zip64 sizes disagreeing with the central directory",
    bytes: () => buildZip(plus({ name: 'a.js', data: 'x', zip64: true, localExtra: extraField(1, u64(999, 999)) }), { zip64: {} }),
    has: ['archive-header-mismatch'],
  },
  { name: 'a Zip64 locator pointing nowhere', bytes: () => buildZip(good(), { zip64: { recordOffset: 3 } }), has: ['archive-corrupt'], lacks: ['archive-unsupported'] },
  { name: 'a Zip64 locator without its end record', bytes: () => buildZip(good(), { zip64: { omitRecord: true } }), has: ['archive-corrupt'] },
  { name: 'bytes between the Zip64 end record and its locator', bytes: () => buildZip(good(), { zip64: { gap: Buffer.from('hidden') } }), has: ['archive-corrupt'] },
  {
    name: 'a Zip64 end record with extensible data',
    bytes: () => buildZip(good(), { zip64: { extensible: Buffer.from('0100020000000000', 'hex') } }),
    has: ['archive-unsupported'],
    lacks: ['archive-corrupt'],
  },
  { name: 'the end records disagree on the entry count', bytes: () => buildZip(good(), { zip64: { sentinels: false, entries: 5 } }), has: ['archive-corrupt'] },
  { name: 'entries on the disk differ from the total in the Zip64 end record', bytes: () => buildZip(good(), { zip64: { entriesOnDisk: 3 } }), has: ['archive-corrupt'], lacks: ['archive-unsupported'] },
  { name: 'an end record deferring to a Zip64 end record that is absent', bytes: () => buildZip(good(), { cdOffset: MARK }), has: ['archive-corrupt'] },
  {
    name: 'Go CVE-2021-33196: a Zip64 end record claiming 2^53 entries',
    bytes: () => buildZip(good(), { zip64: { entries: Number.MAX_SAFE_INTEGER } }),
    has: ['archive-entry-count'],
  },
  { name: 'Go CVE-2021-39293: a Zip64 directory size far past the file', bytes: () => buildZip(good(), { zip64: { cdSize: 2 ** 40 } }), has: ['archive-truncated'] },

  // Disk fields: a real last part of a split archive is unsupported; garbage is corrupt.
  { name: 'yauzl: multi-disk archive (last part)', bytes: () => buildZip(good(), { disk: 1 }), has: ['archive-unsupported'] },
  { name: 'garbage disk fields', bytes: () => buildZip(good(), { cdDisk: 7 }), has: ['archive-corrupt'], lacks: ['archive-unsupported'] },
  { name: 'entries on this disk differ from the total on disk 0', bytes: () => buildZip(good(), { entriesOnDisk: 2 }), has: ['archive-corrupt'], lacks: ['archive-unsupported'] },

  // End records.
  { name: 'yauzl: invalid comment length (cut short)', bytes: () => cut(buildZip(good(), { comment: Buffer.from('x') }), 1), has: ['archive-truncated'] },
  {
    name: 'an end-of-archive signature inside the archive comment',
    bytes: () => buildZip(good(), { comment: Buffer.concat([Buffer.from('see '), Buffer.from('504b0506', 'hex'), Buffer.alloc(18)]) }),
    has: ['archive-ambiguous-end'],
  },
  { name: 'a partial end signature at the end of the comment', bytes: () => buildZip(good(), { comment: Buffer.from('504b0506', 'hex') }), has: ['archive-ambiguous-end'] },
  { name: 'Go test-trailing-junk', bytes: () => buildZip(good(), { trailing: Buffer.from('trailing junk') }), has: ['archive-trailing-data'] },
  { name: 'bsdtar to a pipe: 10,240 zero bytes of padding', bytes: () => buildZip(good(), { trailing: Buffer.alloc(10_240) }), has: ['archive-trailing-data'], lacks: ['archive-truncated'] },
  { name: 'zero padding longer than the comment window', bytes: () => buildZip(good(), { trailing: Buffer.alloc(100_000) }), has: ['archive-trailing-data'], lacks: ['archive-truncated', 'archive-not-zip'] },
  { name: 'Go test-prefix', bytes: () => buildZip(good(), { prefix: Buffer.from('#!/bin/sh\nexit 0\n') }), has: ['archive-prefix-data'] },
  { name: 'Go test-baddirsz: the end record understates the directory size', bytes: () => buildZip(good(), { cdSize: 100 }), has: ['archive-corrupt'] },

  // Headers and entries.
  { name: 'yauzl: invalid local file header signature', bytes: () => buildZip(plus({ name: 'a.js', data: 'x', central: { localOffset: 1 } })), has: ['archive-corrupt'] },
  { name: 'yauzl: strong encryption', bytes: () => buildZip(plus({ name: 'a.js', data: 'x', flags: 0x41 })), has: ['archive-encrypted'] },
  { name: 'yauzl: unsupported compression method 1', bytes: () => buildZip(plus({ name: 'a.js', data: 'x', method: 1 })), has: ['archive-compression'] },
  {
    name: 'yauzl: stored sizes that disagree',
    bytes: () => buildZip(plus({ name: 'a.js', data: 'xxxxx', method: 0, central: { uncompressedSize: 10 }, local: { uncompressedSize: 10 } })),
    has: ['archive-size-mismatch'],
  },
  { name: 'yauzl: file data overflows file bounds', bytes: () => buildZip(plus({ name: 'a.js', data: 'x', central: { compressedSize: 0x7fffffff } })), has: ['archive-truncated'] },
  ...['C:\\xt.js', '/atxt.js', '../xt.js', 'a\\b.js'].map((name) => ({ name: `yauzl: unsafe name ${name}`, bytes: () => buildZip(plus({ name, data: 'x' })), has: ['path-unsafe'] })),
  {
    name: 'Go CVE-2021-41772: names made of / and \\',
    bytes: () => buildZip(plus(...['/', '//', '\\', '/test.js'].map((name) => ({ name, data: '', method: 0 })))),
    has: ['path-unsafe'],
  },
  { name: 'Go CVE-2021-27919: ../test.js behind a data descriptor', bytes: () => buildZip(plus({ name: '../test.js', data: 'x', descriptor: true })), has: ['path-unsafe'] },
  {
    name: 'Go TestFSWalkBadFile: the root folder holding data',
    bytes: () => buildZip(plus({ name: './', data: 'some data', method: 0, unixMode: 0o40755 })),
    has: ['archive-directory-data', 'path-dot-prefix'],
    lacks: ['path-unsafe'],
  },
  { name: 'Go issue 54801: folder entries with data', bytes: () => buildZip(plus({ name: 'lib/', data: 'x'.repeat(100) })), has: ['archive-directory-data'] },
  { name: "jar's folders: an empty deflate stream is no data", bytes: () => buildZip(plus({ name: 'lib/', data: '', method: 8 }, { name: 'lib/a.js', data: 'x' })), clean: true },
  {
    name: 'extra field running past its block (central)',
    bytes: () => buildZip(plus({ name: 'a.js', data: 'x', centralExtra: Buffer.concat([Buffer.from([0x55, 0x54, 40, 0]), Buffer.alloc(8)]) })),
    has: ['archive-extra-field'],
  },
  {
    name: 'extra field running past its block (local)',
    bytes: () => buildZip(plus({ name: 'a.js', data: 'x', localExtra: Buffer.concat([Buffer.from([0x55, 0x54, 40, 0]), Buffer.alloc(8)]) })),
    has: ['archive-extra-field'],
  },
  { name: 'a 3-byte tail in an extra field (alignment padding)', bytes: () => buildZip(plus({ name: 'a.js', data: 'x', extra: Buffer.alloc(3) })), clean: true },
  {
    name: 'Info-ZIP Unicode Path naming another file',
    bytes: () => buildZip(plus({ name: 'a.js', data: 'x', extra: unicodePathField(Buffer.from('a.js'), 'b.js') })),
    has: ['path-unicode-mismatch'],
  },
  {
    name: 'a stale Info-ZIP Unicode Path field',
    bytes: () => buildZip(plus({ name: 'a.js', data: 'x', extra: unicodePathField(Buffer.from('a.js'), 'b.js', 1234) })),
    has: ['path-unicode-mismatch'],
  },
  { name: 'an Info-ZIP Unicode Path field that agrees', bytes: () => buildZip(plus({ name: 'é.js', data: 'x', extra: unicodePathField(Buffer.from('é.js'), 'é.js') })), clean: true },
  { name: 'a data descriptor with another checksum', bytes: () => buildZip(plus({ name: 'a.js', data: 'x', descriptor: { signature: true, crc: 7 } })), has: ['archive-crc-mismatch'], lacks: ['archive-header-mismatch'] },
  {
    name: 'bsdtar -a -cf x.zip . (every name under ./)',
    bytes: () => buildZip([{ name: './', data: '' }, ...good().map((e) => ({ ...e, name: `./${e.name as string}` }))]),
    has: ['path-dot-prefix'],
    lacks: ['path-unsafe', 'manifest-missing'],
  },
  { name: 'jar: a ./ entry for the root', bytes: () => buildZip([{ name: './', data: '' }, ...good()]), has: ['path-dot-prefix'], lacks: ['path-unsafe'] },
];
