import { symlinkSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nextVersion } from '../../src/core/release/bump-version.js';
import { rules } from '../../src/core/rules/index.js';
import { leftOutCause } from '../../src/core/rules/left-out-cause.js';
import { openFolderSource } from '../../src/core/shipment/folder-source.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodEntries, goodFiles, goodManifest, writeFolder, writeZip } from '../helpers/bundles.js';

/*
 * The other wordings of rules whose message depends on what they found: rule-cases.ts pins one
 * message per rule, these pin the rest, with the findings' files and data.
 */

async function findings(bundle: string, ruleId: string) {
  const report = await validateBundle(bundle);
  return report.problems.filter((p) => p.ruleId === ruleId).map((p) => ({ file: p.file, message: p.message, data: p.data }));
}

const withManifest = (manifest: object, extra: Record<string, string> = {}) => writeFolder({ ...goodFiles(manifest), ...extra });

describe('manifest-entry-missing', () => {
  it('lists the HTML files the bundle has, at most five', async () => {
    const pages = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((name) => [`pages/${name}.html`, '<p>x</p>']));
    const [hit] = await findings(withManifest({ ...goodManifest, entry: 'main.html' }, pages), 'manifest-entry-missing');
    expect(hit!.message).toBe('"entry" is "main.html", but there is no such file in the bundle. HTML files present: index.html, pages/a.html, pages/b.html, pages/c.html, pages/d.html.');
    expect((hit!.data as { htmlFiles: string[] }).htmlFiles).toHaveLength(6);
  });

  it('counts .HTML as an HTML file, and says to add the page when there is none', async () => {
    const upper = await findings(writeZip([...goodEntries({ ...goodManifest, entry: 'main.html' }), { name: 'OTHER.HTML', data: 'x' }]), 'manifest-entry-missing');
    expect(upper[0]!.message).toBe('"entry" is "main.html", but there is no such file in the bundle. HTML files present: index.html, OTHER.HTML.');
    const entries = goodEntries({ ...goodManifest, entry: 'main.html' }).filter((e) => e.name !== 'index.html');
    const none = await findings(writeZip(entries), 'manifest-entry-missing');
    expect(none).toEqual([
      { file: 'manifest.json', message: '"entry" is "main.html", but there is no such file in the bundle. Add the page, or correct the name.', data: { entry: 'main.html', htmlFiles: [] } },
    ]);
  });

  it('names a page stored in another Unicode form in a zip, and accepts it in a folder, which pack stores composed', async () => {
    const decomposed = 'cafe\u0301.html';
    const manifest = { ...goodManifest, entry: 'caf\u00e9.html' };
    const zip = writeZip([...goodEntries(manifest).filter((e) => e.name !== 'index.html'), { name: decomposed, data: '<p>x</p>' }]);
    const [hit] = await findings(zip, 'manifest-entry-missing');
    expect(hit!.message).toBe(
      '"entry" is "caf\u00e9.html", which names "cafe\u0301.html" only in another Unicode form, and servers compare names byte for byte. ' +
        "Bundles store names composed (NFC), as `pipeline-tool pack` writes them: type the entry's accented letters again so they are composed.",
    );
    expect(hit!.data).toEqual({ entry: 'caf\u00e9.html', otherForm: decomposed, htmlFiles: [decomposed] });
    const { 'index.html': _page, ...rest } = goodFiles(manifest);
    expect(await findings(writeFolder({ ...rest, [decomposed]: '<p>x</p>' }), 'manifest-entry-missing')).toEqual([]);
    // Also a folder opened as it is, with its names as the disk has them.
    const source = await openFolderSource(writeFolder({ ...rest, [decomposed]: '<p>x</p>' }));
    expect((await validateBundle(source)).problems.filter((p) => p.ruleId === 'manifest-entry-missing')).toEqual([]);
  });

  it('names the cause when the folder has the page but leaves it out', async () => {
    const manifest = { ...goodManifest, entry: 'main.html' };
    const [hit] = await findings(writeFolder({ ...goodFiles(manifest), 'main.html': '<p>x</p>', '.pipelineignore': 'main.html\n' }), 'manifest-entry-missing');
    expect(hit!.message).toBe('"entry" is "main.html", which is in the folder but does not ship: it matches "main.html" in .pipelineignore. Change that pattern, or stop referring to the file.');
  });

  it('stays silent when the entry has no usable value or is wrong in form (manifest-entry-path says why)', async () => {
    for (const entry of ['', '   ', '../index.html']) {
      expect(await findings(withManifest({ ...goodManifest, entry }), 'manifest-entry-missing'), entry).toEqual([]);
    }
  });
});

describe('manifest-entry-location', () => {
  it('points at the "entry" key', async () => {
    const bundle = writeFolder({ ...goodFiles({ ...goodManifest, entry: 'pages/index.html' }), 'pages/index.html': '<p>hi</p>' });
    const hits = (await validateBundle(bundle)).problems.filter((p) => p.ruleId === 'manifest-entry-location');
    expect(hits.map((p) => `${p.file}:${p.line}:${p.column}`)).toEqual(['manifest.json:7:3']);
  });
});

describe('manifest-control-character', () => {
  it('finds a control, a bidirectional and an invisible character in each shown field', async () => {
    const manifest = { ...goodManifest, name: 'Kitchen\u2066 Estimator', shortName: 'Kit\u200Bchen', description: 'Estimates kitchens.\u001b[2J' };
    const hits = await findings(withManifest(manifest), 'manifest-control-character');
    expect(hits.map((hit) => hit.data)).toEqual([
      { field: 'name', codePoint: 'U+2066', kind: 'bidi' },
      { field: 'shortName', codePoint: 'U+200B', kind: 'invisible' },
      { field: 'description', codePoint: 'U+001B', kind: 'control' },
    ]);
    expect(hits[1]!.message).toBe('"shortName" contains the invisible character U+200B, which can make the listing show something else than it holds. Remove it.');
    expect(hits[2]!.message).toMatch(/^"description" contains the control character U\+001B/);
  });

  it.each([
    ['a new line', 'Estimates kitchens.\nAnd more.'],
    ['DEL', 'Estimates\u007f kitchens.'],
    ['a C1 control', 'Estimates\u0085 kitchens.'],
    ['a line separator', 'Estimates\u2028kitchens.'],
    ['a right-to-left override', 'Estimates \u202Ekitchens.'],
    ['a pop isolate', 'Estimates \u2069kitchens.'],
    ['a word joiner', 'Estimates\u2060 kitchens.'],
    ['a byte-order mark', 'Estimates kitchens.\ufeff'],
    ['a Hangul filler', 'Estimates \u3164kitchens.'],
  ])('finds %s', async (_what, description) => {
    expect(await findings(withManifest({ ...goodManifest, description }), 'manifest-control-character')).toHaveLength(1);
  });

  it('leaves alone the marks and joiners that ordinary names need, and fields that are not shown', async () => {
    const name = '\u05DE\u05D8\u05D1\u05D7 (Beta)\u200F \u{1F469}\u200D\u{1F373}';
    expect(await findings(withManifest({ ...goodManifest, name }), 'manifest-control-character')).toEqual([]);
    expect(await findings(withManifest({ ...goodManifest, notes: 'a\u202Eb' }), 'manifest-control-character')).toEqual([]);
  });
});

describe('manifest-short-name', () => {
  it('says when the short name is longer than the name', async () => {
    const hits = await findings(withManifest({ ...goodManifest, name: 'Kit', shortName: 'Kitchen' }), 'manifest-short-name');
    expect(hits).toEqual([
      {
        file: 'manifest.json',
        message: '"shortName" (7 characters) is longer than "name"; it is meant as the short form. Swap or shorten them.',
        data: { reason: 'longer-than-name', length: 7, limit: 24 },
      },
    ]);
  });

  it('measures both without surrounding spaces and in characters, not UTF-16 units', async () => {
    expect(await findings(withManifest({ ...goodManifest, name: 'Kitchen', shortName: '  Kitchen  ' }), 'manifest-short-name')).toEqual([]);
    // 24 characters that take 48 UTF-16 units: at the limit, and as long as the name.
    const emoji = '\u{1F528}'.repeat(24);
    expect(await findings(withManifest({ ...goodManifest, name: emoji, shortName: emoji }), 'manifest-short-name')).toEqual([]);
    const hits = await findings(withManifest({ ...goodManifest, name: ` ${emoji} `, shortName: `${emoji}!` }), 'manifest-short-name');
    expect(hits.map((hit) => hit.data)).toEqual([{ reason: 'too-long', length: 25, limit: 24 }]);
  });

  it('says nothing of an empty short name (manifest-empty-field does)', async () => {
    expect(await findings(withManifest({ ...goodManifest, shortName: '  ' }), 'manifest-short-name')).toEqual([]);
  });
});

describe('manifest-description', () => {
  it('says nothing of an empty description, and reads one sentence with spaces around it as one', async () => {
    expect(await findings(withManifest({ ...goodManifest, description: '   ' }), 'manifest-description')).toEqual([]);
    expect(await findings(withManifest({ ...goodManifest, description: '  Estimates kitchens.  ' }), 'manifest-description')).toEqual([]);
  });
});

describe('file-type', () => {
  it('names a file without an extension, and says to remove a type it has no hint for', async () => {
    const hits = await findings(writeZip([...goodEntries(), { name: 'LICENSE', data: 'x' }, { name: 'data.xml', data: 'x' }]), 'file-type');
    expect(hits).toEqual([
      {
        file: 'LICENSE',
        message: 'Files without an extension are not accepted by the marketplace (allowed: .html .css .js .svg .png .jpg .woff2 .json); remove it from the bundle.',
        data: { extension: '' },
      },
      {
        file: 'data.xml',
        message: 'Files of type .xml are not accepted by the marketplace (allowed: .html .css .js .svg .png .jpg .woff2 .json); remove it from the bundle.',
        data: { extension: '.xml' },
      },
    ]);
  });

  it('leaves junk to junk-file', async () => {
    const bundle = writeZip([...goodEntries(), { name: 'Thumbs.db', data: 'x' }]);
    expect(await findings(bundle, 'file-type')).toEqual([]);
    expect((await findings(bundle, 'junk-file')).map((hit) => hit.file)).toEqual(['Thumbs.db']);
  });
});

describe('junk-file', () => {
  it('reports a junk folder once, a junk file inside a normal folder by its own path, and nothing for a normal file', async () => {
    const bundle = writeZip([
      ...goodEntries(),
      { name: '__MACOSX/._app.js', data: 'x' },
      { name: '__MACOSX/img/._logo.png', data: 'x' },
      { name: 'img/.DS_Store', data: 'x' },
      { name: 'img/logo.png', data: 'x' },
      { name: '.git/config', data: 'x' },
    ]);
    expect(await findings(bundle, 'junk-file')).toEqual([
      {
        file: '.git/',
        message: 'This is a hidden file or folder, not part of the tool. Delete it, or build the bundle with `pipeline-tool pack`, which leaves such files out.',
        data: { reason: 'a hidden file or folder' },
      },
      {
        file: '__MACOSX/',
        message: 'This is a macOS resource-fork folder, not part of the tool. Delete it, or build the bundle with `pipeline-tool pack`, which leaves such files out.',
        data: { reason: 'a macOS resource-fork folder' },
      },
      {
        file: 'img/.DS_Store',
        message: 'This is macOS Finder metadata, not part of the tool. Delete it, or build the bundle with `pipeline-tool pack`, which leaves such files out.',
        data: { reason: 'macOS Finder metadata' },
      },
    ]);
  });
});

describe('path-duplicate', () => {
  const duplicates = (...names: string[]) => findings(writeZip([...goodEntries(), ...names.map((name) => ({ name, data: name.endsWith('/') ? '' : 'x' }))]), 'path-duplicate');

  it('says a name appears twice', async () => {
    expect(await duplicates('lib.js', 'lib.js')).toEqual([
      { file: 'lib.js', message: 'This name appears twice in the archive; extractors keep either copy. Keep one.', data: { other: 'lib.js', how: 'exact' } },
    ]);
  });

  it('tells names apart only by Unicode normalisation before letter case', async () => {
    expect(await duplicates('caf\u00e9.js', 'cafe\u0301.js')).toEqual([
      {
        file: 'cafe\u0301.js',
        message: 'This entry differs only in Unicode normalisation from "caf\u00e9.js"; on case-insensitive or normalising systems one overwrites the other. Keep one, or rename.',
        data: { other: 'caf\u00e9.js', how: 'unicode' },
      },
    ]);
    expect((await duplicates('CAF\u00c9.js', 'cafe\u0301.js')).map((hit) => hit.data)).toEqual([{ other: 'CAF\u00c9.js', how: 'case' }]);
  });

  it('names the first spelling for every later one', async () => {
    expect((await duplicates('Logo.png', 'logo.png', 'LOGO.png')).map(({ file, data }) => ({ file, data }))).toEqual([
      { file: 'LOGO.png', data: { other: 'Logo.png', how: 'case' } },
      { file: 'logo.png', data: { other: 'Logo.png', how: 'case' } },
    ]);
  });

  it('names two spellings of a folder as folders, whether listed or implied by the files in them', async () => {
    const message = 'This folder differs only in letter case from "Lib/"; on case-insensitive or normalising systems the two become one folder, and paths spelled the other way stop working. Use one spelling.';
    expect(await duplicates('Lib/a.js', 'lib/b.js')).toEqual([{ file: 'lib/', message, data: { other: 'Lib/', how: 'case' } }]);
    expect(await duplicates('Lib/', 'lib/')).toEqual([{ file: 'lib/', message, data: { other: 'Lib/', how: 'case' } }]);
    expect((await duplicates('src/Lib/a.js', 'src/lib/b.js')).map(({ file, data }) => ({ file, data }))).toEqual([{ file: 'src/lib/', data: { other: 'src/Lib/', how: 'case' } }]);
  });

  it('says a file is used as a folder, once per file, whatever the letter case of the folder', async () => {
    expect(await duplicates('data', 'Data/x.js', 'data/y.js')).toEqual([
      {
        file: 'data',
        message: 'This entry is a file, but "Data/x.js" uses it as a folder; extracting one fails or overwrites the other. Rename one of them.',
        data: { other: 'Data/x.js', how: 'file-and-folder' },
      },
    ]);
    expect((await duplicates('data/', 'data')).map((hit) => hit.data)).toEqual([{ other: 'data/', how: 'file-and-folder' }]);
    expect(await duplicates('data.js', 'data/x.js', 'data/')).toEqual([]);
  });

  it('names every file a deeper path uses as a folder, whichever entry comes first', async () => {
    const expected = [
      { file: 'a', data: { other: 'a/b/c.js', how: 'file-and-folder' } },
      { file: 'a/b', data: { other: 'a/b/c.js', how: 'file-and-folder' } },
    ];
    const shown = async (...names: string[]) => (await duplicates(...names)).map(({ file, data }) => ({ file, data }));
    expect(await shown('a/b/c.js', 'a/b', 'a')).toEqual(expected);
    expect(await shown('a', 'a/b', 'a/b/c.js')).toEqual([
      { file: 'a', data: { other: 'a/b', how: 'file-and-folder' } },
      { file: 'a/b', data: { other: 'a/b/c.js', how: 'file-and-folder' } },
    ]);
  });
});

describe('manifest-version', () => {
  const version = async (value: string) => (await findings(withManifest({ ...goodManifest, version: value }), 'manifest-version')).map((hit) => hit.message);

  it('accepts strict SemVer, with a pre-release and build metadata', async () => {
    for (const value of ['0.0.0', '1.2.3', '10.20.30', '1.2.3-rc.1', '1.2.3+build.5', '1.2.3-alpha+sha.9f2', '999999999999999.0.0']) {
      expect(await version(value), value).toEqual([]);
    }
  });

  it('refuses what semver would read only after changing it, and suggests the version it reads', async () => {
    expect(await version(' 1.2.3')).toEqual(['"version" is " 1.2.3", which is not a SemVer version like 1.2.0; write "1.2.3".']);
    expect(await version('V 2.0')).toEqual(['"version" is "V 2.0", which is not a SemVer version like 1.2.0; write "2.0.0".']);
    expect(await version('=1.4.1-beta')).toEqual(['"version" is "=1.4.1-beta", which is not a SemVer version like 1.2.0; write "1.4.1-beta".']);
  });

  it('suggests the version without the leading zeros SemVer forbids', async () => {
    const suggested = async (value: string) => /write "([^"]*)"/.exec((await version(value))[0] ?? '')?.[1];
    expect(await version('01.2.3')).toEqual(['"version" is "01.2.3", which is not a SemVer version like 1.2.0; write "1.2.3".']);
    expect(await suggested('1.02.003')).toBe('1.2.3');
    expect(await suggested('v00.1.0')).toBe('0.1.0');
    expect(await suggested('1.2.3-beta.01')).toBe('1.2.3-beta.1');
    // A zero inside a word of a pre-release is not a leading zero, and that word is valid as it is.
    expect(await suggested('1.2-rc01')).toBe('1.2.0-rc01');
    expect(await suggested('2024.01.05')).toBe('2024.1.5');
  });

  it('suggests nothing when no version can be read from the value', async () => {
    expect(await version('latest')).toEqual(['"version" is "latest", which is not a SemVer version like 1.2.0.']);
    const [hit] = await findings(withManifest({ ...goodManifest, version: 'latest' }), 'manifest-version');
    expect(hit!.data).toStrictEqual({ value: 'latest' });
  });

  it('leaves an empty version to manifest-empty-field', async () => {
    expect(await version('  ')).toEqual([]);
  });

  it('refuses a number above 9007199254740991 as too large to compare, never as not SemVer, and suggests no version', async () => {
    const hits = async (value: string) => (await findings(withManifest({ ...goodManifest, version: value }), 'manifest-version')).map((hit) => [hit.message, hit.data]);
    const words = (value: string, part: string, number: string) =>
      `"version" is "${value}": its ${part} number ${number} is larger than 9007199254740991, too large to compare exactly (the marketplace orders releases by these numbers). Keep every number in the version at or below 9007199254740991.`;
    for (const [value, part, number] of [
      ['99999999999999999999.0.0', 'major', '99999999999999999999'],
      ['1.9007199254740992.0', 'minor', '9007199254740992'],
      ['1.2.9007199254740993', 'patch', '9007199254740993'],
      ['1.2.9007199254740993-beta+build.1', 'patch', '9007199254740993'],
      ['1.0.0-9007199254740992', 'pre-release', '9007199254740992'],
      ['1.0.0-alpha.99999999999999999999', 'pre-release', '99999999999999999999'],
    ]) {
      expect(await hits(value!), value).toEqual([[words(value!, part!, number!), { value, part, number }]]);
    }
    // At the limit, in a word of a pre-release, or in build metadata (never compared): fine.
    for (const value of ['9007199254740991.0.0', '1.2.9007199254740991', '1.0.0-9007199254740991', '1.0.0-x99999999999999999999', '1.0.0+99999999999999999999']) {
      expect(await hits(value), value).toEqual([]);
    }
    // Not SemVer and too large: not SemVer, without the smaller version semver would read.
    expect(await hits('v99999999999999999999.0.0')).toEqual([['"version" is "v99999999999999999999.0.0", which is not a SemVer version like 1.2.0.', { value: 'v99999999999999999999.0.0' }]]);
  });

  it('pipeline-tool version says the same of a number too large to compare', () => {
    expect(() => nextVersion('1.0.0', '1.0.9007199254740992')).toThrow(
      '"1.0.9007199254740992" cannot be a release: its patch number 9007199254740992 is larger than 9007199254740991, too large to compare exactly.',
    );
    expect(() => nextVersion('99999999999999999999.0.0', 'patch')).toThrow(
      'the manifest\'s version "99999999999999999999.0.0" has a number too large to raise (its major number 99999999999999999999 is larger than 9007199254740991, too large to compare exactly), so it cannot be raised by a patch; give the new version itself, like 1.0.0.',
    );
  });
});

describe('manifest-missing', () => {
  it('in a folder holding the tool folder, says to check the tool folder itself', async () => {
    const folder = writeFolder(Object.fromEntries(Object.entries(goodFiles()).map(([name, data]) => [`estimator/${name}`, data])));
    expect(await findings(folder, 'manifest-missing')).toEqual([
      {
        file: 'manifest.json',
        message: 'manifest.json is not here but at estimator/manifest.json: this is the folder around the tool. Check the tool folder itself: `pipeline-tool validate estimator`.',
        data: { nested: 'estimator/manifest.json', folder: true },
      },
    ]);
  });

  it('names a manifest in the wrong letter case, and says how to start when there is none', async () => {
    const entries = goodEntries();
    const wrongCase = entries.map((e) => (e.name === 'manifest.json' ? { ...e, name: 'Manifest.JSON' } : e));
    expect(await findings(writeZip(wrongCase), 'manifest-missing')).toEqual([
      { file: 'manifest.json', message: 'There is no manifest.json at the root, only Manifest.JSON. Rename it to manifest.json (all lower case).', data: { wrongCase: 'Manifest.JSON' } },
    ]);
    expect(await findings(writeZip(entries.filter((e) => e.name !== 'manifest.json')), 'manifest-missing')).toEqual([
      { file: 'manifest.json', message: 'There is no manifest.json at the root of the bundle. Add one (`pipeline-tool init` creates a complete tool), then pack again.', data: {} },
    ]);
  });

  it('leaves names that all start with ./ to path-dot-prefix', async () => {
    const dotted = writeZip(goodEntries().map((e) => ({ ...e, name: `./${e.name as string}` })));
    expect(await findings(dotted, 'manifest-missing')).toEqual([]);
    expect((await findings(dotted, 'path-dot-prefix')).map((hit) => hit.data)).toEqual([{ count: 4, all: true }]);
  });

  it('says a manifest stored as a symbolic link is a link, in a zip and in a folder, as the one finding about it', async () => {
    const entries = goodEntries().map((e) => (e.name === 'manifest.json' ? { ...e, data: '../secret.json', method: 0, unixMode: 0o120777 } : e));
    const zipped = await validateBundle(writeZip(entries));
    expect(zipped.problems.map((p) => [p.ruleId, p.file, p.message, p.data])).toEqual([
      [
        'manifest-missing',
        'manifest.json',
        'manifest.json is stored as a symbolic link, not as a file: extractors write a link (or nothing), never the manifest it points to. Put the file itself in the bundle, for example with `pipeline-tool pack`, which never follows links.',
        { kind: 'symlink' },
      ],
    ]);
    const { 'manifest.json': _manifest, ...rest } = goodFiles();
    const folder = writeFolder({ ...rest, 'real.json': JSON.stringify(goodManifest) });
    symlinkSync('real.json', path.join(folder, 'manifest.json'));
    expect(await findings(folder, 'manifest-missing')).toEqual([
      {
        file: 'manifest.json',
        message: 'manifest.json is a symbolic link, and pack never follows links, so the bundle would have no manifest. Replace the link with the file it points to.',
        data: { folder: true, kind: 'symlink' },
      },
    ]);
  });
});

describe('path-dot-prefix', () => {
  it('names the root folder listed as ./, as jar writes it', async () => {
    expect(await findings(writeZip([{ name: './', data: '' }, ...goodEntries()]), 'path-dot-prefix')).toEqual([
      {
        file: './',
        message: 'The archive lists its root folder as an entry named ./ (as jar writes it); extractors treat it differently. Build the bundle with `pipeline-tool pack <folder>`.',
        data: { count: 1, all: false },
      },
    ]);
  });
});

describe('manifest-entry-path', () => {
  it.each([
    ['/index.html', 'it starts with /; write it relative to the bundle root, like index.html'],
    ['pages\\index.html', 'it contains a backslash; use forward slashes'],
    ['pages/../index.html', 'it climbs out of the bundle (a .. segment)'],
    ['https://example.com/index.html', 'it is a URL; name a file inside the bundle'],
    ['index.HTML', 'it must name an .html file (lower-case extension)'],
    ['index', 'it must name an .html file (lower-case extension)'],
  ])('%s: %s', async (entry, reason) => {
    expect(await findings(withManifest({ ...goodManifest, entry }), 'manifest-entry-path')).toEqual([{ file: 'manifest.json', message: `"entry" is "${entry}": ${reason}.`, data: { entry, reason } }]);
  });

  it('passes a page in a folder, which manifest-entry-location reports instead', async () => {
    const bundle = writeFolder({ ...goodFiles({ ...goodManifest, entry: 'pages/index.html' }), 'pages/index.html': '<p>x</p>' });
    expect(await findings(bundle, 'manifest-entry-path')).toEqual([]);
    expect(await findings(withManifest({ ...goodManifest, entry: '/pages/index.html' }), 'manifest-entry-location')).toEqual([]);
  });
});

describe('manifest-unknown-field', () => {
  it('lists the fields when no known one is near', async () => {
    expect(await findings(withManifest({ ...goodManifest, permissions: ['quotes'] }), 'manifest-unknown-field')).toEqual([
      {
        file: 'manifest.json',
        message: '"permissions" is not a manifest field; the fields are name, shortName, type, version, description, entry.',
        data: { field: 'permissions' },
      },
    ]);
  });
});

describe('manifest-tool-type', () => {
  it('reads spaces and hyphens as underscores for its suggestion, and suggests nothing far from a type', async () => {
    const type = async (value: string) => (await findings(withManifest({ ...goodManifest, type: value }), 'manifest-tool-type')).map((hit) => hit.message);
    expect(await type('quoting extension')).toEqual(['"type" is "quoting extension", but must be "standalone" or "quoting_extension"; did you mean "quoting_extension"?']);
    expect(await type('widget')).toEqual(['"type" is "widget", but must be "standalone" or "quoting_extension".']);
    expect(await type(' ')).toEqual([]);
  });
});

describe('manifest-field-type and manifest-not-object', () => {
  it('name the JSON type found', async () => {
    const actual = async (value: unknown) => (await findings(withManifest({ ...goodManifest, name: value }), 'manifest-field-type')).map((hit) => hit.message);
    expect(await actual(null)).toEqual(['"name" must be a string, but it is null. Write it in double quotes.']);
    expect(await actual(['a'])).toEqual(['"name" must be a string, but it is an array. Write it in double quotes.']);
    expect(await actual({ a: 1 })).toEqual(['"name" must be a string, but it is an object. Write it in double quotes.']);
    expect(await actual(true)).toEqual(['"name" must be a string, but it is a boolean. Write it in double quotes.']);
    const whole = async (text: string) => (await findings(writeFolder({ ...goodFiles(), 'manifest.json': text }), 'manifest-not-object')).map((hit) => hit.message);
    expect(await whole('null')).toEqual(['manifest.json holds null; it must be an object like {"name": "…", "shortName": "…", …}.']);
    expect(await whole('"Kitchen"')).toEqual(['manifest.json holds a string; it must be an object like {"name": "…", "shortName": "…", …}.']);
    expect(await whole('{}')).toEqual([]);
  });
});

describe('manifest-missing-field', () => {
  it('says what the host would assume without "type"', async () => {
    const { type: _type, ...withoutType } = goodManifest;
    expect((await findings(withManifest(withoutType), 'manifest-missing-field')).map((hit) => hit.message)).toEqual([
      'manifest.json has no "type". The host would assume "standalone", but the field is required: add "type": "standalone" or "type": "quoting_extension".',
    ]);
  });
});

describe('extension-case', () => {
  it('leaves dot-files, names without an extension and refused types alone', async () => {
    const bundle = writeZip([...goodEntries(), { name: 'img/.PNG', data: 'x' }, { name: 'NOTES', data: 'x' }, { name: 'photo.JPEG', data: 'x' }, { name: 'img/Logo.Svg', data: 'x' }]);
    expect(await findings(bundle, 'extension-case')).toEqual([
      {
        file: 'img/Logo.Svg',
        message: 'The extension .Svg is accepted here, but the marketplace may compare case-sensitively. Rename it to .svg (and update references to it).',
        data: { extension: '.Svg', expected: '.svg' },
      },
    ]);
  });
});

describe('the archive rules', () => {
  const messages = async (bundle: string, ruleId: string) => (await findings(bundle, ruleId)).map((hit) => `${hit.file ?? '-'}: ${hit.message}`);

  it('archive-trailing-data: calls zeros padding', async () => {
    expect(await messages(writeZip(goodEntries(), { trailing: Buffer.alloc(512) }), 'archive-trailing-data')).toEqual([
      '-: 512 bytes of zeros follow the end of the archive: padding that tools writing to a pipe or tape add (bsdtar does). Write the zip straight to a file, for example with `pipeline-tool pack`.',
    ]);
  });

  it('archive-size-mismatch: gives both sizes when the entry inflates to less than declared', async () => {
    const entry = { name: 'a.js', data: 'x'.repeat(50), central: { uncompressedSize: 100 }, local: { uncompressedSize: 100 } };
    expect(await messages(writeZip([...goodEntries(), entry]), 'archive-size-mismatch')).toEqual([
      'a.js: The entry inflates to 50 bytes, not the 100 bytes its header declares. Build the bundle again.',
    ]);
  });

  it('archive-size-mismatch: says where a deflate stream ends before its compressed size', async () => {
    const stream = zlib.deflateRawSync('x'.repeat(50));
    const entry = { name: 'a.js', data: 'x'.repeat(50), payload: Buffer.concat([stream, Buffer.from('tail')]) };
    expect(await findings(writeZip([...goodEntries(), entry]), 'archive-size-mismatch')).toEqual([
      {
        file: 'a.js',
        message: `The entry's compressed data ends after ${stream.length} bytes of the ${stream.length + 4} bytes its header declares; the 4 bytes after it belong to no file. Extractors that find an entry's end by its compressed data fail on them (bsdtar: "compressed data is wrong size"), or, behind a data descriptor, read them as entries this check never saw. Build the bundle again.`,
        data: { declared: stream.length + 4, actual: stream.length, atLeast: false, compressed: true },
      },
    ]);
    // Read in pieces, a large entry's stream is measured the same way.
    const large = Buffer.alloc(3_000_000, 'y');
    const big = { name: 'big.js', data: large, payload: Buffer.concat([zlib.deflateRawSync(large), Buffer.alloc(300_000, 1)]) };
    expect((await findings(writeZip([...goodEntries(), big]), 'archive-size-mismatch')).map((hit) => hit.data)).toEqual([
      { declared: zlib.deflateRawSync(large).length + 300_000, actual: zlib.deflateRawSync(large).length, atLeast: false, compressed: true },
    ]);
  });

  it('archive-entry-count: says readers disagree when the count claims more than the directory holds', async () => {
    expect(await messages(writeZip(goodEntries(), { claimedCount: 6 }), 'archive-entry-count')).toEqual([
      '-: The archive claims 6 entries but its directory holds 4; readers that trust the count disagree. Build the bundle again.',
    ]);
  });

  it('archive-crc-mismatch: names the data descriptor that disagrees', async () => {
    const entries = goodEntries().map((e, i) => (i === 1 ? { ...e, descriptor: { signature: true, crc: 7 } } : e));
    expect(await messages(writeZip(entries), 'archive-crc-mismatch')).toEqual([
      'index.html: The data descriptor after this entry gives the checksum 00000007, the central directory 3f35a99c: readers that check one or the other disagree on whether the file is intact. Build the bundle again.',
    ]);
  });

  it('archive-compression: gives the number of a method it has no name for', async () => {
    expect(await messages(writeZip([...goodEntries(), { name: 'a.js', data: 'x', method: 77, payload: Buffer.from('zz') }]), 'archive-compression')).toEqual([
      'a.js: This entry is compressed with method 77; only stored and deflate are widely readable. Zip it with the default settings or with `pipeline-tool pack`.',
    ]);
  });

  it('archive-unsupported: names the version an entry says it needs', async () => {
    expect(await messages(writeZip([...goodEntries(), { name: 'a.js', data: 'x', versionNeeded: 63 }]), 'archive-unsupported')).toEqual([
      'a.js: The archive says this entry needs zip version 6.3 to extract; stored and deflated files need 2.0. Info-ZIP unzip skips such entries and Python refuses them. Build the bundle again, for example with `pipeline-tool pack`.',
    ]);
  });

  it('entry-not-regular: names an entry that is neither a file, a folder nor a link', async () => {
    expect(await messages(writeZip([...goodEntries(), { name: 'fifo.js', data: '', unixMode: 0o010644 }]), 'entry-not-regular')).toEqual([
      'fifo.js: This entry is not a regular file or folder (a device, pipe, or an entry whose type contradicts its name). Remove it.',
    ]);
  });
});

describe('path rules', () => {
  it('path-control-character: writes the code point as U+ and four upper-case hex digits', async () => {
    const hits = await findings(writeZip([...goodEntries(), { name: 'a\u0007b.js', data: 'x' }, { name: 'c\u200bd.js', data: 'x' }]), 'path-control-character');
    expect(hits.map((hit) => hit.data)).toEqual([{ codePoint: 'U+0007' }, { codePoint: 'U+200B' }]);
    expect(hits[0]!.message).toBe('The name contains the invisible or control character U+0007, which can hide its real name or extension. Rename the file.');
  });

  it('a name ending in a space, a dot or a NUL gets its path finding alone, unless its type is refused whatever the name', async () => {
    const report = await validateBundle(writeZip([...goodEntries(), ...['lib.js ', 'lib2.js.', 'lib3.js\u0000', 'tool.exe '].map((name) => ({ name, data: 'x' }))]));
    expect(report.problems.map((p) => `${p.ruleId} ${JSON.stringify(p.file)}`)).toEqual([
      'path-unsafe "lib.js "',
      'path-unsafe "lib2.js."',
      'path-control-character "lib3.js\\u0000"',
      'file-type "tool.exe "',
      'path-unsafe "tool.exe "',
    ]);
  });

  it('path-unsafe: checks the rest of names that all start with ./, and not the ./ root entry itself', async () => {
    const dotted = [{ name: './', data: '' }, ...goodEntries().map((e) => ({ ...e, name: `./${e.name as string}` })), { name: './../evil.js', data: 'x' }];
    expect(await findings(writeZip(dotted), 'path-unsafe')).toEqual([
      { file: './../evil.js', message: 'Unsafe path: it climbs out of the bundle (a .. segment). Use relative paths with forward slashes and plain names.', data: { reason: 'it climbs out of the bundle (a .. segment)' } },
    ]);
  });
});

describe('a referenced file that the folder has but leaves out: the cause and the fix', () => {
  it.each([
    ['img/b.jpeg', { 'img/b.jpeg': 'x' }, '"img/b.jpeg" refers to img/b.jpeg, which is in the folder but does not ship: `.jpeg` is not accepted by the marketplace. Rename it to .jpg.'],
    ['LICENSE', { LICENSE: 'x' }, '"LICENSE" refers to LICENSE, which is in the folder but does not ship: a file without an extension is not accepted by the marketplace. Remove it from the bundle.'],
    ['app.js.map', { 'app.js.map': '{}' }, '"app.js.map" refers to app.js.map, which is in the folder but does not ship: source maps are not accepted by the marketplace, so pack keeps them out of the zip. Refer to the built file instead.'],
    ['drafts/a.png', { 'drafts/a.png': 'x', '.pipelineignore': 'drafts/\n' }, '"drafts/a.png" refers to drafts/a.png, inside drafts/, which does not ship: it matches "drafts/" in .pipelineignore. Change that pattern, or stop referring to the file.'],
    ['.logo.png', { '.logo.png': 'x' }, '".logo.png" refers to .logo.png, which is in the folder but does not ship: it is a hidden file or folder, which never ships. Rename it.'],
    ['.cache/a.png', { '.cache/a.png': 'x' }, '".cache/a.png" refers to .cache/a.png, inside .cache/, which does not ship: its folder is a hidden file or folder, which never ships. Rename it.'],
    ['Thumbs.db', { 'Thumbs.db': 'x' }, '"Thumbs.db" refers to Thumbs.db, which is in the folder but does not ship: it is Windows Explorer metadata, which never ships. Rename it.'],
    ['node_modules/x.js', { 'node_modules/x.js': 'x' }, '"node_modules/x.js" refers to node_modules/x.js, inside node_modules/, which does not ship: files inside node_modules never ship. Bundle the dependency, or copy the file into the tool folder.'],
    ['package.json', { 'package.json': '{}' }, '"package.json" refers to package.json, which is in the folder but does not ship: it is a project file (package.json, lockfiles, tsconfig), which never ships. Give the data another name.'],
    [
      'fixtures.json',
      { 'fixtures.json': '{"$schema": "./node_modules/pipeline-tool/schemas/fixtures.schema.json"}' },
      '"fixtures.json" refers to fixtures.json, which is in the folder but does not ship: it is a fixtures file for `pipeline-tool dev` (its $schema names fixtures.schema.json), which never ships. Remove that $schema, or keep the data elsewhere.',
    ],
  ])('%s', async (reference, extra, message) => {
    const page = `<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><a href="${reference}">x</a><script src="app.js"></script></body></html>`;
    const hits = await findings(writeFolder({ ...goodFiles(), 'index.html': page, ...extra }), 'reference-missing');
    expect(hits.map((hit) => hit.message)).toEqual([message]);
  });
});

describe('reference-missing', () => {
  it('says a file is not in the bundle, or that a path climbs out of it, with the place of each', async () => {
    const page = '<!doctype html><html><body><img src="missing.png" alt="">\n<img src="../outside.png" alt=""><script src="app.js"></script></body></html>';
    // A file the folder leaves out, so that each finding is also looked up among them.
    const hits = await findings(writeFolder({ ...goodFiles(), 'index.html': page, '.DS_Store': 'x' }), 'reference-missing');
    expect(hits).toEqual([
      {
        file: 'index.html',
        message: '"missing.png" refers to missing.png, which is not in the bundle, so it fails to load. Add the file, or correct the path (it is relative to the folder of the file that refers to it).',
        data: { reference: 'missing.png', resolved: 'missing.png' },
      },
      {
        file: 'index.html',
        message: '"../outside.png" climbs out of the bundle with ..; everything the tool loads must be inside it. Copy the file into the bundle and refer to it from there.',
        data: { reference: '../outside.png', escapes: true },
      },
    ]);
  });
});

it('a referenced symbolic link in a folder: says pack never follows it', async () => {
  const folder = writeFolder({ ...goodFiles(), 'index.html': '<!doctype html><html><body><img src="logo.png" alt=""><script src="app.js"></script></body></html>', 'real.png': 'x' });
  symlinkSync(path.join(folder, 'real.png'), path.join(folder, 'logo.png'));
  expect((await findings(folder, 'reference-missing')).map((hit) => hit.message)).toEqual([
    '"logo.png" refers to logo.png, which is in the folder but does not ship: it is a symbolic link, which pack never follows. Put the file itself there.',
  ]);
});

describe('bridge-literal-range: each limit at its edge, with its wording', () => {
  const modulePage = '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script type="module" src="app.js"></script></body></html>';
  const ranges = async (code: string) => (await findings(writeFolder({ ...goodFiles(), 'index.html': modulePage, 'app.js': code }), 'bridge-literal-range')).map((hit) => hit.message);
  const create = (line: string) => ranges(`await pipeline.quotes.create({ customerName: 'A', lines: [{ ${line} }] });\n`);
  const addLines = (line: string) => ranges(`await pipeline.quotes.addLines([{ ${line} }]);\n`);

  it('quotes.create', async () => {
    expect(await create('qty: 10000, unitPrice: 1000000, taxRate: 1')).toEqual([]);
    expect(await create('qty: 0.5, unitPrice: 0, taxRate: 0')).toEqual([]);
    expect(await create('qty: 0, unitPrice: 1, taxRate: 0.1')).toEqual([
      'qty 0 in quotes.create is outside what the platform accepts (greater than 0 and at most 10000), so the request is rejected. Use a value in range.',
    ]);
    expect(await create('qty: 10001, unitPrice: -1, taxRate: -0.1')).toEqual([
      'qty 10001 in quotes.create is outside what the platform accepts (greater than 0 and at most 10000), so the request is rejected. Use a value in range.',
      'unitPrice -1 in quotes.create is outside what the platform accepts (from 0 to 1000000), so the request is rejected. Use a value in range.',
      'taxRate -0.1 in quotes.create is outside what the platform accepts (a fraction from 0 to 1), so the request is rejected. Use a value in range.',
    ]);
    expect(await create('qty: 1, unitPrice: 1000001, taxRate: 1.5')).toEqual([
      'unitPrice 1000001 in quotes.create is outside what the platform accepts (from 0 to 1000000), so the request is rejected. Use a value in range.',
      'taxRate 1.5 in quotes.create looks like a percentage, but quotes.create takes a fraction: write 0.015 for 1.5%.',
    ]);
  });

  it('quotes.addLines', async () => {
    expect(await addLines('qty: 0.5, unitPrice: 0, taxRate: 0, discountPercent: 0')).toEqual([]);
    expect(await addLines('qty: 1, unitPrice: 1, taxRate: 15, discountPercent: 100')).toEqual([]);
    expect(await addLines('qty: 0, unitPrice: -1, taxRate: -1, discountPercent: 100.5')).toEqual([
      'qty 0 in quotes.addLines is outside what the platform accepts (greater than 0), so the request is rejected. Use a value in range.',
      'unitPrice -1 in quotes.addLines is outside what the platform accepts (0 or more), so the request is rejected. Use a value in range.',
      'taxRate -1 in quotes.addLines is outside what the platform accepts (0 or more), so the request is rejected. Use a value in range.',
      'discountPercent 100.5 in quotes.addLines is outside what the platform accepts (from 0 to 100), so the request is rejected. Use a value in range.',
    ]);
    expect(await addLines('qty: 1, unitPrice: 1, discountPercent: -1')).toEqual([
      'discountPercent -1 in quotes.addLines is outside what the platform accepts (from 0 to 100), so the request is rejected. Use a value in range.',
    ]);
  });

  it('an add-line record outside the call: discountPercent, once the object has qty and unitPrice', async () => {
    expect(await ranges('const line = { qty: 1, unitPrice: 5, discountPercent: 150 };\n')).toEqual([
      'discountPercent 150 in quotes.addLines is outside what the platform accepts (from 0 to 100), so the request is rejected. Use a value in range.',
    ]);
    expect(await ranges('const line = { qty: 1, discountPercent: 150 };\n')).toEqual([]);
    expect(await ranges('const line = { qty: 1, unitPrice: 5, discountPercent: 100 };\n')).toEqual([]);
  });

  it('the number of lines in quotes.create: none, or more than 200', async () => {
    const lines = (count: number) => `await pipeline.quotes.create({ customerName: 'A', lines: [${Array.from({ length: count }, () => '{ qty: 1 }').join(', ')}] });\n`;
    expect(await ranges(lines(0))).toEqual(['quotes.create is given 0 lines; it accepts from 1 to 200 lines, and rejects the whole request otherwise. Add at least one line.']);
    expect(await ranges(lines(1))).toEqual([]);
    expect(await ranges(lines(200))).toEqual([]);
    expect(await ranges(lines(201))).toEqual([
      'quotes.create is given 201 lines; it accepts from 1 to 200 lines, and rejects the whole request otherwise. Split the lines over several quotes, or add the rest with quotes.addLines from a quoting extension.',
    ]);
    expect(await ranges(lines(200).replace('] })', ', { qty: 1 },] })'))).toHaveLength(1);
    expect(await ranges("await pipeline.quotes.create({ customerName: 'A', lines: [...rest] });\n")).toEqual([]);
    expect(await ranges("await pipeline.quotes.create({ customerName: 'A', lines: [] || more });\n")).toHaveLength(1);
  });
});

describe('the code rules: their other wordings, and where each finding points', () => {
  async function found(code: string, ruleId: string, extra: Record<string, string> = {}) {
    const report = await validateBundle(writeFolder({ ...goodFiles({ ...goodManifest, type: 'standalone' }), 'app.js': code, ...extra }));
    return report.problems.filter((p) => p.ruleId === ruleId).map((p) => ({ at: `${p.file}:${p.line}:${p.column}`, message: p.message, data: p.data }));
  }
  const stillOpens = 'Show the message or question in the page itself (an inline banner, or a <dialog> element).';

  it('dialog-call: alert, confirm and prompt, also through call and apply, and says only alert returns nothing', async () => {
    const code = "alert.call(window, 'a');\nconfirm.apply(null, ['b']);\nwindow.prompt('c');\nalert.bind(null)('d');\nalert.x.y('e');\nfoo.alert('f');";
    expect(await found(code, 'dialog-call')).toEqual([
      { at: 'app.js:1:1', message: `alert() does nothing inside the platform's sandboxed frame: no dialog opens. ${stillOpens}`, data: { name: 'alert' } },
      { at: 'app.js:2:1', message: `confirm() does nothing inside the platform's sandboxed frame: no dialog opens and the call returns at once. ${stillOpens}`, data: { name: 'confirm' } },
      { at: 'app.js:3:1', message: `prompt() does nothing inside the platform's sandboxed frame: no dialog opens and the call returns at once. ${stillOpens}`, data: { name: 'prompt' } },
    ]);
  });

  it('bridge-unknown-method: the nearest method, the methods of a namespace, or where to look', async () => {
    const code = 'pipeline.quotes.update(1);\npipeline.quotes();\npipeline.frobnicate.zzz();\nwindow.pipeline.zzzz();';
    expect(await found(code, 'bridge-unknown-method')).toEqual([
      {
        at: 'app.js:1:1',
        message: 'pipeline.quotes.update does not exist, so the call throws at run time; did you mean pipeline.quotes.create?',
        data: { method: 'quotes.update', suggestion: 'quotes.create' },
      },
      {
        at: 'app.js:2:1',
        message:
          'pipeline.quotes does not exist, so the call throws at run time; quotes is a namespace; its methods are pipeline.quotes.list, pipeline.quotes.create, pipeline.quotes.addLines, pipeline.quotes.addSections.',
        data: { method: 'quotes', methods: ['quotes.list', 'quotes.create', 'quotes.addLines', 'quotes.addSections'] },
      },
      {
        at: 'app.js:4:1',
        message: 'pipeline.zzzz does not exist, so the call throws at run time; see the bridge methods in the platform documentation (section 4.2).',
        data: { method: 'zzzz' },
      },
    ]);
  });

  it('browser-storage: storage taken from the global object by destructuring, and document.cookie', async () => {
    const code = [
      'const { localStorage: ls } = window;',
      'const { sessionStorage: ss } = globalThis.self;',
      'const { localStorage: x } = obj;',
      'const { localStorage } = window;',
      'let c = document.cookie;',
      'let d = other.cookie;',
      'let t = document.title;',
    ].join('\n');
    expect((await found(code, 'browser-storage')).map((hit) => `${hit.at} ${(hit.data as { api: string }).api}`)).toEqual([
      'app.js:1:9 localStorage',
      'app.js:2:9 sessionStorage',
      'app.js:4:9 localStorage',
      'app.js:5:9 document.cookie',
    ]);
  });

  it('bridge-deprecated: a deprecated method, lineType cost on an object, and productId on an add-line record', async () => {
    const code = [
      'pipeline.costItems.list();',
      "item.lineType = 'cost';",
      "lineType = 'cost';",
      "const r = { lineType: 'cost' };",
      "const s = { lineType: 'job' };",
      "pipeline.quotes.addLines([{ productId: 'p', qty: 1, unitPrice: 2 }]);",
      "const rec = { productId: 'p', qty: 1, unitPrice: 2 };",
      "const rec2 = { productId: 'p', qty: 1 };",
    ].join('\n');
    const cost = "lineType: 'cost' is deprecated (still supported, but superseded): use lineType: 'jobcost' instead.";
    const productId = "productId on an add-line record is deprecated (kept for tools of SDK 2.1.2 and earlier). Send the product's GUID as linkedItemId with lineType: 'product'.";
    expect((await found(code, 'bridge-deprecated')).map((hit) => `${hit.at} ${hit.message}`)).toEqual([
      'app.js:1:1 costItems.list is deprecated (still supported, but superseded): use jobCostTemplates.list instead.',
      `app.js:2:6 ${cost}`,
      `app.js:4:13 ${cost}`,
      `app.js:6:29 ${productId}`,
      `app.js:7:15 ${productId}`,
    ]);
  });

  it('reference-remote and reference-root-absolute: a stylesheet or a script, and a path with no file to suggest', async () => {
    const page =
      '<!doctype html><html><head><link rel="stylesheet" href="https://cdn.example.com/a.css"><script src="https://cdn.example.com/a.js"></script></head><body><script src="/lib/x.js"></script><script src="app.js"></script></body></html>';
    const remote = (kind: string, url: string) =>
      `The ${kind} "${url}" is loaded from another site each time the tool opens: the tool then depends on that site being up and unchanged, breaks offline, and runs code the marketplace never reviewed. Download it into the bundle and refer to it by a relative path.`;
    expect((await found('', 'reference-remote', { 'index.html': page })).map((hit) => hit.message)).toEqual([
      remote('stylesheet', 'https://cdn.example.com/a.css'),
      remote('script', 'https://cdn.example.com/a.js'),
    ]);
    expect((await found('', 'reference-root-absolute', { 'index.html': page })).map((hit) => hit.message)).toEqual([
      `"/lib/x.js" starts with /, which inside the host means the host's own site, not the bundle, so it will not load. Write the path relative to this file.`,
    ]);
  });

  it('unknown-disable-directive: a locked rule, a misspelt rule, and a name far from any rule', async () => {
    const code = '// pipeline-tool-disable-next-line file-type\nx();\n// pipeline-tool-disable-next-line dialog-cal\nx();\n// pipeline-tool-disable-next-line zzzzzzzz\nx();';
    expect((await found(code, 'unknown-disable-directive')).map((hit) => `${hit.at} ${hit.message}`)).toEqual([
      `app.js:1:1 pipeline-tool-disable-next-line names "file-type", a locked rule (a marketplace limit or the archive's integrity): the platform enforces it whatever the comment says, so it silences nothing. Fix the problem instead.`,
      'app.js:3:1 pipeline-tool-disable-next-line names "dialog-cal", which is not a rule, so it silences nothing; did you mean "dialog-call"?',
      'app.js:5:1 pipeline-tool-disable-next-line names "zzzzzzzz", which is not a rule, so it silences nothing. Run `pipeline-tool rules` to list them.',
    ]);
  });

  it('bridge-tool-type: says when the manifest has no "type" at all', async () => {
    const { type: _type, ...untyped } = goodManifest;
    const report = await validateBundle(writeFolder({ ...goodFiles(untyped), 'app.js': 'pipeline.quotes.addLines([]);' }));
    expect(report.problems.filter((p) => p.ruleId === 'bridge-tool-type').map((p) => p.message)).toEqual([
      'pipeline.quotes.addLines only works in a quoting_extension, but manifest.json has no "type", so the host treats the tool as standalone; the host rejects the call with an error. Set "type" to "quoting_extension" if the tool is opened from a quote, or use pipeline.quotes.create to make a new quote.',
    ]);
  });
});

describe('the archive rules: each wording, from the data the zip reader gives', () => {
  // The reader's tests (zip-structure, zip-reader) pin the data; these pin the words made from it.
  const message = (id: string, data: object, file?: string) => rules.find((rule) => rule.id === id)!.message(data, file);

  it('archive-ambiguous-end: two end records back to back', () => {
    expect(message('archive-ambiguous-end', { offset: 100, end: 122, adjacent: true })).toBe(
      "The archive ends with two end-of-archive records back to back, at offsets 100 and 122. Readers that scan from the end take the second; Python's zipfile then counts the first as part of the directory's bytes and cannot read the archive at all. Build the bundle again, for example with `pipeline-tool pack`.",
    );
  });

  it('archive-ambiguous-end: a Zip64 locator look-alike, and a second end record before the real one or inside its comment', () => {
    expect(message('archive-ambiguous-end', { offset: 100, end: 200, locator: true })).toBe(
      "The 20 bytes before the end-of-archive record (offset 100) look like a Zip64 locator, though the archive is not Zip64 (an entry's comment or other data ends there). Python's zipfile and yauzl take them for one and fail. Build the bundle again without comments, for example with `pipeline-tool pack`.",
    );
    const rest = 'Readers that scan from the end of the file can take either, and then list different entries. Build the bundle again without an archive comment, for example with `pipeline-tool pack`.';
    expect(message('archive-ambiguous-end', { offset: 222, end: 200 })).toBe(`Besides the end-of-archive record at offset 200, another end-of-archive signature sits at offset 222, inside the archive comment. ${rest}`);
    expect(message('archive-ambiguous-end', { offset: 150, end: 200 })).toBe(`Besides the end-of-archive record at offset 200, another end-of-archive signature sits at offset 150. ${rest}`);
  });

  it('archive-extra-field: names the central directory record or the local header', () => {
    const rest = "extra field 0x5455 declares 9 bytes where only 5 remain. Python's zipfile refuses such an entry and other readers skip the rest; build the bundle again.";
    expect(message('archive-extra-field', { where: 'central', id: '0x5455', declared: 9, available: 5 })).toBe(`In the entry's central directory record, ${rest}`);
    expect(message('archive-extra-field', { where: 'local', id: '0x5455', declared: 9, available: 5 })).toBe(`In the entry's local header, ${rest}`);
  });

  it('archive-hidden-data and archive-overlap: the central directory by name, an entry in quotes', () => {
    const hidden = 'belong to no entry. Hidden data is read by some tools and not others; build the bundle again.';
    expect(message('archive-hidden-data', { offset: 0, bytes: 20, after: 'the central directory' })).toBe(`20 bytes at offset 0, after the central directory, ${hidden}`);
    expect(message('archive-hidden-data', { offset: 300, bytes: 7, after: 'index.html' })).toBe(`7 bytes at offset 300, after "index.html", ${hidden}`);
    const overlap = 'at offset 40. Overlapping entries are how zip bombs multiply their size; no zip tool writes them. Build the bundle again.';
    expect(message('archive-overlap', { other: 'the central directory', offset: 40 })).toBe(`This entry overlaps the central directory ${overlap}`);
    expect(message('archive-overlap', { other: 'a.js', offset: 40 })).toBe(`This entry overlaps "a.js" ${overlap}`);
  });

  it('archive-header-mismatch lists the fields; archive-entry-count says when entries hide from the count', () => {
    expect(message('archive-header-mismatch', { fields: ['name', 'crc'] })).toBe(
      "The entry's local header disagrees with the central directory on: name, crc. Readers that trust one or the other would extract different things; build the bundle again.",
    );
    expect(message('archive-entry-count', { claimed: 3, found: 5 })).toBe('The archive claims 3 entries but its directory holds 5; readers that trust the count miss the hidden ones. Build the bundle again.');
  });

  it("path-unicode-mismatch: a local header's field, naming another file or stale", () => {
    expect(message('path-unicode-mismatch', { other: 'manifest.json', crcMatches: true, where: 'local' }, 'data/notes.json')).toBe(
      'The central directory names this entry "data/notes.json" but the Unicode Path field of its local header names it "manifest.json": extractors that read local headers (bsdtar, streaming readers) write "manifest.json", possibly over a file that was checked, the others "data/notes.json". Build the bundle again with `pipeline-tool pack`, which writes one name.',
    );
    expect(message('path-unicode-mismatch', { other: 'manifest.json', crcMatches: false, where: 'local' }, 'data/notes.json')).toBe(
      "A stale Unicode Path field in this entry's local header (its checksum does not match the header's name) names it \"manifest.json\": readers that follow the specification ignore it, older ones use it and write another file than \"data/notes.json\". Build the bundle again with `pipeline-tool pack`.",
    );
  });

  it('path-unicode-mismatch: a field that names another file, and a stale one', () => {
    expect(message('path-unicode-mismatch', { other: 'b.js', crcMatches: true }, 'a.js')).toBe(
      'The header names this entry "a.js" but its Unicode Path field names it "b.js": extractors that read the field (7-Zip, Info-ZIP unzip, yauzl) write one file, the others another. Build the bundle again with `pipeline-tool pack`, which writes one name.',
    );
    expect(message('path-unicode-mismatch', { other: 'b.js', crcMatches: false }, 'a.js')).toBe(
      "A stale Unicode Path field (its checksum does not match the header's name) names this entry \"b.js\": readers that follow the specification ignore it, older ones use it and write another file. Build the bundle again with `pipeline-tool pack`.",
    );
  });

  it('archive-unsupported: the version needed, a known feature, and an unknown one by its name', () => {
    const version = 'to extract; stored and deflated files need 2.0. Info-ZIP unzip skips such entries and Python refuses them. Build the bundle again, for example with `pipeline-tool pack`.';
    expect(message('archive-unsupported', { feature: 'version-needed', version: '6.3' })).toBe(`The archive says this entry needs zip version 6.3 ${version}`);
    expect(message('archive-unsupported', { feature: 'version-needed' })).toBe(`The archive says this entry needs zip version ? ${version}`);
    const plain = 'Build a plain single-file zip, for example with `pipeline-tool pack`.';
    expect(message('archive-unsupported', { feature: 'multi-disk' })).toBe(`The archive is split across several files (a multi-part archive). ${plain}`);
    expect(message('archive-unsupported', { feature: 'strange' })).toBe(`The archive uses strange. ${plain}`);
  });
});

describe('the manifest rules point at the key whose value they judge', () => {
  async function places(manifest: object) {
    const report = await validateBundle(withManifest(manifest));
    return report.problems.map((p) => `${p.ruleId} ${p.file}:${p.line}:${p.column}`);
  }

  it('shortName, type, version, description and entry, each on its own line', async () => {
    const manifest = { name: 'Kit', shortName: 'Kitchen', type: 'quoting-extension', version: 'v1.2', description: 'One. Two.', entry: 'main.html' };
    const middle = ['manifest-tool-type manifest.json:4:3', 'manifest-version manifest.json:5:3', 'manifest-description manifest.json:6:3'];
    expect(await places(manifest)).toEqual(['manifest-short-name manifest.json:3:3', ...middle, 'manifest-entry-missing manifest.json:7:3']);
    expect(await places({ ...manifest, shortName: 'x'.repeat(30), entry: 'C:\\x.html' })).toEqual([
      'manifest-short-name manifest.json:3:3',
      ...middle,
      'manifest-entry-path manifest.json:7:3',
    ]);
  });

  it('manifest-bom: at the first character, also when the JSON after the mark is broken', async () => {
    const report = await validateBundle(writeFolder({ ...goodFiles(), 'manifest.json': '\ufeff{"name": ' }));
    expect(report.problems.filter((p) => p.ruleId === 'manifest-bom').map((p) => `${p.file}:${p.line}:${p.column}`)).toEqual(['manifest.json:1:1']);
  });

  it('manifest-encoding names manifest.json', async () => {
    const report = await validateBundle(writeFolder({ ...goodFiles(), 'manifest.json': Buffer.from([0x7b, 0xff, 0x7d]) }));
    expect(report.problems.filter((p) => p.ruleId === 'manifest-encoding').map((p) => p.file)).toEqual(['manifest.json']);
  });
});

describe('more of what the manifest rules read', () => {
  it('manifest-short-name compares with the name without its surrounding spaces', async () => {
    expect((await findings(withManifest({ ...goodManifest, name: '  Kit  ', shortName: 'Kitch' }), 'manifest-short-name')).map((hit) => hit.data)).toEqual([
      { reason: 'longer-than-name', length: 5, limit: 24 },
    ]);
  });

  it('manifest-version suggests the pre-release it reads, and not from a "v" inside the value', async () => {
    expect((await findings(withManifest({ ...goodManifest, version: '1.2-dev' }), 'manifest-version')).map((hit) => hit.message)).toEqual([
      '"version" is "1.2-dev", which is not a SemVer version like 1.2.0; write "1.2.0-dev".',
    ]);
  });

  it('manifest-entry-path: a colon after the first segment is an unsafe name, not a URL; a blank entry is left to manifest-empty-field', async () => {
    expect((await findings(withManifest({ ...goodManifest, entry: 'pages/x:y.html' }), 'manifest-entry-path')).map((hit) => hit.message)).toEqual([
      '"entry" is "pages/x:y.html": it is not a safe path: it contains a character Windows forbids in names (< > : " | ? *).',
    ]);
    expect(await findings(withManifest({ ...goodManifest, entry: '  ' }), 'manifest-entry-path')).toEqual([]);
  });
});

describe('leftOutCause: the reasons a folder reader never gives, and the wordings without a detail', () => {
  it.each([
    [{ path: 'pipe', kind: 'other', reason: 'not-regular' }, 'it is not a regular file. Put a regular file there.'],
    [{ path: 'tool.zip', kind: 'file', reason: 'output-zip' }, 'it is the zip pack writes. Refer to the files inside it instead.'],
    [{ path: 'a.png', kind: 'file', reason: 'ignored' }, 'it matches a pattern in .pipelineignore. Change that pattern, or stop referring to the file.'],
    [{ path: '.x', kind: 'file', reason: 'dot-file' }, 'it is a hidden file, which never ships. Rename it.'],
    [{ path: 'a.JPEG', kind: 'file', reason: 'file-type', detail: '.jpeg' }, '`.jpeg` is not accepted by the marketplace. Rename it to .jpg.'],
  ])('%j', (entry, message) => {
    expect(leftOutCause(entry as Parameters<typeof leftOutCause>[0])).toBe(message);
  });
});
