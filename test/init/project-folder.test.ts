import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { assertTargetUsable, initProject, InitAnswersError, inspectTarget, readTemplate, toolkitSourceFrom, type InitAnswers, type ToolkitSource } from '../../src/core/init/index.js';
import { listFiles, REPO, tempDir } from './helpers.js';
import { usageRefusal as refusal } from '../helpers/usage-refusal.js';

/*
 * Where init writes, and where the new project gets pipeline-tool from, word for word: the
 * folder's state, what init refuses and why, what it leaves alone with --force, and every kind
 * of --pipeline-tool spec. (test/init/init-project.test.ts and toolkit-source.test.ts hold the
 * main cases.)
 */

const answers: InitAnswers = { type: 'standalone', name: 'Folder Test', shortName: 'Folder', description: 'Tests folders.', version: '1.0.0' };

describe('the project folder', () => {
  it('is missing, empty (a cloned repository\'s .git alone included), or not empty', async () => {
    const root = await tempDir();
    expect(await inspectTarget(path.join(root, 'new'))).toBe('missing');
    expect(await inspectTarget(root)).toBe('empty');
    mkdirSync(path.join(root, '.git'));
    expect(await inspectTarget(root)).toBe('empty');
    writeFileSync(path.join(root, '.gitignore'), '');
    expect(await inspectTarget(root)).toBe('not-empty');
  });

  it('is refused when it is a file, lies under a file, or holds something, unless forced', async () => {
    const root = await tempDir();
    writeFileSync(path.join(root, 'file'), '');
    expect(await refusal(inspectTarget(path.join(root, 'file')))).toBe(`${path.join(root, 'file')} is a file, not a folder. Name a new or empty folder for the project.`);
    expect(await refusal(inspectTarget(path.join(root, 'file', 'sub')))).toMatch(new RegExp(`^cannot use ${path.join(root, 'file', 'sub')}: ENOTDIR`));
    expect(await refusal(assertTargetUsable(root, false))).toBe(
      `${root} is not empty. Choose a new or empty folder, or add --force to add the project's files to it (existing files are kept, never overwritten).`,
    );
    expect(await assertTargetUsable(root, true)).toBe('not-empty');
  });

  it('with --force, keeps what is in the way: a file, a folder where a file goes, a file where a folder goes', async () => {
    const root = await tempDir();
    mkdirSync(path.join(root, 'README.md'));
    writeFileSync(path.join(root, 'src'), 'a file named src');
    writeFileSync(path.join(root, 'package.json'), '{"name":"mine"}');
    const result = await initProject({ directory: root, answers, force: true });
    expect(result.skipped).toEqual(['README.md', 'package.json', 'src/app.js', 'src/index.html', 'src/manifest.json', 'src/styles.css']);
    expect(result.written).toEqual(expect.arrayContaining(['.gitignore', 'pipeline.d.ts', 'test/tool.test.mjs']));
    expect(result.scripts).toEqual({});
    expect(readFileSync(path.join(root, 'package.json'), 'utf8')).toBe('{"name":"mine"}');
    expect(readFileSync(path.join(root, 'src'), 'utf8')).toBe('a file named src');
    expect((await listFiles(root)).filter((file) => file.startsWith('src'))).toEqual(['src']);
  });

  it('says why it cannot create the folder', async () => {
    const root = await tempDir();
    writeFileSync(path.join(root, 'file'), '');
    expect(await refusal(initProject({ directory: path.join(root, 'file', 'x'), answers }))).toMatch(/^cannot use .*: ENOTDIR/);
  });

  it('refuses answers that cannot make a valid tool, every problem in one message, before writing anything', async () => {
    const root = path.join(await tempDir(), 'never');
    const error = await initProject({ directory: root, answers: { ...answers, name: '', version: '1.0' } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InitAnswersError);
    expect((error as InitAnswersError).message).toBe('the name is empty; give it a value. the version must be SemVer like 1.0.0, not "1.0"; write 1.0.0.');
    expect((error as InitAnswersError).problems.map((problem) => problem.code)).toEqual(['empty', 'not-semver']);
    expect(existsSync(root)).toBe(false);
  });

  it('says when the package it runs from has lost a template', async () => {
    const error = (await readTemplate('no-such-type' as never).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toMatch(/^pipeline-tool is incomplete: .*templates\/templates\.json lists no template vanilla-no-such-type$/);
  });

  it('trims the answers it is given before writing them', async () => {
    const root = path.join(await tempDir(), 'trimmed');
    const result = await initProject({ directory: root, answers: { ...answers, name: '  Folder Test  ' } });
    expect(result.answers.name).toBe('Folder Test');
    expect(JSON.parse(readFileSync(path.join(root, 'src', 'manifest.json'), 'utf8')).name).toBe('Folder Test');
  });
});

/** The tarball a source copies into the project's vendor/ folder. */
function tarballOf(source: ToolkitSource): string | undefined {
  expect(source).toMatchObject({ kind: 'vendored', spec: `file:${source.vendor?.path}` });
  return source.vendor && 'tarball' in source.vendor.from ? source.vendor.from.tarball : undefined;
}

describe('--pipeline-tool', () => {
  it('passes on git and tarball addresses of every kind npm knows, and only when they lead the spec', async () => {
    const cwd = await tempDir();
    for (const spec of ['git+ssh://git@example.com/p.git', 'git+https://example.com/p.git', 'git://example.com/p.git', 'gitlab:a/b', 'bitbucket:a/b', 'gist:123', 'http://example.com/p.tgz', 'HTTPS://EXAMPLE.COM/p.tgz']) {
      expect(toolkitSourceFrom(spec, cwd), spec).toEqual({ spec, kind: 'other', running: false });
    }
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom('my git:thing', cwd)))).toMatch(/is not something npm can install/);
  });

  it('takes a dist-tag of letters, digits, dots, dashes and underscores, starting with a letter', async () => {
    const cwd = await tempDir();
    for (const spec of ['next', 'beta-2', 'v1.x_rc', 'N']) expect(toolkitSourceFrom(spec, cwd), spec).toEqual({ spec, kind: 'registry', running: false });
    for (const spec of ['2beta!', 'next!', '-next', 'ne xt']) {
      expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom(spec, cwd))), spec).toMatch(/is not something npm can install/);
    }
  });

  it('reads a path that starts with ./, ../, /, ~/ or file:, and a tarball named anywhere, as a path', async () => {
    const home = await tempDir();
    const cwd = path.join(home, 'work');
    mkdirSync(cwd);
    const tarball = (folder: string) => {
      writeFileSync(path.join(folder, 'p.tgz'), gzipSync('tar'));
      return realpathSync(path.join(folder, 'p.tgz'));
    };
    const here = tarball(cwd);
    const above = tarball(home);
    const previous = process.env['HOME'];
    process.env['HOME'] = home;
    try {
      expect(tarballOf(toolkitSourceFrom('~/p.tgz', cwd))).toBe(above);
      expect(tarballOf(toolkitSourceFrom('~/work/p.tgz', cwd))).toBe(here);
    } finally {
      if (previous === undefined) delete process.env['HOME'];
      else process.env['HOME'] = previous;
    }
    expect(tarballOf(toolkitSourceFrom('../p.tgz', cwd))).toBe(above);
    expect(tarballOf(toolkitSourceFrom('file:../p.tgz', cwd))).toBe(above);
    expect(tarballOf(toolkitSourceFrom(`file://${path.join(home, 'p.tgz')}`, cwd))).toBe(above);
    expect(tarballOf(toolkitSourceFrom(path.join(home, 'p.tgz'), cwd))).toBe(above);
    expect(tarballOf(toolkitSourceFrom('p.TGZ'.toLowerCase(), cwd))).toBe(here);
    // file: is a prefix, and file://name is a host's path, not one under the working folder.
    mkdirSync(path.join(cwd, 'host'));
    writeFileSync(path.join(cwd, 'host', 'p.tgz'), gzipSync('tar'));
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom('file://host/p.tgz', cwd)))).toMatch(/^--pipeline-tool file:\/\/host\/p\.tgz: \/host\/p\.tgz does not exist/);
    writeFileSync(path.join(cwd, 'file:p.tgz'), gzipSync('tar'));
    expect(tarballOf(toolkitSourceFrom('./file:p.tgz', cwd))).toBe(realpathSync(path.join(cwd, 'file:p.tgz')));
    // A name npm could misread is not kept in the project: the tarball is stored under the kit's own.
    expect(toolkitSourceFrom('./file:p.tgz', cwd).vendor?.path).toMatch(/^vendor\/pipeline-tool-\d+\.\d+\.\d+\.tgz$/);
    // A drive letter makes a path, which here does not exist.
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom('c:/nowhere', cwd)))).toMatch(/does not exist/);
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom('C:\\nowhere', cwd)))).toMatch(/does not exist/);
    // Names that only look like paths in the middle stay registry specs or are refused as such.
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom('x/p.tgz.bak', cwd)))).toMatch(/is not something npm can install/);
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom('~p.tgz.x', cwd)))).toMatch(/is not something npm can install/);
  });

  it('takes . and .. as folders, and a folder only when its package is pipeline-tool', async () => {
    const cwd = await tempDir();
    mkdirSync(path.join(cwd, 'sub'));
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom('..', path.join(cwd, 'sub'))))).toMatch(/is not a pipeline-tool folder \(its package\.json does not name pipeline-tool\)/);
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom('.', cwd)))).toMatch(/is not a pipeline-tool folder/);
    writeFileSync(path.join(cwd, 'package.json'), '{ not json');
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom('.', cwd)))).toMatch(/is not a pipeline-tool folder/);
    writeFileSync(path.join(cwd, 'package.json'), JSON.stringify({ name: 'pipeline-tool' }));
    expect(toolkitSourceFrom('.', cwd)).toEqual({ spec: `file:${realpathSync(cwd)}`, kind: 'local', running: false });
    expect(toolkitSourceFrom('..', path.join(cwd, 'sub'))).toEqual({ spec: `file:${realpathSync(cwd)}`, kind: 'local', running: false });
    expect(toolkitSourceFrom('file:..', path.join(cwd, 'sub')).spec).toBe(`file:${realpathSync(cwd)}`);
    mkdirSync(path.join(cwd, 'copy'));
    writeFileSync(path.join(cwd, 'copy', 'package.json'), JSON.stringify({ name: 'pipeline-tool' }));
    expect(toolkitSourceFrom('file:copy', cwd).spec).toBe(`file:${realpathSync(path.join(cwd, 'copy'))}`);
    // The running copy, reached through a link, is still the running copy.
    symlinkSync(REPO, path.join(cwd, 'linked'));
    expect(toolkitSourceFrom('./linked', cwd)).toEqual({ spec: `file:${realpathSync(REPO)}`, kind: 'local', running: true });
  });

  it('takes a .tgz only when it starts as gzip does, and a file of another name not at all', async () => {
    const cwd = await tempDir();
    const gzip = gzipSync('tar');
    writeFileSync(path.join(cwd, 'half.tgz'), Buffer.from([gzip[0]!, 0x00, ...gzip.subarray(2)]));
    writeFileSync(path.join(cwd, 'other-half.tgz'), Buffer.from([0x00, gzip[1]!, ...gzip.subarray(2)]));
    writeFileSync(path.join(cwd, 'p.tar.gz'), gzip);
    writeFileSync(path.join(cwd, 'p.zip'), gzip);
    for (const name of ['half.tgz', 'other-half.tgz', 'p.zip']) {
      expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom(`./${name}`, cwd))), name).toMatch(/is not a \.tgz made by npm pack; give a version range \(\^0\.1\.0\), the path of a pipeline-tool folder or of a \.tgz made by npm pack, or a git or tarball URL\.$/);
    }
    expect(toolkitSourceFrom('./p.tar.gz', cwd)).toMatchObject({ kind: 'vendored', spec: 'file:vendor/p.tar.gz' });
    writeFileSync(path.join(cwd, 'p.tgz.bak'), gzip);
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom('./p.tgz.bak', cwd)))).toMatch(/is not a \.tgz made by npm pack/);
  });

  it.runIf(process.platform === 'linux')('closes the tarball once it has looked at it', async () => {
    const cwd = await tempDir();
    writeFileSync(path.join(cwd, 'p.tgz'), gzipSync('tar'));
    const descriptors = () => readdirSync('/proc/self/fd').length;
    const before = descriptors();
    for (let i = 0; i < 20; i++) toolkitSourceFrom('./p.tgz', cwd);
    expect(descriptors() - before).toBeLessThan(10);
  });

  it('reads ~ as the working folder\'s "~" when HOME is not set', async () => {
    const cwd = await tempDir();
    mkdirSync(path.join(cwd, '~'));
    writeFileSync(path.join(cwd, '~', 'p.tgz'), gzipSync('tar'));
    const previous = process.env['HOME'];
    delete process.env['HOME'];
    try {
      expect(tarballOf(toolkitSourceFrom('~/p.tgz', cwd))).toBe(realpathSync(path.join(cwd, '~', 'p.tgz')));
    } finally {
      if (previous !== undefined) process.env['HOME'] = previous;
    }
  });

  it('refuses a spec longer than 2,000 characters, and takes one of 2,000', async () => {
    const cwd = await tempDir();
    const long = `^1.0.0 || ${'x'.repeat(1990)}`;
    expect(long).toHaveLength(2000);
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom(long, cwd)))).toMatch(/is not something npm can install/);
    expect(await refusal(Promise.resolve().then(() => toolkitSourceFrom(`${long}x`, cwd)))).toMatch(/^--pipeline-tool ".*" cannot be used: give a version range/);
  });
});
