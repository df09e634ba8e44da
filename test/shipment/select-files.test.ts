import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { excludeOutput, selectFiles } from '../../src/core/shipment/select-files.js';
import { tempDir, writeFolder } from '../helpers/bundles.js';
import { goodFiles } from '../pack/helpers.js';

const reasons = async (root: string) => {
  const selection = await selectFiles(root);
  return {
    included: selection.included.map((entry) => entry.path),
    excluded: Object.fromEntries(selection.excluded.map((entry) => [entry.path, entry.reason])),
    selection,
  };
};

describe('selectFiles: what stays out, and why', () => {
  it('gives every exclusion its own reason code', async () => {
    const root = writeFolder({
      ...goodFiles(),
      '.env': 'SECRET=1',
      '.DS_Store': 'x',
      '.git/HEAD': 'ref: refs/heads/main',
      'img/._logo.png': 'resource fork',
      '__MACOSX/index.html': 'x',
      'Thumbs.db': 'x',
      'node_modules/lib/index.js': 'x',
      'lib/node_modules/deep.js': 'x',
      'app.js.map': '{}',
      'css/site.css.map': '{}',
      'package.json': '{}',
      'package-lock.json': '{}',
      'yarn.lock': '',
      'tsconfig.json': '{}',
      'tsconfig.build.json': '{}',
      '.pipelineignore': 'drafts/\n',
      'drafts/new.js': 'x',
      'notes.txt': 'x',
      'logo.jpeg': 'x',
      'LICENSE': 'x',
      'old.zip': 'x',
    });
    execFileSync('mkfifo', [path.join(root, 'pipe.js')]);
    symlinkSync(path.join(root, 'app.js'), path.join(root, 'alias.js'));

    const { included, excluded } = await reasons(root);
    expect(included).toEqual(['app.js', 'index.html', 'manifest.json', 'styles.css']);
    expect(excluded).toEqual({
      '.DS_Store': 'dot-file',
      '.env': 'dot-file',
      '.git/': 'dot-file',
      '.pipelineignore': 'project-file',
      'LICENSE': 'file-type',
      'Thumbs.db': 'junk',
      '__MACOSX/': 'junk',
      'alias.js': 'symlink',
      'app.js.map': 'source-map',
      'css/site.css.map': 'source-map',
      'drafts/': 'ignored',
      'img/._logo.png': 'dot-file',
      'lib/node_modules/': 'node_modules',
      'logo.jpeg': 'file-type',
      'node_modules/': 'node_modules',
      'notes.txt': 'file-type',
      'old.zip': 'file-type',
      'package-lock.json': 'project-file',
      'package.json': 'project-file',
      'pipe.js': 'not-regular',
      'tsconfig.build.json': 'project-file',
      'tsconfig.json': 'project-file',
      'yarn.lock': 'project-file',
    });
  });

  it('says which extension was refused and what the junk is', async () => {
    const root = writeFolder({ ...goodFiles(), 'notes.txt': 'x', README: 'x', '.DS_Store': 'x' });
    const { selection } = await reasons(root);
    expect(selection.excluded).toEqual([
      { path: '.DS_Store', kind: 'file', reason: 'dot-file', detail: expect.any(String) },
      { path: 'README', kind: 'file', reason: 'file-type', detail: '' },
      { path: 'notes.txt', kind: 'file', reason: 'file-type', detail: '.txt' },
    ]);
  });

  it('never walks into a folder it leaves out', async () => {
    const root = writeFolder({ ...goodFiles(), 'node_modules/a/b/c.js': 'x', '.git/objects/ab/cd': 'x' });
    // A special file deep inside would be reported if the walk went in.
    execFileSync('mkfifo', [path.join(root, 'node_modules/a/fifo')]);
    const { selection } = await reasons(root);
    expect(selection.excluded.map((entry) => entry.path)).toEqual(['.git/', 'node_modules/']);
    expect(selection.source.entries.some((entry) => entry.path.startsWith('node_modules/a'))).toBe(false);
  });

  it('keeps the upper-case extensions the marketplace accepts (validate warns about them)', async () => {
    const { included } = await reasons(writeFolder({ ...goodFiles(), 'img/Photo.PNG': 'x' }));
    expect(included).toContain('img/Photo.PNG');
  });

  it('lists a link out of the folder without following it', async () => {
    const outside = tempDir();
    writeFileSync(path.join(outside, 'secret.js'), 'SECRET');
    mkdirSync(path.join(outside, 'lib'));
    writeFileSync(path.join(outside, 'lib', 'more.js'), 'SECRET');
    const root = writeFolder(goodFiles());
    symlinkSync(path.join(outside, 'secret.js'), path.join(root, 'secret.js'));
    symlinkSync(path.join(outside, 'lib'), path.join(root, 'lib'));
    const { included, excluded } = await reasons(root);
    expect(excluded).toEqual({ 'lib': 'symlink', 'secret.js': 'symlink' });
    expect(included.some((name) => name.startsWith('lib'))).toBe(false);
  });
});

describe('selectFiles: .pipelineignore', () => {
  const withIgnore = (rules: string, files: Record<string, string>) => writeFolder({ ...goodFiles(), '.pipelineignore': rules, ...files });

  it('follows gitignore syntax: globs, folders, anchors, comments and negation', async () => {
    const root = withIgnore(
      ['# test files stay home', '*.test.js', '!keep.test.js', 'drafts/', '/top.json', 'docs/**/*.html', ''].join('\n'),
      {
        'a.test.js': 'x',
        'lib/b.test.js': 'x',
        'keep.test.js': 'x',
        'drafts/x.js': 'x',
        'top.json': '{}',
        'data/top.json': '{}',
        'docs/guide/page.html': 'x',
        'docs/index.css': 'x',
      },
    );
    const { included, selection } = await reasons(root);
    expect(included).toEqual(['app.js', 'data/top.json', 'docs/index.css', 'index.html', 'keep.test.js', 'manifest.json', 'styles.css']);
    const ignored = selection.excluded.filter((entry) => entry.reason === 'ignored');
    expect(ignored).toEqual([
      { path: 'a.test.js', kind: 'file', reason: 'ignored', detail: '*.test.js' },
      { path: 'docs/guide/page.html', kind: 'file', reason: 'ignored', detail: 'docs/**/*.html' },
      { path: 'drafts/', kind: 'directory', reason: 'ignored', detail: 'drafts/' },
      { path: 'lib/b.test.js', kind: 'file', reason: 'ignored', detail: '*.test.js' },
      { path: 'top.json', kind: 'file', reason: 'ignored', detail: '/top.json' },
    ]);
  });

  it('cannot bring back a file whose folder is ignored (as in git)', async () => {
    const { included } = await reasons(withIgnore('vendor/\n!vendor/keep.js\n', { 'vendor/keep.js': 'x' }));
    expect(included).not.toContain('vendor/keep.js');
  });

  it('matches case-sensitively, the same on every machine', async () => {
    const { included } = await reasons(withIgnore('*.JS\n', { 'x.js': 'x' }));
    expect(included).toContain('x.js');
  });

  it('refuses an ignore file that is a link', async () => {
    const root = writeFolder(goodFiles());
    const elsewhere = path.join(tempDir(), 'rules');
    writeFileSync(elsewhere, '*.js\n');
    symlinkSync(elsewhere, path.join(root, '.pipelineignore'));
    await expect(selectFiles(root)).rejects.toMatchObject({ name: 'UsageError' });
  });
});

describe('excludeOutput', () => {
  it('takes the zip being written out of the files, with its own reason', async () => {
    const root = writeFolder({ ...goodFiles(), 'out.zip': 'PK', 'weird.json': '{}' });
    const selection = await selectFiles(root);
    expect(excludeOutput(selection, 'out.zip').excluded).toEqual([{ path: 'out.zip', kind: 'file', reason: 'output-zip' }]);
    const moved = excludeOutput(selection, 'weird.json');
    expect(moved.included.map((entry) => entry.path)).not.toContain('weird.json');
    expect(moved.excluded).toContainEqual({ path: 'weird.json', kind: 'file', reason: 'output-zip' });
  });
});

describe('selectFiles: fixtures files for pipeline-tool dev', () => {
  const fixtures = (schema: string, extra: Record<string, unknown> = {}) => JSON.stringify({ $schema: schema, mode: 'extend', ...extra }, null, 2);

  it('leaves out a .json file whose top-level $schema names fixtures.schema.json, by any path or URL', async () => {
    const root = writeFolder({
      ...goodFiles(),
      'fixtures.json': fixtures('./node_modules/pipeline-tool/schemas/fixtures.schema.json'),
      'dev/data.json': fixtures('https://pipeline-tool.dev/schemas/fixtures.schema.json'),
      'bare.json': `\uFEFF${fixtures('fixtures.schema.json')}`,
    });
    const { excluded, included } = await reasons(root);
    expect(excluded).toEqual({ 'fixtures.json': 'fixtures', 'dev/data.json': 'fixtures', 'bare.json': 'fixtures' });
    expect(included).not.toContain('fixtures.json');
  });

  it('keeps look-alikes: another schema, the name only in a value or nested, not an object, broken JSON, another type', async () => {
    const root = writeFolder({
      ...goodFiles(),
      'a.json': fixtures('./schemas/my-fixtures.schema.json.bak'),
      'b.json': JSON.stringify({ note: 'see fixtures.schema.json' }),
      'c.json': JSON.stringify({ data: { $schema: 'fixtures.schema.json' } }),
      'd.json': JSON.stringify(['fixtures.schema.json']),
      'e.json': '{"$schema": "fixtures.schema.json",',
      'f.js': 'const $schema = "fixtures.schema.json";',
      'fixtures.json': JSON.stringify({ customers: [] }),
      // Past the first 64,000 bytes: not looked for there.
      'late.json': JSON.stringify({ customers: [{ name: 'x'.repeat(70_000) }], $schema: 'fixtures.schema.json' }),
    });
    const { excluded, included } = await reasons(root);
    expect(excluded).toEqual({});
    for (const name of ['a.json', 'b.json', 'c.json', 'd.json', 'e.json', 'f.js', 'fixtures.json', 'late.json']) expect(included).toContain(name);
  });

  it('leaves out the paths it is told are fixtures (the dev server’s --fixtures), whatever they hold', async () => {
    const root = writeFolder({ ...goodFiles(), 'my-data.json': '{}' });
    const selection = await selectFiles(root, { fixtures: ['my-data.json'] });
    expect(selection.excluded).toEqual([{ path: 'my-data.json', kind: 'file', reason: 'fixtures' }]);
  });
});

describe('selectFiles: project files', () => {
  it('leaves out every package manager’s and runtime’s project file, and any tsconfig, but nothing that merely resembles one', async () => {
    const projectFiles = [
      'package.json',
      'package-lock.json',
      'npm-shrinkwrap.json',
      'yarn.lock',
      'pnpm-lock.yaml',
      'pnpm-workspace.yaml',
      'bun.lock',
      'bun.lockb',
      'deno.json',
      'deno.jsonc',
      'deno.lock',
      'jsconfig.json',
      'pipeline-tool.config.json',
      'tsconfig.json',
      'TSConfig.Base.JSON',
      'lib/tsconfig.lib.json',
    ];
    const lookAlikes = ['my-tsconfig.json', 'tsconfig.json.js', 'data/package.json.js'];
    const root = writeFolder({ ...goodFiles(), ...Object.fromEntries([...projectFiles, ...lookAlikes].map((name) => [name, '{}'])) });
    const { included, excluded } = await reasons(root);
    expect(excluded).toEqual(Object.fromEntries(projectFiles.map((name) => [name, 'project-file'])));
    for (const name of lookAlikes) expect(included).toContain(name);
  });

  it('gives a detail only where there is one', async () => {
    const root = writeFolder({ ...goodFiles(), 'package.json': '{}', 'a.js.map': '{}', 'notes.txt': 'x' });
    const { selection } = await reasons(root);
    expect(selection.excluded).toStrictEqual([
      { path: 'a.js.map', kind: 'file', reason: 'source-map' },
      { path: 'notes.txt', kind: 'file', reason: 'file-type', detail: '.txt' },
      { path: 'package.json', kind: 'file', reason: 'project-file' },
    ]);
  });
});

describe('selectFiles: omit', () => {
  it('passes over what it is told to omit: neither listed nor walked', async () => {
    const root = writeFolder({ ...goodFiles(), 'state/cache.js': 'x', 'state.js': 'x', 'notes.txt': 'x' });
    const selection = await selectFiles(root, { omit: (entryPath) => entryPath === 'state/' || entryPath === 'notes.txt' });
    expect(selection.included.map((entry) => entry.path)).toEqual(['app.js', 'index.html', 'manifest.json', 'state.js', 'styles.css']);
    expect(selection.excluded).toEqual([]);
    expect(selection.source.entries.some((entry) => entry.path.startsWith('state/'))).toBe(false);
  });
});

describe('selectFiles: what is not a fixtures file', () => {
  const FIXTURES = JSON.stringify({ $schema: 'fixtures.schema.json', mode: 'extend' });

  it('keeps files that are not .json, the manifest, a $schema that is not a string, and a name with more after it', async () => {
    const root = writeFolder({
      ...goodFiles(),
      'data.js': FIXTURES,
      'a.json': JSON.stringify({ $schema: ['./fixtures.schema.json'] }),
      'b.json': JSON.stringify({ $schema: './schemas/fixtures.schema.json.bak' }),
      // A byte order mark is allowed at the start only; anywhere else it is not JSON.
      'c.json': `{\uFEFF"$schema": "fixtures.schema.json"}`,
    });
    const { included, excluded } = await reasons(root);
    expect(excluded).toEqual({});
    for (const name of ['data.js', 'a.json', 'b.json', 'c.json']) expect(included).toContain(name);
    const manifest = writeFolder({ ...goodFiles(), 'manifest.json': JSON.stringify({ $schema: '../fixtures.schema.json', name: 'x' }) });
    expect((await reasons(manifest)).included).toContain('manifest.json');
  });

  it('looks into .json files up to 20,000,000 bytes, and not past that', async () => {
    const padded = (size: number) => {
      const bytes = Buffer.alloc(size, ' ');
      bytes.write(FIXTURES);
      return bytes;
    };
    const root = writeFolder({ ...goodFiles(), 'at-limit.json': padded(20_000_000), 'over-limit.json': padded(20_000_001) });
    const { included, excluded } = await reasons(root);
    expect(excluded).toEqual({ 'at-limit.json': 'fixtures' });
    expect(included).toContain('over-limit.json');
  });
});

describe('selectFiles: a .pipelineignore that cannot be used', () => {
  const ignoreFile = (root: string) => path.join(root, '.pipelineignore');

  it('a link: refused, never followed', async () => {
    const root = writeFolder(goodFiles());
    const elsewhere = path.join(tempDir(), 'rules');
    writeFileSync(elsewhere, '*.js\n');
    symlinkSync(elsewhere, ignoreFile(root));
    await expect(selectFiles(root)).rejects.toMatchObject({
      name: 'UsageError',
      message: `${ignoreFile(root)} is a symbolic link; pack never follows links. Make it a regular file.`,
    });
  });

  it('a folder', async () => {
    const root = writeFolder(goodFiles());
    mkdirSync(ignoreFile(root));
    await expect(selectFiles(root)).rejects.toMatchObject({
      name: 'UsageError',
      message: `${ignoreFile(root)} is a folder, not a regular file; .pipelineignore must be a text file of patterns. Replace it with one, or remove it.`,
    });
  });

  it('a named pipe: refused at once, never waited on', async () => {
    const root = writeFolder(goodFiles());
    execFileSync('mkfifo', [ignoreFile(root)]);
    await expect(selectFiles(root)).rejects.toMatchObject({
      name: 'UsageError',
      message: `${ignoreFile(root)} is a named pipe (FIFO), not a regular file; .pipelineignore must be a text file of patterns. Replace it with one, or remove it.`,
    });
  });

  it('over 1,000,000 bytes; exactly that many is read', async () => {
    const sized = (size: number) => {
      const bytes = Buffer.alloc(size, ' ');
      bytes.write('*.css\n#');
      return bytes;
    };
    const over = writeFolder({ ...goodFiles(), '.pipelineignore': sized(1_000_001) });
    await expect(selectFiles(over)).rejects.toMatchObject({
      name: 'UsageError',
      message: `${ignoreFile(over)} is larger than 1,000,000 bytes; is it really an ignore file?`,
    });
    const at = writeFolder({ ...goodFiles(), '.pipelineignore': sized(1_000_000) });
    expect((await reasons(at)).excluded).toMatchObject({ 'styles.css': 'ignored' });
  });

  it('one that cannot be opened: the system’s reason', async () => {
    const notAFolder = path.join(tempDir(), 'file');
    writeFileSync(notAFolder, 'x');
    await expect(selectFiles(notAFolder)).rejects.toMatchObject({
      name: 'UsageError',
      message: expect.stringMatching(new RegExp(`^cannot read ${notAFolder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\.pipelineignore: ENOTDIR: `)),
    });
  });
});

describe('excludeOutput: where the output already is', () => {
  const folder = () => writeFolder({ ...goodFiles(), 'a.js': 'x', 'notes.txt': 'x', 'z.txt': 'x', '.old.zip': 'PK', 'out.zip': 'PK', '.pipelineignore': 'ignored.zip\n', 'ignored.zip': 'PK' });

  it('moves an included file to the left-out, in path order, whatever its place', async () => {
    const selection = await selectFiles(folder());
    const before = selection.excluded.map((entry) => entry.path);
    for (const output of ['a.js', 'manifest.json', 'styles.css']) {
      const moved = excludeOutput(selection, output);
      expect(moved.included.map((entry) => entry.path)).toEqual(selection.included.map((entry) => entry.path).filter((name) => name !== output));
      expect(moved.excluded.map((entry) => entry.path)).toEqual([...before, output].sort());
      expect(moved.excluded.find((entry) => entry.path === output)).toStrictEqual({ path: output, kind: 'file', reason: 'output-zip' });
    }
  });

  it('renames only the output’s own reason, and only when that reason is its type', async () => {
    const selection = await selectFiles(folder());
    const reasonsOf = (s: typeof selection) => Object.fromEntries(s.excluded.map((entry) => [entry.path, entry.reason]));
    const original = reasonsOf(selection);
    expect(reasonsOf(excludeOutput(selection, 'out.zip'))).toEqual({ ...original, 'out.zip': 'output-zip' });
    expect(reasonsOf(excludeOutput(selection, '.old.zip'))).toEqual(original);
    expect(reasonsOf(excludeOutput(selection, 'ignored.zip'))).toEqual(original);
    expect(excludeOutput(selection, 'out.zip').included).toEqual(selection.included);
  });
});
