import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { completeAnswers, initProject, readTemplate, TEMPLATE_NAMES, TEMPLATE_SUMMARIES, type InitAnswers, type TemplateName } from '../../src/core/init/index.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { listFiles, runCli, tempDir } from './helpers.js';

/*
 * The React and Vue templates as init writes them. That they install, test, type-check, build,
 * pack and validate for real is test/init/project-end-to-end.test.ts's part.
 */

const CASES = [
  { template: 'react', type: 'standalone', source: 'tsx' },
  { template: 'react', type: 'quoting_extension', source: 'tsx' },
  { template: 'vue', type: 'standalone', source: 'vue' },
  { template: 'vue', type: 'quoting_extension', source: 'vue' },
] as const;

const answersFor = (type: InitAnswers['type']) => completeAnswers({ type, name: `Tom's "Best" <Estimator>`, shortName: "Tom's" }, 'toms');
const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;

/** The lines of a workflow step, found by its name: from its `- name:` line to the next step. */
function stepOf(yaml: string, name: string): string {
  const lines = yaml.split('\n');
  const start = lines.findIndex((line) => line.trim() === `- name: ${name}`);
  expect(start, name).toBeGreaterThanOrEqual(0);
  const indent = lines[start]!.indexOf('-');
  const end = lines.findIndex((line, i) => i > start && line.trim() !== '' && line.search(/\S/) <= indent);
  return lines.slice(start, end < 0 ? undefined : end).filter((line) => !line.trim().startsWith('#')).join('\n');
}
const runOf = (step: string) => /run: (.*)/.exec(step)?.[1] ?? '';

describe.each(CASES)('initProject, $template $type', ({ template, type, source }) => {
  it('writes a small Vite project: the build is the tool, zips go to release/, nothing to delete', async () => {
    const directory = path.join(await tempDir(), 'toms');
    const result = await initProject({ directory, answers: answersFor(type), template });
    expect(result).toMatchObject({ template, toolFolder: 'dist', outFolder: 'release', skipped: [] });
    const files = await listFiles(directory);
    expect(files).toEqual(result.written);
    const app = source === 'tsx' ? ['src/App.tsx', 'src/main.tsx', 'test/App.test.tsx'] : ['src/App.vue', 'src/main.ts', 'test/App.test.ts'];
    expect(files).toEqual(
      expect.arrayContaining(['.github/workflows/validate.yml', '.gitignore', 'README.md', 'eslint.config.js', 'index.html', 'package.json', 'pipeline-tool.config.json', 'public/manifest.json', 'src/styles.css', 'tsconfig.json', 'vite.config.ts', ...app]),
    );
    // TypeScript imports pipeline-tool/bridge: no copied declarations, no jsconfig, no stored names left.
    expect(files.filter((file) => /pipeline\.d\.ts|jsconfig|^_|\/_/.test(file))).toEqual([]);

    // unsafe-html is quiet for the libraries' code only, which their source maps place in node_modules/.
    const config = await readJson(path.join(directory, 'pipeline-tool.config.json'));
    expect(config).toMatchObject({ source: 'dist', out: 'release', overrides: [{ files: ['node_modules/'], rules: { 'unsafe-html': 'off' } }] });
    expect(config).not.toHaveProperty('rules');
    expect(await readJson(path.join(directory, 'public/manifest.json'))).toEqual({
      $schema: '../node_modules/pipeline-tool/schemas/manifest.schema.json',
      name: `Tom's "Best" <Estimator>`,
      shortName: "Tom's",
      type,
      version: '1.0.0',
      description: answersFor(type).description,
      entry: 'index.html',
    });
    const html = await readFile(path.join(directory, 'index.html'), 'utf8');
    expect(html).toContain('<title>Tom&#39;s &quot;Best&quot; &lt;Estimator&gt;</title>');

    const pkg = (await readJson(path.join(directory, 'package.json'))) as { name: string; version: string; scripts: Record<string, string>; devDependencies: Record<string, string>; dependencies: Record<string, string> };
    expect(pkg).toMatchObject({ name: 'toms', version: '1.0.0' });
    expect(Object.keys(pkg.scripts).sort()).toEqual(['build', 'dev', 'lint', 'pack', 'test', 'typecheck', 'validate']);
    expect(pkg.scripts['lint']).toBe('eslint .');
    expect(pkg.scripts['dev']).toBe('vite');
    expect(pkg.devDependencies).toMatchObject({ 'pipeline-tool': result.toolkit.spec, vite: expect.any(String), vitest: expect.any(String), jsdom: expect.any(String) });
    expect(pkg.dependencies).toHaveProperty(template);
    expect(pkg.devDependencies).toHaveProperty(`@testing-library/${template}`);

    expect(await readFile(path.join(directory, 'vite.config.ts'), 'utf8')).toMatch(/plugins: \[(react|vue)\(\), pipeline\(\)\]/);
    expect(await readFile(path.join(directory, '.github/workflows/validate.yml'), 'utf8')).toContain('path: release/*.zip');
  });

  it('keeps the sandbox rules in its code: no dialogs, no browser storage, no HTML from strings, no submitted form', async () => {
    const directory = path.join(await tempDir(), 'toms');
    await initProject({ directory, answers: answersFor(type), template });
    const sources = (await listFiles(path.join(directory, 'src'))).filter((file) => /\.(tsx?|vue)$/.test(file));
    for (const file of sources) {
      const code = (await readFile(path.join(directory, 'src', file), 'utf8')).replace(/\/\*[\s\S]*?\*\/|\/\/.*$|<!--[\s\S]*?-->/gm, '');
      expect(code, file).not.toMatch(/\b(alert|confirm|prompt)\s*\(|localStorage|sessionStorage|indexedDB|document\.cookie/);
      expect(code, file).not.toMatch(/innerHTML|dangerouslySetInnerHTML|v-html/);
      expect(code, file).not.toMatch(/type="submit"/);
    }
  });
});

describe('the framework templates', () => {
  it('hold the same React- and Vue-free library: the files of src/lib come from one layer of each type', async () => {
    for (const type of ['standalone', 'quoting_extension'] as const) {
      const library = async (template: TemplateName) => (await readTemplate(type, template)).filter((file) => file.path.startsWith('src/lib/'));
      const [react, vue] = await Promise.all([library('react'), library('vue')]);
      expect(react.length, type).toBeGreaterThan(1);
      expect(vue, type).toEqual(react);
    }
  });

  it('upload their findings to code scanning as the vanilla templates do, after the build', async () => {
    const workflow = async (template: TemplateName, type: InitAnswers['type']) =>
      (await readTemplate(type, template)).find((file) => file.path === '_github/workflows/validate.yml')!.contents.toString('utf8');
    const vanilla = await workflow('vanilla', 'standalone');
    const vanillaRun = runOf(stepOf(vanilla, 'Findings as SARIF'));
    expect(vanillaRun).toContain('--format sarif > pipeline-tool.sarif');
    for (const { template, type } of CASES) {
      const folder = `${template}-${type}`;
      const yaml = await workflow(template, type);
      expect(stepOf(yaml, 'Upload to code scanning'), folder).toBe(stepOf(vanilla, 'Upload to code scanning'));
      const sarif = stepOf(yaml, 'Findings as SARIF');
      expect(runOf(sarif), folder).toBe(vanillaRun);
      // dist/ must be there: the same condition as the annotations' step.
      expect(sarif, folder).toContain("if: ${{ !cancelled() && steps.build.outcome != 'skipped' }}");
      expect(yaml.indexOf('- name: Findings as SARIF'), folder).toBeGreaterThan(yaml.indexOf('run: npm run validate -- --format github'));
      expect(yaml, folder).toMatch(/\n {4}permissions:\n {6}contents: read\n(?: {6}#.*\n)* {6}security-events: write\n/);
    }
  });

  it('refuses a template it does not have, in one sentence', async () => {
    const directory = path.join(await tempDir(), 'toms');
    const failure = await initProject({ directory, answers: answersFor('standalone'), template: 'svelte' as TemplateName }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UsageError);
    expect((failure as Error).message).toBe('the template must be vanilla, react or vue, not "svelte".');
  });
});

describe('init --template', () => {
  it('makes a React project and says how to run it', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'desk', '--template', 'react', '--yes', '--name', 'Customer Desk'], { cwd });
    expect(result).toMatchObject({ code: EXIT.ok, stderr: '' });
    expect(result.stdout).toContain('Created Customer Desk, a standalone tool built with React and Vite, in desk');
    expect(result.stdout).toMatch(/npm run dev +starts Vite with the app inside an emulated Pipeline host/);
    expect(result.stdout).toContain('builds dist/, then packs it into release/customer-desk-1.0.0.zip');
    expect(await listFiles(path.join(cwd, 'desk'))).toContain('src/App.tsx');
  });

  it('refuses an unknown template before writing anything', async () => {
    const cwd = await tempDir();
    const result = await runCli(['init', 'desk', '--template', 'svelte', '--yes'], { cwd });
    expect(result.code).toBe(EXIT.failure);
    expect(result.stderr).toContain("'svelte' is invalid");
    expect(await listFiles(cwd)).toEqual([]);
  });

  it('asks for the template on a terminal, again after an answer it cannot use, with vanilla the default', async () => {
    const cwd = await tempDir();
    const asked = await runCli(['init', 'desk', '--yes'], { cwd, input: [] });
    expect(asked.stdout).not.toContain('Template');

    const result = await runCli(['init', 'shop'], { cwd, input: ['angular', '3', '2', 'Shop', '', '', ''] });
    expect(result.code, result.stdout).toBe(EXIT.ok);
    expect(result.stdout).toContain('Template (1, 2 or 3)');
    // Every template is offered, numbered in TEMPLATE_NAMES' order, with what it is built with.
    for (const [i, name] of TEMPLATE_NAMES.entries()) expect(result.stdout).toMatch(new RegExp(`^ {2}${i + 1} {2}${name} +${TEMPLATE_SUMMARIES[name].replace(/[()]/g, '\\$&')}$`, 'm'));
    expect(result.stdout).toContain('  2  react     React and TypeScript, built with Vite\n');
    expect(result.stdout).toContain('Answer 1 for vanilla, 2 for react or 3 for vue, not "angular".');
    expect(await listFiles(path.join(cwd, 'shop'))).toEqual(expect.arrayContaining(['src/App.vue', 'public/manifest.json']));
    expect((await readJson(path.join(cwd, 'shop/public/manifest.json')))['type']).toBe('quoting_extension');

    const vanilla = await runCli(['init', 'plain'], { cwd, input: ['', '', '', '', '', ''] });
    expect(vanilla.code).toBe(EXIT.ok);
    expect(await listFiles(path.join(cwd, 'plain'))).toContain('src/app.js');
  });

  it('raises the version in public/manifest.json and package.json', async () => {
    const cwd = await tempDir();
    await runCli(['init', 'desk', '--template', 'vue', '--yes'], { cwd });
    const project = path.join(cwd, 'desk');
    const result = await runCli(['version', 'minor'], { cwd: project });
    expect(result.code, result.stderr).toBe(EXIT.ok);
    expect((await readJson(path.join(project, 'public/manifest.json')))['version']).toBe('1.1.0');
    expect((await readJson(path.join(project, 'package.json')))['version']).toBe('1.1.0');
  });
});
