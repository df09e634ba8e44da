import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../../src/core/rules/index.js';
import { tempDir } from '../helpers/bundles.js';
import { runCli, STACK_TRACE, type CliResult } from '../helpers/cli.js';
import { spawnDev } from '../dev/dev-process.js';

let scaffolded: string | undefined;

/** A project made by the binary's own `init`, as an author starts: made once, copied for each test. */
function scaffold(): string {
  if (scaffolded === undefined) {
    const parent = tempDir();
    const made = runCli(['init', 'estimator', '--yes', '--type', 'quoting_extension', '--name', 'Kitchen Estimator', '--short-name', 'Kitchen'], { cwd: parent });
    expect(made.code, made.stderr).toBe(0);
    scaffolded = path.join(parent, 'estimator');
  }
  const copy = path.join(tempDir(), 'estimator');
  cpSync(scaffolded, copy, { recursive: true });
  return copy;
}

function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), content);
  }
}

function writeConfig(project: string, config: unknown, name = 'pipeline-tool.config.json'): void {
  writeFileSync(path.join(project, name), typeof config === 'string' ? config : JSON.stringify(config, null, 2));
}

/** A usage error: exit 2, one line on stderr, nothing on stdout, no stack trace. */
function expectUsageError(result: CliResult, ...parts: string[]): void {
  expect(result.code, result.stderr + result.stdout).toBe(2);
  expect(result.stderr).toMatch(/^pipeline-tool: [^\n]+\n$/);
  expect(result.stderr).not.toMatch(STACK_TRACE);
  for (const part of parts) expect(result.stderr).toContain(part);
}

function zipsIn(folder: string): string[] {
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.zip')) : [];
}

function problemsOf(result: CliResult): string[] {
  const report = JSON.parse(result.stdout) as { problems: { ruleId: string; file?: string; severity: string }[] };
  return report.problems.map((p) => `${p.ruleId} ${p.file ?? '-'} ${p.severity}`);
}

const DEFAULT_CONFIG = { $schema: './node_modules/pipeline-tool/schemas/config.schema.json', source: 'src', out: 'dist' };

describe('a scaffolded project, run from anywhere in it', () => {
  it('validates and packs its tool from the root and from subfolders, the zip going to dist/', () => {
    const project = scaffold();
    expect(JSON.parse(readFileSync(path.join(project, 'pipeline-tool.config.json'), 'utf8'))).toEqual(DEFAULT_CONFIG);

    const fromRoot = runCli(['validate', '--max-warnings', '0', '--format', 'json'], { cwd: project });
    expect(fromRoot.code, fromRoot.stdout).toBe(0);
    expect(JSON.parse(fromRoot.stdout)).toMatchObject({ bundle: 'src', kind: 'folder', ok: true, warningCount: 0 });

    const packed = runCli(['pack'], { cwd: project });
    expect(packed.code, packed.stdout + packed.stderr).toBe(0);
    expect(readdirSync(path.join(project, 'dist'))).toEqual(['kitchen-1.0.0.zip']);
    expect(runCli(['validate', 'dist/kitchen-1.0.0.zip', '--max-warnings', '0'], { cwd: project }).code).toBe(0);

    for (const sub of ['src', '.github/workflows']) {
      const cwd = path.join(project, sub);
      const checked = runCli(['validate', '--format', 'json'], { cwd });
      expect(checked.code, checked.stdout + checked.stderr).toBe(0);
      expect(JSON.parse(checked.stdout).bundle).toBe(path.relative(cwd, path.join(project, 'src')) || '.');
      rmSync(path.join(project, 'dist'), { recursive: true, force: true });
      const again = runCli(['pack', '--quiet'], { cwd });
      expect(again.code, again.stdout + again.stderr).toBe(0);
      // Into the project's dist/, never into the folder the command ran in.
      expect(readdirSync(path.join(project, 'dist'))).toEqual(['kitchen-1.0.0.zip']);
      expect(readdirSync(cwd).some((name) => name.endsWith('.zip'))).toBe(false);
    }
    // A path on the command line still wins, and -o over "out".
    expect(runCli(['pack', 'src', '-o', 'elsewhere/'], { cwd: project }).code).toBe(0);
    expect(existsSync(path.join(project, 'elsewhere', 'kitchen-1.0.0.zip'))).toBe(true);
  });

  it('without a project file, every command run at the root names src/ in one line and exits 2', () => {
    const project = scaffold();
    rmSync(path.join(project, 'pipeline-tool.config.json'));
    for (const command of ['validate', 'pack', 'dev']) {
      expectUsageError(runCli([command], { cwd: project }), '. has no manifest.json, but src has one', `pipeline-tool ${command} src`, '"source": "src"');
    }
    expect(readdirSync(project).some((name) => name.endsWith('.zip'))).toBe(false);
    // Named explicitly, the folder is checked as before.
    expect(runCli(['validate', 'src'], { cwd: project }).code).toBe(0);
  });

  it('a project file inside the tool folder acts on that folder and never ships', () => {
    const tool = path.join(scaffold(), 'src');
    writeConfig(tool, { rules: { 'dialog-call': 'error' } });
    write(tool, { 'deep/er/data.json': '{}' });
    const dry = runCli(['pack', '--dry-run', '--format', 'json'], { cwd: path.join(tool, 'deep', 'er') });
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    const result = JSON.parse(dry.stdout) as { folder: string; excluded: { path: string; reason: string }[]; included: { path: string }[] };
    expect(result.folder).toBe(path.join('..', '..'));
    expect(result.excluded).toContainEqual(expect.objectContaining({ path: 'pipeline-tool.config.json', reason: 'project-file' }));
    expect(result.included.map((file) => file.path)).not.toContain('pipeline-tool.config.json');
  });

  it('dev serves the tool and keeps its settings beside the project file, from a subfolder', async () => {
    const project = scaffold();
    const cwd = path.join(project, '.github');
    const dev = spawnDev(['--port', '0'], { cwd });
    try {
      await dev.waitForOutput(/Stop:/);
      expect(dev.stdout()).toContain(`serving ${path.join('..', 'src')}`);
      expect(dev.stdout()).toContain(`Settings: ${path.join('..', '.pipeline-tool', 'settings.json')}`);
    } finally {
      await dev.stop();
    }
  });
});

// What a KaTeX build looks like: @font-face lists .woff and .ttf fallbacks after the .woff2 that
// browsers use, and a bundle can only hold the .woff2.
const KATEX_LIKE_CSS = `@font-face{font-family:KaTeX_Main;src:url(fonts/KaTeX_Main-Regular.woff2) format("woff2"),url(fonts/KaTeX_Main-Regular.woff) format("woff"),url(fonts/KaTeX_Main-Regular.ttf) format("truetype");font-weight:400;font-style:normal}
.katex{font:normal 1.21em KaTeX_Main,Times New Roman,serif;line-height:1.2;text-indent:0}
`;
const JQUERY_LIKE_JS = `/*! jQuery-like v3.7.1 | (c) OpenJS Foundation and other contributors */
(function (global) {
  function html(elem, value) { elem.innerHTML = value; return elem; }
  function append(elem, markup) { elem.insertAdjacentHTML('beforeend', markup); return elem; }
  global.jq = { html: html, append: append };
})(window);
`;
// The author's own files with the very same mistakes.
const OWN_CSS = `@font-face{font-family:Brand;src:url(fonts/brand.woff2) format("woff2"),url(fonts/brand.woff) format("woff")}
body{font-family:Brand,sans-serif}
`;
const OWN_JS = `// @ts-check
document.body.innerHTML = '<p>' + location.hash + '</p>';
`;

function vendoredProject(): string {
  const project = scaffold();
  write(path.join(project, 'src'), {
    'vendor/katex/katex.min.css': KATEX_LIKE_CSS,
    'vendor/katex/fonts/KaTeX_Main-Regular.woff2': Buffer.from('wOF2 stand-in'),
    'vendor/jquery.min.js': JQUERY_LIKE_JS,
  });
  return project;
}

describe('vendored code quieted by an override', () => {
  const vendorOverride = { files: ['vendor/**'], rules: { 'unsafe-html': 'off', 'reference-missing': 'off' } };

  it('fails on the vendored files without one', () => {
    const result = runCli(['validate', '--format', 'json', '--max-warnings', '0'], { cwd: vendoredProject() });
    expect(result.code).toBe(1);
    expect(problemsOf(result)).toEqual([
      'unsafe-html vendor/jquery.min.js warning',
      'unsafe-html vendor/jquery.min.js warning',
      'reference-missing vendor/katex/katex.min.css error',
      'reference-missing vendor/katex/katex.min.css error',
    ]);
  });

  it('passes with the override, even under --max-warnings 0, and packs', () => {
    const project = vendoredProject();
    writeConfig(project, { ...DEFAULT_CONFIG, overrides: [vendorOverride] });
    const result = runCli(['validate', '--format', 'json', '--max-warnings', '0'], { cwd: path.join(project, 'src', 'vendor') });
    expect(result.code, result.stdout).toBe(0);
    expect(problemsOf(result)).toEqual([]);
    const packed = runCli(['pack', '--format', 'json'], { cwd: project });
    expect(packed.code, packed.stdout).toBe(0);
    expect(JSON.parse(packed.stdout)).toMatchObject({ written: true, report: { problems: [] } });
    // The zip is checked with the same settings as the folder.
    expect(runCli(['validate', 'dist/kitchen-1.0.0.zip', '--max-warnings', '0'], { cwd: project }).code).toBe(0);
  });

  it("still fails on the same mistakes in the author's own files", () => {
    const project = vendoredProject();
    writeConfig(project, { ...DEFAULT_CONFIG, overrides: [vendorOverride] });
    write(path.join(project, 'src'), { 'own.css': OWN_CSS, 'fonts/brand.woff2': Buffer.from('wOF2 stand-in'), 'own.js': OWN_JS });
    const result = runCli(['validate', '--format', 'json', '--max-warnings', '0'], { cwd: project });
    expect(result.code).toBe(1);
    expect(problemsOf(result)).toEqual(['reference-missing own.css error', 'unsafe-html own.js warning']);
    const packed = runCli(['pack'], { cwd: project });
    expect(packed.code).toBe(1);
    expect(zipsIn(path.join(project, 'dist'))).toEqual([]);
  });

  it('lets --rule win over the project file, for vendored files too', () => {
    const project = vendoredProject();
    writeConfig(project, { ...DEFAULT_CONFIG, overrides: [vendorOverride] });
    const result = runCli(['validate', '--format', 'json', '--rule', 'unsafe-html=error'], { cwd: project });
    expect(result.code).toBe(1);
    expect(problemsOf(result)).toEqual(['unsafe-html vendor/jquery.min.js error', 'unsafe-html vendor/jquery.min.js error']);
  });

  it('takes another project file with --config, on every command', () => {
    const project = vendoredProject();
    writeConfig(project, { source: 'src', out: 'release', overrides: [vendorOverride] }, 'ci.json');
    const checked = runCli(['validate', '--config', 'ci.json', '--max-warnings', '0'], { cwd: project });
    expect(checked.code, checked.stdout).toBe(0);
    expect(runCli(['pack', '-c', 'ci.json'], { cwd: project }).code).toBe(0);
    expect(readdirSync(path.join(project, 'release'))).toEqual(['kitchen-1.0.0.zip']);
    expectUsageError(runCli(['validate', '--config', 'missing.json'], { cwd: project }), 'missing.json does not exist');
    expectUsageError(runCli(['dev', '--config', 'src'], { cwd: project }), 'src is a folder');
    writeConfig(project, { source: 'tool' }, 'moved.json');
    for (const command of ['validate', 'pack', 'dev']) {
      expectUsageError(runCli([command, '-c', 'moved.json'], { cwd: project }), 'moved.json names "tool" as "source", but tool does not exist. Correct "source"');
    }
    writeFileSync(path.join(project, 'tool'), 'a file');
    expectUsageError(runCli(['validate', '-c', 'moved.json'], { cwd: project }), 'moved.json names "tool" as "source", but tool is not a folder. Correct "source"');
  });

  it('before the first build, says to build (or, for dev, to serve with the project\'s dev script), not to change "source"', () => {
    const project = vendoredProject();
    writeConfig(project, { source: 'dist', out: 'release' });
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ scripts: { build: 'vite build', dev: 'vite' } }));
    for (const command of ['validate', 'pack']) {
      const result = runCli([command], { cwd: project });
      expectUsageError(result, `dist is not built yet (pipeline-tool.config.json names "dist" as "source", the folder the build writes). Build first with \`npm run build\`, then run pipeline-tool ${command} again.`);
      expect(result.stderr).not.toContain('Correct "source"');
    }
    expectUsageError(runCli(['dev'], { cwd: project }), 'dist is not built yet (pipeline-tool.config.json names "dist" as "source", the folder the build writes). To work on the tool, run `npm run dev`');
    // No scripts, but a Vite config: Vite's own commands.
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'x' }));
    writeFileSync(path.join(project, 'vite.config.ts'), 'export default {};\n');
    expectUsageError(runCli(['pack'], { cwd: project }), 'Build first with `npx vite build`, then run pipeline-tool pack again.');
    expectUsageError(runCli(['dev'], { cwd: project }), 'To work on the tool, run `npx vite`: Vite serves it inside the emulated host and reloads as you save. To serve a build instead, run `npx vite build` first.');
  });
});

describe('--print-config', () => {
  it('prints the settings that apply to one file, as JSON', () => {
    const project = vendoredProject();
    writeConfig(project, { ...DEFAULT_CONFIG, rules: { 'dialog-call': 'error' }, overrides: [{ files: ['vendor/**', '!vendor/own.js'], rules: { 'unsafe-html': 'off' } }] });
    const vendored = runCli(['validate', '--print-config', 'src/vendor/jquery.min.js'], { cwd: project });
    expect(vendored.code).toBe(0);
    const printed = JSON.parse(vendored.stdout) as { file: string; config: string; rules: Record<string, string> };
    expect(printed.file).toBe('vendor/jquery.min.js');
    expect(printed.config).toBe('pipeline-tool.config.json');
    expect(Object.keys(printed.rules)).toEqual(rules.map((r) => r.id));
    expect(printed.rules).toMatchObject({ 'unsafe-html': 'off', 'dialog-call': 'error', 'reference-missing': 'error', 'manifest-bom': 'warn' });

    const own = JSON.parse(runCli(['validate', '--print-config', 'own.js'], { cwd: path.join(project, 'src', 'vendor') }).stdout) as typeof printed;
    expect(own).toMatchObject({ file: 'vendor/own.js', rules: { 'unsafe-html': 'warn' } });
    expectUsageError(runCli(['validate', '--print-config', 'package.json'], { cwd: project }), 'package.json is not a file inside the tool folder src');
  });
});

describe('a project file with a mistake', () => {
  const cases: Array<[string, string, string[]]> = [
    ['not JSON', '{\n  "source": "src",\n}\n', ['pipeline-tool.config.json:2:18: not valid JSON']],
    ['not UTF-8', '{ "source": "sr\u00ff" }', []],
    ['an unknown key', '{\n  "out": "dist",\n  "sorce": "src"\n}', ['pipeline-tool.config.json:3:3: unknown key "sorce"', 'did you mean "source"?']],
    ['an unknown rule id', '{ "rules": { "refrence-missing": "off" } }', ['pipeline-tool.config.json:1:14: unknown rule "refrence-missing"; did you mean "reference-missing"?']],
    ['a bad setting', '{ "rules": { "unsafe-html": "silent" } }', ['pipeline-tool.config.json:1:14: rule "unsafe-html" can be set to off, warn or error']],
    ['a bad glob', '{ "overrides": [{ "files": ["vendor/[z-a]/**"], "rules": { "unsafe-html": "off" } }] }', ['pipeline-tool.config.json:1:29: overrides[0].files[0] is not a usable pattern']],
    ['a comment for a glob', '{ "overrides": [{ "files": ["# vendor"], "rules": { "unsafe-html": "off" } }] }', ['is a comment in gitignore syntax']],
    ['only negations for globs', '{ "overrides": [{ "files": ["!vendor/own.js"], "rules": { "unsafe-html": "off" } }] }', ['pipeline-tool.config.json:1:19: overrides[0].files holds only negations', '["vendor/**", "!vendor/own.js"]']],
    ['a locked rule relaxed', '{ "rules": { "bundle-size": "off" } }', ['pipeline-tool.config.json:1:14: "bundle-size" cannot be turned off']],
    ['a locked rule relaxed in an override', '{ "overrides": [{ "files": ["vendor/**"], "rules": { "file-type": "warn" } }] }', ['"file-type" cannot be turned off or down']],
    ['a source outside the project', '{ "source": "../other" }', ['"source" must stay inside the project']],
    ['out inside source', '{ "source": "src", "out": "src/dist" }', ['the next pack would ship the zip']],
  ];

  // Every command reads the project file through the same loader: the first cases go through all
  // three, and the rest take turns, so that each command still meets several kinds of mistake.
  const COMMANDS = ['validate', 'pack', 'dev'];
  cases.forEach(([what, text, parts], index) => {
    const commands = index < 2 ? COMMANDS : [COMMANDS[index % COMMANDS.length]!];
    it(`${what}: one line naming the file and the place, exit 2, for ${commands.join(', ')}`, () => {
      const project = scaffold();
      writeFileSync(path.join(project, 'pipeline-tool.config.json'), what === 'not UTF-8' ? Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]) : text);
      const cwd = path.join(project, 'src');
      const shown = path.join('..', 'pipeline-tool.config.json');
      for (const command of commands) {
        const result = runCli([command], { cwd });
        expectUsageError(result, ...parts.map((part) => part.replace('pipeline-tool.config.json', shown)));
        if (what === 'not UTF-8') expect(result.stderr).toContain(`${shown} is not valid UTF-8`);
      }
      expect(zipsIn(path.join(project, 'dist'))).toEqual([]);
    });
  });
});

it('a pattern that matches no file of the tool today is accepted: files come and go', () => {
  const project = scaffold();
  writeConfig(project, { ...DEFAULT_CONFIG, overrides: [{ files: ['vendor/**'], rules: { 'unsafe-html': 'off' } }] });
  for (const command of ['validate', 'pack']) {
    const result = runCli([command], { cwd: project });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
  }
});

describe('pipeline-tool rules <id>', () => {
  it('explains one rule: what it catches, why, how to fix it, and whether it is locked', () => {
    const result = runCli(['rules', 'reference-missing']);
    expect(result.code).toBe(0);
    const rule = rules.find((r) => r.id === 'reference-missing')!;
    for (const text of [rule.description, rule.why, rule.fix, 'Locked:   no']) expect(result.stdout).toContain(text);
    expect(runCli(['rules', 'bundle-size']).stdout).toContain('Locked:   yes');
    expect(JSON.parse(runCli(['rules', 'file-type', '--format', 'json']).stdout)).toEqual({
      id: 'file-type',
      severity: 'error',
      locked: true,
      description: rules.find((r) => r.id === 'file-type')!.description,
      why: rules.find((r) => r.id === 'file-type')!.why,
      fix: rules.find((r) => r.id === 'file-type')!.fix,
    });
  });

  it('names the nearest rule for an unknown id', () => {
    expectUsageError(runCli(['rules', 'unsafe-htm']), 'unknown rule "unsafe-htm"; did you mean "unsafe-html"?');
  });
});
