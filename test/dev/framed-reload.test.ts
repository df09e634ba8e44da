import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectBuiltFindings, startFramedReload } from '../../src/dev/framed-page.js';
import { collectFindings } from '../../src/dev/findings.js';
import { startLiveReload } from '../../src/dev/live-reload.js';
import { isIgnoredToolPath, snapshotFolder } from '../../src/dev/watch.js';
import { createDevSession } from '../../src/dev/session.js';
import type { ToolInfo } from '../../src/dev/tool-manifest.js';
import { createMemorySettingsStore, DEFAULT_FIXTURES } from '../../src/platform/index.js';
import { tempDir } from '../helpers/bundles.js';
import { SETTLE_MS, STANDALONE_MANIFEST, waitFor } from './helpers.js';

/*
 * dev beside another server (`--url`): the findings panel follows the folder that server builds
 * into. The folder is read once before the watch begins; what a build does in between sends no
 * event, so the watch reads it once more when it is in place. dev on a tool folder (live reload)
 * reads it before the watch too; there the files are looked at before that read and again once
 * the watch is in place, so the tool is read again only when something was saved in between.
 */

const STANDALONE_TOOL: ToolInfo = { toolId: 'Price Lookup', manifestType: 'standalone', entry: 'index.html', notes: [], manifestProblem: null, lastGood: false, entryMissing: null, alerts: [] };
const ALERT_PAGE = '<!doctype html><html><head><title>t</title></head><body><script>alert("hi")</script></body></html>';

function newSession(tool: ToolInfo) {
  return createDevSession({
    tool,
    fixtures: DEFAULT_FIXTURES,
    fixturesFile: null,
    sdkVersion: '2.5.0',
    settings: Object.assign(createMemorySettingsStore(), { file: 'memory', clear: async () => {}, flush: async () => {} }),
    gapMs: 60_000,
  });
}

describe('the findings of a framed tool’s built folder', () => {
  it('show what a build wrote between the first findings and the start of the watch', async () => {
    const project = tempDir();
    const manifestFile = path.join(project, 'public', 'manifest.json');
    mkdirSync(path.dirname(manifestFile));
    writeFileSync(manifestFile, JSON.stringify(STANDALONE_MANIFEST));
    const root = path.join(project, 'dist');
    const tool = STANDALONE_TOOL;
    const session = newSession(tool);
    // The folder as the first findings read it: there, and empty.
    mkdirSync(root);
    session.setFindings(await collectBuiltFindings(root, null, null, undefined));
    expect(session.findings()?.ok && session.findings()).toMatchObject({ report: { problems: expect.not.arrayContaining([expect.objectContaining({ ruleId: 'dialog-call' })]) } });
    const watchers = startFramedReload({ root, manifestFile, fixturesFile: undefined, stateFolder: path.join(project, '.pipeline-tool'), session, emit: () => {}, log: () => {}, tool });
    try {
      // In the same turn of the event loop: before the watch is in place, so no event tells of it.
      writeFileSync(path.join(root, 'manifest.json'), JSON.stringify(STANDALONE_MANIFEST));
      writeFileSync(path.join(root, 'index.html'), ALERT_PAGE);
      const findings = await waitFor(() => {
        const current = session.findings();
        return current?.ok && current.report.problems.some((problem) => problem.ruleId === 'dialog-call') ? current : undefined;
      }, SETTLE_MS, 'the findings of the build');
      expect(findings.report.problems.find((problem) => problem.ruleId === 'dialog-call')).toMatchObject({ file: 'index.html' });
    } finally {
      for (const watcher of watchers) watcher.close();
    }
  });

  it('on a tool folder, show what was saved between the first findings and the start of the watch, and reload the tool', async () => {
    const root = tempDir();
    writeFileSync(path.join(root, 'manifest.json'), JSON.stringify(STANDALONE_MANIFEST));
    writeFileSync(path.join(root, 'index.html'), '<!doctype html><html><head><title>t</title></head><body></body></html>');
    const session = newSession(STANDALONE_TOOL);
    const stateFolder = path.join(root, '.pipeline-tool');
    const readFrom = await snapshotFolder(root, isIgnoredToolPath);
    session.setFindings(await collectFindings(root, stateFolder));
    expect(session.findings()?.ok && session.findings()).toMatchObject({ report: { problems: [] } });
    const events: string[] = [];
    const watching = startLiveReload({ realRoot: root, fixturesFile: undefined, stateFolder, session, emit: (event) => events.push(event.type), log: () => {}, tool: STANDALONE_TOOL, readFrom });
    // In the same turn of the event loop: before the watch is in place, so no event tells of it.
    writeFileSync(path.join(root, 'index.html'), ALERT_PAGE);
    const watchers = await watching;
    try {
      const findings = await waitFor(() => {
        const current = session.findings();
        return current?.ok && current.report.problems.some((problem) => problem.ruleId === 'dialog-call') ? current : undefined;
      }, SETTLE_MS, 'the findings of the saved page');
      expect(findings.report.problems.find((problem) => problem.ruleId === 'dialog-call')).toMatchObject({ file: 'index.html' });
      await waitFor(() => events.includes('reload'), SETTLE_MS, 'a reload of the tool');
    } finally {
      for (const watcher of watchers) watcher.close();
    }
  });
});
