import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { loadProjectConfig } from '../../src/core/config/load-config.js';
import { ConfigError, parseProjectConfig } from '../../src/core/config/project-config.js';
import { effectiveSettings, settingsResolver, withRuleFlags } from '../../src/core/config/settings.js';
import { globProblem } from '../../src/core/config/globs.js';
import { rules } from '../../src/core/rules/index.js';
import { validateBundle } from '../../src/core/validate.js';
import { UsageError } from '../../src/core/errors.js';
import { goodEntries, goodFiles, writeFolder, writeZip } from '../helpers/bundles.js';

const FILE = 'pipeline-tool.config.json';

/** The ConfigError a text gives, as line, column and reason. */
function mistake(text: string): { line: number; column: number; reason: string } {
  try {
    parseProjectConfig(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const { line, column, reason, message } = error as ConfigError;
    expect(message).toBe(`${FILE}:${line}:${column}: ${reason}`);
    expect(message).not.toContain('\n');
    return { line, column, reason };
  }
  throw new Error(`no mistake found in ${text}`);
}

describe('parseProjectConfig', () => {
  it('reads the documented shape, and nothing is required', () => {
    const text = JSON.stringify({
      $schema: './node_modules/pipeline-tool/schemas/config.schema.json',
      source: 'src/',
      out: 'dist',
      rules: { 'dialog-call': 'error' },
      overrides: [{ files: ['vendor/**'], rules: { 'unsafe-html': 'off' } }],
    });
    expect(parseProjectConfig(text, FILE)).toEqual({
      source: 'src',
      out: 'dist',
      rules: { 'dialog-call': 'error' },
      overrides: [{ files: ['vendor/**'], rules: { 'unsafe-html': 'off' } }],
    });
    expect(parseProjectConfig('{}', FILE)).toEqual({ rules: {}, overrides: [] });
    // Saved by a Windows editor with a byte-order mark: still read, positions unchanged.
    expect(parseProjectConfig('\uFEFF{ "source": "src" }', FILE).source).toBe('src');
    expect(mistake('\uFEFF{\n  "x": 1 }').line).toBe(2);
  });

  it('places a JSON syntax error at its line and column', () => {
    expect(mistake('{\n  "source": "src",\n}')).toMatchObject({ line: 2, column: 18, reason: expect.stringMatching(/^not valid JSON: .*trailing comma/) });
    expect(mistake('{ "source": \'src\' }')).toMatchObject({ line: 1, column: 13 });
    expect(mistake('')).toMatchObject({ line: 1, column: 1, reason: expect.stringContaining('not valid JSON') });
    expect(mistake('{ // a comment\n}').reason).toContain('comments are not allowed');
  });

  it('refuses an unknown key, naming the nearest, at the key', () => {
    const top = mistake('{\n  "source": "src",\n  "sources": "lib"\n}');
    expect(top.line).toBe(3);
    expect(top.reason).toContain('unknown key "sources" in the project file; did you mean "source"?');
    expect(mistake('{ "overrides": [{ "file": ["a"], "rules": {} }] }').reason).toContain('unknown key "file" in overrides[0]; did you mean "files"?');
    expect(mistake('{ "ignores": ["vendor/**"] }').reason).toMatch(/unknown key "ignores" in the project file\. It may hold/);
    expect(mistake('{ "source": "a", "source": "b" }').reason).toBe('"source" appears twice; keep one.');
  });

  it('refuses an unknown rule id with the nearest one, a bad setting and a relaxed locked rule, at the value', () => {
    const unknown = mistake('{\n  "rules": {\n    "unsafe-htm": "off"\n  }\n}');
    expect(unknown).toMatchObject({ line: 3, column: 5 });
    expect(unknown.reason).toContain('unknown rule "unsafe-htm"; did you mean "unsafe-html"?');
    expect(mistake('{ "rules": { "unsafe-html": 0 } }').reason).toBe('rule "unsafe-html" can be set to off, warn or error, not 0.');
    expect(mistake('{ "rules": { "unsafe-html": "warning" } }').reason).toContain('not "warning"');
    expect(mistake('{ "rules": { "file-type": "off" } }').reason).toContain('"file-type" cannot be turned off or down to a warning');
    expect(mistake('{ "overrides": [{ "files": ["vendor/**"], "rules": { "bundle-size": "warn" } }] }').reason).toContain('"bundle-size" cannot be turned off');
    // Setting a locked rule to error changes nothing and is allowed.
    expect(parseProjectConfig('{ "rules": { "file-type": "error" } }', FILE).rules).toEqual({ 'file-type': 'error' });
  });

  it('refuses bad globs, bad overrides and bad folders', () => {
    expect(mistake('{ "overrides": [{ "files": ["vendor/[z-a].js"], "rules": {} }] }').reason).toMatch(/^overrides\[0\]\.files\[0\] is not a usable pattern: .*low to high/);
    expect(mistake('{ "overrides": [{ "files": ["vendor/[ab"], "rules": {} }] }').reason).toContain('not a complete character class');
    expect(mistake('{ "overrides": [{ "files": [], "rules": {} }] }').reason).toContain('must list at least one pattern');
    expect(mistake('{ "overrides": [{ "rules": {} }] }').reason).toContain('must list at least one pattern');
    expect(mistake('{ "overrides": [{ "files": ["a"] }] }').reason).toContain('has no "rules"');
    expect(mistake('{ "overrides": { "files": ["a"] } }').reason).toContain('must be a list');
    expect(mistake('{ "rules": ["unsafe-html"] }').reason).toContain('must be an object of rule ids and settings');
    expect(mistake('[]').reason).toContain('must hold a JSON object');
    expect(mistake('{ "source": "../elsewhere" }').reason).toContain('cannot climb out');
    expect(mistake('{ "source": "/srv/tool" }').reason).toContain('not absolute');
    expect(mistake('{ "out": "C:/builds" }').reason).toContain('not absolute');
    expect(mistake('{ "source": "src\\\\tool" }').reason).toContain('use / between folders');
    expect(mistake('{ "source": "" }').reason).toContain('folder path relative to this file');
    expect(mistake('{ "source": "src", "out": "src/dist" }').reason).toContain('the next pack would ship the zip');
    expect(mistake('{ "source": ".", "out": "dist" }').reason).toContain('is inside "source"');
    expect(mistake('{ "out": "dist" }').reason).toContain('is inside the tool folder (this file\'s folder, as there is no "source")');
  });
});

describe('globProblem', () => {
  it('accepts what gitignore syntax means something by', () => {
    for (const pattern of ['vendor/**', 'vendor/', '*.min.js', '/lib/*.js', '!vendor/own.js', 'fonts/KaTeX_*.css', '[ab].js', '\\#notes.js']) expect(globProblem(pattern)).toBeUndefined();
  });

  it('names what matches nothing or cannot be compiled', () => {
    for (const pattern of ['', '  ', '#vendor', '!', 'vendor\\lib', './vendor/**', 'vendor/../app.js', 'C:/x', 'a[', '[z-a]', 'a\u0000b', 42]) {
      expect(globProblem(pattern), String(pattern)).toBeTypeOf('string');
    }
  });
});

describe('settings for a file', () => {
  const overrides = [
    { files: ['vendor/**', '!vendor/own.js'], rules: { 'unsafe-html': 'off', 'reference-missing': 'off' } },
    { files: ['vendor/katex/**'], rules: { 'reference-missing': 'warn' } },
  ] as const;

  it('applies the top level, then each matching override in order, the last one winning', () => {
    const resolver = settingsResolver({ 'unsafe-html': 'error' }, overrides);
    expect(resolver.settingFor('unsafe-html', 'app.js')).toBe('error');
    expect(resolver.settingFor('unsafe-html', 'vendor/jquery.js')).toBe('off');
    expect(resolver.settingFor('unsafe-html', 'vendor/own.js')).toBe('error');
    expect(resolver.settingFor('reference-missing', 'vendor/katex/katex.css')).toBe('warn');
    expect(resolver.settingFor('reference-missing', 'vendor/jquery.js')).toBe('off');
    // A finding about no file, or a path only a hostile zip has, takes the top level alone.
    expect(resolver.settingFor('unsafe-html', undefined)).toBe('error');
    expect(resolver.settingFor('unsafe-html', '../vendor/x.js')).toBe('error');
    expect(resolver.settingFor('unsafe-html', '/vendor/x.js')).toBe('error');
    expect(resolver.overridden('reference-missing')).toBe(true);
    expect(resolver.overridden('dialog-call')).toBe(false);
  });

  it('lists every rule with its default when nothing changes it', () => {
    const settings = effectiveSettings({}, overrides, 'vendor/jquery.js');
    expect(Object.keys(settings)).toEqual(rules.map((r) => r.id));
    expect(settings).toMatchObject({ 'unsafe-html': 'off', 'dialog-call': 'warn', 'file-type': 'error' });
  });

  it('lets --rule win over the project file for every file', () => {
    const merged = withRuleFlags({ 'dialog-call': 'off' }, overrides, { 'unsafe-html': 'error' });
    expect(merged.rules).toEqual({ 'dialog-call': 'off', 'unsafe-html': 'error' });
    expect(settingsResolver(merged.rules, merged.overrides).settingFor('unsafe-html', 'vendor/jquery.js')).toBe('error');
    expect(settingsResolver(merged.rules, merged.overrides).settingFor('reference-missing', 'vendor/jquery.js')).toBe('off');
  });
});

describe('validateBundle with overrides', () => {
  const vendored = {
    ...goodFiles(),
    'index.html': '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script src="vendor/lib.js"></script><script src="app.js"></script></body></html>',
    'app.js': 'document.body.innerHTML = location.hash;\n',
    'vendor/lib.js': 'function html(el, v) { el.innerHTML = v; }\n',
  };
  const findings = (report: { problems: { ruleId: string; file?: string; severity: string }[] }) => report.problems.map((p) => `${p.ruleId}:${p.file}:${p.severity}`);

  it('quiets a rule in matching files only, in a folder and in a zip alike', async () => {
    const options = { overrides: [{ files: ['vendor/**'], rules: { 'unsafe-html': 'off' as const } }] };
    expect(findings(await validateBundle(writeFolder(vendored)))).toEqual(['unsafe-html:app.js:warning', 'unsafe-html:vendor/lib.js:warning']);
    expect(findings(await validateBundle(writeFolder(vendored), options))).toEqual(['unsafe-html:app.js:warning']);
    const zip = writeZip(Object.entries(vendored).map(([name, data]) => ({ name, data })));
    expect(findings(await validateBundle(zip, options))).toEqual(['unsafe-html:app.js:warning']);
  });

  it('turns a rule on for some files when it is off at the top level', async () => {
    const report = await validateBundle(writeFolder(vendored), { rules: { 'unsafe-html': 'off' }, overrides: [{ files: ['app.js'], rules: { 'unsafe-html': 'error' } }] });
    expect(findings(report)).toEqual(['unsafe-html:app.js:error']);
  });

  it('keeps bundle-wide findings under the top-level settings', async () => {
    const zip = writeZip([...goodEntries(), { name: 'notes.txt', data: 'x' }]);
    const report = await validateBundle(zip, { overrides: [{ files: ['**'], rules: { 'manifest-description': 'off' } }] });
    expect(findings(report)).toEqual(['file-type:notes.txt:error']);
  });

  it('applies to the findings dev shows beside the tool', async () => {
    const { collectFindings } = await import('../../src/dev/findings.js');
    const root = writeFolder(vendored);
    const shown = await collectFindings(root, null, null, { overrides: [{ files: ['vendor/**'], rules: { 'unsafe-html': 'off' } }] });
    expect(shown.ok && findings(shown.report)).toEqual(['unsafe-html:app.js:warning']);
  });

  it('refuses bad overrides from a program too', async () => {
    const folder = writeFolder(goodFiles());
    await expect(validateBundle(folder, { overrides: [{ files: ['[z-a]'], rules: {} }] })).rejects.toThrow(UsageError);
    await expect(validateBundle(folder, { overrides: [{ files: ['x'], rules: { 'path-unsafe': 'off' } }] })).rejects.toThrow(/locked rule/);
    await expect(validateBundle(folder, { overrides: [{ files: [], rules: {} }] })).rejects.toThrow(/at least one pattern/);
  });
});

describe('schemas/config.schema.json', () => {
  const schema = JSON.parse(readFileSync(new URL('../../schemas/config.schema.json', import.meta.url), 'utf8')) as {
    definitions: { rules: { properties: Record<string, { enum: string[] }> } };
  };
  const validate = new Ajv({ strict: true }).compile(schema);

  it('lists every rule, and lets a locked one be set to error only', () => {
    const listed = schema.definitions.rules.properties;
    expect(Object.keys(listed)).toEqual(rules.map((r) => r.id));
    for (const rule of rules) expect(listed[rule.id]!.enum, rule.id).toEqual(rule.locked ? ['error'] : ['off', 'warn', 'error']);
  });

  it('agrees with the parser on what is allowed', () => {
    const good = [{ $schema: 'x', source: 'src', out: 'dist', rules: { 'unsafe-html': 'off' }, overrides: [{ files: ['vendor/**'], rules: { 'reference-missing': 'off' } }] }, {}];
    const bad = [{ sources: 'src' }, { source: '../x' }, { rules: { 'file-type': 'off' } }, { rules: { 'unsafe-htm': 'off' } }, { overrides: [{ files: [], rules: {} }] }, { overrides: [{ files: ['a'] }] }];
    for (const config of good) {
      expect(validate(config)).toBe(true);
      expect(() => parseProjectConfig(JSON.stringify(config), FILE)).not.toThrow();
    }
    for (const config of bad) {
      expect(validate(config), JSON.stringify(config)).toBe(false);
      expect(() => parseProjectConfig(JSON.stringify(config), FILE)).toThrow(ConfigError);
    }
  });
});

describe('loadProjectConfig', () => {
  it('finds the nearest file upward, stopping at the first one', async () => {
    const root = writeFolder({ [FILE]: '{ "source": "outer" }', 'a/b/c/.keep': '', [`a/b/${FILE}`]: '{ "source": "inner" }' });
    const inner = await loadProjectConfig(path.join(root, 'a', 'b', 'c'));
    expect(inner).toMatchObject({ file: path.join(root, 'a', 'b', FILE), root: path.join(root, 'a', 'b'), config: { source: 'inner' } });
    expect((await loadProjectConfig(path.join(root, 'a')))?.config.source).toBe('outer');
    expect((await loadProjectConfig(root, 'a/b/' + FILE))?.config.source).toBe('inner');
  });

  it('refuses what is not a regular file without waiting on it', async () => {
    const root = writeFolder({});
    mkdirSync(path.join(root, FILE));
    await expect(loadProjectConfig(root)).rejects.toThrow(/is a folder/);
    if (process.platform !== 'win32') {
      const fifo = path.join(writeFolder({}), FILE);
      execFileSync('mkfifo', [fifo]);
      await expect(loadProjectConfig(path.dirname(fifo))).rejects.toThrow(/not a regular file/);
    }
  });
});
