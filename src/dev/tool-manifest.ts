import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BridgeToolType } from '../bridge/types.js';
import { MANIFEST_MAX_BYTES, manifestString, parseManifest, type ManifestState } from '../core/manifest/read-manifest.js';
import { nearestName } from '../core/nearest.js';
import { describeFileKind, NotRegularFileError, readRegularFile } from '../core/regular-file.js';
import { MANIFEST_PATH, unsafePathReason } from '../core/paths.js';

/*
 * What the dev host needs from the manifest: who the tool is (for its settings), what it may call,
 * and which page to open. A broken manifest must not stop the author from working on it, so each
 * missing piece falls back to what the platform would assume, with a note saying so; the
 * validation findings explain the problem itself.
 *
 * While dev runs, a manifest that stops parsing is most often a save in the middle of an edit.
 * Switching the tool to standalone then would make every quote call fail for a reason far from
 * the cause, so the last manifest that parsed stays in use, and the page, the terminal and any
 * refusal that depends on it say that the file is broken, and where.
 */

/** Why manifest.json cannot be read, with the place when there is one. */
export interface ManifestProblem {
  message: string;
  line: number | null;
  column: number | null;
}

export interface ToolInfo {
  /** The manifest's name, or the folder's name; settings are kept under it. */
  toolId: string;
  /** From the manifest; null when it is missing or not a known type. */
  manifestType: BridgeToolType | null;
  /** The page to open, relative to the folder, with / separators. */
  entry: string;
  /** Set while manifest.json cannot be parsed. */
  manifestProblem: ManifestProblem | null;
  /** True when the fields above come from the last manifest that parsed, not from the file as it is. */
  lastGood: boolean;
  /** Set when the entry page is not in the folder: what to tell the author. */
  entryMissing: string | null;
  /** What is broken right now and must be fixed (a broken manifest, a missing entry page), one sentence each. */
  alerts: string[];
  /** How the host fills in for what the manifest does not give. */
  notes: string[];
}

const TOOL_TYPES: readonly string[] = ['standalone', 'quoting_extension'];

/** The manifest's first bytes (enough to tell it is too large), a phrase for what it is instead of a file, or undefined when it is missing. */
async function readManifestBytes(file: string): Promise<Buffer | { notRegular: string } | undefined> {
  try {
    return await readRegularFile(file, { maxBytes: MANIFEST_MAX_BYTES + 1 });
  } catch (error) {
    if (error instanceof NotRegularFileError) return { notRegular: error.kind };
    return undefined;
  }
}

function problemOf(state: ManifestState | undefined): ManifestProblem | null {
  switch (state?.status) {
    case 'syntax-error':
      return { message: state.message, line: state.line, column: state.column };
    case 'not-utf8':
      return { message: 'it is not valid UTF-8 text', line: null, column: null };
    case 'too-large':
      return { message: `it is ${state.size} bytes, over the ${MANIFEST_MAX_BYTES}-byte limit`, line: null, column: null };
    default:
      return null;
  }
}

/** `manifest.json is broken at line 3, column 5: …`, as the page, the terminal and refusals say it. */
export function describeManifestProblem(problem: ManifestProblem): string {
  const where = problem.line === null ? '' : ` at line ${problem.line}, column ${problem.column ?? 1}`;
  return `manifest.json is broken${where}: ${problem.message}`;
}

/** What to tell the author when the entry page is missing: what is there instead. */
export async function describeMissingEntry(root: string, entry: string): Promise<string | null> {
  const info = await stat(path.join(root, ...entry.split('/'))).catch(() => undefined);
  if (info?.isFile()) return null;
  if (info !== undefined && !info.isDirectory()) {
    return `manifest.json names the entry page "${entry}", which is ${describeFileKind(info)}, not a regular file. Make it an HTML file.`;
  }
  const names = await readdir(root).catch(() => [] as string[]);
  const pages = names.filter((name) => /\.html?$/i.test(name) && !name.startsWith('.')).sort();
  const guess = nearestName(entry, pages) ?? (pages.length === 1 ? pages[0] : undefined);
  const instead =
    pages.length === 0
      ? 'The folder has no HTML file at its top level.'
      : `HTML files at the top of the folder: ${pages.slice(0, 10).join(', ')}${pages.length > 10 ? ` and ${pages.length - 10} more` : ''}.`;
  return `manifest.json names the entry page "${entry}", which is not in the folder.${guess === undefined ? '' : ` Did you mean "${guess}"?`} ${instead}`;
}

export interface ReadToolOptions {
  /** Where manifest.json is, when it is not in the tool folder (a page framed from another dev server). */
  manifestFile?: string;
  /** Check that the entry page is in the folder; false when the tool's page comes from another server. */
  checkEntry?: boolean;
}

export async function readToolInfo(root: string, options: ReadToolOptions = {}): Promise<ToolInfo> {
  const notes: string[] = [];
  const alerts: string[] = [];
  const bytes = await readManifestBytes(options.manifestFile ?? path.join(root, MANIFEST_PATH));
  const state = bytes === undefined || !Buffer.isBuffer(bytes) ? undefined : parseManifest(bytes);
  const manifestProblem = bytes !== undefined && !Buffer.isBuffer(bytes) ? { message: `it is ${bytes.notRegular}, not a regular file`, line: null, column: null } : problemOf(state);
  if (bytes === undefined) notes.push(options.checkEntry === false ? 'manifest.json is missing: acting as a standalone tool.' : 'manifest.json is missing: acting as a standalone tool opened at index.html.');
  else if (manifestProblem !== null) alerts.push(`${describeManifestProblem(manifestProblem)}. Acting as a standalone tool opened at index.html until it is fixed.`);

  const name = state === undefined ? undefined : manifestString(state, 'name')?.trim();
  const type = state === undefined ? undefined : manifestString(state, 'type');
  const entry = state === undefined ? undefined : manifestString(state, 'entry');

  let manifestType: BridgeToolType | null = null;
  if (type !== undefined && TOOL_TYPES.includes(type)) manifestType = type as BridgeToolType;
  else if (state?.status === 'parsed') notes.push('manifest.json has no valid type: acting as standalone, as the platform would.');

  let safeEntry = 'index.html';
  if (entry !== undefined && unsafePathReason(entry) === undefined && !entry.split('/').some((part) => part.startsWith('.'))) safeEntry = entry;
  else if (state?.status === 'parsed') notes.push(`manifest.json has no usable entry: opening ${safeEntry}.`);

  const entryMissing = options.checkEntry === false ? null : await describeMissingEntry(root, safeEntry);
  if (entryMissing !== null) alerts.push(entryMissing);

  return { toolId: name || path.basename(path.resolve(root)), manifestType, entry: safeEntry, manifestProblem, lastGood: false, entryMissing, alerts, notes };
}

/**
 * The tool as the host should use it after a change: `next` itself, unless its manifest is broken
 * and `previous` came from one that parsed; then the previous name, type and entry stay, with the
 * problem attached and a note saying so.
 */
export function keepLastGoodManifest(previous: ToolInfo, next: ToolInfo): ToolInfo {
  if (next.manifestProblem === null || (previous.manifestProblem !== null && !previous.lastGood)) return next;
  const note = `${describeManifestProblem(next.manifestProblem)}. Until it is fixed, the host keeps the last good manifest: ${previous.toolId}, ${previous.manifestType ?? 'no valid type (standalone)'}, entry ${previous.entry}.`;
  // The entry of the last good manifest may have gone meanwhile: that is checked afresh.
  const entryMissing = next.entry === previous.entry ? next.entryMissing : previous.entryMissing;
  return { ...previous, manifestProblem: next.manifestProblem, lastGood: true, entryMissing, alerts: [note, ...(entryMissing === null ? [] : [entryMissing])] };
}

/**
 * What a refusal that depends on the manifest (a tool-type refusal) should add, or null when the
 * manifest is fine and gave the type: the author must learn that the cause is the file.
 */
export function manifestCause(tool: ToolInfo): string | null {
  if (tool.manifestProblem !== null) {
    const used = tool.lastGood ? `the host keeps the last good manifest, whose type is ${tool.manifestType ?? 'missing (standalone)'}` : 'the host runs the tool as standalone, as the platform would';
    return `${describeManifestProblem(tool.manifestProblem)}; ${used}.`;
  }
  if (tool.manifestType === null) return 'manifest.json is missing or gives no valid type, so the host runs the tool as standalone, as the platform would.';
  return null;
}
