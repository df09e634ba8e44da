import zlib from 'node:zlib';
import { goodEntries, goodManifest } from '../helpers/bundles.js';
import { buildZip, crc, directoryFirst, extraField, unicodePathField, type ArchiveSpec, type EntrySpec } from '../helpers/zip-builder.js';

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
  /**
   * How yauzl and Python's zipfile read the shape where they do not list the entries and bytes
   * validate reads: why, in a few words. The oracle test reads every shape that has this with
   * both, and checks that a reader without a note agrees and one with a note does not.
   */
  peers?: { yauzl?: string; python?: string };
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

/** A manifest that turns the tool into another one: what a second name or a hidden entry delivers. */
const swappedManifest = JSON.stringify({ ...goodManifest, type: 'standalone', name: 'Swapped' });
const notes = '{"notes":[]}';
const deflated = (text: string) => zlib.deflateRawSync(Buffer.from(text));

/**
 * A data descriptor (with its signature) for `data` compressed to `compressed` bytes, as a
 * streaming writer puts it after an entry.
 */
function descriptorFor(data: string, compressed: number): Buffer {
  const bytes = Buffer.alloc(16);
  bytes.writeUInt32LE(0x08074b50, 0);
  bytes.writeUInt32LE(crc(Buffer.from(data)), 4);
  bytes.writeUInt32LE(compressed, 8);
  bytes.writeUInt32LE(Buffer.byteLength(data), 12);
  return bytes;
}

/**
 * The entry `data/notes.json` behind a data descriptor, whose declared compressed bytes hold its
 * deflate stream, a descriptor for that stream alone, and a whole second entry named
 * manifest.json. Readers that take sizes from the central directory see notes.json; an extractor
 * that finds an entry's end by its deflate stream (bsdtar reading from a pipe) reads on into the
 * hidden entry, and writes it over the manifest it extracted first.
 */
export function hiddenBehindStream(): EntrySpec {
  const stream = deflated(notes);
  const hidden = buildZip([{ name: 'manifest.json', data: swappedManifest, descriptor: true }]);
  const hiddenEntry = hidden.subarray(0, hidden.indexOf(Buffer.from('504b0102', 'hex')));
  return { name: 'data/notes.json', data: notes, descriptor: true, payload: Buffer.concat([stream, descriptorFor(notes, stream.length), hiddenEntry]) };
}

/**
 * An entry whose local header carries a Unicode Path field naming manifest.json, while both
 * headers name it data/notes.json: bsdtar (libarchive) names the file it writes by that field.
 */
export const secondNameInLocalHeader = (nameCrc?: number): EntrySpec => ({
  name: 'data/notes.json',
  data: swappedManifest,
  localExtra: unicodePathField(Buffer.from('data/notes.json'), 'manifest.json', nameCrc),
});

/**
 * What Info-ZIP's zip writes when it reads a file from standard input (`zip -0 < file`), the
 * archive inside CPython's exe_with_z64 test data: stored entries whose local headers defer both
 * sizes to a Zip64 field, plain central records, and a Zip64 end record beside an end record that
 * does not defer to it.
 */
const infoZipFromStdin = () =>
  buildZip(
    good().map((e) => {
      const size = Buffer.byteLength(e.data as string);
      return { ...e, method: 0, versionNeeded: 45, local: { compressedSize: MARK, uncompressedSize: MARK }, localExtra: extraField(1, u64(size, size)) };
    }),
    { zip64: { sentinels: false } },
  );

/**
 * CPython's make_zip64_file(...) test archives with every size and offset in Zip64 fields (the
 * "zip64-valid-all-fields" case): the Zip64 end record is right, but the end record beside it
 * gives the directory's size and offset as if the Zip64 fields held nothing, and does not defer.
 */
function staleEndRecord(): Buffer {
  const entries = good().map((e) => ({ ...e, method: 0, zip64: true }));
  const fresh = buildZip(entries, { zip64: { sentinels: false } });
  const cdSize = fresh.readUInt32LE(fresh.length - 10);
  const cdOffset = fresh.readUInt32LE(fresh.length - 6);
  const archive: ArchiveSpec = { cdSize: cdSize - 24 * entries.length, cdOffset: cdOffset - 16 * entries.length, zip64: { sentinels: false, cdSize, cdOffset } };
  return buildZip(entries, archive);
}

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

  // Every name a reader may use must be the one the central directory gives.
  {
    name: "a Unicode Path field in a local header naming manifest.json (bsdtar writes it there)",
    bytes: () => buildZip(plus(secondNameInLocalHeader())),
    has: ['path-unicode-mismatch'],
    lacks: ['archive-header-mismatch'],
    peers: {},
  },
  {
    name: 'a stale Unicode Path field in a local header',
    bytes: () => buildZip(plus(secondNameInLocalHeader(1234))),
    has: ['path-unicode-mismatch'],
    peers: {},
  },
  {
    // Readers take only a comment from the Unicode Comment field, so it cannot rename anything.
    name: 'an Info-ZIP Unicode Comment field (0x6375) holding a file name, in both headers',
    bytes: () => {
      const comment = Buffer.from('notes');
      const field = extraField(0x6375, Buffer.concat([Buffer.from([1]), u64(crc(comment)).subarray(0, 4), Buffer.from('manifest.json')]));
      return buildZip(plus({ name: 'a.js', data: 'x', comment, extra: field }));
    },
    clean: true,
    peers: {},
  },

  // A deflate stream must end exactly at its entry's compressed size.
  {
    name: 'bytes after the end of a deflate stream, inside the compressed size',
    bytes: () => buildZip(plus({ name: 'data/notes.json', data: notes, payload: Buffer.concat([deflated(notes), Buffer.from('junk')]) })),
    has: ['archive-size-mismatch'],
    lacks: ['archive-corrupt-data', 'archive-crc-mismatch'],
    peers: {},
  },
  {
    name: 'an entry hidden behind the end of a deflate stream, before its data descriptor',
    bytes: () => buildZip(plus(hiddenBehindStream())),
    has: ['archive-size-mismatch'],
    peers: {},
  },

  // Zip64 values beside real 32-bit ones.
  {
    name: 'a central Zip64 field with other sizes than the real 32-bit ones beside it',
    bytes: () => buildZip(plus({ name: 'a.js', data: 'x', centralExtra: extraField(1, u64(999, 999)) })),
    has: ['archive-corrupt'],
    lacks: ['archive-header-mismatch'],
    peers: {},
  },
  {
    name: 'a local Zip64 field with other sizes than the real 32-bit ones beside it',
    bytes: () => buildZip(plus({ name: 'a.js', data: 'x', localExtra: extraField(1, u64(999, 999)) })),
    has: ['archive-corrupt'],
    peers: {},
  },
  {
    // Node's archiver (compress-commons) fills every slot of the field, the offset too.
    name: 'a central Zip64 field that also holds the offset its header gives',
    bytes: () => {
      const compressed = deflated('x').length;
      return buildZip([{ name: 'a.js', data: 'x', central: { uncompressedSize: MARK, compressedSize: MARK }, centralExtra: extraField(1, u64(1, compressed, 0)) }, ...good()]);
    },
    clean: true,
    peers: {},
  },
  {
    // CPython's make_zip64_file() with no value deferred: a Zip64 field with nothing in it.
    name: 'an empty Zip64 field in both headers',
    bytes: () => buildZip(plus({ name: 'a.js', data: 'x', extra: extraField(1, Buffer.alloc(0)) })),
    clean: true,
    peers: {},
  },

  // Zip64 archives other readers' suites accept: read as what they are.
  {
    name: 'Info-ZIP zip reading standard input: Zip64 local headers, plain central records',
    bytes: infoZipFromStdin,
    clean: true,
    peers: {},
  },
  {
    // The offsets stay those of the archive alone, so the locator points one prefix too early.
    name: 'CPython exe_with_z64: a shell script before a Zip64 archive',
    bytes: () => Buffer.concat([Buffer.from('#!/bin/bash\nINTERPRETER_UNDER_TEST="$1"\nshift\nexec "$INTERPRETER_UNDER_TEST" "$0" "$@"\n'), infoZipFromStdin()]),
    has: ['archive-prefix-data'],
    lacks: ['archive-corrupt', 'archive-ambiguous-end', 'archive-hidden-data'],
    peers: {
      yauzl: 'fails: looks for the Zip64 end record where the locator points, inside the script',
      python: 'reads the entries after the script; validate reports the script and reads no further',
    },
  },
  {
    // Info-ZIP unzip, Go and .NET read the end record's (wrong) values: unzip says "start of
    // central directory not found"; Python's zipfile reads the Zip64 record's.
    name: 'CPython zip64-valid-all-fields: an end record whose sizes leave the Zip64 fields out',
    bytes: staleEndRecord,
    has: ['archive-corrupt'],
    lacks: ['archive-unsupported'],
    peers: {
      yauzl: "reads it by the Zip64 end record's values; validate stops where the two end records disagree",
      python: "reads it by the Zip64 end record's values; validate stops where the two end records disagree",
    },
  },
  {
    // Readers that take sizes from the central directory (Python, yauzl, unzip) are fine; bsdtar
    // reading from a pipe fails with "uncompressed data is wrong size" (test/validate/bsdtar.test.ts).
    name: 'yauzl success/zip64.zip: 8-byte descriptor sizes without a Zip64 field in the local header',
    bytes: () =>
      buildZip(
        good().map((e) => ({ ...e, zip64: true, descriptor: true, localExtra: Buffer.alloc(0), local: { compressedSize: 0, uncompressedSize: 0 } })),
        { zip64: {} },
      ),
    has: ['archive-corrupt'],
    lacks: ['archive-hidden-data', 'archive-header-mismatch'],
    peers: {},
  },

  // Layouts named by what they are.
  {
    name: 'the central directory written before the entries',
    bytes: () => directoryFirst(buildZip(good())),
    has: ['archive-corrupt'],
    lacks: ['archive-prefix-data', 'archive-hidden-data', 'archive-overlap'],
    peers: { python: "fails: takes the directory's end for the archive's start, so finds no directory" },
  },
  {
    name: 'two end records back to back',
    bytes: () => {
      const bytes = buildZip(good());
      return Buffer.concat([bytes, bytes.subarray(bytes.length - 22)]);
    },
    has: ['archive-ambiguous-end'],
    lacks: ['archive-hidden-data', 'archive-trailing-data'],
    peers: { python: 'fails: counts the first end record as part of the directory, so finds no directory' },
  },
];
