import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { goodFiles, goodManifest } from '../helpers/bundles.js';

export { goodFiles, goodManifest };

/** The file names the default destination gets for goodManifest. */
export const GOOD_ZIP_NAME = 'kitchen-1.2.0.zip';

/** Temporary files pack leaves beside a destination while it works: there must be none afterwards. */
export function tempFilesIn(folder: string): string[] {
  return readdirSync(folder).filter((name) => name.endsWith('.tmp'));
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Every regular file under `root`, as slash-separated path → SHA-256 of its content. */
export function digestFolder(root: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(path.join(root, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) Object.assign(out, digestFolder(root, relative));
    else if (entry.isFile()) out[relative] = sha256(readFileSync(path.join(root, relative)));
  }
  return out;
}

/**
 * Reads a zip with Python's zipfile, an implementation independent of ours: testzip() checks every
 * CRC, and each entry's content comes back as a SHA-256, with the header fields tests care about.
 */
export function readWithPython(zip: string): {
  bad: string | null;
  entries: { name: string; sha256: string; flags: number; method: number; date: number[]; mode: number; system: number }[];
} {
  const script = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    entries = [{"name": i.filename, "sha256": hashlib.sha256(z.read(i)).hexdigest(), "flags": i.flag_bits,
                "method": i.compress_type, "date": list(i.date_time), "mode": i.external_attr >> 16, "system": i.create_system}
               for i in z.infolist()]
    print(json.dumps({"bad": z.testzip(), "entries": entries}))
`;
  const result = spawnSync('python3', ['-c', script, zip], { encoding: 'utf8', env: { ...process.env, PYTHONIOENCODING: 'utf-8' } });
  if (result.status !== 0) throw new Error(`python3 failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** Extracts a zip with Info-ZIP unzip into `into` and returns its files' digests. */
export function extractWithUnzip(zip: string, into: string): Record<string, string> {
  const result = spawnSync('/usr/bin/unzip', ['-q', zip, '-d', into], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8' } });
  if (result.status !== 0) throw new Error(`unzip failed (${result.status}): ${result.stderr}${result.stdout}`);
  return digestFolder(into);
}

/** A clean tool with a bit of everything: nested folders, a non-ASCII name, binary and empty files. */
export function richTool(): Record<string, string | Buffer> {
  const words = Array.from({ length: 40_000 }, (_, i) => `function f${i}(a){return a*${i % 97}+${i}}`).join(';');
  return {
    ...goodFiles(),
    'js/vendor.js': words,
    'js/données/café.js': 'export const crème = "brûlée";\n',
    'css/empty.css': '',
    'img/noise.png': randomBytes(200_000),
    'img/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>',
    'fonts/inter.woff2': randomBytes(5_000),
    'data/catalogue.json': JSON.stringify({ items: Array.from({ length: 2_000 }, (_, i) => ({ id: i, name: `item ${i}` })) }),
  };
}

export function fileSize(file: string): number {
  return statSync(file).size;
}

/** How many files this process has open (Linux), to show that a step closes what it opens. */
export function openFileCount(): number {
  return readdirSync('/proc/self/fd').length;
}
