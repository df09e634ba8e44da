import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bundles.js';
import { APP_TSX, buildApp, positionOf } from '../helpers/built-app.js';
import { runCli } from '../helpers/cli.js';

/*
 * The command line's contract for findings placed through source maps: the real binary on a
 * folder built by esbuild, with and without a project file, in each output format.
 */

const source = positionOf(APP_TSX, 'localStorage');

interface JsonProblem {
  ruleId: string;
  file?: string;
  line?: number;
  column?: number;
  built?: { file: string; line: number; column: number };
}

function jsonOf(stdout: string): { problems: JsonProblem[]; sourceRoot?: string; excluded?: { path: string; reason: string }[] } {
  return JSON.parse(stdout) as ReturnType<typeof jsonOf>;
}

describe('validate of a built folder', () => {
  it('without a project file, names sources from the current folder', () => {
    const app = buildApp();
    const built = positionOf(app.bundle, 'localStorage');
    const result = runCli(['validate', 'dist', '--format', 'json'], { cwd: app.project });
    expect(result.code).toBe(0);
    const document = jsonOf(result.stdout);
    expect(document.problems).toEqual([expect.objectContaining({ ruleId: 'browser-storage', file: 'src/App.tsx', ...source, built: { file: 'assets/index.js', ...built } })]);
    expect(document.sourceRoot).toBe('.');
    expect(document.excluded).toEqual([expect.objectContaining({ path: 'assets/index.js.map', reason: 'source-map' })]);
  });

  it('with a project file, names sources from its folder, wherever the command runs', () => {
    const app = buildApp({ 'pipeline-tool.config.json': JSON.stringify({ source: 'dist' }) });
    mkdirSync(path.join(app.project, 'src', 'deep'));
    const result = runCli(['validate', '--format', 'json'], { cwd: path.join(app.project, 'src', 'deep') });
    expect(result.code, result.stderr).toBe(0);
    const document = jsonOf(result.stdout);
    expect(document.problems[0]).toMatchObject({ file: 'src/App.tsx', ...source });
    expect(document.sourceRoot).toBe('../..');
  });

  it('text lists the problem under its source file and names the built place', () => {
    const app = buildApp();
    const built = positionOf(app.bundle, 'localStorage');
    const result = runCli(['validate', 'dist'], { cwd: app.project });
    expect(result.stdout).toContain(`src/App.tsx\n  ${source.line}:${source.column}  warning  localStorage is not dependable`);
    expect(result.stdout).toContain(`browser-storage  (built: assets/index.js:${built.line}:${built.column})`);
    expect(result.stdout).toMatch(/assets\/index\.js\.map\s+source-map\s+source map, not accepted by the marketplace/);
  });

  it('github annotates the source line, from the repository root', () => {
    const app = buildApp();
    const local = runCli(['validate', 'dist', '--format', 'github'], { cwd: app.project });
    expect(local.stdout).toContain(`::warning file=src/App.tsx,line=${source.line},col=${source.column},title=pipeline-tool browser-storage::`);
    const repository = path.dirname(app.project);
    const inCi = runCli(['validate', 'dist', '--format', 'github'], { cwd: app.project, env: { GITHUB_WORKSPACE: repository } });
    expect(inCi.stdout).toContain(`::warning file=${path.basename(app.project)}/src/App.tsx,line=${source.line},col=`);
  });

  it('pack leaves the map out of the zip and reports its findings at the source', () => {
    const app = buildApp({ 'pipeline-tool.config.json': JSON.stringify({ source: 'dist', out: 'release' }) });
    const result = runCli(['pack', '--format', 'json'], { cwd: app.project });
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout) as { included: { path: string }[]; excluded: { path: string; reason: string }[]; report: ReturnType<typeof jsonOf> };
    expect(document.included.map((file) => file.path).sort()).toEqual(['assets/index.js', 'index.html', 'manifest.json']);
    expect(document.excluded).toContainEqual(expect.objectContaining({ path: 'assets/index.js.map', reason: 'source-map' }));
    expect(document.report.problems).toEqual([expect.objectContaining({ file: 'src/App.tsx', ...source, built: expect.objectContaining({ file: 'assets/index.js' }) })]);
    const zip = path.join(app.project, 'release', 'kitchen-1.2.0.zip');
    expect(execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).split('\n').filter(Boolean).sort()).toEqual(['assets/index.js', 'index.html', 'manifest.json']);
  });

  it('a .map inside a zip stays a file-type error', () => {
    const app = buildApp();
    const zip = path.join(tempDir(), 'with-map.zip');
    execFileSync('zip', ['-qrX', zip, '.'], { cwd: app.dist });
    const result = runCli(['validate', zip, '--format', 'json']);
    expect(result.code).toBe(1);
    expect(jsonOf(result.stdout).problems).toContainEqual(expect.objectContaining({ ruleId: 'file-type', file: 'assets/index.js.map' }));
  });

  it('a hostile map changes nothing about how the command ends', () => {
    const app = buildApp();
    writeFileSync(path.join(app.dist, 'assets', 'index.js.map'), '{"version":3,"sources":["../../../../../../etc/passwd"],"sourcesContent":[null],"mappings":"AAAA"}');
    const result = runCli(['validate', 'dist', '--format', 'json'], { cwd: app.project });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(jsonOf(result.stdout).problems[0]).toMatchObject({ file: 'assets/index.js', line: 1 });
  });
});

describe('a map that is not used', () => {
  it('is named in a note in text, github and json output, and the finding stays in the built file', () => {
    const app = buildApp();
    const mapFile = path.join(app.dist, 'assets', 'index.js.map');
    const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { mappings: string };
    writeFileSync(mapFile, JSON.stringify({ ...map, mappings: `${map.mappings}g` }));
    const text = runCli(['validate', 'dist'], { cwd: app.project });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^note: assets\/index\.js: its source map is not used: its mappings cut a number short at character \d+$/m);
    expect(text.stdout).toMatch(/^assets\/index\.js$/m);
    const github = runCli(['validate', 'dist', '--format', 'github'], { cwd: app.project });
    expect(github.stdout).toMatch(/^note: assets\/index\.js: its source map is not used/m);
    const json = JSON.parse(runCli(['validate', 'dist', '--format', 'json'], { cwd: app.project }).stdout) as { mapNotes?: unknown };
    expect(json.mapNotes).toEqual([{ file: 'assets/index.js', reason: 'mappings', message: expect.stringMatching(/^its source map is not used/) }]);
  });
});
