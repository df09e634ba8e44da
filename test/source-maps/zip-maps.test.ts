import { execFileSync } from 'node:child_process';
import { appendFileSync, copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/problem.js';
import { validateBundle } from '../../src/core/validate.js';
import { tempDir } from '../helpers/bundles.js';
import { APP_TSX, buildApp, positionOf, type BuiltApp } from '../helpers/built-app.js';
import { runCli } from '../helpers/cli.js';
import { buildTemplate } from '../helpers/template-app.js';

/*
 * A zip holds no maps, so its findings are placed through the maps of the folder it was packed
 * from, for the entries that folder still holds byte for byte: validate of the zip pack makes in a
 * project gives the verdict of validate of its folder. On its own, a zip says once that its
 * findings are not placed, and where the maps were looked for.
 */

interface JsonProblem {
  ruleId: string;
  severity: string;
  file?: string;
  line?: number;
  column?: number;
  built?: { file: string; line: number; column: number };
  library?: boolean;
  package?: string;
}

interface JsonReport {
  ok: boolean;
  errorCount: number;
  warningCount: number;
  problems: JsonProblem[];
  mapNotes?: { file?: string; reason: string; message: string }[];
}

const json = (stdout: string) => JSON.parse(stdout) as JsonReport;

/** The app's dist/ zipped as pack zips it (without the map), at `zip`. */
function zipOf(app: BuiltApp, zip = path.join(tempDir(), 'tool.zip')): string {
  execFileSync('zip', ['-qrX', zip, '.', '-x', '*.map'], { cwd: app.dist });
  return zip;
}

const storage = (report: Report) => report.problems.filter((problem) => problem.ruleId === 'browser-storage');

describe('a zip, placed through the maps of the folder it was packed from', () => {
  it('places the findings of an entry the folder holds with the same bytes', async () => {
    const app = buildApp();
    const report = await validateBundle(zipOf(app), { sourceMaps: { root: app.project, folder: app.dist } });
    const source = positionOf(APP_TSX, 'localStorage');
    expect(storage(report)).toEqual([expect.objectContaining({ file: 'src/App.tsx', ...source, built: { file: 'assets/index.js', ...positionOf(app.bundle, 'localStorage') } })]);
    expect(report.mapNotes).toBeUndefined();
  });

  it('places nothing through a map of other bytes than the zip holds, and says so once, naming the folder', async () => {
    const app = buildApp();
    const zip = zipOf(app);
    // Built again: the same name, other bytes; the map beside it describes them, not the zip's.
    appendFileSync(path.join(app.dist, 'assets', 'index.js'), '\n');
    const report = await validateBundle(zip, { sourceMaps: { root: app.project, folder: app.dist } });
    expect(storage(report)).toEqual([expect.objectContaining({ file: 'assets/index.js', line: 1 })]);
    expect(storage(report)[0]).not.toHaveProperty('built');
    expect(report.mapNotes).toEqual([
      {
        reason: 'no-maps',
        message:
          'findings in assets/index.js are not placed at their sources: no source maps were found: they were looked for in the built folder, dist/, which does not hold the same file (built again since the zip was packed?)',
      },
    ]);
  });

  it('says so when the folder is not there', async () => {
    const app = buildApp();
    const report = await validateBundle(zipOf(app), { sourceMaps: { root: app.project, folder: path.join(app.project, 'build') } });
    expect(report.mapNotes).toEqual([{ reason: 'no-maps', message: expect.stringMatching(/in the built folder, build\/, which does not exist$/) }]);
  });

  it('on its own, says once that its findings are not placed, and nothing when it has none to place', async () => {
    const app = buildApp({ 'src/main.tsx': "import { App } from './App';\nimport { greet } from './greet';\n\ndocument.body.append(App(), greet(String(sessionStorage.length)));\n" });
    const report = await validateBundle(zipOf(app), { sourceMaps: { root: app.project } });
    expect(storage(report)).toHaveLength(2);
    expect(report.mapNotes).toEqual([{ reason: 'no-maps', message: expect.stringMatching(/^findings in its scripts and stylesheets are not placed at their sources: no source maps were found: a zip holds none/) }]);
    const clean = buildApp({ 'src/App.tsx': APP_TSX.replace("localStorage.getItem('name')", "document.title") });
    expect((await validateBundle(zipOf(clean))).mapNotes).toBeUndefined();
  });
});

describe('validate of the React template\u2019s zip and of its dist/', () => {
  let project: string;
  let zip: string;
  beforeAll(async () => {
    // React's packages copied in, as npm installs them: the map's sources in them are inside the project.
    ({ project } = await buildTemplate('react', { installed: ['react', 'react-dom', 'scheduler'] }));
    const packed = runCli(['pack'], { cwd: project });
    expect(packed.code, packed.stderr).toBe(0);
    zip = path.join('release', readdirSync(path.join(project, 'release')).find((name) => name.endsWith('.zip'))!);
  }, 300_000);

  const both = (args: string[]) => ({ folder: runCli(['validate', 'dist', ...args], { cwd: project }), zip: runCli(['validate', zip, ...args], { cwd: project }) });

  it('give one verdict: the same problems, and --max-warnings 0 passes on both', () => {
    const gate = both(['--max-warnings', '0']);
    expect(gate.folder.code, gate.folder.stdout).toBe(0);
    expect(gate.zip.code, gate.zip.stdout).toBe(0);
    const reports = both(['--format', 'json']);
    expect(json(reports.zip.stdout)).toMatchObject({ ok: true, errorCount: 0, warningCount: 0, problems: [] });
    expect(json(reports.zip.stdout).mapNotes).toBeUndefined();
    expect(json(reports.zip.stdout).problems).toEqual(json(reports.folder.stdout).problems);
  });

  it('place and mark React\u2019s own code alike, in json, text and github output', () => {
    // The override that quiets library code undone: React's innerHTML is reported, in both.
    const reports = both(['--format', 'json', '--rule', 'unsafe-html=warn']);
    const problems = json(reports.folder.stdout).problems;
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatchObject({ ruleId: 'unsafe-html', file: expect.stringMatching(/^node_modules\/react-dom\//), built: expect.any(Object), library: true, package: 'react-dom' });
    expect(json(reports.zip.stdout).problems).toEqual(problems);
    expect(json(reports.zip.stdout).warningCount).toBe(json(reports.folder.stdout).warningCount);

    const text = both(['--rule', 'unsafe-html=warn']);
    const body = (stdout: string) => stdout.slice(0, stdout.search(/^(Left out|⚠|✖|✔)/m));
    expect(body(text.zip.stdout)).toContain('node_modules/react-dom');
    expect(body(text.zip.stdout)).toBe(body(text.folder.stdout));
    expect(text.zip.stdout).not.toContain('note:');

    const github = both(['--format', 'github', '--rule', 'unsafe-html=warn']);
    const annotations = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::'));
    expect(annotations(github.zip.stdout).length).toBeGreaterThan(0);
    expect(annotations(github.zip.stdout)).toEqual(annotations(github.folder.stdout));
  });

  it('on its own, the zip says once, in one line, that its findings are not placed, and where it looked', () => {
    const lone = path.join(tempDir(), 'tool.zip');
    copyFileSync(path.join(project, zip), lone);
    const cwd = path.dirname(lone);
    const note = /^note: tool\.zip: findings in its scripts and stylesheets are not placed at their sources: no source maps were found: a zip holds none, and no project file \(pipeline-tool\.config\.json\) in its folder or above names the built folder it was packed from$/m;
    const text = runCli(['validate', 'tool.zip'], { cwd });
    expect(text.stdout).toMatch(note);
    expect(text.stdout.match(/^note:/gm)).toHaveLength(1);
    expect(text.stdout).toMatch(/^assets\/index-[\w-]+\.js$/m);
    const github = runCli(['validate', 'tool.zip', '--format', 'github'], { cwd });
    expect(github.stdout).toMatch(note);
    expect(github.stdout.match(/^note:/gm)).toHaveLength(1);
    const report = json(runCli(['validate', 'tool.zip', '--format', 'json'], { cwd }).stdout);
    expect(report.mapNotes).toEqual([{ reason: 'no-maps', message: expect.stringMatching(/^findings in its scripts and stylesheets are not placed/) }]);
    expect(report.problems.length).toBeGreaterThan(0);
    expect(report.problems.every((problem) => problem.built === undefined)).toBe(true);
    expect(runCli(['validate', 'tool.zip', '--quiet'], { cwd }).stdout).not.toContain('note:');
  });

  it('in its project, a zip of another build says which file the built folder no longer holds', () => {
    const script = readdirSync(path.join(project, 'dist', 'assets')).find((name) => name.endsWith('.js'))!;
    const file = path.join(project, 'dist', 'assets', script);
    const bytes = readFileSync(file);
    try {
      writeFileSync(file, Buffer.concat([bytes, Buffer.from('\n')]));
      const text = runCli(['validate', zip], { cwd: project });
      expect(text.stdout).toContain(`note: ${zip}: findings in assets/${script} are not placed at their sources: no source maps were found: they were looked for in the built folder, dist/, which does not hold the same file`);
      expect(text.code).toBe(0);
      expect(runCli(['validate', zip, '--max-warnings', '0'], { cwd: project }).code).toBe(1);
    } finally {
      writeFileSync(file, bytes);
    }
  });
});
