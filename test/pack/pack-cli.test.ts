import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, writeFolder } from '../helpers/bundles.js';
import { BIN, runCli, STACK_TRACE } from '../helpers/cli.js';
import { bundleLimits, sizeLine } from '../../src/core/report/limits.js';
import { digestFolder, extractWithUnzip, GOOD_ZIP_NAME, goodFiles, goodManifest, readWithPython, richTool, sha256, tempFilesIn } from './helpers.js';

const packJson = (args: string[], options: Parameters<typeof runCli>[1] = {}) => {
  const result = runCli(['pack', ...args, '--format', 'json'], options);
  return { ...result, json: result.stdout ? JSON.parse(result.stdout) : undefined };
};

describe('pack CLI: exit codes and output', () => {
  it('0 and a JSON result: where the zip is, its SHA-256, the limits', () => {
    const tool = writeFolder({ ...goodFiles(), 'notes.txt': 'x' });
    const cwd = tempDir();
    const { code, json, stderr } = packJson([tool], { cwd });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const zip = path.join(cwd, GOOD_ZIP_NAME);
    const bytes = readFileSync(zip);
    expect(json).toMatchObject({
      ok: true,
      dryRun: false,
      written: true,
      existed: false,
      // Relative to the folder the command ran in, as validate shows its bundle.
      folder: path.relative(cwd, tool),
      output: GOOD_ZIP_NAME,
      sha256: sha256(bytes),
      stage: 'zip',
      limits: {
        files: { used: 4, limit: 200, share: 4 / 200 },
        zipBytes: { used: bytes.length, limit: 10_000_000, share: bytes.length / 10_000_000 },
        unpackedBytes: { limit: 50_000_000 },
      },
      excluded: [{ path: 'notes.txt', kind: 'file', reason: 'file-type', detail: '.txt' }],
      report: { ok: true, errorCount: 0, warningCount: 0, problems: [] },
    });
    expect(json.included.map((file: { path: string }) => file.path)).toEqual(['app.js', 'index.html', 'manifest.json', 'styles.css']);
    expect(json.report.bundle).toBe(json.folder);
    const validated = runCli(['validate', tool, '--format', 'json'], { cwd });
    expect(JSON.parse(validated.stdout).bundle).toBe(json.folder);
  });

  it('text: the path, the SHA-256, the size line and the files left out for their type', () => {
    const tool = writeFolder({ ...goodFiles(), 'notes.txt': 'x' });
    const cwd = tempDir();
    const { code, stdout, stderr } = runCli(['pack', tool], { cwd });
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain(GOOD_ZIP_NAME);
    const zip = readFileSync(path.join(cwd, GOOD_ZIP_NAME));
    expect(stdout).toContain(sha256(zip));
    expect(stdout).toContain('notes.txt');
    // The one size line every build prints, of the zip written, instead of a table of limits.
    const unpackedSize = Object.values(goodFiles()).reduce((sum, content) => sum + Buffer.byteLength(content), 0);
    const line = sizeLine(bundleLimits({ files: 4, zipSize: zip.length, unpackedSize }));
    expect(stdout.split('\n')).toContain(`  ${line}`);
    expect(stdout).not.toMatch(/\bshare\b/);
  });

  it('text: the same size line in a dry run and when the checks fail', () => {
    const tool = writeFolder(goodFiles());
    const packed = packJson([tool], { cwd: tempDir() }).json;
    const line = `  ${sizeLine(packed.limits)}`;
    expect(runCli(['pack', tool, '--dry-run'], { cwd: tempDir() }).stdout.split('\n')).toContain(line);
    const failing = writeFolder(goodFiles({ ...goodManifest, version: 'v1' }));
    const failed = runCli(['pack', failing], { cwd: tempDir() });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^ {2}[\d,]+ bytes zipped of 10,000,000 \([^)]+\) · [\d,]+ unpacked of 50,000,000 \([^)]+\) · 4 files of 200 \(2\.0%\)$/m);
  });

  it('1, nothing written, and the rule ids, for a folder that fails validation', () => {
    const tool = writeFolder(goodFiles({ ...goodManifest, version: 'v1' }));
    const cwd = tempDir();
    const { code, json } = packJson([tool], { cwd });
    expect(code).toBe(1);
    expect(json).toMatchObject({ ok: false, written: false, sha256: null, stage: 'zip' });
    expect(json.report.problems.map((p: { ruleId: string }) => p.ruleId)).toEqual(['manifest-version']);
    expect(readdirSync(cwd)).toEqual([]);
    // The text output uses the same formatters as validate.
    const text = runCli(['pack', tool], { cwd });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('manifest-version');
    const github = runCli(['pack', tool, '--format', 'github'], { cwd });
    expect(github.stdout).toMatch(/^::error file=.*manifest\.json.*manifest-version/m);
  });

  it('2, one line and no stack trace, for user mistakes', () => {
    const tool = writeFolder(goodFiles());
    const cwd = tempDir();
    writeFileSync(path.join(cwd, GOOD_ZIP_NAME), 'OLD');
    const cases: [string[], Record<string, string>?][] = [
      [['pack', path.join(cwd, 'missing')]],
      [['pack', tool, '--format', 'xml']],
      [['pack', tool, '--bogus']],
      [['pack', tool]], // the destination exists
      [['pack', tool], { SOURCE_DATE_EPOCH: 'yesterday' }],
    ];
    for (const [args, env] of cases) {
      const result = runCli(args, { cwd, env: env ?? {} });
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).not.toMatch(STACK_TRACE);
      expect(result.stderr.trim().split('\n').length, args.join(' ')).toBeLessThanOrEqual(2);
      expect(result.stdout, args.join(' ')).toBe('');
    }
    expect(readFileSync(path.join(cwd, GOOD_ZIP_NAME), 'utf8')).toBe('OLD');
  });

  it('refuses to overwrite without --force, replaces with it', () => {
    const tool = writeFolder(goodFiles());
    const cwd = tempDir();
    const zip = path.join(cwd, GOOD_ZIP_NAME);
    writeFileSync(zip, 'OLD');
    const refused = runCli(['pack', tool], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--force');
    expect(readFileSync(zip, 'utf8')).toBe('OLD');
    const forced = packJson([tool, '--force'], { cwd });
    expect(forced.code).toBe(0);
    expect(forced.json).toMatchObject({ written: true, existed: true });
    expect(sha256(readFileSync(zip))).toBe(forced.json.sha256);
    expect(tempFilesIn(cwd)).toEqual([]);
  });

  it('keeps the previous zip when the new bundle fails, even with --force', () => {
    const tool = writeFolder(goodFiles({ ...goodManifest, type: 'sidebar' }));
    const cwd = tempDir();
    const zip = path.join(cwd, GOOD_ZIP_NAME);
    writeFileSync(zip, 'OLD');
    const result = packJson([tool, '--force'], { cwd });
    expect(result.code).toBe(1);
    expect(result.json.written).toBe(false);
    expect(readFileSync(zip, 'utf8')).toBe('OLD');
    expect(tempFilesIn(cwd)).toEqual([]);
  });

  it('2 and the folder to use when the manifest is in the build output', () => {
    const project = writeFolder({ 'package.json': '{}', ...Object.fromEntries(Object.entries(goodFiles()).map(([n, c]) => [`dist/${n}`, c])) });
    const result = runCli(['pack'], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pipeline-tool pack dist');
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });
});

describe('pack CLI: --rule, as validate takes it', () => {
  const withInsecureScript = () => ({ ...goodFiles(), 'index.html': '<!doctype html><html><head></head><body><script src="http://cdn.example/lib.js"></script></body></html>' });

  it('an error the author has judged acceptable can be lowered, and the zip is written', () => {
    const tool = writeFolder(withInsecureScript());
    const cwd = tempDir();
    const refused = packJson([tool], { cwd });
    expect(refused.code).toBe(1);
    expect(refused.json.report.problems.map((p: { ruleId: string }) => p.ruleId)).toContain('reference-insecure');
    expect(readdirSync(cwd)).toEqual([]);
    const lowered = packJson([tool, '--rule', 'reference-insecure=warn'], { cwd });
    expect(lowered.code).toBe(0);
    expect(lowered.json.report.problems).toEqual([expect.objectContaining({ ruleId: 'reference-insecure', severity: 'warning' })]);
    expect(readdirSync(cwd)).toEqual([GOOD_ZIP_NAME]);
  });

  it('an unknown rule id is a usage error naming the nearest id, before anything is written', () => {
    const tool = writeFolder(goodFiles());
    const cwd = tempDir();
    const result = runCli(['pack', tool, '--rule', 'Reference-Insecure=off'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unknown rule "Reference-Insecure"; did you mean "reference-insecure"?');
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('pack CLI: --dry-run', () => {
  it('lists every file in and every file out with its reason, and writes nothing', () => {
    const tool = writeFolder({
      ...goodFiles(),
      '.env': 'x',
      'node_modules/x/index.js': 'x',
      'app.js.map': '{}',
      'package.json': '{}',
      '.pipelineignore': 'drafts/\n',
      'drafts/a.js': 'x',
      'README.md': 'x',
      '__MACOSX/x': 'x',
    });
    const cwd = tempDir();
    const { code, json } = packJson([tool, '--dry-run'], { cwd });
    expect(code).toBe(0);
    expect(json).toMatchObject({ ok: true, dryRun: true, written: false, sha256: null });
    // Measured by deflating as pack does, so it is the size the zip will have.
    const real = packJson([tool], { cwd: tempDir() });
    expect(json.limits.zipBytes.used).toBe(real.json.limits.zipBytes.used);
    expect(json.included.map((file: { path: string }) => file.path)).toEqual(['app.js', 'index.html', 'manifest.json', 'styles.css']);
    expect(json.excluded.map((entry: { path: string; reason: string }) => [entry.path, entry.reason])).toEqual([
      ['.env', 'dot-file'],
      ['.pipelineignore', 'project-file'],
      ['README.md', 'file-type'],
      ['__MACOSX/', 'junk'],
      ['app.js.map', 'source-map'],
      ['drafts/', 'ignored'],
      ['node_modules/', 'node_modules'],
      ['package.json', 'project-file'],
    ]);
    expect(readdirSync(cwd)).toEqual([]);
    const text = runCli(['pack', tool, '--dry-run'], { cwd });
    expect(text.code).toBe(0);
    for (const name of ['.env', 'node_modules/', 'app.js.map', 'drafts/', 'README.md', 'manifest.json']) expect(text.stdout).toContain(name);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('1 when the files would fail', () => {
    const tool = writeFolder(goodFiles({ ...goodManifest, entry: 'missing.html' }));
    const { code, json } = packJson([tool, '--dry-run'], { cwd: tempDir() });
    expect(code).toBe(1);
    expect(json.report.problems.map((p: { ruleId: string }) => p.ruleId)).toEqual(['manifest-entry-missing']);
  });
});

describe('pack CLI: nothing lost', () => {
  it('a folder packed and extracted again is the same folder', () => {
    const tool = writeFolder(goodFiles());
    const cwd = tempDir();
    expect(runCli(['pack', tool, '-o', 'x.zip'], { cwd }).code).toBe(0);
    expect(extractWithUnzip(path.join(cwd, 'x.zip'), path.join(cwd, 'out'))).toEqual(digestFolder(tool));
  });

  it('every file comes back byte for byte through Info-ZIP unzip and Python zipfile', () => {
    const files = richTool();
    const tool = writeFolder({ ...files, 'node_modules/x.js': 'x', '.DS_Store': 'x' });
    const cwd = tempDir();
    const { code, json } = packJson([tool, '-o', 'round.zip'], { cwd });
    expect(code).toBe(0);
    const zip = path.join(cwd, 'round.zip');
    const expected = Object.fromEntries(Object.entries(files).map(([name, content]) => [name, sha256(Buffer.from(content))]));

    expect(extractWithUnzip(zip, path.join(tempDir(), 'unzipped'))).toEqual(expected);
    const python = readWithPython(zip);
    expect(python.bad).toBeNull();
    expect(Object.fromEntries(python.entries.map((e) => [e.name, e.sha256]))).toEqual(expected);
    // Both methods are exercised: random bytes stay stored, text is deflated.
    const methods = Object.fromEntries(json.included.map((file: { path: string; method: string }) => [file.path, file.method]));
    expect(methods).toMatchObject({ 'img/noise.png': 'store', 'js/vendor.js': 'deflate' });
  });
});

describe('pack CLI: reproducible', () => {
  /** Writes the same files in a different order, with different times and modes, plus local clutter. */
  function clone(files: Record<string, string | Buffer>, variant: 'a' | 'b'): string {
    const root = tempDir();
    const names = Object.keys(files);
    if (variant === 'b') names.reverse();
    names.forEach((name, i) => {
      const target = path.join(root, name);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, files[name]!);
      chmodSync(target, variant === 'a' ? 0o644 : i % 2 ? 0o600 : 0o755);
      const time = variant === 'a' ? new Date('2001-02-03T04:05:06Z') : new Date(Date.now() - i * 3_600_000);
      utimesSync(target, time, time);
    });
    if (variant === 'b') {
      writeFileSync(path.join(root, '.DS_Store'), 'x');
      mkdirSync(path.join(root, 'node_modules'));
    }
    return root;
  }

  it('gives byte-identical zips for two clones with different file times, modes, creation order and time zone', () => {
    const files = richTool();
    const a = clone(files, 'a');
    const b = clone(files, 'b');
    const out = tempDir();
    expect(runCli(['pack', a, '-o', path.join(out, 'a.zip')], { env: { TZ: 'UTC' } }).code).toBe(0);
    expect(runCli(['pack', b, '-o', path.join(out, 'b.zip')], { env: { TZ: 'Pacific/Auckland' } }).code).toBe(0);
    const zipA = readFileSync(path.join(out, 'a.zip'));
    expect(readFileSync(path.join(out, 'b.zip')).equals(zipA)).toBe(true);
    expect(readWithPython(path.join(out, 'a.zip')).entries.every((e) => e.date.join() === '1980,1,1,0,0,0' && e.mode === 0o100644)).toBe(true);
  });

  it('takes the entries time from SOURCE_DATE_EPOCH, in UTC whatever the time zone', () => {
    const files = richTool();
    const a = clone(files, 'a');
    const b = clone(files, 'b');
    const out = tempDir();
    const epoch = '1700000000'; // 2023-11-14 22:13:20 UTC
    expect(runCli(['pack', a, '-o', path.join(out, 'a.zip')], { env: { TZ: 'America/Los_Angeles', SOURCE_DATE_EPOCH: epoch } }).code).toBe(0);
    expect(runCli(['pack', b, '-o', path.join(out, 'b.zip')], { env: { TZ: 'Asia/Kolkata', SOURCE_DATE_EPOCH: epoch } }).code).toBe(0);
    expect(readFileSync(path.join(out, 'b.zip')).equals(readFileSync(path.join(out, 'a.zip')))).toBe(true);
    expect(readWithPython(path.join(out, 'a.zip')).entries[0]!.date).toEqual([2023, 11, 14, 22, 13, 20]);
  });
});

describe('pack CLI: safe', () => {
  it('leaves out a link that points out of the folder, and never reads through it', () => {
    const outside = tempDir();
    writeFileSync(path.join(outside, 'secret.js'), 'TOP-SECRET-CONTENT');
    const tool = writeFolder(goodFiles());
    symlinkSync(path.join(outside, 'secret.js'), path.join(tool, 'secret.js'));
    symlinkSync(outside, path.join(tool, 'vendor'));
    const cwd = tempDir();
    const { code, json } = packJson([tool], { cwd });
    expect(code).toBe(0);
    expect(json.excluded).toEqual([
      { path: 'secret.js', kind: 'symlink', reason: 'symlink' },
      { path: 'vendor', kind: 'symlink', reason: 'symlink' },
    ]);
    const entries = readWithPython(path.join(cwd, GOOD_ZIP_NAME)).entries.map((e) => e.name);
    expect(entries).toEqual(['app.js', 'index.html', 'manifest.json', 'styles.css']);
    expect(readFileSync(path.join(cwd, GOOD_ZIP_NAME)).includes('TOP-SECRET')).toBe(false);
  });

  it('on Ctrl-C mid-write: exit 130, no temporary file, the previous zip untouched', async () => {
    // About 45 MB that deflate cannot shrink keeps the writer busy long enough to interrupt it.
    const files: Record<string, string | Buffer> = { ...goodFiles() };
    for (let i = 0; i < 15; i++) files[`img/photo-${i}.png`] = randomBytes(3_000_000);
    const tool = writeFolder(files);
    const cwd = tempDir();
    const zip = path.join(cwd, GOOD_ZIP_NAME);
    writeFileSync(zip, 'OLD');

    const child = spawn(process.execPath, [BIN, 'pack', tool, '--force'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 20_000;
    while (tempFilesIn(cwd).length === 0 && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 2));
    expect(tempFilesIn(cwd).length, 'the temporary file should appear while writing').toBe(1);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).not.toMatch(STACK_TRACE);
    expect(tempFilesIn(cwd)).toEqual([]);
    expect(readFileSync(zip, 'utf8')).toBe('OLD');
    expect(readdirSync(cwd)).toEqual([GOOD_ZIP_NAME]);
  });
});
