import { open } from 'node:fs/promises';
import path from 'node:path';
import type { BridgeToolType } from '../bridge/types.js';
import { MANIFEST_MAX_BYTES, manifestString, parseManifest } from '../core/manifest/read-manifest.js';
import { MANIFEST_PATH, unsafePathReason } from '../core/paths.js';

/*
 * What the dev host needs from the manifest: who the tool is (for its settings), what it may call,
 * and which page to open. A broken manifest must not stop the author from working on it, so each
 * missing piece falls back to what the platform would assume, with a note saying so; the
 * validation findings explain the problem itself.
 */

export interface ToolInfo {
  /** The manifest's name, or the folder's name; settings are kept under it. */
  toolId: string;
  /** From the manifest; null when it is missing or not a known type. */
  manifestType: BridgeToolType | null;
  /** The page to open, relative to the folder, with / separators. */
  entry: string;
  notes: string[];
}

const TOOL_TYPES: readonly string[] = ['standalone', 'quoting_extension'];

async function readManifestBytes(file: string): Promise<Buffer | undefined> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(MANIFEST_MAX_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export async function readToolInfo(root: string): Promise<ToolInfo> {
  const notes: string[] = [];
  const bytes = await readManifestBytes(path.join(root, MANIFEST_PATH));
  const state = bytes === undefined ? undefined : parseManifest(bytes);
  if (state === undefined) notes.push('manifest.json is missing: acting as a standalone tool opened at index.html.');
  else if (state.status !== 'parsed') notes.push('manifest.json cannot be read (see the findings): acting as a standalone tool opened at index.html.');

  const name = state === undefined ? undefined : manifestString(state, 'name')?.trim();
  const type = state === undefined ? undefined : manifestString(state, 'type');
  const entry = state === undefined ? undefined : manifestString(state, 'entry');

  let manifestType: BridgeToolType | null = null;
  if (type !== undefined && TOOL_TYPES.includes(type)) manifestType = type as BridgeToolType;
  else if (state?.status === 'parsed') notes.push('manifest.json has no valid type: acting as standalone, as the platform would.');

  let safeEntry = 'index.html';
  if (entry !== undefined && unsafePathReason(entry) === undefined && !entry.split('/').some((part) => part.startsWith('.'))) safeEntry = entry;
  else if (state?.status === 'parsed') notes.push(`manifest.json has no usable entry: opening ${safeEntry}.`);

  return { toolId: name || path.basename(path.resolve(root)), manifestType, entry: safeEntry, notes };
}
