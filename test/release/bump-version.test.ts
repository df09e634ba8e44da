import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bumpVersion, nextVersion, RELEASE_TYPES, UsageError } from '../../src/index.js';
import { tempDir } from '../helpers/bundles.js';
import { usageRefusal as refusal } from '../helpers/usage-refusal.js';

/*
 * The library's bumpVersion, as a program calls it: what it returns, what it writes, and what it
 * refuses. (test/release/version-cli.test.ts holds the command's contract: exit codes and output.)
 */

const MANIFEST = { name: 'Café Tool', shortName: '  Café  ', type: 'standalone', version: '1.0.0', description: 'Does one thing.', entry: 'index.html' };
const PACKAGE = { name: 'cafe', version: '1.0.0', scripts: { pack: 'pipeline-tool pack src -o dist/', odd: 7 }, devDependencies: { 'pipeline-tool': '^0.1.0' } };

/** A project laid out as `init` makes it, or with the files where the test puts them. */
function project(files: Record<string, string | object>): string {
  const root = tempDir('pipeline-bump-');
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  return root;
}

const read = (root: string, name: string) => readFileSync(path.join(root, name), 'utf8');
const everything = (root: string) =>
  Object.fromEntries(
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((name) => statSync(path.join(root, name)).isFile())
      .sort()
      .map((name) => [name, read(root, name)]),
  );

describe('bumpVersion', () => {
  it('raises manifest.json and the package.json beside src/, and says what it did', async () => {
    const root = project({ 'src/manifest.json': MANIFEST, 'package.json': PACKAGE });
    const result = await bumpVersion('src', 'minor', { cwd: root });
    expect(result).toEqual({
      folder: path.join(root, 'src'),
      manifest: { file: path.join(root, 'src', 'manifest.json'), from: '1.0.0', to: '1.1.0' },
      packageJson: { file: path.join(root, 'package.json'), from: '1.0.0', to: '1.1.0' },
      // Only string scripts: a number is no command to suggest.
      scripts: { pack: 'pipeline-tool pack src -o dist/' },
      zipName: 'café-1.1.0.zip',
    });
    expect(JSON.parse(read(root, 'src/manifest.json'))).toEqual({ ...MANIFEST, version: '1.1.0' });
    expect(JSON.parse(read(root, 'package.json'))).toEqual({ ...PACKAGE, version: '1.1.0' });
    // Written beside each file and renamed over it: nothing else is left behind.
    expect(Object.keys(everything(root))).toEqual(['package.json', 'src/manifest.json']);
  });

  it('resolves a relative folder against cwd, and takes the current folder when no cwd is given', async () => {
    const root = project({ 'manifest.json': MANIFEST });
    expect((await bumpVersion('.', 'patch', { cwd: root })).manifest.to).toBe('1.0.1');
    const result = await bumpVersion(root, 'patch');
    expect(result).toMatchObject({ folder: root, manifest: { from: '1.0.1', to: '1.0.2' }, scripts: {} });
    expect(result).not.toHaveProperty('packageJson');
  });

  it('takes a package.json in the tool folder itself, and one that names pipeline-tool among its dependencies', async () => {
    const root = project({ 'manifest.json': MANIFEST, 'package.json': { name: 'x', version: '1.0.0', dependencies: { 'pipeline-tool': '*' } } });
    const result = await bumpVersion(root, 'major');
    expect(result.packageJson).toEqual({ file: path.join(root, 'package.json'), from: '1.0.0', to: '2.0.0' });
    expect(JSON.parse(read(root, 'package.json')).version).toBe('2.0.0');
  });

  it('looks no higher than the folder above, and leaves alone a package.json that does not use pipeline-tool', async () => {
    const root = project({
      'package.json': PACKAGE,
      'a/package.json': { name: 'monorepo', version: '7.0.0', devDependencies: { vitest: '*' }, scripts: { pack: 'x' } },
      'a/b/manifest.json': MANIFEST,
    });
    const before = read(root, 'package.json');
    const result = await bumpVersion('a/b', 'patch', { cwd: root });
    expect(result).not.toHaveProperty('packageJson');
    expect(result.scripts).toEqual({});
    expect(read(root, 'package.json')).toBe(before);
    expect(JSON.parse(read(root, 'a/package.json')).version).toBe('7.0.0');
  });

  it('skips a package.json that is a folder, and one whose dependencies are not a list of packages', async () => {
    const root = project({ 'src/manifest.json': MANIFEST, 'src/package.json/keep': 'x', 'package.json': { version: '1.0.0', devDependencies: 'pipeline-tool' } });
    const result = await bumpVersion('src', 'patch', { cwd: root });
    expect(result).not.toHaveProperty('packageJson');
    expect(JSON.parse(read(root, 'package.json')).version).toBe('1.0.0');
  });

  it('reports the scripts of a project package.json that has no version, and leaves that file alone', async () => {
    const packageJson = { name: 'cafe', scripts: { pack: 'npm run build && pipeline-tool pack' }, devDependencies: { 'pipeline-tool': '*' } };
    const root = project({ 'src/manifest.json': MANIFEST, 'package.json': packageJson });
    const result = await bumpVersion('src', 'patch', { cwd: root });
    expect(result).not.toHaveProperty('packageJson');
    expect(result.scripts).toEqual(packageJson.scripts);
    expect(JSON.parse(read(root, 'package.json'))).toEqual(packageJson);
    // Scripts that are not an object give none.
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ ...packageJson, scripts: null }));
    expect((await bumpVersion('src', 'patch', { cwd: root })).scripts).toEqual({});
  });

  it('changes only the version value: spacing, escapes elsewhere, a byte-order mark and the file mode stay', async () => {
    const text = '\uFEFF{\n    "name": "\\"version\\": \\"1.0.0\\"",\n    "version"   :\t"1.0.0-\\u0062eta",\n    "inner": { "version": "1.0.0" }\n}';
    const root = project({ 'manifest.json': text });
    chmodSync(path.join(root, 'manifest.json'), 0o640);
    const result = await bumpVersion(root, '1.0.0');
    expect(result.manifest).toMatchObject({ from: '1.0.0-beta', to: '1.0.0' });
    expect(read(root, 'manifest.json')).toBe(text.replace('"1.0.0-\\u0062eta"', '"1.0.0"'));
    expect(statSync(path.join(root, 'manifest.json')).mode & 0o777).toBe(0o640);
  });

  it('names the zip after the folder when there is no short name', async () => {
    const root = project({ 'kitchen-tool/manifest.json': { ...MANIFEST, shortName: undefined } });
    expect((await bumpVersion('kitchen-tool', '2.0.0', { cwd: root })).zipName).toBe('kitchen-tool.zip');
    const named = project({ 'tool/manifest.json': { ...MANIFEST, shortName: 7 } });
    expect((await bumpVersion('tool', '2.0.0', { cwd: named })).zipName).toBe('tool.zip');
  });

  it('goes backwards or stays only with force', async () => {
    const root = project({ 'manifest.json': { ...MANIFEST, version: '2.0.0' } });
    expect(await refusal(bumpVersion(root, '1.0.0'))).toBe('1.0.0 is lower than the current 2.0.0; a release must be higher. Add --force to set it anyway.');
    expect(await refusal(bumpVersion(root, '1.0.0', { force: false }))).toMatch(/lower than the current/);
    expect((await bumpVersion(root, '1.0.0', { force: true })).manifest).toMatchObject({ from: '2.0.0', to: '1.0.0' });
  });

  it('writes compact JSON as compact JSON', async () => {
    const root = project({ 'manifest.json': '{"name":"x","version":"1.0.0"}' });
    await bumpVersion(root, 'patch');
    expect(read(root, 'manifest.json')).toBe('{"name":"x","version":"1.0.1"}');
  });

  it('reads a manifest of exactly 1,000,000 bytes', async () => {
    const text = `{"version": "1.0.0"${' '.repeat(1_000_000 - 20)}}`;
    expect(text).toHaveLength(1_000_000);
    const root = project({ 'manifest.json': text });
    expect((await bumpVersion(root, 'patch')).manifest.to).toBe('1.0.1');
  });

  it('leaves other keys given twice to validate, and reads a byte-order mark only at the start', async () => {
    const root = project({
      'src/manifest.json': '{"name": "a", "name": "b", "version": "1.0.0"}',
      'package.json': { version: '1.0.0', scripts: { pack: 'pipeline-tool\uFEFFpack' }, dependencies: null, devDependencies: { 'pipeline-tool': '*' } },
    });
    const result = await bumpVersion('src', 'patch', { cwd: root });
    expect(result.manifest.to).toBe('1.0.1');
    expect(result.packageJson?.to).toBe('1.0.1');
    // A U+FEFF inside a value is part of it.
    expect(result.scripts).toEqual({ pack: 'pipeline-tool\uFEFFpack' });
  });

  it('refuses a package.json larger than 1,000,000 bytes, naming what it was read as', async () => {
    const root = project({ 'src/manifest.json': MANIFEST, 'package.json': `{"devDependencies": {"pipeline-tool": "*"}, "x": "${'x'.repeat(1_000_000)}"}` });
    expect(await refusal(bumpVersion('src', 'patch', { cwd: root }))).toBe(`package.json is larger than 1000000 bytes; that is not a package.json.`);
  });

  it.each([
    ['a folder that does not exist', {}, 'missing', /^missing is not a folder\. Give the tool folder/],
    ['a file given as the folder', { 'manifest.json': MANIFEST }, 'manifest.json', /^manifest\.json is not a folder/],
    ['a folder without manifest.json', { 'readme.md': 'x' }, '.', /^\. has no manifest\.json\. Give the tool folder, the one holding manifest\.json\.$/],
    ['a manifest.json that is a folder', { 'manifest.json/x': 'x' }, '.', /^manifest\.json is a folder, not a regular file; make it a plain JSON file\.$/],
    ['a project whose manifest is in src/', { 'src/manifest.json': MANIFEST }, '.', /^\. has no manifest\.json\. The tool seems to be in src: pipeline-tool version <release> src$/],
    ['a manifest larger than 1,000,000 bytes', { 'manifest.json': `{"version": "1.0.0", "pad": "${'x'.repeat(1_000_000)}"}` }, '.', /is larger than 1000000 bytes; that is not a manifest\.json\.$/],
    ['a manifest that is not JSON', { 'manifest.json': '{"version": "1.0.0",}' }, '.', /manifest\.json is not valid JSON \(.+\); fix it, then run this again\.$/],
    ['a manifest that is a list', { 'manifest.json': '["1.0.0"]' }, '.', /manifest\.json is not a JSON object; it cannot hold a version\.$/],
    ['a manifest that is null', { 'manifest.json': 'null' }, '.', /is not a JSON object/],
    ['two versions', { 'manifest.json': '{"version": "1.0.0", "version": "1.0.0"}' }, '.', /manifest\.json has "version" more than once; keep one, then run this again\.$/],
    ['a version that is a number', { 'manifest.json': { version: 1 } }, '.', /^"version" in .*manifest\.json is not a string; write it as "version": "1\.0\.0"\.$/],
    ['a version key written with escapes', { 'manifest.json': '{"vers\\u0069on": "1.0.0", "inner": {"version": "1.0.0"}}' }, '.', /^the "version" key is written with escapes; write it plainly as "version"\.$/],
    ['a manifest that is a string', { 'manifest.json': '"1.0.0"' }, '.', /manifest\.json is not a JSON object; it cannot hold a version\.$/],
  ])('refuses %s, touching nothing', async (_label, files, folder, message) => {
    const root = project(files);
    const before = everything(root);
    expect(await refusal(bumpVersion(folder, 'patch', { cwd: root }))).toMatch(message);
    expect(everything(root)).toEqual(before);
  });

  it('refuses a manifest without a version, giving the line to add', async () => {
    const root = project({ 'manifest.json': { name: 'x' } });
    expect(await refusal(bumpVersion(root, '3.1.0', { cwd: root }))).toBe(`manifest.json has no "version"; add "version": "3.1.0" to it.`);
    expect(await refusal(bumpVersion(root, 'minor'))).toMatch(/^the manifest's version is missing, so it cannot be raised by a minor/);
  });

  it('refuses a symbolic link as the manifest, and changes neither it nor its target', async () => {
    const root = project({ 'real.json': MANIFEST, 'tool/index.html': '<p>x</p>' });
    symlinkSync(path.join(root, 'real.json'), path.join(root, 'tool', 'manifest.json'));
    const before = read(root, 'real.json');
    expect(await refusal(bumpVersion('tool', 'patch', { cwd: root }))).toMatch(/manifest\.json is a symbolic link, which pack leaves out of the bundle; make it a plain file\.$/);
    expect(read(root, 'real.json')).toBe(before);
  });

  it('reads both files before writing either: a broken package.json leaves the manifest as it was', async () => {
    const root = project({ 'src/manifest.json': MANIFEST, 'package.json': '{"devDependencies": {"pipeline-tool": "*"},' });
    const before = everything(root);
    expect(await refusal(bumpVersion('src', 'patch', { cwd: root }))).toMatch(/package\.json is not valid JSON/);
    expect(everything(root)).toEqual(before);
  });
});

describe('nextVersion', () => {
  it('raises each part, from a release and from a prerelease', () => {
    expect(RELEASE_TYPES).toEqual(['major', 'minor', 'patch']);
    expect(['major', 'minor', 'patch'].map((release) => nextVersion('1.2.3', release))).toEqual(['2.0.0', '1.3.0', '1.2.4']);
    expect(nextVersion('2.0.0-rc.1', 'major')).toBe('2.0.0');
  });

  it('takes an explicit version that is higher, or any with force, and refuses the rest', () => {
    expect(nextVersion('1.2.3', '1.2.4')).toBe('1.2.4');
    expect(nextVersion(undefined, '0.1.0')).toBe('0.1.0');
    expect(nextVersion('1.2.3', '1.2.3', true)).toBe('1.2.3');
    expect(() => nextVersion('1.2.3', '1.2.3')).toThrow(new UsageError('1.2.3 is the current version; a release must be higher. Add --force to set it anyway.'));
    expect(() => nextVersion('1.2.3', 'latest')).toThrow(new UsageError('"latest" is not a release: give major, minor or patch, or a SemVer version like 1.2.0.'));
    expect(() => nextVersion('1.2', 'patch')).toThrow(
      new UsageError('the manifest\'s version "1.2" is not SemVer, so it cannot be raised by a patch; give the new version itself, like 1.0.0.'),
    );
  });
});
