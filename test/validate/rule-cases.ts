import { readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import { goodEntries, goodFiles, goodManifest, writeBytes, writeFolder, writeZip } from '../helpers/bundles.js';
import { extraField, unicodePathField, type EntrySpec } from '../helpers/zip-builder.js';
import { noise } from '../helpers/noise.js';

/**
 * For every rule: a bundle that breaks it and a near-identical bundle that does not. Each bad case
 * says what it attacks or gets wrong. A meta-test checks that every registered rule is listed here.
 * A case may also pin part of the finding's data.
 */
export interface RuleCase {
  bad: () => string;
  good: () => string;
  data?: Record<string, unknown>;
  /** The exact message of one of its findings: the words a user reads. */
  message?: string;
}

const clean = () => writeZip(goodEntries());
const withManifest = (manifest: unknown) => () => writeFolder({ ...goodFiles(), 'manifest.json': typeof manifest === 'string' ? manifest : JSON.stringify(manifest) });
const plusEntries = (...extra: EntrySpec[]) => () => writeZip([...goodEntries(), ...extra]);
const plusFiles = (extra: Record<string, string | Buffer>) => () => writeFolder({ ...goodFiles(), ...extra });
const { name: _name, ...withoutName } = goodManifest;

export const ruleCases: Record<string, RuleCase> = {
  'manifest-missing': {
    message: 'manifest.json is not at the root but at estimator/manifest.json: you zipped the folder, not its contents. Zip the files inside the folder, or run `pipeline-tool pack estimator`.',
    // The most common real mistake: zipping the folder instead of its contents.
    bad: () => writeZip(goodEntries().map((e) => ({ ...e, name: `estimator/${e.name as string}` }))),
    good: clean,
    data: { nested: 'estimator/manifest.json' },
  },
  'manifest-too-large': {
    message: 'manifest.json is 70,176 bytes; at most 64,000 bytes is read. A manifest holds six short fields; remove the rest.',
    bad: withManifest({ ...goodManifest, padding: 'x'.repeat(70_000) }),
    good: withManifest(goodManifest),
  },
  'manifest-encoding': {
    message: 'manifest.json is not valid UTF-8. Save it as UTF-8 in your editor.',
    bad: () => writeFolder({ ...goodFiles(), 'manifest.json': Buffer.from([0x7b, 0xff, 0x7d]) }),
    good: withManifest(goodManifest),
  },
  'manifest-bom': {
    message: 'manifest.json starts with a byte-order mark, which some JSON parsers reject. Save it as UTF-8 without BOM.',
    bad: () => writeFolder({ ...goodFiles(), 'manifest.json': `\ufeff${JSON.stringify(goodManifest)}` }),
    good: withManifest(goodManifest),
  },
  'manifest-syntax': {
    message: 'manifest.json is not valid JSON: a trailing comma before "}".',
    bad: withManifest('{\n  "name": "Kitchen",\n  "type": "standalone",\n}\n'),
    good: withManifest(goodManifest),
  },
  'manifest-duplicate-key': {
    message: '"type" appears twice in the same object. Parsers disagree on which value wins, so the marketplace may read another value than you see; keep one.',
    // JSON.parse keeps the last "type"; other parsers keep the first.
    bad: withManifest(`{"type":"quoting_extension",${JSON.stringify(goodManifest).slice(1).replace('"type":"quoting_extension"', '"type":"standalone"')}`),
    good: withManifest(goodManifest),
    data: { key: 'type' },
  },
  'manifest-not-object': { message: 'manifest.json holds an array; it must be an object like {"name": "…", "shortName": "…", …}.', bad: withManifest('["name"]'), good: withManifest(goodManifest), data: { actual: 'an array' } },
  'manifest-missing-field': { message: 'manifest.json has no "name", which is required. Add it.', bad: withManifest(withoutName), good: withManifest(goodManifest), data: { field: 'name' } },
  'manifest-field-type': { message: '"version" must be a string, but it is a number. Write it in double quotes.', bad: withManifest({ ...goodManifest, version: 1 }), good: withManifest(goodManifest), data: { field: 'version' } },
  'manifest-empty-field': { message: '"name" is empty. Give it a value.', bad: withManifest({ ...goodManifest, name: '   ' }), good: withManifest(goodManifest), data: { field: 'name' } },
  'manifest-tool-type': {
    message: '"type" is "quoting-extension", but must be "standalone" or "quoting_extension"; did you mean "quoting_extension"?',
    bad: withManifest({ ...goodManifest, type: 'quoting-extension' }),
    good: withManifest({ ...goodManifest, type: 'standalone' }),
    data: { suggestion: 'quoting_extension' },
  },
  'manifest-version': { message: '"version" is "v1.2", which is not a SemVer version like 1.2.0; write "1.2.0".', bad: withManifest({ ...goodManifest, version: 'v1.2' }), good: withManifest({ ...goodManifest, version: '1.2.0-beta.1+build.5' }), data: { suggestion: '1.2.0' } },
  'manifest-description': {
    message: `"description" reads as 2 sentences; the listing expects one. Keep the first and move the rest to your tool's help.`,
    bad: withManifest({ ...goodManifest, description: 'Estimates kitchens. Also bathrooms.' }),
    good: withManifest({ ...goodManifest, description: 'Estimates kitchens, e.g. benchtops and cabinets.' }),
  },
  'manifest-short-name': {
    message: '"shortName" has 32 characters; tab labels cut names longer than about 24. Shorten it.',
    bad: withManifest({ ...goodManifest, shortName: 'Kitchen Estimator Deluxe Edition' }),
    good: withManifest(goodManifest),
    data: { reason: 'too-long' },
  },
  'manifest-control-character': {
    message: '"name" contains the bidirectional override character U+202E, which can make the listing show something else than it holds. Remove it.',
    // Shown as "Kitchen Estimator (fdp.exe)": the override reverses what follows it.
    bad: withManifest({ ...goodManifest, name: 'Kitchen Estimator (\u202Eexe.pdf)' }),
    // A family emoji is joined by U+200D, and a Persian name needs U+200C: both are ordinary text.
    good: withManifest({ ...goodManifest, name: 'Kitchen \u{1F468}\u200D\u{1F469}\u200D\u{1F467} \u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645' }),
    data: { field: 'name', codePoint: 'U+202E', kind: 'bidi' },
  },
  'manifest-unknown-field': {
    message: '"shortname" is not a manifest field; did you mean "shortName"?',
    bad: withManifest({ ...goodManifest, shortname: 'K' }),
    // $schema is known. In a zip, since pack leaves it out of a folder's manifest before any rule sees it.
    good: () => writeZip(goodEntries({ $schema: './node_modules/pipeline-tool/schemas/manifest.schema.json', ...goodManifest })),
    data: { field: 'shortname', suggestion: 'shortName' },
  },
  'manifest-entry-path': { message: '"entry" is "../index.html": it climbs out of the bundle (a .. segment).', bad: withManifest({ ...goodManifest, entry: '../index.html' }), good: withManifest(goodManifest) },
  'manifest-entry-location': {
    message: '"entry" is "pages/index.html", in a subfolder; the platform expects the entry page at the bundle root. Move it to the root (and fix its relative links), then set "entry" to its name.',
    bad: () => writeFolder({ ...goodFiles({ ...goodManifest, entry: 'pages/index.html' }), 'pages/index.html': '<p>hi</p>' }),
    good: withManifest(goodManifest),
  },
  'manifest-entry-missing': {
    message: '"entry" is "Index.html", but the bundle has "index.html"; names are case-sensitive. Make them match.',
    bad: withManifest({ ...goodManifest, entry: 'Index.html' }),
    good: withManifest(goodManifest),
    data: { sameLetters: 'index.html' },
  },
  'bundle-size': {
    message: 'The bundle is 10,000,880 bytes; the marketplace accepts at most 10,000,000 bytes (10 MB read as decimal, the stricter reading). Largest entries (compressed): big.png 10,000,100 bytes, manifest.json 126 bytes, index.html 91 bytes, styles.css 36 bytes, app.js 33 bytes.',
    // Stored random bytes: 10,000,100 bytes cannot be compressed below the limit.
    bad: plusEntries({ name: 'big.png', data: noise(10_000_100, 0x12345678), method: 0 }),
    good: plusEntries({ name: 'big.png', data: noise(9_000_000, 0x12345678), method: 0 }),
  },
  'unpacked-size': {
    message: "The files unpack to more than 50,000,000 bytes, the marketplace's limit (50 MB read as decimal); inflating stopped there, and 1 file was not checked. Largest files: zeros.js 51,000,000 bytes (declared by its header, not inflated), manifest.json 188 bytes, index.html 125 bytes, styles.css 34 bytes, app.js 31 bytes.",
    // 51 MB of zeros deflate to ~50 KB: small zip, too big unpacked.
    bad: plusEntries({ name: 'zeros.js', data: Buffer.alloc(51_000_000) }),
    good: plusEntries({ name: 'zeros.js', data: Buffer.alloc(1_000_000) }),
  },
  'file-count': {
    message: 'The bundle holds 201 files; the marketplace accepts at most 200. Combine scripts and styles with a bundler, or remove unused assets.',
    bad: plusFiles(Object.fromEntries(Array.from({ length: 197 }, (_, i) => [`parts/p${i}.js`, '']))),
    good: plusFiles(Object.fromEntries(Array.from({ length: 196 }, (_, i) => [`parts/p${i}.js`, '']))),
    data: { count: 201 },
  },
  // In a zip: a folder leaves such a file out, as pack does (test/validate/shipped-folder.test.ts).
  'file-type': { message: 'Files of type .jpeg are not accepted by the marketplace (allowed: .html .css .js .svg .png .jpg .woff2 .json); rename it to .jpg.', bad: plusEntries({ name: 'photo.jpeg', data: 'x' }), good: plusEntries({ name: 'photo.jpg', data: 'x' }), data: { extension: '.jpeg' } },
  'junk-file': { message: 'This is a macOS resource-fork folder, not part of the tool. Delete it, or build the bundle with `pipeline-tool pack`, which leaves such files out.', bad: plusEntries({ name: '__MACOSX/._app.js', data: 'x' }), good: clean },
  'extension-case': { message: 'The extension .PNG is accepted here, but the marketplace may compare case-sensitively. Rename it to .png (and update references to it).', bad: plusFiles({ 'logo.PNG': 'x' }), good: plusFiles({ 'logo.png': 'x' }) },
  'path-unsafe': { message: 'Unsafe path: it climbs out of the bundle (a .. segment). Use relative paths with forward slashes and plain names.', bad: plusEntries({ name: '../evil.js', data: 'x' }), good: plusEntries({ name: 'lib/evil.js', data: 'x' }) },
  'path-control-character': {
    message: 'The name contains the invisible or control character U+202E, which can hide its real name or extension. Rename the file.',
    // A right-to-left override makes "evil\u202Egnp.js" display as "evilsj.png".
    bad: plusEntries({ name: 'evil\u202egnp.js', data: 'x' }),
    good: plusEntries({ name: 'evil.js', data: 'x' }),
  },
  'path-encoding': { message: "The name's bytes (61ff2e6a73) are not valid UTF-8, so each system shows it differently. Rename the file using plain characters.", bad: plusEntries({ name: Buffer.from([0x61, 0xff, 0x2e, 0x6a, 0x73]), data: 'x' }), good: clean },
  'path-utf8-flag': {
    message: 'This non-ASCII name lacks the zip UTF-8 flag; readers that follow the format will see "caf├⌐.js". Pack with `pipeline-tool pack`, which sets the flag, or use ASCII names.',
    bad: plusEntries({ name: Buffer.from('café.js', 'utf8'), data: 'x' }),
    good: plusEntries({ name: 'café.js', data: 'x' }),
  },
  'path-duplicate': {
    message: 'This entry differs only in letter case from "app.js"; on case-insensitive or normalising systems one overwrites the other. Keep one, or rename.',
    // Two entries that are one file on a case-insensitive disk: which one wins depends on the reader.
    bad: plusEntries({ name: 'App.js', data: 'other' }),
    good: plusEntries({ name: 'App2.js', data: 'other' }),
    data: { how: 'case', other: 'app.js' },
  },
  'path-dot-prefix': {
    message: "Every name in the archive starts with ./ (5 entries), as `bsdtar -a -cf x.zip .` writes them; whether the marketplace finds ./manifest.json is unknown. Zip the folder's contents with plain names: `pipeline-tool pack <folder>`.",
    // What `bsdtar -a -cf x.zip .` writes: the root as ./ and every name under it.
    bad: () => writeZip([{ name: './', data: '' }, ...goodEntries().map((e) => ({ ...e, name: `./${e.name as string}` }))]),
    good: clean,
    data: { count: 5, all: true },
  },
  'path-name-too-long': {
    message: 'A name in this path is 256 bytes long (as UTF-8); file systems allow at most 255 bytes per name, so it cannot be extracted. Shorten it.',
    bad: plusEntries({ name: `lib/${'n'.repeat(253)}.js`, data: 'x' }),
    good: plusEntries({ name: `lib/${'n'.repeat(252)}.js`, data: 'x' }),
    data: { bytes: 256 },
  },
  'path-unicode-mismatch': {
    message: 'The header names this entry "app2.js" but its Unicode Path field names it "evil.js": extractors that read the field (7-Zip, Info-ZIP unzip, yauzl) write one file, the others another. Build the bundle again with `pipeline-tool pack`, which writes one name.',
    // The header says app2.js; extractors that read the Unicode Path field write evil.js instead.
    bad: plusEntries({ name: 'app2.js', data: 'x', extra: unicodePathField(Buffer.from('app2.js'), 'evil.js') }),
    good: plusEntries({ name: 'app2.js', data: 'x', extra: unicodePathField(Buffer.from('app2.js'), 'app2.js') }),
    data: { other: 'evil.js', crcMatches: true },
  },
  'entry-not-regular': {
    message: 'This entry is a symbolic link. Links are never followed; copy the file it points to into the tool folder instead.',
    // A symlink entry pointing outside: extracting it and then writing through it escapes the folder.
    bad: plusEntries({ name: 'link.js', data: '/etc/passwd', method: 0, unixMode: 0o120777 }),
    good: plusEntries({ name: 'link.js', data: 'x', unixMode: 0o100644 }),
  },
  'archive-not-zip': { message: "This file (37 bytes) is not a zip archive. Build the bundle with `pipeline-tool pack`, or zip the tool's files with any zip tool.", bad: () => writeBytes(Buffer.from('just some text, not an archive at all')), good: clean },
  'archive-truncated': {
    message: 'The archive is truncated: the end-of-archive record is missing. The upload or download was probably interrupted; build the bundle again.',
    // An interrupted download: the start of a real zip without its end.
    bad: () => writeBytes(readFileSync(clean()).subarray(0, 200)),
    good: clean,
  },
  'archive-corrupt': {
    message: 'The archive is damaged: central directory record 1 is damaged. Build the bundle again with `pipeline-tool pack`.',
    // The end record points into the middle of the file data.
    bad: () => writeZip(goodEntries(), { cdOffset: 5 }),
    good: clean,
  },
  'archive-unsupported': { message: 'The archive is split across several files (a multi-part archive). Build a plain single-file zip, for example with `pipeline-tool pack`.', bad: () => writeZip(goodEntries(), { disk: 1 }), good: clean, data: { feature: 'multi-disk' } },
  'archive-entry-count': {
    message: 'The archive claims 2 entries but its directory holds 4; readers that trust the count miss the hidden ones. Build the bundle again.',
    // The count claims 2 entries while 4 are listed: readers trusting the count miss two.
    bad: () => writeZip(goodEntries(), { claimedCount: 2 }),
    good: clean,
    data: { claimed: 2, found: 4 },
  },
  'archive-prefix-data': { message: '17 bytes of data come before the first entry. Bundles must be plain zips, not self-extracting or combined files; build the bundle again.', bad: () => writeZip(goodEntries(), { prefix: Buffer.from('#!/bin/sh\nexit 0\n') }), good: clean },
  'archive-hidden-data': {
    message: '24 bytes at offset 300, after "index.html", belong to no entry. Hidden data is read by some tools and not others; build the bundle again.',
    // Bytes between two entries that no central record accounts for.
    bad: () => writeZip(goodEntries(), { gapAfter: { index: 1, bytes: Buffer.from('<script>steal()</script>') } }),
    good: clean,
  },
  'archive-trailing-data': { message: '16 bytes of data follow the end of the archive. Build the bundle again; do not append to it.', bad: () => writeZip(goodEntries(), { trailing: Buffer.from('appended payload') }), good: clean },
  'archive-overlap': {
    message: 'This entry overlaps "copy.js" at offset 0. Overlapping entries are how zip bombs multiply their size; no zip tool writes them. Build the bundle again.',
    // Two central records share one local entry: the classic overlapping-file zip bomb.
    bad: () => writeZip([...goodEntries(), { name: 'app.js', data: 'document.body.append("ready");\n', central: { localOffset: 0, name: Buffer.from('copy.js') } }]),
    good: clean,
  },
  'archive-header-mismatch': {
    message: "The entry's local header disagrees with the central directory on: name. Readers that trust one or the other would extract different things; build the bundle again.",
    // The local header names another file than the central directory: readers disagree on the name.
    bad: plusEntries({ name: 'shown.js', data: 'x', local: { name: Buffer.from('other.js') } }),
    good: plusEntries({ name: 'shown.js', data: 'x', descriptor: { signature: false } }),
  },
  'archive-encrypted': { message: 'This entry is encrypted; the marketplace cannot read it. Zip the files without a password.', bad: plusEntries({ name: 'secret.js', data: 'x', flags: 0x1 }), good: clean },
  'archive-compression': { message: 'This entry is compressed with method 12 (bzip2); only stored and deflate are widely readable. Zip it with the default settings or with `pipeline-tool pack`.', bad: plusEntries({ name: 'a.js', data: 'x', method: 12, payload: Buffer.from('BZh9') }), good: clean, data: { method: 12 } },
  'archive-crc-mismatch': {
    message: 'The content does not match its checksum (header says 000004d2, content gives 2f727085): the file is corrupt or was altered. Build the bundle again.',
    bad: plusEntries({ name: 'a.js', data: 'original', central: { crc: 1234 }, local: { crc: 1234 } }),
    good: plusEntries({ name: 'a.js', data: 'original' }),
  },
  'archive-size-mismatch': {
    message: 'The entry inflates to more than the 100 bytes its header declares (inflation stopped there). Headers that understate sizes are a zip-bomb technique; build the bundle again.',
    // Headers understate the size by a factor of 10,000: the reader must stop, not trust them.
    bad: plusEntries({ name: 'a.js', payload: zlib.deflateRawSync(Buffer.alloc(1_000_000)), central: { uncompressedSize: 100 }, local: { uncompressedSize: 100 } }),
    good: plusEntries({ name: 'a.js', data: Buffer.alloc(1_000_000) }),
    data: { declared: 100, atLeast: true },
  },
  'archive-ambiguous-end': {
    message: 'Besides the end-of-archive record at offset 690, another end-of-archive signature sits at offset 668. Readers that scan from the end of the file can take either, and then list different entries. Build the bundle again without an archive comment, for example with `pipeline-tool pack`.',
    // A complete second end record in the archive comment: backward scanners take it instead.
    bad: () => writeZip(goodEntries(), { comment: Buffer.concat([Buffer.from('504b0506', 'hex'), Buffer.alloc(18)]) }),
    good: () => writeZip(goodEntries(), { comment: Buffer.from('built by hand') }),
  },
  'archive-extra-field': {
    message: "In the entry's central directory record, extra field 0x5455 declares 40 bytes where only 8 remain. Python's zipfile refuses such an entry and other readers skip the rest; build the bundle again.",
    // A timestamp sub-field (0x5455) declaring 40 bytes where 8 remain.
    bad: plusEntries({ name: 'a.js', data: 'x', extra: Buffer.concat([Buffer.from([0x55, 0x54, 40, 0]), Buffer.alloc(8)]) }),
    good: plusEntries({ name: 'a.js', data: 'x', extra: extraField(0x5455, Buffer.alloc(8)) }),
    data: { declared: 40, available: 8 },
  },
  'archive-directory-data': {
    message: 'This folder entry carries data (8 bytes declared, 8 bytes stored). Extractors disagree on what to make of it: a file, a folder, or an error. Build the bundle again, for example with `pipeline-tool pack`.',
    // A folder entry holding a script: some extractors write it as a file.
    bad: plusEntries({ name: 'lib/', data: 'alert(1)', method: 0 }),
    good: plusEntries({ name: 'lib/', data: '' }),
  },
  'archive-corrupt-data': { message: 'The entry cannot be decompressed: the compressed data is invalid (invalid block type). Build the bundle again.', bad: plusEntries({ name: 'a.js', data: 'xxxx', payload: Buffer.from([0xff, 0xff, 0xff, 0xff]) }), good: clean },
};
