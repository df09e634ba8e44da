import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectBuiltFindings, startFramedReload } from '../../src/dev/framed-page.js';
import { collectFindings } from '../../src/dev/findings.js';
import { startLiveReload, watchFixtures } from '../../src/dev/live-reload.js';
import { fileStamp, isIgnoredToolPath, snapshotFolder } from '../../src/dev/watch.js';
import { createDevSession } from '../../src/dev/session.js';
import type { ToolInfo } from '../../src/dev/tool-manifest.js';
import { createMemorySettingsStore, DEFAULT_FIXTURES, loadFixtureFile } from '../../src/platform/index.js';
import { tempDir } from '../helpers/bundles.js';
import { SETTLE_MS, STANDALONE_MANIFEST, waitFor } from './helpers.js';

/*
 * dev beside another server (`--url`): the findings panel follows the folder that server builds
 * into, and dev on a tool folder (live reload) follows the tool folder. Either folder is read once
 * before the watch begins, and what changes in between sends no event: its files are looked at
 * before that read and again once the watch is in place, so it is read again only when something
 * was built, saved or deleted in between (the folder itself made or deleted, too). The
 * fixture file is loaded before its watch begins too, and loaded again if its stamp moved.
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
  /** A project whose built folder is read (after `before` made it as it was), then watched while `meanwhile` changes it in the same turn. */
  async function framed(before: (root: string) => void, meanwhile: (root: string) => void) {
    const project = tempDir();
    const manifestFile = path.join(project, 'public', 'manifest.json');
    mkdirSync(path.dirname(manifestFile));
    writeFileSync(manifestFile, JSON.stringify(STANDALONE_MANIFEST));
    const root = path.join(project, 'dist');
    const session = newSession(STANDALONE_TOOL);
    before(root);
    const readFrom = await snapshotFolder(root, isIgnoredToolPath);
    session.setFindings(await collectBuiltFindings(root, null, null, undefined));
    const first = session.findings();
    const watchers = startFramedReload({ root, manifestFile, fixturesFile: undefined, stateFolder: path.join(project, '.pipeline-tool'), session, emit: () => {}, log: () => {}, tool: STANDALONE_TOOL, readFrom });
    // In the same turn of the event loop: before the watch is in place, so no event tells of it.
    meanwhile(root);
    return { session, first, close: () => watchers.forEach((watcher) => watcher.close()) };
  }
  const build = (root: string) => {
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'manifest.json'), JSON.stringify(STANDALONE_MANIFEST));
    writeFileSync(path.join(root, 'index.html'), ALERT_PAGE);
  };
  const withAlert = (session: ReturnType<typeof newSession>) => {
    const current = session.findings();
    return current?.ok && current.report.problems.some((problem) => problem.ruleId === 'dialog-call') ? current : undefined;
  };

  it.each([
    ['there and empty', (root: string) => mkdirSync(root)],
    ['not there yet', () => {}],
  ])('show what a build wrote between the first findings and the start of the watch, the folder %s at first', async (_, before) => {
    const { session, first, close } = await framed(before, build);
    try {
      expect(first?.ok && first.report.problems.some((problem) => problem.ruleId === 'dialog-call')).toBe(false);
      const findings = await waitFor(() => withAlert(session), SETTLE_MS, 'the findings of the build');
      expect(findings.report.problems.find((problem) => problem.ruleId === 'dialog-call')).toMatchObject({ file: 'index.html' });
    } finally {
      close();
    }
  });

  it('say the folder is gone when a build deleted it between the first findings and the start of the watch', async () => {
    const { session, first, close } = await framed(build, (root) => rmSync(root, { recursive: true }));
    try {
      expect(first?.ok).toBe(true);
      await waitFor(() => session.findings()?.ok === false, SETTLE_MS, 'the folder to be gone');
    } finally {
      close();
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

describe('a fixture file saved between its first load and the start of its watch', () => {
  const products = (sku: string) => JSON.stringify({ products: [{ id: '20000000-0000-4000-8000-000000000901', sku, name: `Fixture ${sku}`, price: 10, unit: 'T_ITEM' }] });
  /** A session that keeps the product SKUs of each data set it is given. */
  const recording = () => {
    const session = newSession(STANDALONE_TOOL);
    const loads: string[][] = [];
    const setFixtures = session.setFixtures.bind(session);
    session.setFixtures = (next) => {
      loads.push(next.products.map((product) => product.sku));
      setFixtures(next);
    };
    return { session, loads };
  };

  it('is loaded again once watched', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, products('FIX-ONE'));
    const readFrom = await fileStamp(fixturesFile);
    const { session, loads } = recording();
    session.setFixtures(await loadFixtureFile(fixturesFile));
    expect(loads[0]).toContain('FIX-ONE');
    // Saved after the stamp and the load, before the watch: no event tells of it.
    writeFileSync(path.join(path.dirname(fixturesFile), 'next.json'), products('FIX-TWO'));
    renameSync(path.join(path.dirname(fixturesFile), 'next.json'), fixturesFile);
    const events: string[] = [];
    const watcher = watchFixtures(fixturesFile, session, (event) => events.push(event.type), () => {}, readFrom);
    try {
      await waitFor(() => loads.at(-1)?.includes('FIX-TWO'), SETTLE_MS, 'the data saved before the watch');
      expect(events).toContain('reload');
    } finally {
      watcher.close();
    }
  });

  it('left as it was is not loaded again', async () => {
    const fixturesFile = path.join(tempDir(), 'fixtures.json');
    writeFileSync(fixturesFile, products('FIX-ONE'));
    const { session, loads } = recording();
    session.setFixtures(await loadFixtureFile(fixturesFile));
    const events: string[] = [];
    const watcher = watchFixtures(fixturesFile, session, (event) => events.push(event.type), () => {}, await fileStamp(fixturesFile));
    try {
      // A save after the watch is in place, to know when the look at the stamp is over.
      await new Promise((resolve) => setTimeout(resolve, 100));
      writeFileSync(fixturesFile, products('FIX-TWO'));
      await waitFor(() => loads.at(-1)?.includes('FIX-TWO'), SETTLE_MS, 'the data saved after the watch');
      // Two loads: the first, and the save's; the unchanged stamp started none.
      expect(loads).toHaveLength(2);
      expect(events.filter((type) => type === 'reload')).toHaveLength(1);
    } finally {
      watcher.close();
    }
  });
});
