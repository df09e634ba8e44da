import { cpSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goodEntries, goodFiles, goodManifest, tempDir, writeFolder, writeZip } from '../helpers/bundles.js';
import { runCli, STACK_TRACE, type CliResult } from '../helpers/cli.js';
import { spawnDev } from '../dev/dev-process.js';

/*
 * What a command acts on when it is given a path: a project by its folder, several bundles in one
 * run, a folder of zips, a folder of projects. Always the real binary.
 */

let scaffolded: string | undefined;

/** A parent folder holding `my-tool`, a project made by the binary's own init. */
function parentWithProject(type = 'standalone'): string {
  if (scaffolded === undefined) {
    const parent = tempDir();
    const made = runCli(['init', 'my-tool', '--yes', '--type', type], { cwd: parent });
    expect(made.code, made.stderr).toBe(0);
    scaffolded = parent;
  }
  const copy = tempDir();
  cpSync(path.join(scaffolded, 'my-tool'), path.join(copy, 'my-tool'), { recursive: true });
  return copy;
}

function expectUsageError(result: CliResult, ...parts: string[]): void {
  expect(result.code, result.stderr + result.stdout).toBe(2);
  expect(result.stderr).toMatch(/^pipeline-tool: [^\n]+\n$/);
  expect(result.stderr).not.toMatch(STACK_TRACE);
  for (const part of parts) expect(result.stderr).toContain(part);
}

describe('a project given by its folder', () => {
  it('is that project: pack and validate act on its source, and the zip goes to its out', () => {
    const parent = parentWithProject();
    const packed = runCli(['pack', 'my-tool', '--format', 'json'], { cwd: parent });
    expect(packed.code, packed.stdout + packed.stderr).toBe(0);
    expect(JSON.parse(packed.stdout)).toMatchObject({ folder: path.join('my-tool', 'src'), output: path.join('my-tool', 'dist', 'my-tool-1.0.0.zip') });
    expect(readdirSync(path.join(parent, 'my-tool', 'dist'))).toEqual(['my-tool-1.0.0.zip']);
    expect(readdirSync(parent)).toEqual(['my-tool']);

    const checked = runCli(['validate', 'my-tool', '--format', 'json', '--max-warnings', '0'], { cwd: parent });
    expect(checked.code, checked.stdout).toBe(0);
    expect(JSON.parse(checked.stdout)).toMatchObject({ bundle: path.join('my-tool', 'src'), kind: 'folder', ok: true });
  });

  it('brings its rules along, by its folder and to its zips from outside the project', () => {
    const parent = parentWithProject();
    const project = path.join(parent, 'my-tool');
    writeFileSync(path.join(project, 'src', 'extra.js'), "alert('hi');\n");
    writeFileSync(path.join(project, 'pipeline-tool.config.json'), JSON.stringify({ source: 'src', out: 'dist', rules: { 'dialog-call': 'error' } }));
    const byFolder = runCli(['validate', 'my-tool', '--format', 'json'], { cwd: parent });
    expect(byFolder.code).toBe(1);
    expect(JSON.parse(byFolder.stdout).problems).toContainEqual(expect.objectContaining({ ruleId: 'dialog-call', severity: 'error', file: 'extra.js' }));
    // A path inside the project finds the project file from there, wherever the command runs.
    const bySource = runCli(['validate', path.join('my-tool', 'src'), '--format', 'json'], { cwd: parent });
    expect(JSON.parse(bySource.stdout).problems).toContainEqual(expect.objectContaining({ ruleId: 'dialog-call', severity: 'error' }));
    expect(runCli(['pack', 'my-tool', '--rule', 'dialog-call=warn'], { cwd: parent }).code).toBe(0);
    const zip = path.join('my-tool', 'dist', 'my-tool-1.0.0.zip');
    const byZip = runCli(['validate', zip, '--format', 'json'], { cwd: parent });
    expect(JSON.parse(byZip.stdout).problems).toContainEqual(expect.objectContaining({ ruleId: 'dialog-call', severity: 'error', file: 'extra.js' }));
  });

  it('dev serves its source and keeps settings beside its project file', async () => {
    const parent = parentWithProject();
    const dev = spawnDev(['my-tool', '--port', '0'], { cwd: parent });
    try {
      await dev.waitForOutput(/Stop:/);
      expect(dev.stdout()).toContain(`serving ${path.join('my-tool', 'src')}`);
      expect(dev.stdout()).toContain(`Settings: ${path.join('my-tool', '.pipeline-tool', 'settings.json')}`);
      expect(dev.stderr()).not.toContain('manifest.json');
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  });

  it('--config still names the project file, and the path given is the target', () => {
    const parent = parentWithProject();
    writeFileSync(path.join(parent, 'other.config.json'), JSON.stringify({ rules: { 'manifest-description': 'off' } }));
    const checked = runCli(['validate', path.join('my-tool', 'src'), '--config', 'other.config.json', '--format', 'json'], { cwd: parent });
    expect(checked.code, checked.stderr).toBe(0);
    expect(JSON.parse(checked.stdout).bundle).toBe(path.join('my-tool', 'src'));
  });
});

describe('a folder of several projects', () => {
  function folderOfProjects(): string {
    const parent = parentWithProject();
    cpSync(path.join(parent, 'my-tool'), path.join(parent, 'second'), { recursive: true });
    return parent;
  }

  it('is never walked as one tool: every command names the projects to pick from', () => {
    const parent = folderOfProjects();
    for (const command of ['validate', 'pack', 'dev']) {
      expectUsageError(runCli([command], { cwd: parent }), '. holds 2 projects and no tool of its own: my-tool and second.', `pipeline-tool ${command} my-tool`);
      const outside = path.dirname(parent);
      expectUsageError(runCli([command, path.basename(parent)], { cwd: outside }), `holds 2 projects and no tool of its own`, `pipeline-tool ${command} ${path.join(path.basename(parent), 'my-tool')}`);
    }
    expect(readdirSync(parent).sort()).toEqual(['my-tool', 'second']);
  });

  it('names the one project a folder holds', () => {
    const parent = parentWithProject();
    expectUsageError(runCli(['pack'], { cwd: parent }), '. has no manifest.json, but my-tool is a project (it holds pipeline-tool.config.json). Pack it: pipeline-tool pack my-tool');
  });
});

describe('validate with several bundles', () => {
  const cleanZip = () => writeZip(goodEntries());
  const warningFolder = () => writeFolder(goodFiles({ ...goodManifest, description: 'Estimates kitchens. Fast.' }));
  const errorZip = () => writeZip([...goodEntries(), { name: '../evil.js', data: 'x' }]);

  it('checks each in one run, prints one summary, and exits with the worst', () => {
    const cwd = tempDir();
    const clean = runCli(['validate', cleanZip(), writeFolder(goodFiles())], { cwd });
    expect(clean.code).toBe(0);
    expect(clean.stdout.trimEnd().split('\n').at(-1)).toBe('✔ 2 bundles: no problems');

    const mixed = runCli(['validate', cleanZip(), warningFolder(), errorZip()], { cwd });
    expect(mixed.code).toBe(1);
    expect(mixed.stdout.match(/^[✔⚠✖] .+: /gmu)).toHaveLength(4);
    expect(mixed.stdout.trimEnd().split('\n').at(-1)).toBe('✖ 3 bundles: 2 problems (1 error, 1 warning)');

    // --max-warnings counts the warnings of all of them.
    expect(runCli(['validate', warningFolder(), warningFolder()], { cwd }).code).toBe(0);
    const over = runCli(['validate', warningFolder(), warningFolder(), '--max-warnings', '1'], { cwd });
    expect(over.code).toBe(1);
    expect(over.stderr).toBe('pipeline-tool: 2 warnings exceed --max-warnings 1.\n');
  });

  it('json: one document with every report and the counts of all', () => {
    const cwd = tempDir();
    const zip = errorZip();
    const folder = warningFolder();
    const result = runCli(['validate', zip, folder, '--format', 'json'], { cwd });
    expect(result.code).toBe(1);
    const document = JSON.parse(result.stdout) as { ok: boolean; errorCount: number; warningCount: number; bundles: { bundle: string; kind: string; ok: boolean }[] };
    expect(document).toMatchObject({ ok: false, errorCount: 1, warningCount: 1 });
    expect(document.bundles.map((report) => [report.bundle, report.kind, report.ok])).toEqual([
      [path.relative(cwd, zip), 'zip', false],
      [path.relative(cwd, folder), 'folder', true],
    ]);
    // One path keeps the one-report document.
    expect(JSON.parse(runCli(['validate', folder, '--format', 'json'], { cwd }).stdout)).toMatchObject({ bundle: path.relative(cwd, folder), warningCount: 1 });
  });

  it('github: the annotations of each, then one line for all', () => {
    const cwd = tempDir();
    const result = runCli(['validate', errorZip(), warningFolder(), '--format', 'github'], { cwd });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('::error '))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('::warning '))).toHaveLength(1);
    expect(lines.at(-1)).toBe('2 bundles: 2 problems (1 error, 1 warning)');
  });

  it('takes a folder of zips as its zips, and the same bundle once', () => {
    const parent = parentWithProject();
    expect(runCli(['pack', 'my-tool'], { cwd: parent }).code).toBe(0);
    const release = path.join(parent, 'my-tool', 'dist');
    cpSync(errorZip(), path.join(release, 'broken.zip'));
    const result = runCli(['validate', 'my-tool/dist/', 'my-tool/dist/my-tool-1.0.0.zip', '--format', 'json'], { cwd: parent });
    expect(result.code).toBe(1);
    expect((JSON.parse(result.stdout) as { bundles: { bundle: string }[] }).bundles.map((report) => report.bundle)).toEqual([
      path.join('my-tool', 'dist', 'broken.zip'),
      path.join('my-tool', 'dist', 'my-tool-1.0.0.zip'),
    ]);
    // A folder of zips is a set, even of one: the document has the same shape.
    const single = tempDir();
    cpSync(path.join(release, 'my-tool-1.0.0.zip'), path.join(single, 'only.zip'));
    expect(JSON.parse(runCli(['validate', single, '--format', 'json']).stdout)).toMatchObject({ ok: true, bundles: [{ kind: 'zip' }] });
  });

  it('checks a bundle named twice, by any path or link, once, and counts it as one', () => {
    const cwd = tempDir();
    const name = 'tool';
    cpSync(warningFolder(), path.join(cwd, name), { recursive: true });
    symlinkSync(path.join(cwd, name), path.join(cwd, 'link'));
    const result = runCli(['validate', name, `./${name}/`, 'link'], { cwd });
    expect(result.stdout.match(/^⚠ .+: /gmu)).toHaveLength(2);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('⚠ 1 bundle: 1 problem (0 errors, 1 warning)');
    const github = runCli(['validate', name, name, '--format', 'github'], { cwd });
    expect(github.stdout.trimEnd().split('\n').at(-1)).toBe('1 bundle: 1 problem (0 errors, 1 warning)');
  });

  it('stops before checking anything when a path does not exist', () => {
    const cwd = tempDir();
    const result = runCli(['validate', cleanZip(), 'missing.zip'], { cwd });
    expectUsageError(result, 'missing.zip does not exist');
    expect(result.stdout).toBe('');
  });

  it('--print-config takes one tool', () => {
    const parent = parentWithProject();
    expectUsageError(runCli(['validate', 'my-tool', 'my-tool', '--print-config', 'my-tool/src/app.js'], { cwd: parent }), '--print-config shows the settings of one tool');
    const printed = runCli(['validate', 'my-tool', '--print-config', 'my-tool/src/app.js'], { cwd: parent });
    expect(printed.code, printed.stderr).toBe(0);
    expect(JSON.parse(printed.stdout)).toMatchObject({ file: 'app.js', config: path.join('my-tool', 'pipeline-tool.config.json') });
  });
});

it('a folder with a manifest is a tool folder even when it holds zips', () => {
  const tool = writeFolder(goodFiles());
  mkdirSync(path.join(tool, 'old'));
  cpSync(writeZip(goodEntries()), path.join(tool, 'kitchen-1.1.0.zip'));
  const result = runCli(['validate', tool, '--format', 'json']);
  expect(JSON.parse(result.stdout)).toMatchObject({ kind: 'folder' });
  expect(existsSync(path.join(tool, 'kitchen-1.1.0.zip'))).toBe(true);
});
