import { describe, expect, it } from 'vitest';
import { packageNameFor, planProject, readTemplate, type InitAnswers, type PlannedFile } from '../../src/core/init/index.js';
import { EXPECTED_FILES } from './helpers.js';

const answers: InitAnswers = {
  type: 'quoting_extension',
  name: `Tom's "Best" <Estimator> & {{shortName}}`,
  shortName: `Tom's <b>`,
  description: 'Prices kitchens for <script>alert(1)</script> & co.',
  version: '1.2.3',
};

async function plan(input: Partial<InitAnswers> = {}): Promise<Map<string, string>> {
  const merged = { ...answers, ...input };
  const files: PlannedFile[] = planProject({
    answers: merged,
    template: await readTemplate(merged.type),
    bridgeTypes: 'export interface PipelineSdk {}\n',
    toolkitVersion: '9.8.7',
    packageName: 'toms-estimator',
  });
  return new Map(files.map((file) => [file.path, file.contents.toString('utf8')]));
}

describe('planProject', () => {
  it('renames the files npm and this repository would mangle, and adds pipeline.d.ts', async () => {
    for (const type of ['standalone', 'quoting_extension'] as const) {
      const paths = [...(await plan({ type })).keys()];
      // The plan is the template's files; the vendored kit is added by initProject, from outside the plan.
      expect(paths).toEqual(EXPECTED_FILES.filter((file) => !file.startsWith('vendor/')));
      expect(paths.filter((p) => p.startsWith('_'))).toEqual([]);
    }
  });

  it('puts any name into valid JSON, exactly as given', async () => {
    const files = await plan();
    const manifest = JSON.parse(files.get('src/manifest.json') ?? '') as Record<string, unknown>;
    expect(manifest).toEqual({
      $schema: '../node_modules/pipeline-tool/schemas/manifest.schema.json',
      name: answers.name,
      shortName: answers.shortName,
      type: 'quoting_extension',
      version: '1.2.3',
      description: answers.description,
      entry: 'index.html',
    });
    const pkg = JSON.parse(files.get('package.json') ?? '') as Record<string, unknown> & { devDependencies: Record<string, string> };
    // Name and version lead; the version is the tool's, so `pipeline-tool version` moves both.
    expect(Object.keys(pkg).slice(0, 2)).toEqual(['name', 'version']);
    expect(pkg).toMatchObject({ name: 'toms-estimator', version: '1.2.3' });
    expect(pkg.devDependencies['pipeline-tool']).toBe('^9.8.7');
  });

  it('escapes values in HTML and Markdown, and never expands a placeholder inside a value', async () => {
    const files = await plan();
    const html = files.get('src/index.html') ?? '';
    expect(html).toContain('<title>Tom&#39;s &quot;Best&quot; &lt;Estimator&gt; &amp; {{shortName}}</title>');
    expect(html).toContain('<h1>Tom&#39;s &lt;b&gt;</h1>');
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<Estimator>');
    const readme = files.get('README.md') ?? '';
    expect(readme).not.toContain('<script>');
    expect(readme).toContain('&lt;script&gt;');
  });

  it('leaves no placeholder behind', async () => {
    for (const type of ['standalone', 'quoting_extension'] as const) {
      const files = await plan({ type, name: 'Plain Name', shortName: 'Plain' });
      for (const [file, text] of files) expect(text, file).not.toMatch(/\{\{\w+\}\}/);
    }
  });

  it('heads pipeline.d.ts with where it came from, then the declarations unchanged', async () => {
    const text = (await plan()).get('pipeline.d.ts') ?? '';
    expect(text).toContain('pipeline-tool 9.8.7');
    expect(text.endsWith('export interface PipelineSdk {}\n')).toBe(true);
  });
});

describe('packageNameFor', () => {
  it('makes a valid npm name from any folder name', () => {
    expect(packageNameFor('Kitchen Estimator')).toBe('kitchen-estimator');
    expect(packageNameFor('Crème Brûlée')).toBe('creme-brulee');
    expect(packageNameFor('_private')).toBe('private');
    expect(packageNameFor('日本')).toBe('pipeline-tool-project');
  });
});
