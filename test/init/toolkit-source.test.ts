import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/cli/exit-codes.js';
import { PUBLISHED_MARK, runningToolkitSource, toolkitSourceFrom } from '../../src/core/init/index.js';
import { execFileAsync, listFiles, REPO, runCli, tempDir } from './helpers.js';

const VERSION = (JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

/** What a source packed from a folder looks like: that folder, packed into the project's vendor/. */
function vendoredFrom(folder: string) {
  const file = `vendor/pipeline-tool-${VERSION}.tgz`;
  return { spec: `file:${file}`, kind: 'vendored', running: true, vendor: { path: file, from: { folder: realpathSync(folder) } } };
}

/** The entry names of a .tgz, read with the system's tar. */
async function tarEntries(file: string): Promise<string[]> {
  const { stdout } = await execFileAsync('tar', ['-tzf', file], { maxBuffer: 1 << 24 });
  return stdout.trim().split('\n');
}

/** A copy of the package as an install leaves it: package.json, and the publish mark if asked. */
function installedCopy(root: string, mark?: { version: string }): string {
  const folder = path.join(root, 'node_modules', 'pipeline-tool');
  mkdirSync(path.join(folder, 'dist'), { recursive: true });
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'pipeline-tool', version: VERSION }));
  if (mark) writeFileSync(path.join(folder, PUBLISHED_MARK), JSON.stringify(mark));
  return folder;
}

describe('where a new project gets pipeline-tool from', () => {
  it('from the registry only when the copy carries the mark npm publish leaves, in a node_modules folder', async () => {
    const root = await tempDir();
    expect(runningToolkitSource(installedCopy(path.join(root, 'a'), { version: VERSION }))).toEqual({ spec: `^${VERSION}`, kind: 'registry', running: true });
    // No mark: a tarball made by npm pack, or a git install.
    const unmarked = installedCopy(path.join(root, 'b'));
    expect(runningToolkitSource(unmarked)).toEqual(vendoredFrom(unmarked));
    // A mark left by another version does not count.
    const stale = installedCopy(path.join(root, 'c'), { version: '0.0.1' });
    expect(runningToolkitSource(stale).kind).toBe('vendored');
  });

  it('a checkout, even a published one, and a linked install are packed from their folder', async () => {
    const root = await tempDir();
    const checkout = path.join(root, 'pipeline-tool');
    mkdirSync(path.join(checkout, 'dist'), { recursive: true });
    writeFileSync(path.join(checkout, PUBLISHED_MARK), JSON.stringify({ version: VERSION }));
    expect(runningToolkitSource(checkout)).toEqual(vendoredFrom(checkout));
    // npm link / npm install -g . put a link in node_modules; Node runs the real folder.
    const linkFolder = path.join(root, 'prefix', 'lib', 'node_modules');
    mkdirSync(linkFolder, { recursive: true });
    symlinkSync(checkout, path.join(linkFolder, 'pipeline-tool'));
    expect(runningToolkitSource(path.join(linkFolder, 'pipeline-tool'))).toEqual(vendoredFrom(checkout));
    // The tests run from this repository: a checkout.
    expect(runningToolkitSource()).toEqual(vendoredFrom(REPO));
  });

  it('--pipeline-tool takes a range, a tag, a URL, a pipeline-tool folder or a tarball', async () => {
    const cwd = await tempDir();
    expect(toolkitSourceFrom('^0.1.0', cwd)).toEqual({ spec: '^0.1.0', kind: 'registry', running: false });
    expect(toolkitSourceFrom(' latest ', cwd)).toEqual({ spec: 'latest', kind: 'registry', running: false });
    expect(toolkitSourceFrom('github:example/pipeline-tool#v0.1.0', cwd)).toMatchObject({ kind: 'other', spec: 'github:example/pipeline-tool#v0.1.0' });
    expect(toolkitSourceFrom('https://example.com/pipeline-tool-0.1.0.tgz', cwd).kind).toBe('other');
    // Paths are resolved from where init runs. A tarball is copied into the project and named
    // relative to it, so the project installs wherever it goes; a folder is linked (for working on
    // pipeline-tool itself), by its absolute path.
    writeFileSync(path.join(cwd, 'pipeline-tool-0.1.0.tgz'), gzipSync('tar'));
    const tarball = realpathSync(path.join(cwd, 'pipeline-tool-0.1.0.tgz'));
    for (const given of ['./pipeline-tool-0.1.0.tgz', 'pipeline-tool-0.1.0.tgz', 'file:pipeline-tool-0.1.0.tgz', path.join(cwd, 'pipeline-tool-0.1.0.tgz')]) {
      expect(toolkitSourceFrom(given, cwd)).toEqual({
        spec: 'file:vendor/pipeline-tool-0.1.0.tgz',
        kind: 'vendored',
        running: false,
        vendor: { path: 'vendor/pipeline-tool-0.1.0.tgz', from: { tarball } },
      });
    }
    expect(toolkitSourceFrom(path.relative(cwd, REPO) || '.', cwd)).toEqual({ spec: `file:${realpathSync(REPO)}`, kind: 'local', running: true });
  });

  it.each([
    ['nothing', '  ', /cannot be used/],
    ['words', 'the latest one', /is not something npm can install pipeline-tool from/],
    ['a missing tarball', './nowhere-0.1.0.tgz', /does not exist/],
    ['a folder of another package', './other', /is not a pipeline-tool folder/],
    ['a file that is not gzip', './fake.tgz', /is not a \.tgz made by npm pack/],
    ['a line break', '^0.1.0\nrm -rf', /cannot be used/],
  ])('--pipeline-tool refuses %s: exit 2 and nothing written', async (_label, spec, message) => {
    const cwd = await tempDir();
    mkdirSync(path.join(cwd, 'other'));
    writeFileSync(path.join(cwd, 'other', 'package.json'), JSON.stringify({ name: 'left-pad' }));
    writeFileSync(path.join(cwd, 'fake.tgz'), 'not gzip');
    const before = await listFiles(cwd);
    const result = await runCli(['init', 'x', '--yes', '--pipeline-tool', spec], { cwd });
    expect(result.code).toBe(EXIT.failure);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await listFiles(cwd)).toEqual(before);
  });

  it('init packs the running copy into vendor/ when it is not from the registry, and says so', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'x', '--yes'], { cwd });
    expect(result.code).toBe(EXIT.ok);
    const pkg = JSON.parse(await readFile(path.join(cwd, 'x', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const vendored = `vendor/pipeline-tool-${VERSION}.tgz`;
    expect(pkg.devDependencies['pipeline-tool']).toBe(`file:${vendored}`);
    // What npm pack makes of this copy: its package.json and built files, none of its sources.
    const listed = await tarEntries(path.join(cwd, 'x', vendored));
    expect(listed).toEqual(expect.arrayContaining(['package/package.json', 'package/bin/pipeline-tool.js', 'package/dist/index.js', 'package/dist/cli/main.cjs', 'package/schemas/manifest.schema.json']));
    expect(listed.filter((entry) => entry.startsWith('package/src/') || entry.startsWith('package/test/') || entry.includes('node_modules'))).toEqual([]);
    expect(result.stdout).toContain(`not installed from the npm registry, so init packed it into ${vendored}, and the project's package.json installs it from there (file:${vendored}).`);
    expect(result.stdout).toContain('Commit that file with the project: CI and every copy of the project install from it, on any machine.');
    expect(result.stdout).toContain('switch with `npm install -D pipeline-tool@latest` and delete vendor/');
    expect(result.stdout).toContain('--pipeline-tool <spec>');
    expect(result.stdout).not.toContain('npm ci');
  });

  it('init copies a tarball given with --pipeline-tool into vendor/, byte for byte', async () => {
    const cwd = await tempDir();
    const bytes = gzipSync('not really a package');
    writeFileSync(path.join(cwd, 'pipeline-tool-9.9.9.tgz'), bytes);
    const result = await runCli(['init', 'x', '--yes', '--pipeline-tool', './pipeline-tool-9.9.9.tgz'], { cwd });
    expect(result.code, result.stderr).toBe(EXIT.ok);
    expect(await readFile(path.join(cwd, 'x', 'vendor/pipeline-tool-9.9.9.tgz'))).toEqual(bytes);
    const pkg = JSON.parse(await readFile(path.join(cwd, 'x', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['pipeline-tool']).toBe('file:vendor/pipeline-tool-9.9.9.tgz');
    expect(result.stdout).toContain('init copied the tarball given with --pipeline-tool into vendor/pipeline-tool-9.9.9.tgz');
  });

  it('init links a folder given with --pipeline-tool, and says that only this machine can install it', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'x', '--yes', '--pipeline-tool', REPO], { cwd });
    expect(result.code, result.stderr).toBe(EXIT.ok);
    const pkg = JSON.parse(await readFile(path.join(cwd, 'x', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['pipeline-tool']).toBe(`file:${realpathSync(REPO)}`);
    expect(await listFiles(path.join(cwd, 'x'))).not.toContain(expect.stringMatching(/^vendor\//));
    expect(result.stdout).toContain('CI elsewhere cannot reach that path');
    // The lockfile keeps the link relative to the project: a copy elsewhere must relink first.
    expect(result.stdout).toContain('A copy of the project in another folder needs `npm install` (not `npm ci`) once, to relink it.');
  });

  it('init --pipeline-tool writes the spec given, and names it', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'x', '--yes', '--pipeline-tool', '^0.1.0'], { cwd });
    expect(result.code).toBe(EXIT.ok);
    const pkg = JSON.parse(await readFile(path.join(cwd, 'x', 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['pipeline-tool']).toBe('^0.1.0');
    expect(result.stdout).toContain("The project's package.json installs pipeline-tool from ^0.1.0 (--pipeline-tool).");
    // A registry range has no path to relink.
    expect(result.stdout).not.toContain('npm ci');
  });
});
