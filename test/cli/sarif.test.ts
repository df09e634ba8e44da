import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Log, Result } from 'sarif';
import { beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../../src/core/rules/index.js';
import { goodEntries, goodFiles, tempDir, writeFolder, writeZip } from '../helpers/bundles.js';
import { APP_TSX, buildApp, positionOf } from '../helpers/built-app.js';
import { BIN, runCli } from '../helpers/cli.js';

/*
 * `--format sarif`, checked two ways on each log: against the SARIF 2.1.0 JSON schema that
 * @microsoft/sarif-multitool ships (in its platform package; the package itself holds only a
 * launcher), and by that package's own validator, which also applies the rules of the SARIF
 * specification the schema cannot express, and GitHub code scanning's ingestion rules. Nothing is
 * fetched: the validator's rule that GETs every URI in the log is switched off.
 */

const require = createRequire(import.meta.url);
/** The validator executable; its folder holds the schema. */
const MULTITOOL = require('@microsoft/sarif-multitool') as string;
const SCHEMA = JSON.parse(readFileSync(path.join(path.dirname(MULTITOOL), 'sarif-2.1.0.json'), 'utf8')) as object;

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const checkSchema = ajv.compile(SCHEMA);

/**
 * Notes of the validator that do not apply: rule ids are kebab-case words and public API, not
 * "CS2001" (SARIF2009); messages are whole sentences made from data, not message ids with
 * arguments (SARIF2002); snippets, context regions and version-control facts are for the
 * uploader to add (SARIF2010, SARIF2011, SARIF2003); a zip's entries are not embedded, which would
 * copy the tool into its own report (SARIF2013).
 */
const ACCEPTED_NOTES = new Set(['SARIF2002', 'SARIF2003', 'SARIF2009', 'SARIF2010', 'SARIF2011', 'SARIF2013']);

interface Validated {
  log: Log;
  results: Result[];
}

/** Validates logs with the Multitool, one run for all of them; returns its findings per log. */
function multitool(files: string[]): Map<string, Result[]> {
  const work = tempDir();
  const config = path.join(work, 'validate.xml');
  writeFileSync(
    config,
    '<?xml version="1.0" encoding="utf-8"?>\n<Properties>\n  <Properties Key="SARIF2006.UrisShouldBeReachable.Options">\n    <Property Key="RuleEnabled" Value="Disabled" />\n  </Properties>\n</Properties>\n',
  );
  const out = path.join(work, 'validation.sarif');
  const ran = spawnSync(MULTITOOL, ['validate', ...files, '--output', out, '--config', config, '--level', 'Error;Warning;Note', '--rule-kind', 'Sarif;Gh'], { encoding: 'utf8', timeout: 120_000 });
  expect(ran.status, `${ran.stdout}\n${ran.stderr}`).toBe(0);
  const validation = JSON.parse(readFileSync(out, 'utf8')) as Log;
  const byFile = new Map<string, Result[]>(files.map((file) => [file, []]));
  for (const result of validation.runs[0]!.results ?? []) {
    const uri = result.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '';
    const file = files.find((candidate) => decodeURIComponent(uri).endsWith(candidate) || decodeURIComponent(uri).endsWith(path.basename(candidate)));
    byFile.get(file ?? files[0]!)!.push(result);
  }
  return byFile;
}

/** What the binary printed, parsed, after the schema check. */
function sarifOf(stdout: string): Log {
  const log = JSON.parse(stdout) as Log;
  const valid = checkSchema(log);
  expect(valid, JSON.stringify(checkSchema.errors, null, 2)).toBe(true);
  return log;
}

describe('validate --format sarif', () => {
  const logs = new Map<string, Validated>();
  const cases: Record<string, { args: string[]; cwd?: string; env?: Record<string, string> }> = {};
  let app: ReturnType<typeof buildApp>;

  beforeAll(() => {
    app = buildApp({}, { extra: { 'dist/.DS_Store': 'x', 'dist/README.md': '# notes\n', 'dist/drafts/old.png': 'x', 'dist/.pipelineignore': 'drafts/\n' } });
    const severities = writeFolder({
      ...goodFiles({ ...goodManifest(), description: 'Two sentences here. Like this.' }),
      'app.js': "alert('hi');\nwindow.pipeline.quotes.update({});\n",
      'index.html': '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><img src="/logo.png"><script src="app.js"></script></body></html>',
    });
    // Findings in entries, and one about the archive as a whole (bytes after its end).
    const zip = writeZip(
      goodEntries()
        .map((entry) => (entry.name === 'app.js' ? { ...entry, data: "document.body.append('x');\nconfirm('sure?');\n" } : entry))
        .concat([{ name: 'assets/app.js.map', data: '{}' }]),
      { trailing: Buffer.from('junk') },
    );
    Object.assign(cases, {
      folder: { args: ['validate', 'dist', '--format', 'sarif'], cwd: app.project, env: { GITHUB_WORKSPACE: path.dirname(app.project) } },
      zip: { args: ['validate', zip, '--format', 'sarif'], cwd: path.dirname(zip) },
      clean: { args: ['validate', writeFolder(goodFiles()), '--format', 'sarif'] },
      severities: { args: ['validate', severities, '--format', 'sarif'], cwd: path.dirname(severities) },
      several: { args: ['validate', zip, severities, '--format', 'sarif'], cwd: tmpdir() },
    });
    const work = tempDir();
    const files: string[] = [];
    for (const [name, { args, cwd, env }] of Object.entries(cases)) {
      const result = runCli(args, { ...(cwd ? { cwd } : {}), ...(env ? { env } : {}) });
      expect(result.stderr).toBe('');
      const file = path.join(work, `${name}.sarif`);
      writeFileSync(file, result.stdout);
      files.push(file);
      logs.set(name, { log: sarifOf(result.stdout), results: [] });
    }
    const validation = multitool(files);
    for (const [name] of Object.entries(cases)) logs.get(name)!.results = validation.get(path.join(work, `${name}.sarif`)) ?? [];
  }, 180_000);

  it("passes the SARIF Multitool's validator, with the specification's and GitHub's rules: no error, no warning", () => {
    for (const [name, { log, results }] of logs) {
      // SARIF2017 asks every result for a region; a problem about a whole file or archive has none.
      const wholeFile = (result: Result) => {
        const index = /runs\[0\]\.results\[(\d+)\]/.exec(JSON.stringify(result.message))?.[1];
        return result.ruleId === 'SARIF2017' && index !== undefined && log.runs[0]!.results![Number(index)]!.locations![0]!.physicalLocation!.region === undefined;
      };
      const remaining = results.filter((result) => !wholeFile(result));
      const serious = remaining.filter((result) => result.level === 'error' || result.level === 'warning');
      expect(serious.map((result) => `${name}: ${result.ruleId}: ${JSON.stringify(result.message)}`)).toEqual([]);
      expect(remaining.filter((result) => !ACCEPTED_NOTES.has(result.ruleId ?? '')).map((result) => `${name}: ${result.ruleId}`)).toEqual([]);
    }
  });

  it('has one run whose driver lists every rule with its texts, help, level and lock', () => {
    const { log } = logs.get('clean')!;
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    const { version, homepage } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; homepage: string };
    expect(run.tool.driver).toMatchObject({ name: 'pipeline-tool', version, informationUri: homepage });
    const rulesPage = readFileSync(new URL('../../docs/rules.md', import.meta.url), 'utf8');
    expect(run.tool.driver.rules!.map((rule) => rule.id)).toEqual(rules.map((rule) => rule.id));
    run.tool.driver.rules!.forEach((descriptor, index) => {
      const rule = rules[index]!;
      expect(descriptor).toMatchObject({
        shortDescription: { text: rule.description },
        fullDescription: { text: rule.why },
        help: { text: rule.fix },
        helpUri: `https://unpkg.com/pipeline-tool@${version}/docs/rules.md#rule-${rule.id}`,
        defaultConfiguration: { level: rule.severity },
      });
      expect((descriptor.properties?.tags ?? []).includes('locked')).toBe(rule.locked === true);
      // The help link lands on the rule's row of the tables in docs/rules.md, which the package ships.
      expect(rulesPage).toContain(`<a id="rule-${rule.id}"></a>`);
    });
    expect(run.results).toEqual([]);
    expect(run.columnKind).toBe('unicodeCodePoints');
  });

  it('points a folder finding placed by a source map at the source, from the repository root, with the bundle place related', () => {
    const { log } = logs.get('folder')!;
    const run = log.runs[0]!;
    const project = path.basename(app.project);
    const source = positionOf(APP_TSX, 'localStorage');
    const built = positionOf(app.bundle, 'localStorage');
    const storage = run.results!.find((result) => result.ruleId === 'browser-storage')!;
    expect(storage).toMatchObject({
      ruleIndex: rules.findIndex((rule) => rule.id === 'browser-storage'),
      level: 'warning',
      locations: [{ physicalLocation: { artifactLocation: { uri: `${project}/src/App.tsx`, uriBaseId: '%SRCROOT%' }, region: { startLine: source.line, startColumn: source.column } } }],
      relatedLocations: [{ physicalLocation: { artifactLocation: { uri: `${project}/dist/assets/index.js`, uriBaseId: '%SRCROOT%' }, region: { startLine: built.line, startColumn: built.column } } }],
    });
    expect(storage.message.text).toContain('localStorage is not dependable');
    // What pack leaves out is told, not reported.
    const notes = run.invocations![0]!.toolExecutionNotifications!;
    expect(run.results!.map((result) => result.ruleId)).toEqual(['browser-storage']);
    expect(notes.map((note) => [note.locations![0]!.physicalLocation!.artifactLocation!.uri, note.properties!['reason'], note.level])).toEqual(
      expect.arrayContaining([
        [`${project}/dist/.DS_Store`, 'dot-file', 'note'],
        [`${project}/dist/README.md`, 'file-type', 'note'],
        [`${project}/dist/drafts/`, 'ignored', 'note'],
        [`${project}/dist/assets/index.js.map`, 'source-map', 'note'],
      ]),
    );
    expect(run.invocations![0]!.executionSuccessful).toBe(true);
  });

  it('points a zip finding into the archive: the zip as an artifact, the entry nested in it', () => {
    const { log } = logs.get('zip')!;
    const run = log.runs[0]!;
    expect(run.artifacts![0]).toEqual({ location: { uri: 'bundle.zip', uriBaseId: '%SRCROOT%' }, mimeType: 'application/zip' });
    const byRule = (id: string) => run.results!.find((result) => result.ruleId === id)!.locations![0]!.physicalLocation!;
    const dialog = byRule('dialog-call');
    expect(dialog.region).toEqual({ startLine: 2, startColumn: 1 });
    expect(run.artifacts![dialog.artifactLocation!.index!]).toEqual({ location: { uri: 'app.js' }, parentIndex: 0 });
    expect(dialog.artifactLocation).toEqual({ uri: 'app.js', index: dialog.artifactLocation!.index });
    const map = byRule('file-type');
    expect(map.region).toBeUndefined();
    expect(run.artifacts![map.artifactLocation!.index!]).toEqual({ location: { uri: 'assets/app.js.map' }, parentIndex: 0 });
    expect(byRule('archive-trailing-data').artifactLocation).toEqual({ uri: 'bundle.zip', uriBaseId: '%SRCROOT%', index: 0 });
    expect(run.invocations![0]!.toolExecutionNotifications).toBeUndefined();
  });

  it('gives each severity its level, and the position as the text output counts it', () => {
    const { log } = logs.get('severities')!;
    const results = log.runs[0]!.results!;
    const levels = new Set(results.map((result) => result.level));
    expect([...levels].sort()).toEqual(['error', 'warning']);
    const text = runCli(cases['severities']!.args.slice(0, 2), { cwd: cases['severities']!.cwd! }).stdout;
    for (const result of results) {
      const { region, artifactLocation } = result.locations![0]!.physicalLocation!;
      expect(artifactLocation!.uriBaseId).toBe('%SRCROOT%');
      if (region) expect(text).toContain(`${region.startLine}:${region.startColumn ?? 1}  ${result.level === 'error' ? 'error  ' : 'warning'}  ${result.message.text}`);
      expect(result.ruleIndex).toBe(rules.findIndex((rule) => rule.id === result.ruleId));
    }
  });

  it('of several bundles prints one log whose one run holds the results of each, every zip its own artifact', () => {
    const several = runCli(cases['several']!.args, { cwd: cases['several']!.cwd! });
    expect(several.code).toBe(1);
    const log = sarifOf(several.stdout);
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0]!;
    const one = (name: string) => JSON.parse(runCli(cases[name]!.args, { cwd: cases[name]!.cwd! }).stdout) as Log;
    const counts = (results: readonly Result[]) => results.map((result) => result.ruleId).sort();
    expect(counts(run.results!)).toEqual(counts([...one('zip').runs[0]!.results!, ...one('severities').runs[0]!.results!]));
    const zips = run.artifacts!.filter((artifact) => artifact.mimeType === 'application/zip');
    expect(zips).toHaveLength(1);
    const dialog = run.results!.find((result) => result.ruleId === 'dialog-call' && result.locations![0]!.physicalLocation!.artifactLocation!.index !== undefined)!;
    const entry = run.artifacts![dialog.locations![0]!.physicalLocation!.artifactLocation!.index!]!;
    expect(run.artifacts![entry.parentIndex!]).toBe(zips[0]);
  });
});

describe('pack --format sarif', () => {
  it('prints the SARIF log of the checks alone, and keeps the exit code', () => {
    const failing = writeFolder({ ...goodFiles(), 'app.js': 'window.pipeline.quotes.update({});\n', 'notes.txt': 'x' });
    const result = runCli(['pack', failing, '--format', 'sarif', '-o', path.join(tempDir(), 'x.zip')]);
    expect(result.code).toBe(1);
    const log = sarifOf(result.stdout);
    expect(log.runs[0]!.results!.map((entry) => entry.ruleId)).toEqual(['bridge-unknown-method']);
    expect(log.runs[0]!.invocations![0]!.toolExecutionNotifications!.map((note) => note.properties!['reason'])).toEqual(['file-type']);
  });
});

function goodManifest() {
  return JSON.parse(goodFiles()['manifest.json'] as string) as Record<string, unknown>;
}

describe("the templates' CI workflow", () => {
  // Both plain JavaScript templates take it from their shared layer (templates/templates.json).
  const workflows = [readFileSync(new URL('../../templates/vanilla/_github/workflows/validate.yml', import.meta.url), 'utf8')];

  it('uploads the SARIF log beside the annotations, in a step that cannot fail the job', () => {
    for (const yaml of workflows) {
      expect(yaml).toMatch(/^ {6}security-events: write$/m);
      const upload = yaml.slice(yaml.indexOf('- name: Upload to code scanning'), yaml.indexOf('- run: npm run pack'));
      expect(upload).toContain('uses: github/codeql-action/upload-sarif@v4');
      expect(upload).toContain('continue-on-error: true');
      // Skipped for a pull request from a fork, whose token cannot write security events.
      expect(upload).toContain("github.event.pull_request.head.repo.full_name == github.repository");
      expect(upload).toContain('sarif_file: pipeline-tool.sarif');
      expect(yaml.indexOf('--format github')).toBeLessThan(yaml.indexOf('--format sarif'));
    }
  });

  it('writes the log with its SARIF step, which passes on problems found and fails when validate cannot run', () => {
    const line = /run: (npm run validate --silent -- --format sarif > pipeline-tool\.sarif .*)$/m.exec(workflows[0]!)![1]!;
    const project = writeFolder({
      'package.json': JSON.stringify({ name: 'p', private: true, scripts: { validate: `node ${JSON.stringify(BIN)} validate --max-warnings 0` } }),
      'pipeline-tool.config.json': JSON.stringify({ source: 'src' }),
      ...Object.fromEntries(Object.entries(goodFiles()).map(([name, content]) => [`src/${name}`, name === 'app.js' ? "alert('x');\n" : content])),
    });
    const ran = spawnSync('sh', ['-c', line], { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(ran.status, ran.stderr).toBe(0);
    const log = sarifOf(readFileSync(path.join(project, 'pipeline-tool.sarif'), 'utf8'));
    expect(log.runs[0]!.results!.map((result) => [result.ruleId, result.locations![0]!.physicalLocation!.artifactLocation!.uri])).toEqual([['dialog-call', 'src/app.js']]);
    writeFileSync(path.join(project, 'pipeline-tool.config.json'), '{ "source": "gone" }');
    expect(spawnSync('sh', ['-c', line], { cwd: project, encoding: 'utf8' }).status).not.toBe(0);
  });
});
