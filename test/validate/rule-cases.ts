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
}

const clean = () => writeZip(goodEntries());
const withManifest = (manifest: unknown) => () => writeFolder({ ...goodFiles(), 'manifest.json': typeof manifest === 'string' ? manifest : JSON.stringify(manifest) });
const plusEntries = (...extra: EntrySpec[]) => () => writeZip([...goodEntries(), ...extra]);
const plusFiles = (extra: Record<string, string | Buffer>) => () => writeFolder({ ...goodFiles(), ...extra });
const { name: _name, ...withoutName } = goodManifest;

export const ruleCases: Record<string, RuleCase> = {
  'manifest-missing': {
    // The most common real mistake: zipping the folder instead of its contents.
    bad: () => writeZip(goodEntries().map((e) => ({ ...e, name: `estimator/${e.name as string}` }))),
    good: clean,
    data: { nested: 'estimator/manifest.json' },
  },
  'manifest-too-large': {
    bad: withManifest({ ...goodManifest, padding: 'x'.repeat(70_000) }),
    good: withManifest(goodManifest),
  },
  'manifest-encoding': {
    bad: () => writeFolder({ ...goodFiles(), 'manifest.json': Buffer.from([0x7b, 0xff, 0x7d]) }),
    good: withManifest(goodManifest),
  },
  'manifest-bom': {
    bad: () => writeFolder({ ...goodFiles(), 'manifest.json': `\ufeff${JSON.stringify(goodManifest)}` }),
    good: withManifest(goodManifest),
  },
  'manifest-syntax': {
    bad: withManifest('{\n  "name": "Kitchen",\n  "type": "standalone",\n}\n'),
    good: withManifest(goodManifest),
  },
  'manifest-duplicate-key': {
    // JSON.parse keeps the last "type"; other parsers keep the first.
    bad: withManifest(`{"type":"quoting_extension",${JSON.stringify(goodManifest).slice(1).replace('"type":"quoting_extension"', '"type":"standalone"')}`),
    good: withManifest(goodManifest),
    data: { key: 'type' },
  },
  'manifest-not-object': { bad: withManifest('["name"]'), good: withManifest(goodManifest), data: { actual: 'an array' } },
  'manifest-missing-field': { bad: withManifest(withoutName), good: withManifest(goodManifest), data: { field: 'name' } },
  'manifest-field-type': { bad: withManifest({ ...goodManifest, version: 1 }), good: withManifest(goodManifest), data: { field: 'version' } },
  'manifest-empty-field': { bad: withManifest({ ...goodManifest, name: '   ' }), good: withManifest(goodManifest), data: { field: 'name' } },
  'manifest-tool-type': {
    bad: withManifest({ ...goodManifest, type: 'quoting-extension' }),
    good: withManifest({ ...goodManifest, type: 'standalone' }),
    data: { suggestion: 'quoting_extension' },
  },
  'manifest-version': { bad: withManifest({ ...goodManifest, version: 'v1.2' }), good: withManifest({ ...goodManifest, version: '1.2.0-beta.1+build.5' }), data: { suggestion: '1.2.0' } },
  'manifest-description': {
    bad: withManifest({ ...goodManifest, description: 'Estimates kitchens. Also bathrooms.' }),
    good: withManifest({ ...goodManifest, description: 'Estimates kitchens, e.g. benchtops and cabinets.' }),
  },
  'manifest-short-name': {
    bad: withManifest({ ...goodManifest, shortName: 'Kitchen Estimator Deluxe Edition' }),
    good: withManifest(goodManifest),
    data: { reason: 'too-long' },
  },
  'manifest-unknown-field': {
    bad: withManifest({ ...goodManifest, shortname: 'K' }),
    // $schema is known. In a zip, since pack leaves it out of a folder's manifest before any rule sees it.
    good: () => writeZip(goodEntries({ $schema: './node_modules/pipeline-tool/schemas/manifest.schema.json', ...goodManifest })),
    data: { field: 'shortname', suggestion: 'shortName' },
  },
  'manifest-entry-path': { bad: withManifest({ ...goodManifest, entry: '../index.html' }), good: withManifest(goodManifest) },
  'manifest-entry-location': {
    bad: () => writeFolder({ ...goodFiles({ ...goodManifest, entry: 'pages/index.html' }), 'pages/index.html': '<p>hi</p>' }),
    good: withManifest(goodManifest),
  },
  'manifest-entry-missing': {
    bad: withManifest({ ...goodManifest, entry: 'Index.html' }),
    good: withManifest(goodManifest),
    data: { sameLetters: 'index.html' },
  },
  'bundle-size': {
    // Stored random bytes: 10,000,100 bytes cannot be compressed below the limit.
    bad: plusEntries({ name: 'big.png', data: noise(10_000_100, 0x12345678), method: 0 }),
    good: plusEntries({ name: 'big.png', data: noise(9_000_000, 0x12345678), method: 0 }),
  },
  'unpacked-size': {
    // 51 MB of zeros deflate to ~50 KB: small zip, too big unpacked.
    bad: plusEntries({ name: 'zeros.js', data: Buffer.alloc(51_000_000) }),
    good: plusEntries({ name: 'zeros.js', data: Buffer.alloc(1_000_000) }),
  },
  'file-count': {
    bad: plusFiles(Object.fromEntries(Array.from({ length: 197 }, (_, i) => [`parts/p${i}.js`, '']))),
    good: plusFiles(Object.fromEntries(Array.from({ length: 196 }, (_, i) => [`parts/p${i}.js`, '']))),
    data: { count: 201 },
  },
  // In a zip: a folder leaves such a file out, as pack does (test/validate/shipped-folder.test.ts).
  'file-type': { bad: plusEntries({ name: 'photo.jpeg', data: 'x' }), good: plusEntries({ name: 'photo.jpg', data: 'x' }), data: { extension: '.jpeg' } },
  'junk-file': { bad: plusEntries({ name: '__MACOSX/._app.js', data: 'x' }), good: clean },
  'extension-case': { bad: plusFiles({ 'logo.PNG': 'x' }), good: plusFiles({ 'logo.png': 'x' }) },
  'path-unsafe': { bad: plusEntries({ name: '../evil.js', data: 'x' }), good: plusEntries({ name: 'lib/evil.js', data: 'x' }) },
  'path-control-character': {
    // A right-to-left override makes "evil\u202Egnp.js" display as "evilsj.png".
    bad: plusEntries({ name: 'evil\u202egnp.js', data: 'x' }),
    good: plusEntries({ name: 'evil.js', data: 'x' }),
  },
  'path-encoding': { bad: plusEntries({ name: Buffer.from([0x61, 0xff, 0x2e, 0x6a, 0x73]), data: 'x' }), good: clean },
  'path-utf8-flag': {
    bad: plusEntries({ name: Buffer.from('café.js', 'utf8'), data: 'x' }),
    good: plusEntries({ name: 'café.js', data: 'x' }),
  },
  'path-duplicate': {
    // Two entries that are one file on a case-insensitive disk: which one wins depends on the reader.
    bad: plusEntries({ name: 'App.js', data: 'other' }),
    good: plusEntries({ name: 'App2.js', data: 'other' }),
    data: { how: 'case', other: 'app.js' },
  },
  'path-dot-prefix': {
    // What `bsdtar -a -cf x.zip .` writes: the root as ./ and every name under it.
    bad: () => writeZip([{ name: './', data: '' }, ...goodEntries().map((e) => ({ ...e, name: `./${e.name as string}` }))]),
    good: clean,
    data: { count: 5, all: true },
  },
  'path-name-too-long': {
    bad: plusEntries({ name: `lib/${'n'.repeat(253)}.js`, data: 'x' }),
    good: plusEntries({ name: `lib/${'n'.repeat(252)}.js`, data: 'x' }),
    data: { bytes: 256 },
  },
  'path-unicode-mismatch': {
    // The header says app2.js; extractors that read the Unicode Path field write evil.js instead.
    bad: plusEntries({ name: 'app2.js', data: 'x', extra: unicodePathField(Buffer.from('app2.js'), 'evil.js') }),
    good: plusEntries({ name: 'app2.js', data: 'x', extra: unicodePathField(Buffer.from('app2.js'), 'app2.js') }),
    data: { other: 'evil.js', crcMatches: true },
  },
  'entry-not-regular': {
    // A symlink entry pointing outside: extracting it and then writing through it escapes the folder.
    bad: plusEntries({ name: 'link.js', data: '/etc/passwd', method: 0, unixMode: 0o120777 }),
    good: plusEntries({ name: 'link.js', data: 'x', unixMode: 0o100644 }),
  },
  'archive-not-zip': { bad: () => writeBytes(Buffer.from('just some text, not an archive at all')), good: clean },
  'archive-truncated': {
    // An interrupted download: the start of a real zip without its end.
    bad: () => writeBytes(readFileSync(clean()).subarray(0, 200)),
    good: clean,
  },
  'archive-corrupt': {
    // The end record points into the middle of the file data.
    bad: () => writeZip(goodEntries(), { cdOffset: 5 }),
    good: clean,
  },
  'archive-unsupported': { bad: () => writeZip(goodEntries(), { disk: 1 }), good: clean, data: { feature: 'multi-disk' } },
  'archive-entry-count': {
    // The count claims 2 entries while 4 are listed: readers trusting the count miss two.
    bad: () => writeZip(goodEntries(), { claimedCount: 2 }),
    good: clean,
    data: { claimed: 2, found: 4 },
  },
  'archive-prefix-data': { bad: () => writeZip(goodEntries(), { prefix: Buffer.from('#!/bin/sh\nexit 0\n') }), good: clean },
  'archive-hidden-data': {
    // Bytes between two entries that no central record accounts for.
    bad: () => writeZip(goodEntries(), { gapAfter: { index: 1, bytes: Buffer.from('<script>steal()</script>') } }),
    good: clean,
  },
  'archive-trailing-data': { bad: () => writeZip(goodEntries(), { trailing: Buffer.from('appended payload') }), good: clean },
  'archive-overlap': {
    // Two central records share one local entry: the classic overlapping-file zip bomb.
    bad: () => writeZip([...goodEntries(), { name: 'app.js', data: 'document.body.append("ready");\n', central: { localOffset: 0, name: Buffer.from('copy.js') } }]),
    good: clean,
  },
  'archive-header-mismatch': {
    // The local header names another file than the central directory: readers disagree on the name.
    bad: plusEntries({ name: 'shown.js', data: 'x', local: { name: Buffer.from('other.js') } }),
    good: plusEntries({ name: 'shown.js', data: 'x', descriptor: { signature: false } }),
  },
  'archive-encrypted': { bad: plusEntries({ name: 'secret.js', data: 'x', flags: 0x1 }), good: clean },
  'archive-compression': { bad: plusEntries({ name: 'a.js', data: 'x', method: 12, payload: Buffer.from('BZh9') }), good: clean, data: { method: 12 } },
  'archive-crc-mismatch': {
    bad: plusEntries({ name: 'a.js', data: 'original', central: { crc: 1234 }, local: { crc: 1234 } }),
    good: plusEntries({ name: 'a.js', data: 'original' }),
  },
  'archive-size-mismatch': {
    // Headers understate the size by a factor of 10,000: the reader must stop, not trust them.
    bad: plusEntries({ name: 'a.js', payload: zlib.deflateRawSync(Buffer.alloc(1_000_000)), central: { uncompressedSize: 100 }, local: { uncompressedSize: 100 } }),
    good: plusEntries({ name: 'a.js', data: Buffer.alloc(1_000_000) }),
    data: { declared: 100, atLeast: true },
  },
  'archive-ambiguous-end': {
    // A complete second end record in the archive comment: backward scanners take it instead.
    bad: () => writeZip(goodEntries(), { comment: Buffer.concat([Buffer.from('504b0506', 'hex'), Buffer.alloc(18)]) }),
    good: () => writeZip(goodEntries(), { comment: Buffer.from('built by hand') }),
  },
  'archive-extra-field': {
    // A timestamp sub-field (0x5455) declaring 40 bytes where 8 remain.
    bad: plusEntries({ name: 'a.js', data: 'x', extra: Buffer.concat([Buffer.from([0x55, 0x54, 40, 0]), Buffer.alloc(8)]) }),
    good: plusEntries({ name: 'a.js', data: 'x', extra: extraField(0x5455, Buffer.alloc(8)) }),
    data: { declared: 40, available: 8 },
  },
  'archive-directory-data': {
    // A folder entry holding a script: some extractors write it as a file.
    bad: plusEntries({ name: 'lib/', data: 'alert(1)', method: 0 }),
    good: plusEntries({ name: 'lib/', data: '' }),
  },
  'archive-corrupt-data': { bad: plusEntries({ name: 'a.js', data: 'xxxx', payload: Buffer.from([0xff, 0xff, 0xff, 0xff]) }), good: clean },
};
