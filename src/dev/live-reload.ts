import path from 'node:path';
import type { ValidateOptions } from '../core/validate.js';
import type { DevEvent } from './events.js';
import { loadFixturesInBackground, type FixtureLoad } from './fixture-loader.js';
import { collectFindings } from './findings.js';
import type { DevSession } from './session.js';
import { describeManifestProblem, keepLastGoodManifest, readToolInfo, type ToolInfo } from './tool-manifest.js';
import { fileStamp, isIgnoredToolPath, watchFile, watchFolder, type FolderSnapshot, type Watcher } from './watch.js';

/*
 * What a saved file sets off: a changed tool file re-reads the manifest and the findings and
 * reloads the tool's frame; a changed fixture file replaces the data, or keeps the old data and
 * says exactly what is wrong with the new file.
 */

export interface LiveReloadOptions {
  realRoot: string;
  fixturesFile: string | undefined;
  /** The dev server's own folder, left out of the findings. */
  stateFolder: string;
  session: DevSession;
  /** Rule settings for the findings, as the server was given them, and where maps place them. */
  ruleSettings?: Pick<ValidateOptions, 'rules' | 'overrides' | 'sourceMaps'>;
  emit: (event: DevEvent) => void;
  log: (level: 'info' | 'warning' | 'error', message: string) => void;
  /** The tool as read at start; later reads keep its manifest while the file is broken. */
  tool: ToolInfo;
  /**
   * The watched folder's files as they were just before the first read of its findings: a file
   * saved (or built) between then and the watch taking over is a change like any other.
   */
  readFrom: FolderSnapshot;
  /**
   * The fixture file's stamp ({@link fileStamp}) just before its data was first loaded: a save
   * between then and its watch reloads the data once it is watched.
   */
  fixturesReadFrom?: string | undefined;
}

export async function startLiveReload(options: LiveReloadOptions): Promise<Watcher[]> {
  const { realRoot, fixturesFile, stateFolder, session, emit, log } = options;
  // A fixture file inside the tool folder is handled by its own watcher, not as a tool file.
  const fixturePath = fixturesFile === undefined ? null : path.relative(realRoot, fixturesFile).split(path.sep).join('/');

  let tool = options.tool;
  const refreshTool = async (changed: string[]) => {
    const previous = tool;
    tool = keepLastGoodManifest(previous, await readToolInfo(realRoot));
    session.setTool(tool);
    reportToolChanges(previous, tool, log);
    session.setFindings(await collectFindings(realRoot, stateFolder, fixturesFile ?? null, options.ruleSettings));
    const reason = changed.length === 1 ? `${changed[0] || 'the tool folder'} changed` : `${changed.length} files changed`;
    log('info', `${reason}: reloading the tool.`);
    emit({ type: 'state' });
    emit({ type: 'reload', reason });
  };
  const toolWatcher = watchFolder(realRoot, {
    ignore: isIgnoredToolPath,
    since: options.readFrom,
    onLimit: (limit) => log('warning', `the tool folder has more than ${limit} folders; changes in the others will not reload the tool.`),
    onChange: (changed) => {
      const relevant = changed.filter((file) => file !== fixturePath);
      if (relevant.length === 0) return;
      refreshTool(relevant).catch((error: unknown) => log('error', `could not refresh after a change: ${String(error)}`));
    },
  });
  await toolWatcher.ready;
  return fixturesFile === undefined ? [toolWatcher] : [toolWatcher, watchFixtures(fixturesFile, session, emit, log, options.fixturesReadFrom)];
}

/**
 * Replaces the data when the fixture file changes, or keeps the old data and says what is wrong
 * with the new. One load at a time: a save during a load starts it over, and only the latest is used.
 */
export function watchFixtures(fixturesFile: string, session: DevSession, emit: LiveReloadOptions['emit'], log: LiveReloadOptions['log'], readFrom?: string): Watcher {
  let loading: FixtureLoad | undefined;
  let closed = false;
  const reloadFixtures = () => {
    loading?.cancel();
    const load = loadFixturesInBackground(fixturesFile);
    loading = load;
    session.setFixturesReloading(true);
    emit({ type: 'state' });
    const current = () => loading === load;
    load.fixtures.then(
      (next) => {
        if (!current()) return;
        loading = undefined;
        session.setFixtures(next);
        log('info', `${fixturesFile} changed: data reloaded, the open quote starts over.`);
        emit({ type: 'notice', level: 'info', message: 'Fixtures reloaded; the open quote starts over.' });
        emit({ type: 'state' });
        emit({ type: 'reload', reason: 'the fixtures changed' });
      },
      (error: unknown) => {
        if (!current()) return;
        loading = undefined;
        const message = error instanceof Error ? error.message : String(error);
        session.setFixtureError(message);
        log('error', `${message}\nKeeping the previous data until the file is fixed.`);
        emit({ type: 'notice', level: 'error', message });
        emit({ type: 'state' });
      },
    );
  };
  const fixtureWatcher = watchFile(fixturesFile, reloadFixtures);
  // The data was loaded before the watch began: a save in between sent no event.
  if (readFrom !== undefined) {
    void fileStamp(fixturesFile).then((now) => {
      if (now !== readFrom && !closed) reloadFixtures();
    });
  }
  return {
    ready: fixtureWatcher.ready,
    close() {
      closed = true;
      fixtureWatcher.close();
      loading?.cancel();
      loading = undefined;
    },
  };
}

/** Tells the terminal when the manifest breaks or mends, and when the entry page goes or comes back. */
export function reportToolChanges(previous: ToolInfo | null, next: ToolInfo, log: LiveReloadOptions['log']): void {
  const problem = next.manifestProblem === null ? null : describeManifestProblem(next.manifestProblem);
  const before = previous?.manifestProblem ? describeManifestProblem(previous.manifestProblem) : null;
  if (problem !== null && problem !== before) {
    log('error', next.lastGood ? `${problem}. Keeping the last good manifest until it is fixed.` : `${problem}. Acting as a standalone tool opened at index.html until it is fixed.`);
  } else if (problem === null && before !== null) {
    log('info', 'manifest.json is readable again.');
  }
  if (next.entryMissing !== null && next.entryMissing !== previous?.entryMissing) log('error', next.entryMissing);
  else if (next.entryMissing === null && previous?.entryMissing) log('info', `the entry page ${next.entry} is there now.`);
}
