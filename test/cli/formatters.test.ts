import path from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatNames, loadFormatter, type FormatOptions } from '../../src/cli/formatters/index.js';
import { listLeftOut } from '../../src/cli/formatters/left-out.js';
import { libraryGroups, librarySummary, splitLibraryWarnings } from '../../src/core/library-summary.js';
import { filesMatcher, type RuleOverride } from '../../src/core/config/index.js';
import type { ExcludedEntry } from '../../src/core/shipment/left-out.js';
import { summarise, type Problem, type Report } from '../../src/core/problem.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodFiles, goodManifest, writeFolder, writeZip } from '../helpers/bundles.js';
import { APP_TSX, buildApp, positionOf } from '../helpers/built-app.js';
import { readWorkflowCommands } from '../helpers/workflow-commands.js';

/*
 * The three output formats, in-process, on reports validate made from real folders and zips, and
 * on reports built by hand where a shape is rare (a folder problem without a file, a line
 * without a column). The binary's own tests (validate-cli, github-annotations) hold the wiring.
 */

const PLAIN: FormatOptions = { colour: false, quiet: false, cwd: '/' };
const format = async (name: string, report: Report, options: Partial<FormatOptions> = {}) =>
  (await loadFormatter(name, { colour: options.colour ?? false }))!(report, { ...PLAIN, ...options });

const APP = '// rates\nalert(1);\n\n\n\n\n\n\n\n\nwindow.pipeline.quotes.update();\n';

/** A folder with an error and a warning in one script, a warning in the manifest, and files pack leaves out. */
async function folderReport(): Promise<{ folder: string; report: Report }> {
  const folder = writeFolder({
    ...goodFiles({ ...goodManifest, description: 'Estimates kitchens. Fast.' }),
    'index.html': '<!doctype html><title>T</title><script src="lib/app.js"></script>',
    'lib/app.js': APP,
    'notes.txt': 'x',
    '.pipelineignore': 'drafts/\n',
    'drafts/old.js': 'x',
  });
  return { folder, report: await validateBundle(folder) };
}

const problem = (severity: Problem['severity'], extra: Partial<Problem> = {}): Problem => ({ ruleId: `rule-${severity}`, severity, message: severity === 'error' ? 'an error' : 'a warning', ...extra });

describe('the registry', () => {
  it('knows text, json, github and sarif, and nothing else, not even what every object has', async () => {
    expect(formatNames).toEqual(['text', 'json', 'github', 'sarif']);
    for (const name of formatNames) expect(typeof (await loadFormatter(name, { colour: false }))).toBe('function');
    for (const name of ['xml', 'toString', 'constructor', '__proto__', '']) expect(loadFormatter(name)).toBeUndefined();
  });

  it('loads chalk for text only when colour may be asked for', async () => {
    const text = await loadFormatter('text');
    expect(text!(summarise('b.zip', 'zip', [problem('error')]), { ...PLAIN, colour: true })).toContain('\u001b[31m');
  });
});

describe('text', () => {
  it('groups by file with aligned locations, lists what is left out, and ends with the summary', async () => {
    const { folder, report } = await folderReport();
    report.bundle = path.basename(folder);
    expect(await format('text', report)).toBe(
      [
        'lib/app.js',
        "  2:1   warning  alert() does nothing inside the platform's sandboxed frame: no dialog opens. Show the message or question in the page itself (an inline banner, or a <dialog> element).  dialog-call",
        '  11:1  error    pipeline.quotes.update does not exist, so the call throws at run time; did you mean pipeline.quotes.create?  bridge-unknown-method',
        '',
        'manifest.json',
        // Each file's locations are aligned among themselves.
        `  6:3  warning  "description" reads as 2 sentences; the listing expects one. Keep the first and move the rest to your tool's help.  manifest-description`,
        '',
        'Left out of the bundle, as pack leaves them out (3):',
        '  .pipelineignore  project-file  project file, not part of the tool',
        '  drafts/          ignored       matches "drafts/" in .pipelineignore',
        '  notes.txt        file-type     .txt files are not accepted',
        '',
        `✖ ${path.basename(folder)}: 3 problems (1 error, 2 warnings)`,
        '',
      ].join('\n'),
    );
  });

  it('with --quiet: errors only, no left-out list, and says how many warnings it hid', async () => {
    const { report } = await folderReport();
    report.bundle = 'tool';
    expect(await format('text', report, { quiet: true })).toBe(
      [
        'lib/app.js',
        '  11:1  error    pipeline.quotes.update does not exist, so the call throws at run time; did you mean pipeline.quotes.create?  bridge-unknown-method',
        '',
        '✖ tool: 3 problems (1 error, 2 warnings); 2 warnings hidden by --quiet',
        '',
      ].join('\n'),
    );
  });

  it('puts problems without a file under the bundle, leaves out the location column when no problem has a line, and takes column 1 for a line alone', async () => {
    const report = summarise('b.zip', 'zip', [problem('error', { file: 'a.js', line: 3 }), problem('warning'), problem('warning', { file: 'z.js' })]);
    expect(await format('text', report)).toBe(
      ['a.js', '  3:1  error    an error  rule-error', '', 'b.zip', '  warning  a warning  rule-warning', '', 'z.js', '  warning  a warning  rule-warning', '', '✖ b.zip: 3 problems (1 error, 2 warnings)', ''].join('\n'),
    );
  });

  it('counts in words that agree with the numbers, and says hidden only when something was', async () => {
    expect(await format('text', summarise('b.zip', 'zip', []))).toBe('✔ b.zip: no problems\n');
    expect(await format('text', summarise('b.zip', 'zip', [problem('error')]), { quiet: true })).toContain('✖ b.zip: 1 problem (1 error, 0 warnings)\n');
    expect(await format('text', summarise('b.zip', 'zip', [problem('warning')]))).toContain('⚠ b.zip: 1 problem (0 errors, 1 warning)\n');
    expect(await format('text', summarise('b.zip', 'zip', [problem('warning')]), { quiet: true })).toBe('⚠ b.zip: 1 problem (0 errors, 1 warning); 1 warning hidden by --quiet\n');
  });

  it('prints an empty left-out list as nothing, and none at all when the report has none', async () => {
    const report = await validateBundle(writeFolder(goodFiles()));
    expect(report.excluded).toEqual([]);
    report.bundle = 'tool';
    expect(await format('text', report)).toBe('✔ tool: no problems\n');
  });

  it('in colour: file names underlined, locations and rule ids dim, severities and the summary coloured', async () => {
    const chalk = new Chalk({ level: 1 });
    const report = summarise('b.zip', 'zip', [problem('error', { file: 'a.js', line: 2, column: 5 }), problem('warning', { file: 'a.js' })]);
    expect(await format('text', report, { colour: true })).toBe(
      [
        chalk.underline('a.js'),
        `  ${chalk.dim('2:5')}  ${chalk.red('error  ')}  an error  ${chalk.dim('rule-error')}`,
        `  ${chalk.dim('   ')}  ${chalk.yellow('warning')}  a warning  ${chalk.dim('rule-warning')}`,
        '',
        chalk.red.bold('✖ b.zip: 2 problems (1 error, 1 warning)'),
        '',
      ].join('\n'),
    );
    expect(await format('text', summarise('b.zip', 'zip', [problem('warning')]), { colour: true })).toContain(chalk.yellow.bold('⚠ b.zip: 1 problem (0 errors, 1 warning)'));
    expect(await format('text', summarise('b.zip', 'zip', []), { colour: true })).toBe(`${chalk.green('✔ b.zip: no problems')}\n`);
  });
});

describe('text: warnings in library code', () => {
  const EDITOR = "el.innerHTML = a;\nel.innerHTML = b;\nconfirm('c');\nwindow.pipeline.quotes.update();\n";
  const page = (scripts: string[]) => `<!doctype html><title>T</title>${scripts.map((src) => `<script src="${encodeURI(src).replace(/[#?]/g, encodeURIComponent)}"></script>`).join('')}`;
  /** A folder with the author's app.js and library files, each with a script tag, as validate reports it. */
  async function libraryReport(libraries: Record<string, string>): Promise<{ folder: string; report: Report }> {
    const folder = writeFolder({ ...goodFiles(), 'index.html': page([...Object.keys(libraries), 'app.js']), 'app.js': "alert('mine');\n", ...libraries });
    const report = await validateBundle(folder);
    report.bundle = 'tool';
    return { folder, report };
  }
  const suggested = (text: string) => [...text.matchAll(/to quiet them, add to "overrides" in pipeline-tool\.config\.json: (\{.*\})$/gm)].map((match) => JSON.parse(match[1]!) as RuleOverride);

  it("sums up each library file's warnings in one line under its errors, in the messages' column, naming an override that quiets them", async () => {
    const { report } = await libraryReport({ 'vendor/editor.js': EDITOR, 'vendor/only.js': 'el.innerHTML = a;\n' });
    expect(await format('text', report)).toBe(
      [
        'app.js',
        "  1:1  warning  alert() does nothing inside the platform's sandboxed frame: no dialog opens. Show the message or question in the page itself (an inline banner, or a <dialog> element).  dialog-call",
        '',
        'vendor/editor.js',
        '  4:1  error    pipeline.quotes.update does not exist, so the call throws at run time; did you mean pipeline.quotes.create?  bridge-unknown-method',
        '       warning  1 dialog-call, 2 unsafe-html warnings in library code, not listed (--verbose lists them); to quiet them, add to "overrides" in pipeline-tool.config.json: {"files":["vendor/editor.js"],"rules":{"dialog-call":"off","unsafe-html":"off"}}',
        '',
        // Nothing listed, so no location column: one warning, one rule.
        'vendor/only.js',
        '  warning  1 unsafe-html warning in library code, not listed (--verbose lists them); to quiet them, add to "overrides" in pipeline-tool.config.json: {"files":["vendor/only.js"],"rules":{"unsafe-html":"off"}}',
        '',
        // The counts take every warning.
        '✖ tool: 6 problems (1 error, 5 warnings)',
        '',
      ].join('\n'),
    );
  });

  it('lists every one with --verbose, and with --quiet shows the errors alone and no sum', async () => {
    const { report } = await libraryReport({ 'vendor/editor.js': EDITOR });
    const verbose = await format('text', report, { verbose: true });
    expect(verbose).not.toContain('in library code');
    expect(verbose.split('\n').filter((line) => / (warning|error) {2}/.test(line)).map((line) => line.trim().split(/\s+/).slice(0, 2).join(' '))).toEqual([
      '1:1 warning',
      '1:4 warning',
      '2:4 warning',
      '3:1 warning',
      '4:1 error',
    ]);
    expect(await format('text', report, { verbose: false })).toBe(await format('text', report));
    const quiet = await format('text', report, { quiet: true });
    expect(quiet).not.toContain('in library code');
    expect(quiet.split('\n').slice(0, 3)).toEqual(['vendor/editor.js', expect.stringMatching(/^ {2}4:1 {2}error {4}pipeline\.quotes\.update/), '']);
  });

  it('sums up only warnings in library code: an error there, and the author\'s own warnings, are listed', async () => {
    const report = summarise('b.zip', 'zip', [
      problem('warning', { file: 'a.js', line: 1, column: 1 }),
      problem('error', { file: 'v.js', line: 2, column: 1, library: true }),
      problem('warning', { file: 'v.js', line: 3, column: 1, library: true }),
    ]);
    expect((await format('text', report)).split('\n').slice(0, 6)).toEqual([
      'a.js',
      '  1:1  warning  a warning  rule-warning',
      '',
      'v.js',
      '  2:1  error    an error  rule-error',
      '       warning  1 rule-warning warning in library code, not listed (--verbose lists them); to quiet them, add to "overrides" in pipeline-tool.config.json: {"files":["/v.js"],"rules":{"rule-warning":"off"}}',
    ]);
  });

  it('names rules in order of their ids, each with its count', () => {
    const warnings = ['unsafe-html', 'browser-storage', 'unsafe-html', 'dialog-call', 'browser-storage', 'unsafe-html'].map((ruleId) => problem('warning', { ruleId, file: 'vendor/x.js', library: true }));
    expect(librarySummary('vendor/x.js', warnings)).toBe(
      '2 browser-storage, 1 dialog-call, 3 unsafe-html warnings in library code, not listed (--verbose lists them); to quiet them, add to "overrides" in pipeline-tool.config.json: {"files":["vendor/x.js"],"rules":{"browser-storage":"off","dialog-call":"off","unsafe-html":"off"}}',
    );
    expect(splitLibraryWarnings(warnings, true)).toEqual({ listed: warnings, summed: [] });
    expect(splitLibraryWarnings(warnings, true).listed).not.toBe(warnings);
  });

  it('suggests a pattern that the project file accepts and that quiets that one file, whatever its name holds', async () => {
    const names = ['jquery.min.js', 'sub/jquery.min.js', '#x.min.js', '!y.min.js', 'vendor/[a]*?!#.js', 'vendor/a1!#.js', 'vendor/a\\b.js'];
    const { folder, report } = await libraryReport(Object.fromEntries(names.map((name) => [name, "confirm('c');\n"])));
    const overrides = suggested(await format('text', report));
    expect(overrides.map((override) => override.files)).toEqual([['/\\!y.min.js'], ['/\\#x.min.js'], ['/jquery.min.js'], ['sub/jquery.min.js'], ['vendor/\\[a\\]\\*\\?\\!\\#.js'], ['vendor/a1\\!\\#.js'], ['vendor/a\\\\b.js']]);
    const libraryFiles = (r: Report) => r.problems.filter((p) => p.library).map((p) => p.file);
    expect(libraryFiles(report)).toEqual(['!y.min.js', '#x.min.js', 'jquery.min.js', 'sub/jquery.min.js', 'vendor/[a]*?!#.js', 'vendor/a1!#.js', 'vendor/a\\b.js']);
    for (const override of overrides) {
      // Through the same checks and matcher as the project file's overrides.
      const quieted = await validateBundle(folder, { overrides: [override] });
      const file = override.files[0]!.replace(/^\//, '').replace(/\\(.)/g, '$1');
      expect(libraryFiles(quieted), file).toEqual(libraryFiles(report).filter((name) => name !== file));
    }
  });

  it('escapes a trailing space, which gitignore would drop', () => {
    const [override] = suggested(librarySummary('vendor/x.js ', [problem('warning', { file: 'vendor/x.js ', library: true })]));
    expect(override!.files).toEqual(['vendor/x.js\\ ']);
    const matches = filesMatcher(override!.files);
    expect([matches('vendor/x.js '), matches('vendor/x.js')]).toEqual([true, false]);
    // Only the trailing one: a space inside a name is part of it as it is.
    const [spaced] = suggested(librarySummary('my lib/x.js ', [problem('warning', { file: 'my lib/x.js ', library: true })]));
    expect(spaced!.files).toEqual(['my lib/x.js\\ ']);
    expect(filesMatcher(spaced!.files)('my lib/x.js ')).toBe(true);
  });
});

describe('a finding placed through a source map, beside one that is not', () => {
  const LIB = 'export function render(el: HTMLElement, html: string): void {\n  el.innerHTML = html;\n}\n';
  /** A built app whose bundle holds the author's localStorage and a library's innerHTML, and a script of its own without a map. */
  async function placedReport() {
    const app = buildApp(
      {
        'node_modules/fake-lib/package.json': JSON.stringify({ name: 'fake-lib', main: 'index.ts' }),
        'node_modules/fake-lib/index.ts': LIB,
        'src/main.tsx': "import { App } from './App';\nimport { render } from 'fake-lib';\n\nrender(document.body, String(App().outerHTML));\n",
      },
      { extra: { 'dist/index.html': '<!doctype html><html><head><title>App</title><script type="module" src="assets/index.js"></script><script src="extra.js"></script></head><body></body></html>\n', 'dist/extra.js': "alert('x');\n" } },
    );
    const report = await validateBundle(app.dist, { sourceMaps: { root: app.project } });
    return {
      app,
      report,
      storage: { source: positionOf(APP_TSX, 'localStorage'), built: positionOf(app.bundle, 'localStorage') },
      html: { source: positionOf(LIB, 'innerHTML'), built: positionOf(app.bundle, 'innerHTML') },
    };
  }

  it('text: under the source file, naming its place in the bundle; the unplaced one under its own file', async () => {
    const { report, storage, html } = await placedReport();
    report.bundle = 'dist';
    const message = (ruleId: string) => report.problems.find((p) => p.ruleId === ruleId)!.message;
    const [alert, library, own] = [
      ['extra.js', `  1:1  warning  ${message('dialog-call')}  dialog-call`, ''],
      ['node_modules/fake-lib/index.ts', `  ${html.source.line}:${html.source.column}  warning  ${message('unsafe-html')}  unsafe-html  (built: assets/index.js:${html.built.line}:${html.built.column})`, ''],
      ['src/App.tsx', `  ${storage.source.line}:${storage.source.column}  warning  ${message('browser-storage')}  browser-storage  (built: assets/index.js:${storage.built.line}:${storage.built.column})`, ''],
    ];
    const end = ['Left out of the bundle, as pack leaves them out (1):', '  assets/index.js.map  source-map  source map, not accepted by the marketplace', '', '⚠ dist: 3 problems (0 errors, 3 warnings)', ''];
    expect(await format('text', report, { verbose: true })).toBe([...alert!, ...library!, ...own!, ...end].join('\n'));
    // Library code by its source's path: summed up per package, after the files, unless --verbose.
    expect((await format('text', report)).split('\n').slice(3, 9)).toEqual([
      ...own!,
      'node_modules/fake-lib',
      '  warning  1 unsafe-html warning in fake-lib (library code), not listed (--verbose lists them); to quiet them, add to "overrides" in pipeline-tool.config.json: {"files":["node_modules/fake-lib/"],"rules":{"unsafe-html":"off"}}',
      '',
    ]);
  });

  it('json: the place in the bundle as built, the library mark, and the folder the sources are relative to', async () => {
    const { app, report, storage, html } = await placedReport();
    const document = JSON.parse(await format('json', report, { cwd: app.dist }));
    expect(document.sourceRoot).toBe('..');
    expect(Object.keys(document).at(-1)).toBe('sourceRoot');
    expect(document.problems.map(({ message: _message, ...rest }: Problem) => rest)).toEqual([
      { ruleId: 'dialog-call', severity: 'warning', file: 'extra.js', line: 1, column: 1, data: { name: 'alert' } },
      { ruleId: 'unsafe-html', severity: 'warning', file: 'node_modules/fake-lib/index.ts', ...html.source, built: { file: 'assets/index.js', ...html.built }, data: expect.any(Object), library: true, package: 'fake-lib' },
      { ruleId: 'browser-storage', severity: 'warning', file: 'src/App.tsx', ...storage.source, built: { file: 'assets/index.js', ...storage.built }, data: { api: 'localStorage' } },
    ]);
    expect(JSON.parse(await format('json', report, { cwd: path.dirname(app.project) })).sourceRoot).toBe(path.basename(app.project));
    // Without a placed finding, no sourceRoot.
    expect(JSON.parse(await format('json', await validateBundle(app.dist, { sourceMaps: false }))).sourceRoot).toBeUndefined();
  });

  it('github: the placed finding at its source from the repository root, the other at its built file', async () => {
    const { app, report, storage } = await placedReport();
    const project = path.basename(app.project);
    const commands = readWorkflowCommands(await format('github', report, { cwd: app.project, workspace: path.dirname(app.project) }));
    expect(commands.map((command) => command.properties)).toEqual([
      { file: `${project}/dist/extra.js`, line: '1', col: '1', title: 'pipeline-tool dialog-call' },
      { file: `${project}/node_modules/fake-lib/index.ts`, line: '2', col: '6', title: 'pipeline-tool unsafe-html' },
      { file: `${project}/src/App.tsx`, line: String(storage.source.line), col: String(storage.source.column), title: 'pipeline-tool browser-storage' },
    ]);
  });
});

describe('json', () => {
  it('carries every field of each problem, the counts, and what is left out', async () => {
    const { folder, report } = await folderReport();
    const document = JSON.parse(await format('json', report));
    expect(document).toEqual({
      ok: false,
      errorCount: 1,
      warningCount: 2,
      bundle: folder,
      kind: 'folder',
      problems: report.problems.map(({ ruleId, severity, message, file, line, column, data }) => ({ ruleId, severity, message, file, line, column, data })),
      excluded: report.excluded,
    });
    expect(Object.keys(document)).toEqual(['ok', 'errorCount', 'warningCount', 'bundle', 'kind', 'problems', 'excluded']);
  });

  it('leaves out the fields a problem does not have, hides warnings with --quiet, and has no excluded list for a zip', async () => {
    const report = summarise('b.zip', 'zip', [problem('error'), problem('warning', { file: 'a.js', line: 1, column: 2, data: { n: 1 } })]);
    const quiet = JSON.parse(await format('json', report, { quiet: true }));
    expect(quiet).toEqual({ ok: false, errorCount: 1, warningCount: 1, bundle: 'b.zip', kind: 'zip', problems: [{ ruleId: 'rule-error', severity: 'error', message: 'an error' }] });
    const all = JSON.parse(await format('json', report));
    expect(all.problems[1]).toEqual({ ruleId: 'rule-warning', severity: 'warning', message: 'a warning', file: 'a.js', line: 1, column: 2, data: { n: 1 } });
    expect(await format('json', report)).toMatch(/^\{\n {2}"ok": false,\n/);
  });
});

describe('github', () => {
  it('annotates a folder\'s files at their lines, relative to the working folder', async () => {
    const { folder, report } = await folderReport();
    const cwd = path.dirname(folder);
    report.bundle = path.basename(folder);
    const out = await format('github', report, { cwd });
    const at = (file: string) => `${path.basename(folder)}/${file}`;
    expect(readWorkflowCommands(out).map((command) => [command.command, command.properties])).toEqual([
      ['warning', { file: at('lib/app.js'), line: '2', col: '1', title: 'pipeline-tool dialog-call' }],
      ['error', { file: at('lib/app.js'), line: '11', col: '1', title: 'pipeline-tool bridge-unknown-method' }],
      ['warning', { file: at('manifest.json'), line: '6', col: '3', title: 'pipeline-tool manifest-description' }],
    ]);
    // The summary line follows, and is no workflow command.
    expect(out.endsWith(`\n${path.basename(folder)}: 3 problems (1 error, 2 warnings)\n`)).toBe(true);
  });

  it('annotates the zip itself for a zip, naming the entry and its place in the message', async () => {
    const files = { ...goodFiles(), 'index.html': '<!doctype html><title>T</title><script src="lib/app.js"></script>', 'lib/app.js': APP };
    const zip = writeZip(Object.entries(files).map(([name, data]) => ({ name, data })));
    const report = await validateBundle(zip);
    const out = await format('github', report, { cwd: path.dirname(zip) });
    const commands = readWorkflowCommands(out);
    expect(commands.map((command) => [command.command, command.properties, command.message.split(': ')[0]])).toEqual([
      ['warning', { file: 'bundle.zip', title: 'pipeline-tool dialog-call' }, 'lib/app.js:2:1'],
      ['error', { file: 'bundle.zip', title: 'pipeline-tool bridge-unknown-method' }, 'lib/app.js:11:1'],
    ]);
  });

  it('places a finding on a line without a column at column 1 in a zip, and a finding without a line at the entry', async () => {
    const report = summarise('b.zip', 'zip', [problem('error', { file: 'a.js', line: 7 }), problem('warning', { file: 'x,y.js' }), problem('warning')]);
    const commands = readWorkflowCommands(await format('github', report, { cwd: '/work' }));
    expect(commands.map((command) => command.message)).toEqual(['a.js:7:1: an error', 'x,y.js: a warning', 'a warning']);
    expect(commands.map((command) => command.properties['file'])).toEqual(['b.zip', 'b.zip', 'b.zip']);
  });

  it('names the folder itself for a folder problem without a file, and the working folder as "."', async () => {
    const report: Report = { ...summarise('/work/tool', 'folder', [problem('error'), problem('warning', { file: 'a.js', line: 2 })]) };
    const inside = readWorkflowCommands(await format('github', report, { cwd: '/work' }));
    expect(inside.map((command) => command.properties)).toEqual([
      { file: 'tool', title: 'pipeline-tool rule-error' },
      { file: 'tool/a.js', line: '2', title: 'pipeline-tool rule-warning' },
    ]);
    const here = readWorkflowCommands(await format('github', report, { cwd: '/work/tool' }));
    expect(here.map((command) => command.properties['file'])).toEqual(['.', 'a.js']);
  });

  it('makes paths relative to GITHUB_WORKSPACE when the bundle lies inside it, and to the working folder otherwise', async () => {
    const report = summarise('tool', 'folder', [problem('error', { file: 'a.js', line: 1, column: 1 })]);
    const file = async (workspace: string | undefined, cwd = '/repo/app') => readWorkflowCommands(await format('github', report, { cwd, workspace }))[0]!.properties['file'];
    expect(await file('/repo')).toBe('app/tool/a.js');
    expect(await file('/repo/app/tool')).toBe('a.js');
    expect(await file('/repo/other')).toBe('tool/a.js');
    expect(await file('/repo/app/tool/a.js/deeper')).toBe('tool/a.js');
    expect(await file(undefined)).toBe('tool/a.js');
    // A name that only starts with "..": inside the workspace all the same.
    const dotted = summarise('..tool', 'folder', [problem('error', { file: 'a.js' })]);
    expect(readWorkflowCommands(await format('github', dotted, { cwd: '/repo', workspace: '/repo' }))[0]!.properties['file']).toBe('..tool/a.js');
  });

  it('escapes what would end a property or the message, and shows control characters in names', async () => {
    const report = summarise('b.zip', 'zip', [problem('error', { file: 'a,b:c%d.js', message: '50% done\r\nnext' })]);
    const folderReport = summarise('t', 'folder', [problem('error', { file: 'a,b:c%d\n.js', message: '50% done' })]);
    const [inZip] = readWorkflowCommands(await format('github', report, { cwd: '/' }));
    expect(inZip!.message).toBe('a,b:c%d.js: 50% done\\x0d\\x0anext');
    const line = (await format('github', folderReport, { cwd: '/' })).split('\n')[0]!;
    expect(line).toBe('::error file=t/a%2Cb%3Ac%25d\\x0a.js,title=pipeline-tool rule-error::50%25 done');
    expect(readWorkflowCommands(line)[0]!.properties['file']).toBe('t/a,b:c%d\\x0a.js');
  });

  it('hides warnings with --quiet', async () => {
    const report = summarise('b.zip', 'zip', [problem('error'), problem('warning')]);
    expect(readWorkflowCommands(await format('github', report, { quiet: true })).map((command) => command.command)).toEqual(['error']);
  });
});

describe('the left-out list', () => {
  const entry = (path: string, reason: ExcludedEntry['reason'], detail?: string): ExcludedEntry => ({ path, kind: 'file', reason, ...(detail ? { detail } : {}) });

  it('says why for every reason, with the detail when there is one', () => {
    const entries = [
      entry('.env', 'dot-file'),
      entry('.DS_Store', 'dot-file', 'macOS Finder metadata'),
      entry('Thumbs.db', 'junk'),
      entry('desktop.ini', 'junk', 'Windows folder settings'),
      entry('node_modules/', 'node_modules'),
      entry('link.js', 'symlink'),
      entry('pipe', 'not-regular'),
      entry('tool.zip', 'output-zip'),
      entry('package.json', 'project-file'),
      entry('app.js.map', 'source-map'),
      entry('drafts/', 'ignored', 'drafts/'),
      entry('old.js', 'ignored'),
      entry('notes.txt', 'file-type', '.txt'),
      entry('LICENSE', 'file-type'),
      entry('fixtures.json', 'fixtures'),
    ];
    expect(listLeftOut(entries, (text) => `<${text}>`).map((line) => line.replace(/ {2,}/g, ' | '))).toEqual([
      ' | .env | dot-file | <hidden file or folder>',
      ' | .DS_Store | dot-file | <macOS Finder metadata>',
      ' | Thumbs.db | junk | <system debris>',
      ' | desktop.ini | junk | <Windows folder settings>',
      ' | node_modules/ | node_modules | <dependencies, never part of a bundle>',
      ' | link.js | symlink | <symbolic link, never followed>',
      ' | pipe | not-regular | <not a regular file>',
      ' | tool.zip | output-zip | <the zip pack writes>',
      ' | package.json | project-file | <project file, not part of the tool>',
      ' | app.js.map | source-map | <source map, not accepted by the marketplace>',
      ' | drafts/ | ignored | <matches "drafts/" in .pipelineignore>',
      ' | old.js | ignored | <excluded by .pipelineignore>',
      ' | notes.txt | file-type | <.txt files are not accepted>',
      ' | LICENSE | file-type | <files without an extension are not accepted>',
      ' | fixtures.json | fixtures | <fixture data for pipeline-tool dev>',
    ]);
  });

  it('aligns paths and reasons by their longest, shows names escaped, and says when there is nothing', () => {
    expect(listLeftOut([entry('a\u001b.js', 'junk', 'x'), entry('bb', 'node_modules')], (text) => text)).toEqual([
      '  a\\x1b.js  junk          x',
      '  bb        node_modules  dependencies, never part of a bundle',
    ]);
    expect(listLeftOut([], (text) => text)).toEqual(['  (nothing)']);
  });
});

describe('text: warnings of a package in library code', () => {
  const storage = (file: string): Problem => ({
    ruleId: 'browser-storage',
    severity: 'warning',
    message: "pinia-plugin-persistedstate uses localStorage where nothing catches the failure: … Do not turn on pinia-plugin-persistedstate's persistence; …",
    file,
    line: 1,
    column: 1,
    library: true,
    package: 'pinia-plugin-persistedstate',
  });

  it('sums up a package once, whatever its files, with what to do about its storage instead of a way to quiet it', () => {
    const warnings = [storage('node_modules/pinia-plugin-persistedstate/dist/index.js'), storage('node_modules/pinia-plugin-persistedstate/dist/other.js')];
    const groups = libraryGroups(warnings);
    expect([...groups.keys()]).toEqual(['pinia-plugin-persistedstate']);
    const line = librarySummary('pinia-plugin-persistedstate', warnings, 'pinia-plugin-persistedstate');
    expect(line).toBe(`2 browser-storage warnings in pinia-plugin-persistedstate (library code), not listed (--verbose lists them): ${warnings[0]!.message}`);
    const mixed = librarySummary('x', [{ ...storage('node_modules/x/a.js'), package: 'x' }, { ...storage('node_modules/x/a.js'), ruleId: 'dialog-call', package: 'x' }], 'x');
    expect(mixed).toContain('; to quiet dialog-call, add to "overrides" in pipeline-tool.config.json: {"files":["node_modules/x/"],"rules":{"dialog-call":"off"}}');
  });
});
