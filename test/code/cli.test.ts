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
