import { describe, expect, it } from 'vitest';
import { packageNameFor, planProject, type InitAnswers, type TemplateFile } from '../../src/core/init/index.js';

/*
 * planProject on a template made for the test, so each rule of rendering shows on its own: which
 * files get their placeholders filled and how each kind escapes, the renamed files, the project
 * file, the order, and what a broken template is told. (test/init/plan.test.ts runs the real
 * templates.)
 */

const answers: InitAnswers = { type: 'standalone', name: 'A & B <"x"> \'y\'', shortName: 'A*B_[c]#|`d`\\', description: 'Does it.', version: '2.0.0' };
const file = (path: string, text: string): TemplateFile => ({ path, contents: Buffer.from(text, 'utf8') });

function plan(template: TemplateFile[], extra: Partial<Parameters<typeof planProject>[0]> = {}): Map<string, string> {
  const planned = planProject({ answers, template, bridgeTypes: 'declare const x: 1;\n', toolkitVersion: '1.2.3', packageName: 'pkg', ...extra });
  return new Map(planned.map((entry) => [entry.path, entry.contents.toString('utf8')]));
}

describe('planProject', () => {
  it('fills placeholders in HTML and Markdown only, each escaped its own way', () => {
    const files = plan([
      file('page.html', '<h1>{{name}}</h1><p>{{shortName}}</p>'),
      file('notes.md', '# {{name}}\n{{shortName}}\n'),
      file('plain.txt', '{{name}}'),
      file('data.json', '{ "x": "{{name}}" }'),
    ]);
    expect(files.get('page.html')).toBe('<h1>A &amp; B &lt;&quot;x&quot;&gt; &#39;y&#39;</h1><p>A*B_[c]#|`d`\\</p>');
    expect(files.get('notes.md')).toBe('# A &amp; B &lt;"x"&gt; \'y\'\nA\\*B\\_\\[c\\]\\#\\|\\`d\\`\\\\\n');
    expect(files.get('plain.txt')).toBe('{{name}}');
    expect(files.get('data.json')).toBe('{ "x": "{{name}}" }');
  });

  it('refuses a template that uses a placeholder it does not know, or whose JSON files are not objects', () => {
    expect(() => plan([file('page.html', '{{name}} {{colour}}')])).toThrow(new Error('template file page.html uses an unknown placeholder {{colour}}'));
    expect(() => plan([file('package.json', '[]')])).toThrow(new Error('template file package.json is not a JSON object'));
    expect(() => plan([file('src/manifest.json', 'null')])).toThrow(new Error('template file src/manifest.json is not a JSON object'));
    expect(() => plan([file('src/manifest.json', '"x"')])).toThrow(new Error('template file src/manifest.json is not a JSON object'));
  });

  it('renames _gitignore and _github at the top only, and adds pipeline.d.ts and the project file, all sorted by path', () => {
    const files = plan([file('_github/workflows/ci.yml', 'x'), file('_gitignore', 'dist/\n'), file('docs/_gitignore', 'y'), file('B.txt', 'b'), file('a.txt', 'a')]);
    expect([...files.keys()]).toEqual(['.github/workflows/ci.yml', '.gitignore', 'B.txt', 'a.txt', 'docs/_gitignore', 'pipeline-tool.config.json', 'pipeline.d.ts']);
    expect(files.get('pipeline-tool.config.json')).toBe(
      '{\n  "$schema": "./node_modules/pipeline-tool/schemas/config.schema.json",\n  "source": "src",\n  "out": "dist"\n}\n',
    );
    expect(files.get('pipeline.d.ts')).toBe(
      '// Types of window.pipeline, the Pipeline bridge, copied from pipeline-tool 1.2.3 by `pipeline-tool init`.\n' +
        '// Editors and `npm run typecheck` check the JavaScript in src/ against it. After upgrading pipeline-tool,\n' +
        '// refresh it from node_modules/pipeline-tool/dist/bridge/types.d.ts.\n\n' +
        'declare const x: 1;\n',
    );
  });

  it('writes the manifest from the answers over the template\'s, keeping its other keys and order', () => {
    const files = plan([file('src/manifest.json', '{ "name": "old", "entry": "index.html", "extra": true }')]);
    expect(files.get('src/manifest.json')).toBe(
      `${JSON.stringify({ name: answers.name, entry: 'index.html', extra: true, $schema: '../node_modules/pipeline-tool/schemas/manifest.schema.json', shortName: answers.shortName, type: 'standalone', version: '2.0.0', description: 'Does it.' }, null, 2)}\n`,
    );
  });

  it('writes package.json with name and version first, the template\'s dependencies kept, and pipeline-tool as given', () => {
    const template = [file('package.json', '{ "private": true, "version": "0.0.0", "devDependencies": { "jsdom": "^29", "pipeline-tool": "^0.0.1" } }')];
    expect(JSON.parse(plan(template).get('package.json')!)).toEqual({ name: 'pkg', version: '2.0.0', private: true, devDependencies: { jsdom: '^29', 'pipeline-tool': '^1.2.3' } });
    expect(Object.keys(JSON.parse(plan(template).get('package.json')!))).toEqual(['name', 'version', 'private', 'devDependencies']);
    expect(JSON.parse(plan(template, { toolkitSpec: 'file:/opt/pipeline-tool' }).get('package.json')!).devDependencies).toEqual({ jsdom: '^29', 'pipeline-tool': 'file:/opt/pipeline-tool' });
    expect(JSON.parse(plan([file('package.json', '{}')]).get('package.json')!)).toEqual({ name: 'pkg', version: '2.0.0', devDependencies: { 'pipeline-tool': '^1.2.3' } });
  });
});

describe('packageNameFor', () => {
  it('runs of other characters become one hyphen, and none is left at either end', () => {
    expect(packageNameFor('My  Tool!!v2')).toBe('my-tool-v2');
    expect(packageNameFor('--._~tool~._--')).toBe('tool');
    expect(packageNameFor('a.b_c~d')).toBe('a.b_c~d');
    expect(packageNameFor('x'.repeat(300))).toBe('x'.repeat(214));
  });
});
