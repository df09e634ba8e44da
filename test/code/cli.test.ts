import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { goodFiles, writeFolder, writeZip } from '../helpers/bundles.js';
import { runCli, STACK_TRACE } from '../helpers/cli.js';

// Through the built binary (npm test builds first): the contract users script against.

interface JsonProblem {
  ruleId: string;
  severity: string;
  file?: string;
  line?: number;
}

function validate(bundle: string, ...flags: string[]) {
  const result = runCli(['validate', bundle, '--format', 'json', ...flags]);
  const report = result.stdout ? (JSON.parse(result.stdout) as { problems: JsonProblem[] }) : { problems: [] };
  return { code: result.code, stderr: result.stderr, problems: report.problems.map((p) => `${p.ruleId}:${p.severity}@${p.file}:${p.line}`) };
}

const tool = (files: Record<string, string>) => writeFolder({ ...goodFiles(), ...files });

describe('pipeline-tool-disable-next-line', () => {
  const code = [
    "// pipeline-tool-disable-next-line dialog-call -- the host's confirm is polyfilled",
    "if (confirm('a')) go();",
    "if (confirm('b')) go();",
    '/* pipeline-tool-disable-next-line unsafe-html, browser-storage */',
    'el.innerHTML = html; localStorage.x = confirm("c");',
    '// pipeline-tool-disable-next-line',
    'el.innerHTML = html; localStorage.x = confirm("d");',
  ].join('\n');

  it('silences the named rules on the next line only, and all rules when none is named', () => {
    const { code: exit, problems } = validate(tool({ 'app.js': code }));
    expect(problems).toEqual(['dialog-call:warning@app.js:3', 'dialog-call:warning@app.js:5']);
    expect(exit).toBe(0); // warnings only
  });

  it('works in HTML comments and inline scripts, for errors too', () => {
    const html = [
      '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body>',
      '<!-- pipeline-tool-disable-next-line reference-missing -->',
      '<img src="generated-at-build.png" alt="">',
      '<img src="really-missing.png" alt="">',
      '<script src="app.js"></script>',
      '<script>',
      '  // pipeline-tool-disable-next-line bridge-unknown-method',
      '  window.pipeline.quotes.update();',
      '</script></body></html>',
    ].join('\n');
    const { code: exit, problems } = validate(tool({ 'index.html': html }));
    expect(problems).toEqual(['reference-missing:error@index.html:4']);
    expect(exit).toBe(1);
  });

  it('reports a directive naming an unknown rule, and silences nothing with it', () => {
    const { problems } = validate(tool({ 'app.js': "// pipeline-tool-disable-next-line dialog-cal\nalert('x');\n" }));
    expect(problems).toEqual(['unknown-disable-directive:warning@app.js:1', 'dialog-call:warning@app.js:2']);
  });

  it('works the same in a zip', () => {
    const files = { ...goodFiles(), 'app.js': "// pipeline-tool-disable-next-line dialog-call\nalert('x');\nalert('y');\n" };
    const zip = writeZip(Object.entries(files).map(([name, data]) => ({ name, data })));
    expect(validate(zip).problems).toEqual(['dialog-call:warning@app.js:3']);
  });
});

describe('--rule with the code rules', () => {
  const bundle = () => tool({ 'app.js': "alert('x');\nwindow.pipeline.quotes.update();\n" });

  it('turns a rule off', () => {
    const { code, problems } = validate(bundle(), '--rule', 'bridge-unknown-method=off');
    expect(problems).toEqual(['dialog-call:warning@app.js:1']);
    expect(code).toBe(0);
  });

  it('turns a warning into an error and an error into a warning', () => {
    const { code, problems } = validate(bundle(), '--rule', 'dialog-call=error', '--rule', 'bridge-unknown-method=warn');
    expect(problems).toEqual(['dialog-call:error@app.js:1', 'bridge-unknown-method:warning@app.js:2']);
    expect(code).toBe(1);
  });

  it('exits 1 on the default severities', () => {
    expect(validate(bundle()).code).toBe(1);
  });

  it('rejects an unknown rule id as a usage error, with a suggestion', () => {
    const result = runCli(['validate', bundle(), '--rule', 'dialog-calls=off']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('dialog-call');
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });

  it('lists the code rules in `pipeline-tool rules`', () => {
    const result = runCli(['rules', '--format', 'json']);
    const listed = (JSON.parse(result.stdout) as Array<{ id: string }>).map((r) => r.id);
    expect(listed).toEqual(expect.arrayContaining(['dialog-call', 'browser-storage', 'unsafe-html', 'bridge-unknown-method', 'reference-missing', 'json-syntax']));
  });
});

describe('library code in the output', () => {
  const bundle = () =>
    tool({
      'index.html': '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script src="vendor/editor.js"></script><script src="app.js"></script></body></html>',
      'app.js': "alert('mine');\n",
      'vendor/editor.js': "el.innerHTML = a;\nel.innerHTML = b;\nconfirm('c');\nwindow.pipeline.quotes.update();\n",
    });

  it('sums up the warnings of each library file in one line, and lists errors and the author\'s own', () => {
    const result = runCli(['validate', bundle()]);
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines.filter((line) => /^\s+\d+:\d+\s/.test(line)).map((line) => line.trim().split(/\s+/)[0])).toEqual(['1:1', '4:1']);
    expect(result.stdout).toContain('pipeline.quotes.update does not exist');
    // Under its file, below the error, in the column of the messages.
    const summary = lines.findIndex((line) => line.includes('in library code'));
    expect(lines[summary - 2]).toBe('vendor/editor.js');
    expect(lines[summary - 1]).toMatch(/^ {2}4:1 {2}error {4}pipeline\.quotes\.update/);
    expect(lines[summary]).toMatch(/^ {7}warning {2}1 dialog-call/);
    expect(lines[summary]!.trim()).toBe(
      'warning  1 dialog-call, 2 unsafe-html warnings in library code, not listed (--verbose lists them); to quiet them, add to "overrides" in pipeline-tool.config.json: {"files":["vendor/editor.js"],"rules":{"dialog-call":"off","unsafe-html":"off"}}',
    );
    // The counts take every warning.
    expect(lines.at(-2)).toMatch(/5 problems \(1 error, 4 warnings\)$/);
  });

  it('lists them all with --verbose', () => {
    const result = runCli(['validate', bundle(), '--verbose']);
    expect(result.stdout).not.toContain('in library code');
    expect(result.stdout.split('\n').filter((line) => /^\s+\d+:\d+\s/.test(line))).toHaveLength(5);
  });

  it('keeps every finding in JSON, marked library: true', () => {
    const report = JSON.parse(runCli(['validate', bundle(), '--format', 'json']).stdout) as { problems: Array<{ file: string; library?: boolean }> };
    expect(report.problems.map((p) => `${p.file}${p.library ? ' library' : ''}`)).toEqual([
      'app.js',
      'vendor/editor.js library',
      'vendor/editor.js library',
      'vendor/editor.js library',
      'vendor/editor.js library',
    ]);
  });

  it('still counts every warning for --max-warnings', () => {
    const folder = tool({ 'app.js': "alert('mine');\n", 'vendor/editor.js': 'el.innerHTML = a;\n', 'index.html': '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script src="vendor/editor.js"></script><script src="app.js"></script></body></html>' });
    expect(runCli(['validate', folder, '--max-warnings', '2']).code).toBe(0);
    const over = runCli(['validate', folder, '--max-warnings', '1']);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('2 warnings exceed --max-warnings 1');
  });

  it('names an override that quiets the file when put in the project file', () => {
    const folder = bundle();
    const shown = runCli(['validate', folder]).stdout;
    const override = JSON.parse(/"overrides" in pipeline-tool\.config\.json: (\{.*\})$/m.exec(shown)![1]!) as object;
    writeFileSync(path.join(folder, 'pipeline-tool.config.json'), JSON.stringify({ source: '.', overrides: [override] }));
    const quiet = validate(folder, '--config', path.join(folder, 'pipeline-tool.config.json'));
    expect(quiet.problems).toEqual(['dialog-call:warning@app.js:1', 'bridge-unknown-method:error@vendor/editor.js:4']);
  });

  it('pack sums them up too, and lists them with --verbose', () => {
    const folder = bundle();
    const packed = runCli(['pack', folder, '--dry-run']);
    expect(packed.stdout).toContain('warnings in library code, not listed (--verbose lists them)');
    const verbose = runCli(['pack', folder, '--dry-run', '--verbose']);
    expect(verbose.stdout).not.toContain('in library code');
    expect(verbose.stdout).toContain('innerHTML is given HTML built at run time');
  });
});
