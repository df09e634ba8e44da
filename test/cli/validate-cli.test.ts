import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goodEntries, goodFiles, goodManifest, tempDir, writeFolder, writeZip } from '../helpers/bundles.js';
import { runCli, STACK_TRACE } from '../helpers/cli.js';

const cleanZip = () => writeZip(goodEntries());
const warningFolder = () => writeFolder({ ...goodFiles({ ...goodManifest, description: 'Estimates kitchens. Fast.' }) });
const errorZip = () => writeZip([...goodEntries(), { name: '../evil.js', data: 'x' }]);

describe('validate: exit codes', () => {
  it('0 for a clean zip and for a clean folder', () => {
    expect(runCli(['validate', cleanZip()]).code).toBe(0);
    expect(runCli(['validate', writeFolder(goodFiles())]).code).toBe(0);
  });

  it('0 for warnings only, 1 once they exceed --max-warnings', () => {
    const folder = warningFolder();
    expect(runCli(['validate', folder]).code).toBe(0);
    expect(runCli(['validate', folder, '--max-warnings', '1']).code).toBe(0);
    const over = runCli(['validate', folder, '--max-warnings', '0']);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('--max-warnings');
  });

  it('1 for errors, and for a file that is not a zip at all', () => {
    expect(runCli(['validate', errorZip()]).code).toBe(1);
    const notZip = path.join(writeFolder({ 'x.zip': 'hello' }), 'x.zip');
    expect(runCli(['validate', notZip]).code).toBe(1);
  });

  it('2, with one line and no stack trace, for user mistakes', () => {
    const cases = [
      ['validate', path.join(tempDir(), 'missing.zip')],
      ['validate', cleanZip(), '--format', 'xml'],
      ['validate', cleanZip(), '--max-warnings', 'many'],
      ['validate', cleanZip(), '--rule', 'no-such-rule=off'],
      ['validate', cleanZip(), '--rule', 'manifest-description=loud'],
      ['validate', cleanZip(), '--bogus'],
      ['no-such-command'],
    ];
    for (const args of cases) {
      const result = runCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).not.toMatch(STACK_TRACE);
      expect(result.stderr.trim().length, args.join(' ')).toBeGreaterThan(0);
      expect(result.stdout).toBe('');
    }
  });

  it('suggests the nearest rule id for a typo in --rule', () => {
    expect(runCli(['validate', cleanZip(), '--rule', 'manifest-versoin=off']).stderr).toContain('manifest-version');
    expect(runCli(['validate', cleanZip(), '--rule', 'zzzzzz=off']).stderr).toContain('unknown rule "zzzzzz". Run `pipeline-tool rules` to list them.');
    const upper = runCli(['validate', cleanZip(), '--rule', 'DIALOG-CALL=OFF']);
    expect(upper.code).toBe(2);
    expect(upper.stderr).toContain('unknown rule "DIALOG-CALL"; did you mean "dialog-call"?');
  });
});

it('calls a .tar.gz a gzip archive, and a .tar a tar archive', () => {
  const folder = writeFolder(goodFiles());
  const out = tempDir();
  for (const [name, flags, words] of [
    ['tool.tar.gz', '-czf', 'is a gzip archive (.gz, as in .tar.gz or .tgz), not a zip archive'],
    ['tool.tar', '-cf', 'is a tar archive (.tar), not a zip archive'],
  ] as const) {
    const archive = path.join(out, name);
    execFileSync('tar', [flags, archive, '-C', folder, '.']);
    const result = runCli(['validate', archive, '--format', 'json']);
    expect(result.code).toBe(1);
    const [problem] = (JSON.parse(result.stdout) as { problems: { ruleId: string; message: string }[] }).problems;
    expect(problem).toMatchObject({ ruleId: 'archive-not-zip', data: { format: name.endsWith('.gz') ? 'gzip' : 'tar' } });
    expect(problem!.message).toContain(words);
  }
});

describe('validate: the wrong folder', () => {
  it('a project folder around the tool: names the tool folder to check', () => {
    const project = writeFolder(Object.fromEntries(Object.entries(goodFiles()).map(([name, content]) => [`src/${name}`, content])));
    const result = runCli(['validate', project]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('pipeline-tool validate src');
    expect(result.stdout).not.toContain('you zipped the folder');
  });

  it('a zip of the folder instead of its contents: says so', () => {
    const zip = writeZip(goodEntries().map((e) => ({ ...e, name: `src/${e.name as string}` })));
    expect(runCli(['validate', zip]).stdout).toContain('you zipped the folder, not its contents');
  });
});

describe('validate: output formats', () => {
  it('json: one document with the documented shape', () => {
    const result = runCli(['validate', errorZip(), '--format', 'json']);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ ok: false, errorCount: 1, warningCount: 0 });
    expect(report.problems).toEqual([
      expect.objectContaining({ ruleId: 'path-unsafe', severity: 'error', file: '../evil.js', message: expect.any(String) }),
    ]);
  });

  it('json: line and column for manifest problems', () => {
    const folder = writeFolder({ ...goodFiles(), 'manifest.json': '{\n  "name": "K",\n  "oops"\n}' });
    const report = JSON.parse(runCli(['validate', folder, '-f', 'json']).stdout);
    expect(report.problems[0]).toMatchObject({ ruleId: 'manifest-syntax', file: 'manifest.json', line: 4, column: 1 });
  });

  it('--quiet hides warnings but keeps the counts', () => {
    const report = JSON.parse(runCli(['validate', warningFolder(), '--format', 'json', '--quiet']).stdout);
    expect(report.warningCount).toBe(1);
    expect(report.problems).toEqual([]);
  });

  it('github: annotations on the entry for a folder, on the zip for a zip', () => {
    const folder = writeFolder({ ...goodFiles(), 'manifest.json': '{\n  "name": "K",\n  "oops"\n}' });
    const cwd = path.dirname(folder);
    const forFolder = runCli(['validate', path.basename(folder), '--format', 'github'], { cwd });
    expect(forFolder.stdout).toMatch(new RegExp(`^::error file=${path.basename(folder)}/manifest\\.json,line=4,col=1,title=pipeline-tool manifest-syntax::`, 'm'));

    const zip = errorZip();
    const forZip = runCli(['validate', path.basename(zip), '--format', 'github'], { cwd: path.dirname(zip) });
    expect(forZip.stdout).toMatch(/^::error file=bundle\.zip,title=pipeline-tool path-unsafe::\.\.\/evil\.js: /m);
  });

  it('github: paths relative to the repository (GITHUB_WORKSPACE) when the project is a subfolder of it', () => {
    const folder = writeFolder({ ...goodFiles(), 'manifest.json': '{\n  "name": "K",\n  "oops"\n}' });
    const project = path.dirname(folder);
    const repository = path.dirname(project);
    const inRepository = runCli(['validate', path.basename(folder), '--format', 'github'], { cwd: project, env: { GITHUB_WORKSPACE: repository } });
    const expected = [path.basename(project), path.basename(folder), 'manifest.json'].join('/');
    expect(inRepository.stdout).toMatch(new RegExp(`^::error file=${expected.replace(/[.]/g, '\\.')},line=4,col=1,`, 'm'));
    // A bundle outside the workspace keeps paths relative to where the command runs.
    const elsewhere = runCli(['validate', path.basename(folder), '--format', 'github'], { cwd: project, env: { GITHUB_WORKSPACE: path.join(repository, 'other') } });
    expect(elsewhere.stdout).toMatch(new RegExp(`^::error file=${path.basename(folder)}/manifest\\.json,line=4,`, 'm'));
  });

  it('github: shows a newline in a message as an escape and escapes percent signs', () => {
    const folder = writeFolder({ ...goodFiles(), 'manifest.json': JSON.stringify({ ...goodManifest, type: '100%\nnew' }) });
    const out = runCli(['validate', folder, '--format', 'github']).stdout;
    const line = out.split('\n').find((l) => l.includes('manifest-tool-type'))!;
    expect(line).toContain('100%25\\x0anew');
  });

  it('text: grouped by file, colour only when asked for', () => {
    const plain = runCli(['validate', errorZip()]);
    expect(plain.stdout).toContain('../evil.js');
    expect(plain.stdout).toContain('path-unsafe');
    expect(plain.stdout).not.toContain('\u001b[');
    expect(runCli(['validate', errorZip()], { env: { FORCE_COLOR: '1' } }).stdout).toContain('\u001b[');
    expect(runCli(['validate', errorZip()], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } }).stdout).not.toContain('\u001b[');
  });

  it('--rule changes a severity and turns a rule off', () => {
    const folder = warningFolder();
    const asError = runCli(['validate', folder, '--rule', 'manifest-description=error', '-f', 'json']);
    expect(asError.code).toBe(1);
    expect(JSON.parse(asError.stdout).problems[0]).toMatchObject({ ruleId: 'manifest-description', severity: 'error' });
    const off = runCli(['validate', folder, '--rule', 'manifest-description=off', '--max-warnings', '0']);
    expect(off.code).toBe(0);
  });
});

describe('help and version', () => {
  it('--version prints the package version and exits 0', () => {
    const result = runCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('validate --help shows examples and exit codes', () => {
    const result = runCli(['validate', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('--max-warnings');
  });

  it('rules lists every rule as JSON', () => {
    const list = JSON.parse(runCli(['rules', '--format', 'json']).stdout);
    expect(list.map((r: { id: string }) => r.id)).toContain('archive-overlap');
  });
});
