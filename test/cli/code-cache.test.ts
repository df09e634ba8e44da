import { isAscii } from 'node:buffer';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { goodFiles, writeFolder } from '../helpers/bundles.js';

/*
 * The CLI's bundles are compiled with the code cache the build saved (src/cli-loader.cts). These
 * tests load them as bin/pipeline-tool.js does, in a fresh Node, and ask V8 whether it took each
 * cache; and they check that a bundle changed after the build is compiled from its source.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(path.join(tmpdir(), 'pipeline-tool-code-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Loads the named bundles of a dist/ folder in a new Node, as the CLI does; returns V8's verdicts. */
function cacheVerdicts(dist: string, bundles: string[]): Array<{ file: string; rejected: boolean | undefined }> {
  const script = `
    const { default: { loadBundle, cacheUse } } = await import(${JSON.stringify(path.join(dist, "cli-loader.cjs"))});
    for (const name of ${JSON.stringify(bundles)}) loadBundle(${JSON.stringify(path.join(dist, 'cli'))} + '/' + name);
    console.log(JSON.stringify(cacheUse().map(({ file, rejected }) => ({ file: file.split('/').pop(), rejected }))));
  `;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout) as Array<{ file: string; rejected: boolean | undefined }>;
}

/** Runs the CLI as bin/pipeline-tool.js does, in a new Node; returns its exit code and the bundles it loaded, in order. */
function bundlesRunBy(args: string[]): { code: number; bundles: string[] } {
  const out = path.join(work, `loaded-${Math.random().toString(36).slice(2)}.json`);
  const script = `
    const { loadBundle, cacheUse } = require(${JSON.stringify(path.join(root, 'dist', 'cli-loader.cjs'))});
    loadBundle(${JSON.stringify(path.join(root, 'dist', 'cli', 'main.cjs'))}).run(['node', 'pipeline-tool', ...${JSON.stringify(args)}]).then((code) => {
      require('node:fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify({ code, bundles: cacheUse().map(({ file }) => require('node:path').basename(file)) }));
    });
  `;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: work, env: { ...process.env, FORCE_COLOR: '0' } });
  expect(result.stderr).toBe('');
  return JSON.parse(readFileSync(out, 'utf8')) as { code: number; bundles: string[] };
}

describe('code cache of the CLI bundles', () => {
  it('is taken by V8 for main and every command the build ran', () => {
    expect(cacheVerdicts(path.join(root, 'dist'), ['main.cjs', 'validate.cjs', 'pack.cjs', 'rules.cjs', 'report.cjs'])).toEqual([
      { file: 'main.cjs', rejected: false },
      { file: 'validate.cjs', rejected: false },
      { file: 'pack.cjs', rejected: false },
      { file: 'rules.cjs', rejected: false },
      { file: 'report.cjs', rejected: false },
    ]);
  });

  it('holds what --report adds in report.cjs, which validate and pack load only for that flag', () => {
    const tool = writeFolder(goodFiles());
    const zip = path.join(work, 'report-bundle.zip');
    expect(bundlesRunBy(['validate', tool])).toEqual({ code: 0, bundles: ['main.cjs', 'validate.cjs'] });
    expect(bundlesRunBy(['validate', tool, '--report', path.join(work, 'validated.html')])).toEqual({ code: 0, bundles: ['main.cjs', 'validate.cjs', 'report.cjs'] });
    expect(bundlesRunBy(['pack', tool, '--out', zip, '--force'])).toEqual({ code: 0, bundles: ['main.cjs', 'pack.cjs'] });
    expect(bundlesRunBy(['pack', tool, '--out', zip, '--force', '--report'])).toEqual({ code: 0, bundles: ['main.cjs', 'pack.cjs', 'report.cjs'] });
    expect(existsSync(path.join(work, 'report-bundle.report.html'))).toBe(true);
  });

  it('is given bundles in ASCII only, which it reads as Latin-1 (one byte a character, nothing to decode)', () => {
    const bundles = readdirSync(path.join(root, 'dist', 'cli')).filter((name) => name.endsWith('.cjs'));
    expect(bundles).toEqual(expect.arrayContaining(['main.cjs', 'validate.cjs', 'pack.cjs', 'dev.cjs', 'code-worker.cjs']));
    const outside = bundles.filter((name) => !isAscii(readFileSync(path.join(root, 'dist', 'cli', name))));
    expect(outside, 'scripts/build.mjs refuses these; was dist/ built by it?').toEqual([]);
  });

  it('loads a bundle written outside ASCII, an empty one and one without a last line break, each as its own text', () => {
    const dir = path.join(work, 'plain');
    rmSync(dir, { recursive: true, force: true });
    cpSync(path.join(root, 'dist', 'cli-loader.cjs'), path.join(dir, 'cli-loader.cjs'));
    writeFileSync(path.join(dir, 'café.cjs'), "module.exports = { word: 'café', file: __filename.split('/').pop(), self: this === exports };\n");
    writeFileSync(path.join(dir, 'empty.cjs'), '');
    writeFileSync(path.join(dir, 'last.cjs'), 'exports.last = 1 // a comment to the end');
    const script = `
      const { loadBundle, cacheUse } = require(${JSON.stringify(path.join(dir, 'cli-loader.cjs'))});
      const loaded = ['café.cjs', 'empty.cjs', 'last.cjs'].map((name) => loadBundle(${JSON.stringify(dir)} + '/' + name));
      // No cache beside them: V8 was given none (undefined, printed as null).
      console.log(JSON.stringify({ loaded, cache: cacheUse().map(({ rejected }) => rejected) }));
    `;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ loaded: [{ word: 'café', file: 'café.cjs', self: true }, {}, { last: 1 }], cache: [null, null, null] });
  });

  it('is not used for a bundle edited after the build, even at the same length, which then runs as edited', () => {
    const dist = path.join(work, 'dist');
    cpSync(path.join(root, 'dist'), dist, { recursive: true });
    // The package.json beside dist/ gives `--version`, templates and schemas their place.
    cpSync(path.join(root, 'package.json'), path.join(work, 'package.json'));
    const main = path.join(dist, 'cli', 'main.cjs');
    const source = readFileSync(main, 'utf8');
    const marker = 'Scaffold, check, pack and run';
    expect(source).toContain(marker);
    const edited = source.replace(marker, 'SCAFFOLD, CHECK, PACK AND RUN');
    expect(edited.length).toBe(source.length);
    writeFileSync(main, edited);
    expect(cacheVerdicts(dist, ['main.cjs', 'validate.cjs'])).toEqual([
      { file: 'main.cjs', rejected: undefined },
      { file: 'validate.cjs', rejected: false },
    ]);
    const bin = path.join(work, 'bin', 'pipeline-tool.js');
    cpSync(path.join(root, 'bin'), path.join(work, 'bin'), { recursive: true });
    const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('SCAFFOLD, CHECK, PACK AND RUN');
  });
});
