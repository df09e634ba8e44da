import type { BundleEntry, BundleSource } from '../shipment/source.js';
import { MANIFEST_PATH } from '../paths.js';
import { positionFinder, scanJson } from '../json/scan-json.js';
import validateSchema from './manifest-schema.generated.js';
import type { SchemaError } from './schema-validator.js';

/** The manifest may be at most this many bytes (64 KB, read as decimal like every other limit). */
export const MANIFEST_MAX_BYTES = 64_000;

export interface KeyPosition {
  key: string;
  line: number;
  column: number;
}

export type ManifestState =
  /** `kind`: manifest.json is there, but as a link or another special entry, never read as a file. */
  | { status: 'missing'; nested?: string; wrongCase?: string; kind?: 'symlink' | 'other' }
  /**
   * The archive's own findings already explain why the manifest cannot be read (its entries could
   * not be listed, or its data is encrypted, compressed with another method, or corrupt); a
   * manifest rule would only repeat them with a wrong cause.
   */
  | { status: 'unreadable' }
  | { status: 'too-large'; size: number }
  | { status: 'not-utf8' }
  /** `tooDeep`: it nests objects and arrays deeper than the limit every JSON file here has. */
  | { status: 'syntax-error'; message: string; line: number; column: number; bom: boolean; tooDeep?: true }
  | {
      status: 'parsed';
      value: unknown;
      text: string;
      bom: boolean;
      duplicateKeys: KeyPosition[];
      /** Where each top-level key is written, to point problems at the right line. */
      keyPositions: Map<string, KeyPosition>;
      schemaErrors: SchemaError[];
    };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Finds manifest.json, or explains its absence (zipped one folder too deep, wrong letter case). */
export function locateManifest(source: BundleSource): BundleEntry | Extract<ManifestState, { status: 'missing' }> {
  const files = source.entries.filter((e) => e.kind === 'file');
  const entry = files.find((e) => e.path === MANIFEST_PATH);
  if (entry) return entry;
  const nested = files.find((e) => /^[^/]+\/manifest\.json$/.test(e.path))?.path;
  const wrongCase = files.find((e) => e.path.toLowerCase() === MANIFEST_PATH)?.path;
  // A link in a zip is listed and never followed; in a folder, pack leaves it out.
  const special = source.entries.find((e) => e.path === MANIFEST_PATH)?.kind ?? source.excluded?.find((e) => e.path === MANIFEST_PATH)?.kind;
  const kind = special === 'symlink' || special === 'other' ? special : undefined;
  return { status: 'missing', ...(nested ? { nested } : {}), ...(wrongCase ? { wrongCase } : {}), ...(kind ? { kind } : {}) };
}

/** Decodes and parses the manifest's bytes (of which at most MANIFEST_MAX_BYTES + 1 are needed). */
export function parseManifest(bytes: Buffer, size = bytes.length): ManifestState {
  if (size > MANIFEST_MAX_BYTES) return { status: 'too-large', size };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { status: 'not-utf8' };
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  const scan = scanJson(text);
  const positionOf = positionFinder(text);
  if (!scan.ok) return { status: 'syntax-error', bom, message: scan.message, ...positionOf(scan.offset), ...(scan.tooDeep ? { tooDeep: scan.tooDeep } : {}) };
  let value: unknown;
  try {
    // The scan accepted the text, so JSON.parse should too; it builds the value faster.
    value = JSON.parse(text);
  } catch (error) {
    return { status: 'syntax-error', bom, message: String((error as Error).message), line: 1, column: 1 };
  }
  validateSchema(value);
  const at = (pointer: string, offset: number): KeyPosition => ({ key: decodePointerKey(pointer), ...positionOf(offset) });
  const keyPositions = new Map<string, KeyPosition>();
  for (const [pointer, offset] of scan.offsets) {
    if (/^\/[^/]*$/.test(pointer)) keyPositions.set(decodePointerKey(pointer), at(pointer, offset));
  }
  return {
    status: 'parsed',
    value,
    text,
    bom,
    duplicateKeys: scan.duplicates.map((d) => at(d.pointer, d.offset)),
    keyPositions,
    schemaErrors: validateSchema.errors ?? [],
  };
}

/** The last key of a JSON pointer, unescaped. */
function decodePointerKey(pointer: string): string {
  return pointer.slice(pointer.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The manifest as an object, when it parsed to one. */
export function manifestObject(state: ManifestState): Record<string, unknown> | undefined {
  return state.status === 'parsed' && typeof state.value === 'object' && state.value !== null && !Array.isArray(state.value)
    ? (state.value as Record<string, unknown>)
    : undefined;
}

/** A top-level manifest field when it is a string, else undefined. */
export function manifestString(state: ManifestState, field: string): string | undefined {
  const value = manifestObject(state)?.[field];
  return typeof value === 'string' ? value : undefined;
}

/** Schema errors about one top-level field, by ajv keyword. */
export function schemaErrorsFor(state: ManifestState, keyword: string): SchemaError[] {
  return state.status === 'parsed' ? state.schemaErrors.filter((e) => e.keyword === keyword) : [];
}

/** A rule hit located at a top-level manifest key (or at the file when the key is absent). */
export function atManifestKey<D>(state: ManifestState, key: string | undefined, data: D) {
  const position = key !== undefined && state.status === 'parsed' ? state.keyPositions.get(key) : undefined;
  return { file: MANIFEST_PATH, ...(position ? { line: position.line, column: position.column } : {}), data };
}
