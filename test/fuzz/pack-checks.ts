import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { packFolder, type PackResult } from '../../src/core/pack/pack-folder.js';
import type { Report } from '../../src/core/problem.js';
import { validateBundle } from '../../src/core/validate.js';
import { tempDir } from '../helpers/bundles.js';
import { atFileEnd } from '../helpers/file-end.js';
import { bodyBytes, type FolderSpec } from './arbitraries.js';
import { pythonExecutable, withinBound } from './checks.js';

/*
 * The predicates behind properties 2 to 4 (pack), kept apart from the property declarations so
 * saved failing inputs replay through the same checks.
 */

/** Packing compresses and validates twice; still, a small folder takes well under a second. */
const PACK_BOUND_MS = 15_000;

let root: string | undefined;
let count = 0;
// The folder goes with the test file that made it (tempDir), so the next file takes its own.
atFileEnd(() => {
  root = undefined;
});
function freshDir(label: string): string {
  root ??= tempDir('pipeline-tool-fuzz-pack-');
  const dir = path.join(root, `${count++}-${label}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export interface WriteOrder {
  /** Sort keys: files are created in the order of these keys (ties keep spec order). */
  order?: number[];
  /** Modification times in seconds since the epoch, per file. */
  times?: number[];
  /** File modes, per file. */
  modes?: number[];
  /** The Unicode normal form each file's path is written in, per file (macOS hands out NFD). */
  forms?: ('NFC' | 'NFD')[];
}

/** Creates the folder on disk, in the given order, with the given times and modes. */
export function writeFolderSpec(spec: FolderSpec, how: WriteOrder = {}): string {
  const dir = freshDir('tool');
  const indices = spec.files.map((_, i) => i).sort((a, b) => (how.order?.[a] ?? 0) - (how.order?.[b] ?? 0) || a - b);
  for (const d of spec.emptyDirs) mkdirSync(path.join(dir, ...d.split('/')), { recursive: true });
  for (const i of indices) {
    const file = spec.files[i]!;
    const form = how.forms?.[i];
    const target = path.join(dir, ...(form ? file.path.normalize(form) : file.path).split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, bodyBytes(file.body));
    const mode = how.modes?.[i];
    if (mode !== undefined) chmodSync(target, mode);
    const time = how.times?.[i];
    if (time !== undefined) utimesSync(target, time, time);
  }
  return dir;
}

async function pack(folder: string): Promise<{ result: PackResult; out: string }> {
  const outDir = freshDir('out');
  const out = path.join(outDir, 'bundle.zip');
  const result = await withinBound(packFolder(folder, { out, cwd: outDir, force: true }), 'pack', PACK_BOUND_MS);
  return { result, out };
}

/** The findings as a user sees them: everything but which bundle they are about. */
const findings = (report: Report) => report.problems;

const ids = (report: Report) => report.problems.map((p) => `${p.ruleId}${p.file ? ` ${JSON.stringify(p.file)}` : ''}`);

/**
 * Property 2, one answer to "what ships". F is the generated folder. validate(F) judges the zip
 * pack would make of F, so:
 *  - pack's report (whichever check it comes from: the files before compressing, or the zip it
 *    wrote) has exactly the findings of validate(F), rule, file, line, column, data and wording,
 *    and lists exactly the same left-out files;
 *  - pack writes the zip exactly when validate(F) passes;
 *  - a written zip, validated afresh, has exactly those findings too, and is the size validate(F)
 *    measured for it (a dry run says the same size).
 */
export async function checkSameVerdict(spec: FolderSpec): Promise<void> {
  const folder = writeFolderSpec(spec);
  try {
    const validated = await withinBound(validateBundle(folder), 'validate folder');
    const { result, out } = await pack(folder);
    const packed = result.report;
    expect(findings(packed), `pack's ${result.stage} report (left) vs validate of the folder (right)`).toEqual(findings(validated));
    expect(packed.excluded).toEqual(validated.excluded);
    expect(result.written, `pack wrote ${result.written}; validate: ${JSON.stringify(ids(validated))}`).toBe(validated.ok);
    const dry = await withinBound(packFolder(folder, { dryRun: true, cwd: path.dirname(out) }), 'pack --dry-run', PACK_BOUND_MS);
    expect(findings(dry.report)).toEqual(findings(validated));
    if (!result.written) return;
    const again = await withinBound(validateBundle(out), 'validate zip');
    expect(findings(again), 'validate of the written zip (left) vs validate of the folder (right)').toEqual(findings(validated));
    expect(dry.zipSize, 'the zip size measured without writing').toBe(readFileSync(out).length);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const PYTHON_EXTRACT = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    if bad: raise SystemExit('bad CRC in ' + bad)
    print(json.dumps({i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()}))
`;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Property 3, nothing lost. For a folder that should pack cleanly, pack writes a zip, and Python's
 * zipfile (an independent reader) extracts from it exactly the files the generator meant to be
 * included (names in NFC), each byte for byte, and nothing else; pack's own list agrees.
 */
export async function checkNothingLost(spec: FolderSpec): Promise<void> {
  const folder = writeFolderSpec(spec);
  try {
    const { result, out } = await pack(folder);
    expect(result.written, `pack wrote nothing: ${JSON.stringify(ids(result.report))}`).toBe(true);
    const expected = Object.fromEntries(spec.files.filter((f) => f.expect === 'in').map((f) => [f.path.normalize('NFC'), sha256(bodyBytes(f.body))]));
    const extracted = JSON.parse(execFileSync(pythonExecutable(), ['-c', PYTHON_EXTRACT, out], { encoding: 'utf8' })) as Record<string, string>;
    expect(extracted).toEqual(expected);
    expect(result.included.map((f) => f.path).sort()).toEqual(Object.keys(expected).sort());
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export interface DeterminismCase {
  folder: FolderSpec;
  second: Required<WriteOrder>;
}

/**
 * Property 4, deterministic. The same folder written twice, the second time in another order of
 * creation, with other modification times and modes, and with each name in either Unicode normal
 * form, packs to identical bytes. Names such as `é.js` beside `f.js` sort differently in the two
 * forms (NFD's `e\u0301` comes before `f`, NFC's `é` after it), so a pack that kept the folder's
 * listing order instead of sorting the normalised names would fail here.
 */
export async function checkDeterministic(input: DeterminismCase): Promise<void> {
  const first = writeFolderSpec(input.folder);
  const second = writeFolderSpec(input.folder, input.second);
  try {
    const a = await pack(first);
    const b = await pack(second);
    expect(a.result.written, `pack wrote nothing: ${JSON.stringify(ids(a.result.report))}`).toBe(true);
    expect(b.result.written).toBe(true);
    const bytesA = readFileSync(a.out);
    const bytesB = readFileSync(b.out);
    expect(bytesA.equals(bytesB), `zips differ: ${bytesA.length} and ${bytesB.length} bytes`).toBe(true);
    expect(a.result.sha256).toBe(b.result.sha256);
  } finally {
    rmSync(first, { recursive: true, force: true });
    rmSync(second, { recursive: true, force: true });
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const packChecks: Record<string, (input: any) => Promise<void>> = {
  'pack/same-verdict': checkSameVerdict,
  'pack/nothing-lost': checkNothingLost,
  'pack/deterministic': checkDeterministic,
};
