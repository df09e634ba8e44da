import { stat } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import type { ValidateOptions } from '../core/validate.js';
import { renderReporterScript } from './assets/frame-reporter.js';
import { renderSdkScript } from './assets/sdk-script.js';
import { DevServerError } from './errors.js';
import { isLoopbackAddress } from './host-check.js';
import { collectFindings, type Findings } from './findings.js';
import { reportToolChanges, watchFixtures, type LiveReloadOptions } from './live-reload.js';
import { keepLastGoodManifest, readToolInfo } from './tool-manifest.js';
import { isIgnoredToolPath, watchFile, watchFolder, type Watcher } from './watch.js';

/*
 * A page framed from another dev server (`dev --url`, the Vite plugin) instead of the tool folder
 * served by dev itself. That server serves and reloads its page; dev still gives it the host page,
 * window.pipeline (a script the page loads from the host page's listener), the findings of the
 * built folder, and the tool's name and type from its manifest.
 */

/** The address to frame, checked: an absolute http(s) address without a user name or password. */
export function checkFrameUrl(given: string): URL {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new DevServerError('INVALID_OPTION', `--url "${given}" is not an address; give the full address of the page, such as http://localhost:5173/.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DevServerError('INVALID_OPTION', `--url must be an http:// or https:// address, not ${url.protocol}; give the address your dev server prints, such as http://localhost:5173/.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new DevServerError('INVALID_OPTION', '--url must not carry a user name or password: the host page shows its address.');
  }
  return url;
}

/**
 * Whether a framed address names this machine: a loopback name or address (`localhost`,
 * `*.localhost`, 127.x.x.x, ::1), or an address of one of its network interfaces. A name that
 * DNS would have to answer (`devbox.local`) is not taken to be this machine.
 */
export function isOnThisMachine(url: URL): boolean {
  const name = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLoopbackAddress(name) || name.endsWith('.localhost')) return true;
  return Object.values(networkInterfaces()).some((addresses) => addresses?.some((address) => address.address.toLowerCase() === name));
}

/** The one line dev prints when the framed address is not on this machine. */
export function remoteFrameWarning(url: URL): string {
  return `--url ${url.origin} is not on this machine: the page it serves gets window.pipeline (the fixture data and stored settings), and dev asks that server for its scripts to place errors. Frame a dev server you run here.`;
}

/** The script a framed page loads from the host page's listener: the frame reporter, then the SDK. */
export function renderFrameScript(hostOrigin: string, sdk: { version: string; methods: readonly string[] }): string {
  // The other server may not allow the opaque origin, so the reporter leaves its scripts' mode alone.
  return `${renderReporterScript({ hostOrigin, corsScripts: false })}${renderSdkScript({ ...sdk, hostOrigin })}`;
}

/** The findings of the built folder, or, before the first build, a sentence saying how to get them. */
export async function collectBuiltFindings(
  root: string,
  stateFolder: string | null,
  fixturesFile: string | null,
  settings: Pick<ValidateOptions, 'rules' | 'overrides' | 'sourceMaps'> | undefined,
): Promise<Findings> {
  const info = await stat(root).catch(() => undefined);
  if (!info?.isDirectory()) {
    return { ok: false, message: `${path.basename(root)}/ is not there yet. Build the tool to see what validate says about the bundle; this panel follows each build.` };
  }
  return collectFindings(root, stateFolder, fixturesFile, settings);
}

/** As live reload's options, with the built folder (absolute; it may not exist yet) and the manifest's own place. */
export type FramedReloadOptions = Omit<LiveReloadOptions, 'realRoot'> & { root: string; manifestFile: string };

/**
 * What dev watches for a framed page: a new build refreshes the findings (the page is the other
 * server's to reload); a changed manifest may make it another tool, so it reloads the frame.
 */
export function startFramedReload(options: FramedReloadOptions): Watcher[] {
  const { root, manifestFile, session, emit, log } = options;
  let tool = options.tool;

  // Refreshes may overlap (a build writes in bursts): only the one started last, which read the
  // folder last, is shown.
  let latest = 0;
  const refreshFindings = async () => {
    const run = ++latest;
    const findings = await collectBuiltFindings(root, options.stateFolder, options.fixturesFile ?? null, options.ruleSettings);
    if (run !== latest) return;
    session.setFindings(findings);
    emit({ type: 'state' });
  };
  const refreshTool = async () => {
    const previous = tool;
    tool = keepLastGoodManifest(previous, await readToolInfo(path.dirname(manifestFile), { manifestFile, checkEntry: false }));
    session.setTool(tool);
    reportToolChanges(previous, tool, log);
    log('info', `${path.basename(manifestFile)} changed: reloading the tool.`);
    emit({ type: 'state' });
    emit({ type: 'reload', reason: 'the manifest changed' });
  };
  const failed = (error: unknown) => log('error', `could not refresh after a change: ${String(error)}`);

  // A build may make the folder after dev started, or delete and make it again: the watcher follows
  // it, and its going shows as the panel's "not there yet".
  const refresh = () => void refreshFindings().catch(failed);
  // What a build made, wrote or deleted between the first findings and the watch (the folder
  // itself, even) is told apart from the look at the folder taken before them (readFrom).
  const contents = watchFolder(root, { ignore: isIgnoredToolPath, onChange: refresh, onRootGone: refresh, since: options.readFrom });
  const manifest = watchFile(manifestFile, () => void refreshTool().catch(failed));
  const watchers: Watcher[] = [contents, manifest];
  if (options.fixturesFile !== undefined) watchers.push(watchFixtures(options.fixturesFile, session, emit, log, options.fixturesReadFrom));
  return watchers;
}
