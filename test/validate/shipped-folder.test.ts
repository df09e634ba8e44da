import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectFindings } from '../../src/dev/findings.js';
import { goodFiles, goodManifest, tempDir, writeFolder } from '../helpers/bundles.js';
import { runCli } from '../helpers/cli.js';
import { noise } from '../helpers/noise.js';
import { extractWithUnzip, GOOD_ZIP_NAME } from '../pack/helpers.js';

/*
 * validate on a folder judges the zip pack would make of it: the same files, names and bytes,
 * the same size, and the files left out listed (not errors), as `pack --dry-run` lists them.
 */

const json = (args: string[], options: Parameters<typeof runCli>[1] = {}) => {
  const result = runCli([...args, '--format', 'json'], options);
  return { ...result, json: result.stdout ? JSON.parse(result.stdout) : undefined };
};
const ruleIds = (report: { problems: { ruleId: string }[] }) => report.problems.map((p) => p.ruleId);

describe('validate on a folder: what pack leaves out is listed, not an error', () => {
  it('.DS_Store and .pipelineignore (and what it ignores): exit 0, listed in the JSON and the text', () => {
    const tool = writeFolder({ ...goodFiles(), 'src/.DS_Store': 'x', '.pipelineignore': 'drafts/\n', 'drafts/a.js': 'x', 'notes.txt': 'x' });
    const { code, json: report } = json(['validate', tool]);
    expect(code).toBe(0);
    expect(report.problems).toEqual([]);
    expect(report.excluded).toEqual([
      { path: '.pipelineignore', kind: 'file', reason: 'project-file' },
      { path: 'drafts/', kind: 'directory', reason: 'ignored', detail: 'drafts/' },
      { path: 'notes.txt', kind: 'file', reason: 'file-type', detail: '.txt' },
      { path: 'src/.DS_Store', kind: 'file', reason: 'dot-file', detail: 'macOS Finder metadata' },
    ]);
    // The same list pack --dry-run gives.
    expect(json(['pack', tool, '--dry-run'], { cwd: tempDir() }).json.excluded).toEqual(report.excluded);
    const text = runCli(['validate', tool]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ {2}src\/\.DS_Store\s+dot-file\s+macOS Finder metadata$/m);
    expect(text.stdout).toContain('no problems');
    expect(runCli(['validate', tool, '--quiet']).stdout).not.toContain('.DS_Store');
  });

  it('a zip pack wrote into the folder is left out of the next validate, as the zip pack writes', () => {
    const tool = writeFolder(goodFiles());
    expect(runCli(['pack'], { cwd: tool }).code).toBe(0);
    expect(readdirSync(tool)).toContain(GOOD_ZIP_NAME);
    const { code, json: report } = json(['validate', '.'], { cwd: tool });
    expect(code).toBe(0);
    expect(report.excluded).toEqual([{ path: GOOD_ZIP_NAME, kind: 'file', reason: 'output-zip' }]);
    expect(runCli(['pack', '--force'], { cwd: tool }).code).toBe(0);
  });

  it('a fixtures file kept in the folder is recognised by its $schema and ships neither in validate nor in pack', () => {
    const fixtures = JSON.stringify({ $schema: './node_modules/pipeline-tool/schemas/fixtures.schema.json', mode: 'extend', customers: [] }, null, 2);
    const lookalike = JSON.stringify({ $schema: 'https://example.com/my-data.schema.json', mode: 'extend' });
    const tool = writeFolder({ ...goodFiles(), 'fixtures.json': fixtures, 'data/prices.json': lookalike });
    const { json: report } = json(['validate', tool]);
    expect(report.excluded).toEqual([{ path: 'fixtures.json', kind: 'file', reason: 'fixtures' }]);
    const cwd = tempDir();
    expect(runCli(['pack', tool], { cwd }).code).toBe(0);
    const files = Object.keys(extractWithUnzip(path.join(cwd, GOOD_ZIP_NAME), path.join(cwd, 'x')));
    expect(files).toContain('data/prices.json');
    expect(files).not.toContain('fixtures.json');
  });
});

describe('a referenced file that does not ship: the real cause and fix, in validate and pack alike', () => {
  const tool = () =>
    writeFolder({
      ...goodFiles(),
      'index.html': '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><img src="img/b.jpeg" alt=""><script src="app.js"></script></body></html>',
      'img/b.jpeg': 'jpeg',
    });

  it('names the type and the rename, with the left-out entry as data', () => {
    const folder = tool();
    const validated = json(['validate', folder]);
    expect(validated.code).toBe(1);
    const [problem] = validated.json.problems;
    expect(problem).toMatchObject({ ruleId: 'reference-missing', file: 'index.html', data: { resolved: 'img/b.jpeg', leftOut: { path: 'img/b.jpeg', reason: 'file-type', detail: '.jpeg' } } });
    expect(problem.message).toContain('`.jpeg` is not accepted by the marketplace. Rename it to .jpg.');
    expect(problem.message).not.toContain('add the file');
    const packed = json(['pack', folder], { cwd: tempDir() });
    expect(packed.code).toBe(1);
    expect(packed.json.report.problems).toEqual(validated.json.problems);
  });

  it('a file inside a folder pack never walks into: says so, without claiming the file is there', () => {
    const folder = writeFolder({ ...goodFiles(), 'index.html': '<!doctype html><script src="node_modules/lib/lib.js"></script>', 'node_modules/lib/lib.js': 'x' });
    const [problem] = json(['validate', folder]).json.problems;
    expect(problem.data.leftOut).toEqual({ path: 'node_modules/', kind: 'directory', reason: 'node_modules' });
    expect(problem.message).toContain('inside node_modules/, which does not ship');
  });

  it('an entry page that .pipelineignore leaves out names the pattern', () => {
    const folder = writeFolder({ ...goodFiles(), '.pipelineignore': '*.html\n' });
    const { json: report } = json(['validate', folder]);
    const entry = report.problems.find((p: { ruleId: string }) => p.ruleId === 'manifest-entry-missing');
    expect(entry.data.leftOut).toEqual({ path: 'index.html', kind: 'file', reason: 'ignored', detail: '*.html' });
    expect(entry.message).toContain('"*.html" in .pipelineignore');
  });
});

describe('the zip size of a folder', () => {
  it('a 12 MB photo fails bundle-size in validate, in the dev findings and in pack, with the size pack measures', async () => {
    const folder = writeFolder({ ...goodFiles(), 'img/photo.png': noise(12_000_000) });
    const validated = json(['validate', folder]);
    expect(validated.code).toBe(1);
    expect(ruleIds(validated.json)).toEqual(['bundle-size']);
    const { size, largest } = validated.json.problems[0].data;
    expect(largest[0]).toEqual({ path: 'img/photo.png', bytes: 12_000_000 });
    const dry = json(['pack', folder, '--dry-run'], { cwd: tempDir() });
    expect(dry.json.limits.zipBytes.used).toBe(size);
    expect(dry.json.report.problems).toEqual(validated.json.problems);
    const findings = await collectFindings(folder, null);
    expect(findings.ok && ruleIds(findings.report)).toEqual(['bundle-size']);
  });

  it('is the exact size of the zip pack writes, the manifest without $schema included', () => {
    const manifest = { $schema: '../node_modules/pipeline-tool/schemas/manifest.schema.json', ...goodManifest };
    const folder = writeFolder({ ...goodFiles(manifest), 'img/a.png': noise(70_000, 7), 'café.js': 'var x = 1;\n'.repeat(500) });
    const cwd = tempDir();
    const dry = json(['pack', folder, '--dry-run'], { cwd });
    expect(runCli(['pack', folder], { cwd }).code).toBe(0);
    const zip = path.join(cwd, GOOD_ZIP_NAME);
    expect(dry.json.limits.zipBytes.used).toBe(readFileSync(zip).length);
    // The folder's manifest keeps its $schema; the zip's has none, and validate has nothing to say of either.
    expect(JSON.parse(readFileSync(path.join(folder, 'manifest.json'), 'utf8')).$schema).toBeDefined();
    const shipped = extractWithUnzip(zip, path.join(cwd, 'x'));
    expect(Object.keys(shipped).sort()).toEqual(['app.js', 'café.js', 'img/a.png', 'index.html', 'manifest.json', 'styles.css']);
    expect(JSON.parse(readFileSync(path.join(cwd, 'x', 'manifest.json'), 'utf8'))).toEqual(goodManifest);
    expect(json(['validate', folder]).json.problems).toEqual([]);
    expect(json(['validate', zip]).json.problems).toEqual([]);
  });
});

describe('pack -q', () => {
  it('prints nothing on success, and the errors on failure', () => {
    const cwd = tempDir();
    const ok = runCli(['pack', writeFolder(goodFiles()), '-q'], { cwd });
    expect(ok).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readdirSync(cwd)).toEqual([GOOD_ZIP_NAME]);
    const bad = writeFolder({ ...goodFiles(), 'index.html': '<img src="missing.png" alt="">' });
    writeFileSync(path.join(bad, 'warn.js'), 'localStorage.setItem("a", "b");\n');
    const failed = runCli(['pack', bad, '-q'], { cwd: tempDir() });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('reference-missing');
    expect(failed.stdout).not.toContain('browser-storage');
  });
});
