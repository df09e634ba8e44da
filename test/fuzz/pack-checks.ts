import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { packFolder, type PackResult } from '../../src/core/pack/pack-folder.js';
import type { Problem, Report } from '../../src/core/problem.js';
import { validateBundle } from '../../src/core/validate.js';
import { tempDir } from '../helpers/bundles.js';
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

/** Rules about the zip container itself: a folder has nothing they could apply to. */
const ZIP_ONLY = (ruleId: string) => ruleId.startsWith('archive-') || ruleId === 'bundle-size' || ruleId === 'path-utf8-flag';

function nfcDeep(value: unknown): unknown {
  if (typeof value === 'string') return value.normalize('NFC');
  if (Array.isArray(value)) return value.map(nfcDeep).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nfcDeep(v)]));
  return value;
}

/**
 * A problem as both readers should state it. Pack stores names in NFC, so names are compared in
 * NFC; which of two duplicates is "the other" depends on the listing order, so the pair is sorted;
 * the unpacked size of a zip is counted while inflating and may stop early, so only its presence counts.
 */
function comparable(problem: Problem): string {
  const file = problem.file?.normalize('NFC');
  if (problem.ruleId === 'unpacked-size') return JSON.stringify([problem.ruleId]);
  if (problem.ruleId === 'path-duplicate') {
    const pair = [file, String(problem.data?.['other'] ?? '').normalize('NFC')].sort();
    // Names that differ only in Unicode form are the same name once pack has stored them in NFC.
    const how = problem.data?.['how'] === 'unicode' ? 'exact' : problem.data?.['how'];
    return JSON.stringify([problem.ruleId, pair, how]);
  }
  return JSON.stringify([problem.ruleId, file ?? null, problem.line ?? null, problem.column ?? null, nfcDeep(problem.data ?? {})]);
}

/** Problems on rules that apply to both, leaving out those located at a folder (see checkSameVerdict). */
function shared(report: Report): string[] {
  return report.problems
    .filter((p) => !ZIP_ONLY(p.ruleId) && !p.file?.endsWith('/'))
    .map(comparable)
    .sort();
}

const ids = (report: Report) => report.problems.map((p) => `${p.ruleId}${p.file ? ` ${JSON.stringify(p.file)}` : ''}`);

/** The verdict on the rules both kinds of bundle share: no error among them. */
function sharedVerdict(report: Report): boolean {
  return report.problems.every((p) => p.severity !== 'error' || ZIP_ONLY(p.ruleId));
}

/**
 * Property 2, same verdict both ways. F is the generated folder, S the files pack includes, F|S a
 * folder holding only those files (copied, names as on disk). Pack checks the zip it wrote (and,
 * in some cases, the selected files before compressing anything). Then:
 *  - whichever check pack's report comes from, it reports the same problems as validate(F|S) on
 *    every rule that applies to both: all rules but those about the zip container (archive-*,
 *    bundle-size, path-utf8-flag), with names compared in NFC because pack stores them so;
 *  - so the verdicts on those rules agree, and pack writes the zip exactly when validate(F|S)
 *    passes and the zip has no container error (which only bundle-size could give: the zip is
 *    pack's own, so it must have no other container problem at all);
 *  - a written zip validated afresh gives the same report as the one pack returned.
 * Problems located at a folder are left out of the problem comparison, because F|S lists folders
 * and a zip made by pack does not; they still count in the verdicts.
 */
export async function checkSameVerdict(spec: FolderSpec): Promise<void> {
  const folder = writeFolderSpec(spec);
  try {
    const { result, out } = await pack(folder);
    const includedOnDisk =
      result.stage === 'files'
        ? new Set(result.included.map((f) => f.path))
        : new Set(spec.files.map((f) => f.path).filter((p) => result.included.some((f) => f.path === p.normalize('NFC'))));
    const restricted = freshDir('restricted');
    for (const file of includedOnDisk) {
      const target = path.join(restricted, ...file.split('/'));
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(path.join(folder, ...file.split('/')), target);
    }
    const folderReport = await withinBound(validateBundle(restricted), 'validate folder');
    rmSync(restricted, { recursive: true, force: true });

    const packed = result.report;
    expect(shared(packed), `pack's ${result.stage} report (left) vs validate of the folder restricted to the packed files (right)`).toEqual(shared(folderReport));
    expect(sharedVerdict(packed), `verdicts: pack ${JSON.stringify(ids(packed))}, folder ${JSON.stringify(ids(folderReport))}`).toBe(sharedVerdict(folderReport));
    if (result.stage === 'files') {
      expect(result.written).toBe(false);
      return;
    }
    const container = packed.problems.filter((p) => ZIP_ONLY(p.ruleId)).map((p) => p.ruleId);
    expect(container.filter((id) => id !== 'bundle-size'), 'container problems in a zip pack wrote').toEqual([]);
    expect(result.written).toBe(folderReport.ok && container.length === 0);
    if (result.written) {
      const again = await withinBound(validateBundle(out), 'validate zip');
      expect(again.problems.map(comparable)).toEqual(packed.problems.map(comparable));
    }
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
