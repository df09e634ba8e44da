import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InitAnswersError, completeAnswers, initProject, type InitAnswers } from '../../src/core/init/index.js';
import { UsageError } from '../../src/core/errors.js';
import { validateBundle } from '../../src/core/validate.js';
import { EXPECTED_FILES, REPO, TSC, execFileAsync, listFiles, tempDir } from './helpers.js';

const TYPES = ['standalone', 'quoting_extension'] as const;


function answersFor(type: InitAnswers['type']): InitAnswers {
  return completeAnswers({ type, name: `Tom's "Best" <Estimator>`, shortName: "Tom's" }, 'toms');
}

describe.each(TYPES)('initProject, %s', (type) => {
  it('writes the project, and its tool folder validates with no problem at all', async () => {
    const directory = path.join(await tempDir(), 'toms');
    const result = await initProject({ directory, answers: answersFor(type) });
    expect(result.written).toEqual(EXPECTED_FILES);
    expect(result.skipped).toEqual([]);
    expect(await listFiles(directory)).toEqual(EXPECTED_FILES);

    const report = await validateBundle(path.join(directory, result.toolFolder));
    expect(report.problems).toEqual([]);
    // The folder as a whole is not a bundle (README.md, dot-files); only src/ ships.
    expect(await listFiles(path.join(directory, 'src'))).toEqual(['app.js', 'index.html', 'manifest.json', 'styles.css']);
  });

  it('copies the compiled bridge declarations as pipeline.d.ts', async () => {
    const directory = path.join(await tempDir(), 'toms');
    await initProject({ directory, answers: answersFor(type) });
    const copied = await readFile(path.join(directory, 'pipeline.d.ts'), 'utf8');
    const built = await readFile(path.join(REPO, 'dist/bridge/types.d.ts'), 'utf8');
    expect(copied.endsWith(built)).toBe(true);
  });

  it('type-checks with tsc --checkJs against its pipeline.d.ts', { timeout: 60_000 }, async () => {
    const directory = path.join(await tempDir(), 'toms');
    await initProject({ directory, answers: answersFor(type) });
    const result = await execFileAsync(process.execPath, [TSC, '-p', path.join(directory, 'jsconfig.json'), '--pretty', 'false']).catch(
      (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? String(error), failed: true }),
    );
    expect(result.stdout).toBe('');
    expect('failed' in result).toBe(false);
  });

  it('keeps the sandbox rules in the code it ships', async () => {
    const directory = path.join(await tempDir(), 'toms');
    await initProject({ directory, answers: answersFor(type) });
    const js = await readFile(path.join(directory, 'src/app.js'), 'utf8');
    const html = await readFile(path.join(directory, 'src/index.html'), 'utf8');
    const css = await readFile(path.join(directory, 'src/styles.css'), 'utf8');
    const code = js.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');

    expect(js.startsWith('// @ts-check')).toBe(true);
    // alert/confirm/prompt do nothing in the sandbox; browser storage is not dependable there.
    expect(code).not.toMatch(/\b(alert|confirm|prompt)\s*\(/);
    expect(code).not.toMatch(/localStorage|sessionStorage|indexedDB|document\.cookie/);
    // Values reach the page as text only.
    expect(code).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/);
    // Relative paths only, nothing from the internet.
    for (const text of [html, css, code]) expect(text).not.toMatch(/https?:\/\/|(?:src|href)="\/|url\(\s*['"]?\//);
    // Module scripts would need CORS headers at the sandbox's opaque origin.
    expect(html.replace(/<!--[\s\S]*?-->/g, '')).not.toMatch(/type="module"/);
    // Working outside the host: the page says how to run it locally.
    expect(html).toContain('npx pipeline-tool dev src');
  });
});

describe('initProject refusals', () => {
  it('refuses bad answers before creating anything', async () => {
    const directory = path.join(await tempDir(), 'new');
    const answers = { ...answersFor('standalone'), version: '1.0', name: '' };
    const error = await initProject({ directory, answers }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InitAnswersError);
    expect((error as InitAnswersError).problems.map((p) => p.code).sort()).toEqual(['empty', 'not-semver']);
    await expect(listFiles(path.dirname(directory))).resolves.toEqual([]);
  });

  it('refuses a folder that is not empty, and a file', async () => {
    const root = await tempDir();
    await writeFile(path.join(root, 'notes.txt'), 'mine');
    await expect(initProject({ directory: root, answers: answersFor('standalone') })).rejects.toBeInstanceOf(UsageError);
    await expect(initProject({ directory: path.join(root, 'notes.txt'), answers: answersFor('standalone') })).rejects.toBeInstanceOf(UsageError);
    expect(await listFiles(root)).toEqual(['notes.txt']);
  });

  it('treats a folder holding only .git as empty', async () => {
    const root = await tempDir();
    await mkdir(path.join(root, '.git'));
    const result = await initProject({ directory: root, answers: answersFor('standalone') });
    expect(result.written).toEqual(EXPECTED_FILES);
  });

  it('with force, adds the missing files and never overwrites or follows a link', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await writeFile(path.join(root, 'README.md'), 'my own readme');
    await mkdir(path.join(root, '.github'));
    await symlink(outside, path.join(root, '.github', 'workflows'));
    const result = await initProject({ directory: root, answers: answersFor('standalone'), force: true });
    expect(result.skipped).toEqual(['.github/workflows/validate.yml', 'README.md']);
    expect(result.written).toEqual(EXPECTED_FILES.filter((f) => !result.skipped.includes(f)));
    expect(await readFile(path.join(root, 'README.md'), 'utf8')).toBe('my own readme');
    expect(await listFiles(outside)).toEqual([]);
  });
});
