import { execFileSync } from 'node:child_process';
import { readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Artifact, Log, Notification, Result, Run } from 'sarif';
import { describe, expect, it } from 'vitest';
import { loadFormatter, type FormatOptions } from '../../src/cli/formatters/index.js';
import { formatSarif, formatSarifLog, ruleHelpUri, SARIF_SCHEMA } from '../../src/cli/formatters/sarif.js';
import { CODE_RULE_IDS } from '../../src/core/code/rule-ids.js';
import { summarise, type Problem, type Report } from '../../src/core/problem.js';
import { rules } from '../../src/core/rules/index.js';
import { validateBundle } from '../../src/core/validate.js';
import { goodEntries, goodFiles, goodManifest, tempDir, writeFolder, writeZip } from '../helpers/bundles.js';
import { APP_TSX, buildApp, positionOf } from '../helpers/built-app.js';

/*
 * The SARIF formatter in-process, on reports validate made from real folders, zips and a built
 * app with its source map, and on hand-made reports where a shape is rare (a line without a
 * column, a rule the registry does not know). test/cli/sarif.test.ts runs the binary's logs
 * through the SARIF Multitool; here every log is held to the SARIF 2.1.0 schema it ships.
 */

const require = createRequire(import.meta.url);
const SCHEMA = JSON.parse(readFileSync(path.join(path.dirname(require('@microsoft/sarif-multitool') as string), 'sarif-2.1.0.json'), 'utf8')) as object;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const checkSchema = ajv.compile(SCHEMA);

const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; homepage: string };
const PLAIN: FormatOptions = { colour: false, quiet: false, cwd: '/' };

/** The log for the reports, checked against the schema, and the text it was parsed from. */
function sarif(reports: Report | Report[], options: Partial<FormatOptions> = {}): { log: Log; run: Run; text: string } {
  const text = Array.isArray(reports) ? formatSarifLog(reports, { ...PLAIN, ...options }) : formatSarif(reports, { ...PLAIN, ...options });
  const log = JSON.parse(text) as Log;
  expect(checkSchema(log), JSON.stringify(checkSchema.errors, null, 2)).toBe(true);
  return { log, run: log.runs[0]!, text };
}

const location = (result: Result | Notification) => result.locations![0]!.physicalLocation!;
const byRule = (run: Run, ruleId: string) => run.results!.filter((result) => result.ruleId === ruleId);
const indexOf = (ruleId: string) => rules.findIndex((rule) => rule.id === ruleId);
const problem = (severity: Problem['severity'], extra: Partial<Problem> = {}): Problem => ({ ruleId: `rule-${severity}`, severity, message: `a ${severity}`, ...extra });

const PAGE = '<!doctype html><title>T</title><script src="lib/app.js"></script>';
const APP = '// rates\nalert(1);\n\n\n\n\n\n\n\n\nwindow.pipeline.quotes.update();\n';

describe('the log and its one run', () => {
  it('of a clean folder: the schema, the driver with every rule, the left-out descriptor, and no results', async () => {
    const { log, run, text } = sarif(await validateBundle(writeFolder(goodFiles())));
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.startsWith('{\n  "$schema": ')).toBe(true);
    expect(log.$schema).toBe(SARIF_SCHEMA);
    expect(SARIF_SCHEMA).toBe('https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json');
    expect(Object.keys(log)).toEqual(['$schema', 'version', 'runs']);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(Object.keys(run)).toEqual(['tool', 'originalUriBaseIds', 'invocations', 'results', 'columnKind']);
    const { rules: descriptors, notifications, ...driver } = run.tool.driver;
    expect(driver).toEqual({ name: 'pipeline-tool', version: PACKAGE.version, semanticVersion: PACKAGE.version, informationUri: PACKAGE.homepage });
    expect(descriptors).toHaveLength(rules.length);
    expect(notifications).toEqual([
      {
        id: 'left-out',
        name: 'LeftOut',
        shortDescription: { text: 'A file or folder of the tool folder that pack leaves out of the bundle.' },
        fullDescription: { text: 'Listed for information, as pack --dry-run lists it: it does not ship, and it is not a problem.' },
        help: { text: 'Nothing to fix. To ship the file, give it an accepted type and a name pack keeps (see pipeline-tool pack --dry-run).' },
        defaultConfiguration: { level: 'note' },
      },
    ]);
    expect(run.originalUriBaseIds).toEqual({
      '%SRCROOT%': { description: { text: 'The root of the repository (GITHUB_WORKSPACE) when the bundle lies inside it; otherwise the folder pipeline-tool ran in.' } },
    });
    expect(run.invocations).toEqual([{ executionSuccessful: true }]);
    expect(run.results).toEqual([]);
    expect(run.columnKind).toBe('unicodeCodePoints');
  });

  it('describes each rule: its texts, help, link, level, and tags for code or bundle and for locked', () => {
    const { run } = sarif(summarise('b.zip', 'zip', []));
    const code = new Set<string>(CODE_RULE_IDS);
    run.tool.driver.rules!.forEach((descriptor, index) => {
      const rule = rules[index]!;
      expect(descriptor).toEqual({
        id: rule.id,
        name: descriptor.name,
        shortDescription: { text: rule.description },
        fullDescription: { text: rule.why },
        help: { text: rule.fix, markdown: rule.fix },
        helpUri: `https://unpkg.com/pipeline-tool@${PACKAGE.version}/docs/rules.md#rule-${rule.id}`,
        defaultConfiguration: { level: rule.severity },
        properties: { tags: [code.has(rule.id) ? 'code' : 'bundle', ...(rule.locked ? ['locked'] : [])] },
      });
      // The friendly name: the id's words run together, each capitalised.
      expect(descriptor.name).toMatch(/^(?:[A-Z][a-z0-9]*)+$/);
      expect(descriptor.name!.toLowerCase()).toBe(rule.id.replaceAll('-', ''));
    });
    const named = (id: string) => run.tool.driver.rules![indexOf(id)]!;
    expect(named('browser-storage').name).toBe('BrowserStorage');
    expect(named('path-utf8-flag').name).toBe('PathUtf8Flag');
    expect(named('dialog-call').properties!.tags).toEqual(['code']);
    expect(named('manifest-missing').properties!.tags).toEqual(['bundle', 'locked']);
    expect(ruleHelpUri('dialog-call')).toBe(`https://unpkg.com/pipeline-tool@${PACKAGE.version}/docs/rules.md#rule-dialog-call`);
    // Both kinds of tag and the lock occur, so each branch above was taken.
    expect(new Set(run.tool.driver.rules!.map((descriptor) => descriptor.properties!.tags!.join(' ')))).toEqual(new Set(['code', 'bundle', 'bundle locked']));
  });

  it('is what the registry loads for --format sarif', async () => {
    const report = summarise('b.zip', 'zip', [problem('error', { file: 'a.js', line: 1, column: 1 })]);
    expect((await loadFormatter('sarif', { colour: false }))!(report, PLAIN)).toBe(formatSarif(report, PLAIN));
    expect(formatSarif(report, PLAIN)).toBe(formatSarifLog([report], PLAIN));
  });
});

describe('results of a folder', () => {
  async function folderReport() {
    const folder = writeFolder({
      ...goodFiles({ ...goodManifest, description: 'Estimates kitchens. Fast.' }),
      'index.html': PAGE,
      'lib/app.js': APP,
      'notes.txt': 'x',
      '.pipelineignore': 'drafts/\n',
      'drafts/old.js': 'x',
    });
    return { folder, report: await validateBundle(folder) };
  }

  it('one per problem, at its file from the working folder, with its rule, index, level, message and region', async () => {
    const { folder, report } = await folderReport();
    const name = path.basename(folder);
    const { run } = sarif(report, { cwd: path.dirname(folder) });
    expect(run.results).toEqual(
      report.problems.map((p) => ({
        ruleId: p.ruleId,
        ruleIndex: indexOf(p.ruleId),
        level: p.severity,
        message: { text: p.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: `${name}/${p.file}`, uriBaseId: '%SRCROOT%' }, region: { startLine: p.line, startColumn: p.column } } }],
      })),
    );
    expect(run.results!.map((result) => [result.ruleId, result.level, location(result).artifactLocation!.uri, location(result).region])).toEqual([
      ['dialog-call', 'warning', `${name}/lib/app.js`, { startLine: 2, startColumn: 1 }],
      ['bridge-unknown-method', 'error', `${name}/lib/app.js`, { startLine: 11, startColumn: 1 }],
      ['manifest-description', 'warning', `${name}/manifest.json`, { startLine: 6, startColumn: 3 }],
    ]);
    // A folder names files on disk: no artifacts are listed.
    expect(run.artifacts).toBeUndefined();
  });

  it('tells what the folder leaves out as notes, each at its path, with its reason and detail', async () => {
    const { folder, report } = await folderReport();
    const name = path.basename(folder);
    const { run } = sarif(report, { cwd: path.dirname(folder) });
    expect(run.invocations).toEqual([
      {
        executionSuccessful: true,
        toolExecutionNotifications: [
          {
            descriptor: { id: 'left-out', index: 0 },
            level: 'note',
            message: { text: '.pipelineignore is left out of the bundle: project file, not part of the tool (project-file).' },
            locations: [{ physicalLocation: { artifactLocation: { uri: `${name}/.pipelineignore`, uriBaseId: '%SRCROOT%' } } }],
            properties: { reason: 'project-file' },
          },
          {
            descriptor: { id: 'left-out', index: 0 },
            level: 'note',
            message: { text: 'drafts/ is left out of the bundle: matches "drafts/" in .pipelineignore (ignored).' },
            // A folder keeps its closing slash.
            locations: [{ physicalLocation: { artifactLocation: { uri: `${name}/drafts/`, uriBaseId: '%SRCROOT%' } } }],
            properties: { reason: 'ignored', detail: 'drafts/' },
          },
          {
            descriptor: { id: 'left-out', index: 0 },
            level: 'note',
            message: { text: 'notes.txt is left out of the bundle: .txt files are not accepted (file-type).' },
            locations: [{ physicalLocation: { artifactLocation: { uri: `${name}/notes.txt`, uriBaseId: '%SRCROOT%' } } }],
            properties: { reason: 'file-type', detail: '.txt' },
          },
        ],
      },
    ]);
  });

  it('with --quiet: errors only, and what is left out is still told', async () => {
    const { folder, report } = await folderReport();
    const { run } = sarif(report, { cwd: path.dirname(folder), quiet: true });
    expect(run.results!.map((result) => result.ruleId)).toEqual(['bridge-unknown-method']);
    expect(run.invocations![0]!.toolExecutionNotifications).toHaveLength(3);
  });

  it('paths from the repository root when the bundle lies inside GITHUB_WORKSPACE, else from the working folder', async () => {
    const folder = writeFolder({ ...goodFiles(), 'app.js': "alert('x');\n", 'notes.txt': 'x' });
    const report = await validateBundle(folder);
    report.bundle = 'tool';
    const uris = (cwd: string, workspace?: string) => {
      const { run } = sarif(report, { cwd, ...(workspace === undefined ? {} : { workspace }) });
      return [location(run.results![0]!).artifactLocation!.uri, location(run.invocations![0]!.toolExecutionNotifications![0]!).artifactLocation!.uri];
    };
    expect(uris('/repo/app', '/repo')).toEqual(['app/tool/app.js', 'app/tool/notes.txt']);
    expect(uris('/repo/app', '/repo/other')).toEqual(['tool/app.js', 'tool/notes.txt']);
    expect(uris('/repo/app')).toEqual(['tool/app.js', 'tool/notes.txt']);
    expect(uris('/elsewhere', '/repo')).toEqual(['tool/app.js', 'tool/notes.txt']);
    // A name that only starts with "..": inside the workspace all the same.
    report.bundle = '..tool';
    expect(uris('/repo', '/repo')).toEqual(['..tool/app.js', '..tool/notes.txt']);
    // A bundle beside the working folder: the way there climbs with "..", unencoded.
    report.bundle = '../tool';
    expect(uris('/repo/app')).toEqual(['../tool/app.js', '../tool/notes.txt']);
  });

  it('percent-encodes each segment of a name, in results and notes alike', async () => {
    const folder = writeFolder({
      ...goodFiles(),
      'index.html': '<!doctype html><title>T</title><script src="my%20lib/a%20b%23%25%C3%A9.js"></script>',
      'my lib/a b#%é.js': "confirm('x');\n",
      'my lib/read me?.txt': 'x',
    });
    const { run } = sarif(await validateBundle(folder), { cwd: folder });
    expect(byRule(run, 'dialog-call').map((result) => location(result).artifactLocation!.uri)).toEqual(['my%20lib/a%20b%23%25%C3%A9.js']);
    expect(run.invocations![0]!.toolExecutionNotifications!.map((note) => location(note).artifactLocation!.uri)).toEqual(['my%20lib/read%20me%3F.txt']);
  });

  it('points a problem about the folder as a whole at the folder, and at "./" when that is the working folder', () => {
    const report = summarise('/w/my tool', 'folder', [problem('error')]);
    const whole = (cwd: string) => sarif(report, { cwd }).run.results!.map((result) => location(result));
    expect(whole('/w')).toEqual([{ artifactLocation: { uri: 'my%20tool/', uriBaseId: '%SRCROOT%' } }]);
    expect(whole('/w/my tool')).toEqual([{ artifactLocation: { uri: './', uriBaseId: '%SRCROOT%' } }]);
  });

  it('gives a line without a column a region of the line alone, and a rule the registry does not know no index', () => {
    const report = summarise('/w/tool', 'folder', [problem('error', { file: 'a.js', line: 4 }), { ruleId: 'dialog-call', severity: 'warning', message: 'm', file: 'a.js', line: 5, column: 2 }]);
    const { run } = sarif(report, { cwd: '/w' });
    expect(run.results).toEqual([
      { ruleId: 'rule-error', level: 'error', message: { text: 'a error' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'tool/a.js', uriBaseId: '%SRCROOT%' }, region: { startLine: 4 } } }] },
      {
        ruleId: 'dialog-call',
        ruleIndex: indexOf('dialog-call'),
        level: 'warning',
        message: { text: 'm' },
        locations: [{ physicalLocation: { artifactLocation: { uri: 'tool/a.js', uriBaseId: '%SRCROOT%' }, region: { startLine: 5, startColumn: 2 } } }],
      },
    ]);
  });
});

describe('results of a zip', () => {
  const zipWith = (files: Record<string, string>, name = 'bundle.zip') =>
    writeZip(
      goodEntries()
        .filter((entry) => !Object.hasOwn(files, String(entry.name)))
        .concat(Object.entries(files).map(([entryName, data]) => ({ name: entryName, data }))),
      undefined,
      name,
    );

  it('lists the zip as an artifact and each entry a result names nested in it, once, whatever the number of results', async () => {
    const zip = zipWith({ 'app.js': "confirm('a');\nalert('b');\nwindow.pipeline.quotes.update();\n", 'notes.txt': 'x' });
    const { run } = sarif(await validateBundle(zip), { cwd: path.dirname(zip) });
    expect(run.artifacts).toEqual([
      { location: { uri: 'bundle.zip', uriBaseId: '%SRCROOT%' }, mimeType: 'application/zip' },
      { location: { uri: 'app.js' }, parentIndex: 0 },
      { location: { uri: 'notes.txt' }, parentIndex: 0 },
    ]);
    expect(run.results!.map((result) => [result.ruleId, location(result)])).toEqual([
      ['dialog-call', { artifactLocation: { uri: 'app.js', index: 1 }, region: { startLine: 1, startColumn: 1 } }],
      ['dialog-call', { artifactLocation: { uri: 'app.js', index: 1 }, region: { startLine: 2, startColumn: 1 } }],
      ['bridge-unknown-method', { artifactLocation: { uri: 'app.js', index: 1 }, region: { startLine: 3, startColumn: 1 } }],
      ['file-type', { artifactLocation: { uri: 'notes.txt', index: 2 } }],
    ]);
    // A zip lists nothing as left out: pack already left it out.
    expect(run.invocations).toEqual([{ executionSuccessful: true }]);
  });

  it('points a problem about the archive as a whole at the zip, by its index', async () => {
    const zip = writeZip(goodEntries(), { trailing: Buffer.from('junk') });
    const { run } = sarif(await validateBundle(zip), { cwd: path.dirname(path.dirname(zip)) });
    const uri = `${path.basename(path.dirname(zip))}/bundle.zip`;
    expect(run.artifacts).toEqual([{ location: { uri, uriBaseId: '%SRCROOT%' }, mimeType: 'application/zip' }]);
    expect(byRule(run, 'archive-trailing-data').map((result) => location(result))).toEqual([{ artifactLocation: { uri, uriBaseId: '%SRCROOT%', index: 0 } }]);
  });

  it('lists no artifact for a zip without results', async () => {
    const { run } = sarif(await validateBundle(zipWith({})));
    expect(run.artifacts).toBeUndefined();
  });

  it('of several zips in one log: each zip its own artifact, and an entry of the same name in each nested in its own', async () => {
    const first = zipWith({ 'app.js': "confirm('a');\n" }, 'first.zip');
    const second = zipWith({ 'app.js': "alert('b');\n", 'lib/x.js': "alert('c');\n" }, 'second.zip');
    const reports = [await validateBundle(first), await validateBundle(second)];
    const { log, run } = sarif(reports, { cwd: '/' });
    expect(log.runs).toHaveLength(1);
    const zip = (file: string): Artifact => ({ location: { uri: file.slice(1), uriBaseId: '%SRCROOT%' }, mimeType: 'application/zip' });
    expect(run.artifacts).toEqual([zip(first), { location: { uri: 'app.js' }, parentIndex: 0 }, zip(second), { location: { uri: 'app.js' }, parentIndex: 2 }, { location: { uri: 'lib/x.js' }, parentIndex: 2 }]);
    expect(run.results!.map((result) => [result.ruleId, location(result).artifactLocation, location(result).region!.startLine])).toEqual([
      ['dialog-call', { uri: 'app.js', index: 1 }, 1],
      ['dialog-call', { uri: 'app.js', index: 3 }, 1],
      ['dialog-call', { uri: 'lib/x.js', index: 4 }, 1],
    ]);
  });

  it('tells what each folder of several leaves out, at its own path', async () => {
    const one = writeFolder({ ...goodFiles(), 'a.txt': 'x' });
    const two = writeFolder({ ...goodFiles(), 'b.txt': 'x' });
    const { run } = sarif([await validateBundle(one), await validateBundle(two)], { cwd: '/' });
    expect(run.invocations![0]!.toolExecutionNotifications!.map((note) => location(note).artifactLocation!.uri)).toEqual([`${one.slice(1)}/a.txt`, `${two.slice(1)}/b.txt`]);
  });
});

describe('results placed through a source map', () => {
  it('in a folder: at the source, from the repository root, with the place in the built file related', async () => {
    const app = buildApp();
    const report = await validateBundle(app.dist, { sourceMaps: { root: app.project } });
    const { run } = sarif(report, { cwd: app.dist, workspace: path.dirname(app.project) });
    const project = path.basename(app.project);
    const source = positionOf(APP_TSX, 'localStorage');
    const built = positionOf(app.bundle, 'localStorage');
    expect(byRule(run, 'browser-storage')).toEqual([
      {
        ruleId: 'browser-storage',
        ruleIndex: indexOf('browser-storage'),
        level: 'warning',
        message: { text: report.problems.find((p) => p.ruleId === 'browser-storage')!.message },
        locations: [{ physicalLocation: { artifactLocation: { uri: `${project}/src/App.tsx`, uriBaseId: '%SRCROOT%' }, region: { startLine: source.line, startColumn: source.column } } }],
        relatedLocations: [
          {
            id: 1,
            physicalLocation: { artifactLocation: { uri: `${project}/dist/assets/index.js`, uriBaseId: '%SRCROOT%' }, region: { startLine: built.line, startColumn: built.column } },
            message: { text: 'Where the bundle holds it (built file).' },
          },
        ],
      },
    ]);
  });

  it('in a zip packed from the built folder: at the source, with the place in the zip\'s entry related', async () => {
    const app = buildApp();
    const zip = path.join(tempDir(), 'tool.zip');
    execFileSync('zip', ['-qrX', zip, '.', '-x', '*.map'], { cwd: app.dist });
    const moved = path.join(app.project, 'tool.zip');
    renameSync(zip, moved);
    const report = await validateBundle(moved, { sourceMaps: { root: app.project, folder: app.dist } });
    const { run } = sarif(report, { cwd: app.project });
    const built = positionOf(app.bundle, 'localStorage');
    const [storage] = byRule(run, 'browser-storage');
    expect(location(storage!).artifactLocation).toEqual({ uri: 'src/App.tsx', uriBaseId: '%SRCROOT%' });
    expect(storage!.relatedLocations).toEqual([
      { id: 1, physicalLocation: { artifactLocation: { uri: 'assets/index.js', index: 1 }, region: { startLine: built.line, startColumn: built.column } }, message: { text: 'Where the bundle holds it (built file).' } },
    ]);
    expect(run.artifacts).toEqual([
      { location: { uri: 'tool.zip', uriBaseId: '%SRCROOT%' }, mimeType: 'application/zip' },
      { location: { uri: 'assets/index.js' }, parentIndex: 0 },
    ]);
  });
});
