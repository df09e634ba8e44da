import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nextVersion } from '../../src/core/release/bump-version.js';
import { tempDir } from '../helpers/bundles.js';
import { runCli, STACK_TRACE } from '../helpers/cli.js';

/** A project laid out as `init` makes it: package.json beside src/, the manifest in src/. */
function project(manifest: string | Record<string, unknown>, packageJson?: Record<string, unknown>): string {
  const root = tempDir('pipeline-version-');
  mkdirSync(path.join(root, 'src'));
  const manifestText = typeof manifest === 'string' ? manifest : `${JSON.stringify(manifest, null, 4)}\n`;
  writeFileSync(path.join(root, 'src', 'manifest.json'), manifestText);
  if (packageJson) writeFileSync(path.join(root, 'package.json'), `${JSON.stringify(packageJson, null, 2)}\n`);
  return root;
}

const MANIFEST = { name: 'Café Tool', shortName: 'Café', type: 'standalone', version: '1.0.0', description: 'Does one thing.', entry: 'index.html' };
const PACKAGE = { name: 'cafe', version: '1.0.0', private: true, scripts: { pack: 'pipeline-tool pack src -o dist/ --force' }, devDependencies: { 'pipeline-tool': '^0.1.0' } };

const read = (file: string) => readFileSync(file, 'utf8');
const snapshot = (root: string) =>
  Object.fromEntries(
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.json'))
      .map((name) => [name, read(path.join(root, name))]),
  );

describe('pipeline-tool version', () => {
  it.each([
    ['patch', '1.0.1'],
    ['minor', '1.1.0'],
    ['major', '2.0.0'],
    ['1.4.0-beta.1', '1.4.0-beta.1'],
  ])('%s raises manifest.json and package.json to %s, changing nothing else, and names the next step', (release, expected) => {
    const root = project(MANIFEST, PACKAGE);
    const before = read(path.join(root, 'src/manifest.json'));
    const result = runCli(['version', release], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    // Only the value changes: four-space indentation and key order stay as the author wrote them.
    expect(read(path.join(root, 'src/manifest.json'))).toBe(before.replace('"version": "1.0.0"', `"version": "${expected}"`));
    expect(JSON.parse(read(path.join(root, 'package.json')))).toEqual({ ...PACKAGE, version: expected });
    expect(result.stdout).toContain(`src/manifest.json  1.0.0 → ${expected}`);
    expect(result.stdout).toContain(`package.json       1.0.0 → ${expected}`);
    // The zip name follows the version, letters of the short name kept.
    expect(result.stdout).toMatch(new RegExp(`Next: npm run pack +builds café-${expected.replace(/\./g, '\\.')}\\.zip`));
  });

  it('works on a tool folder with no project around it, and the zip pack then writes carries the new version', () => {
    const root = project(MANIFEST);
    writeFileSync(path.join(root, 'src', 'index.html'), '<!doctype html><title>Café</title><p>Hi</p>');
    const result = runCli(['version', 'minor', 'src'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Next: npx pipeline-tool pack src');
    expect(result.stdout).not.toContain('package.json');
    const packed = runCli(['pack', 'src', '-o', 'dist/'], { cwd: root });
    expect(packed.code, packed.stdout + packed.stderr).toBe(0);
    expect(readdirSync(path.join(root, 'dist'))).toEqual(['café-1.1.0.zip']);
  });

  it('keeps a byte-order mark, CRLF line ends and an escaped "version" text elsewhere as they were', () => {
    const text = '\uFEFF{\r\n  "description": "Says \\"version\\": \\"1.0.0\\".",\r\n  "version" : "1.0.0",\r\n  "nested": { "version": "1.0.0" }\r\n}\r\n';
    const root = project(text);
    expect(runCli(['version', 'major'], { cwd: root }).code).toBe(0);
    expect(read(path.join(root, 'src/manifest.json'))).toBe(text.replace('"version" : "1.0.0"', '"version" : "2.0.0"'));
  });

  it('leaves alone a package.json that does not use pipeline-tool (a monorepo root, say)', () => {
    const root = project(MANIFEST, { name: 'monorepo', version: '7.0.0', private: true });
    expect(runCli(['version', 'patch'], { cwd: root }).code).toBe(0);
    expect(JSON.parse(read(path.join(root, 'package.json'))).version).toBe('7.0.0');
    expect(JSON.parse(read(path.join(root, 'src/manifest.json'))).version).toBe('1.0.1');
  });

  it('goes backwards only with --force', () => {
    const root = project({ ...MANIFEST, version: '2.0.0' }, { ...PACKAGE, version: '2.0.0' });
    const forced = runCli(['version', '1.5.0', '--force'], { cwd: root });
    expect(forced.code).toBe(0);
    expect(JSON.parse(read(path.join(root, 'src/manifest.json'))).version).toBe('1.5.0');
    expect(JSON.parse(read(path.join(root, 'package.json'))).version).toBe('1.5.0');
  });

  it.each([
    ['not a release', ['version', 'bigger'], MANIFEST, /"bigger" is not a release: give major, minor or patch/],
    ['not strict SemVer', ['version', '1.2'], MANIFEST, /"1\.2" is not a release/],
    ['a v prefix', ['version', 'v2.0.0'], MANIFEST, /"v2\.0\.0" is not a release: .*; did you mean 2\.0\.0\?$/m],
    ['a v and a major alone', ['version', 'v2'], MANIFEST, /"v2" is not a release: .*; did you mean 2\.0\.0\?$/m],
    ['two numbers', ['version', '1.2'], MANIFEST, /"1\.2" is not a release: .*; did you mean 1\.2\.0\?$/m],
    ['backwards', ['version', '0.9.0'], MANIFEST, /0\.9\.0 is lower than the current 1\.0\.0; .*--force/],
    ['the same version', ['version', '1.0.0'], MANIFEST, /1\.0\.0 is the current version/],
    ['a bump of a version that is not SemVer', ['version', 'patch'], { ...MANIFEST, version: '1.0' }, /"1\.0" is not SemVer, so it cannot be raised by a patch/],
    ['a bump of a missing version', ['version', 'patch'], { ...MANIFEST, version: undefined }, /version is missing/],
    ['a version for a manifest without one', ['version', '2.0.0'], { ...MANIFEST, version: undefined }, /has no "version"; add "version": "2\.0\.0" to it/],
    ['a version that is not a string', ['version', '2.0.0'], { ...MANIFEST, version: 2 }, /"version" in .* is not a string/],
    ['a manifest that is not JSON', ['version', 'patch'], '{ "version": "1.0.0", }', /is not valid JSON \(a trailing comma/],
    ['a manifest that is not an object', ['version', 'patch'], '["1.0.0"]', /is not a JSON object/],
    ['a manifest with two versions', ['version', 'patch'], '{"version": "1.0.0", "version": "3.0.0"}', /"version" more than once/],
  ])('refuses %s: exit 2, one line, no file touched', (_label, args, manifest, message) => {
    const root = project(manifest as Record<string, unknown> | string, PACKAGE);
    const before = snapshot(root);
    const result = runCli(args, { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(snapshot(root)).toEqual(before);
  });

  it('refuses a folder without a manifest, naming src/ when the manifest is there', () => {
    const root = project(MANIFEST, PACKAGE);
    const before = snapshot(root);
    const result = runCli(['version', 'patch', '.'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^pipeline-tool: \. has no manifest\.json\. The tool seems to be in src: pipeline-tool version <release> src\n$/);
    const empty = runCli(['version', 'patch'], { cwd: tempDir('pipeline-version-') });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^pipeline-tool: \. has no manifest\.json\. Give the tool folder/);
    expect(runCli(['version', 'patch', 'missing'], { cwd: root }).stderr).toMatch(/missing is not a folder/);
    expect(snapshot(root)).toEqual(before);
  });

  it('refuses a manifest that is a symbolic link, which pack would leave out', () => {
    const root = project(MANIFEST);
    const elsewhere = path.join(root, 'real.json');
    writeFileSync(elsewhere, JSON.stringify(MANIFEST));
    const tool = path.join(root, 'tool');
    mkdirSync(tool);
    symlinkSync(elsewhere, path.join(tool, 'manifest.json'));
    const result = runCli(['version', 'patch', 'tool'], { cwd: root });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is a symbolic link');
    expect(read(elsewhere)).toBe(JSON.stringify(MANIFEST));
  });
});

describe('pipeline-tool version in a project with a project file', () => {
  function withProjectFile(source = 'src'): string {
    const root = project(MANIFEST, PACKAGE);
    mkdirSync(path.join(root, 'test'));
    writeFileSync(path.join(root, 'pipeline-tool.config.json'), JSON.stringify({ source, out: 'dist' }));
    return root;
  }

  it('finds the tool from any folder of the project, and prints paths relative to it', () => {
    const root = withProjectFile();
    const fromTest = runCli(['version', 'patch'], { cwd: path.join(root, 'test') });
    expect(fromTest.code, fromTest.stderr).toBe(0);
    expect(fromTest.stdout).toContain(`✔ ${path.join('..', 'src', 'manifest.json')}  1.0.0 → 1.0.1`);
    expect(fromTest.stdout).toContain(`✔ ${path.join('..', 'package.json')}       1.0.0 → 1.0.1`);
    expect(fromTest.stdout).toContain(`builds ${path.join('..', 'dist', 'café-1.0.1.zip')}`);
    const fromSource = runCli(['version', 'minor'], { cwd: path.join(root, 'src') });
    expect(fromSource.code, fromSource.stderr).toBe(0);
    expect(fromSource.stdout).toContain(`✔ manifest.json    1.0.1 → 1.1.0`);
    expect(fromSource.stdout).toContain(`✔ ${path.join('..', 'package.json')}  1.0.1 → 1.1.0`);
    expect(fromSource.stdout).not.toContain(root);
    expect(JSON.parse(read(path.join(root, 'src/manifest.json'))).version).toBe('1.1.0');
  });

  it('takes the project by its folder, and follows a source of another name', () => {
    const root = withProjectFile('tool');
    mkdirSync(path.join(root, 'tool'));
    writeFileSync(path.join(root, 'tool', 'manifest.json'), JSON.stringify({ ...MANIFEST, version: '3.0.0' }));
    const result = runCli(['version', 'patch', path.basename(root)], { cwd: path.dirname(root) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`✔ ${path.join(path.basename(root), 'tool', 'manifest.json')}  3.0.0 → 3.0.1`);
    expect(JSON.parse(read(path.join(root, 'tool/manifest.json'))).version).toBe('3.0.1');
    expect(JSON.parse(read(path.join(root, 'src/manifest.json'))).version).toBe('1.0.0');
  });
});

describe('nextVersion', () => {
  it('follows SemVer from prereleases, and treats build metadata as no difference', () => {
    expect(nextVersion('1.0.0-beta.2', 'patch')).toBe('1.0.0');
    expect(nextVersion('1.2.3-rc.1', 'minor')).toBe('1.3.0');
    expect(nextVersion('1.0.0-beta.2', '1.0.0')).toBe('1.0.0');
    expect(() => nextVersion('1.0.0', '1.0.0+build.7')).toThrow(/is the current version/);
    expect(nextVersion('1.0.0', '1.0.0+build.7', true)).toBe('1.0.0+build.7');
    // An explicit version repairs a manifest whose version is not SemVer.
    expect(nextVersion('1.0', '1.0.1')).toBe('1.0.1');
  });
});
