import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { atFileEnd } from './file-end.js';
import { buildZip, type EntrySpec } from './zip-builder.js';

export const goodManifest = {
  name: 'Kitchen Estimator',
  shortName: 'Kitchen',
  type: 'quoting_extension',
  version: '1.2.0',
  description: 'Estimates kitchen renovations.',
  entry: 'index.html',
};

/** The files of a small, clean tool, as path → content. */
export function goodFiles(manifest: object = goodManifest): Record<string, string | Buffer> {
  return {
    'manifest.json': JSON.stringify(manifest, null, 2),
    'index.html': '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body><script src="app.js"></script></body></html>',
    'app.js': 'document.body.append("ready");\n',
    'styles.css': 'body { font-family: sans-serif; }\n',
  };
}

const roots: string[] = [];
atFileEnd(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fresh temporary folder, removed after the test file. */
export function tempDir(prefix = 'pipeline-tool-test-'): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  roots.push(root);
  return root;
}

/** Writes files (path → content) into a new temporary folder and returns it. */
export function writeFolder(files: Record<string, string | Buffer>): string {
  const root = tempDir();
  for (const [name, content] of Object.entries(files)) {
    const target = path.join(root, name);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return root;
}

/** Writes bytes (a hand-made or damaged archive) into a temporary file and returns its path. */
export function writeBytes(bytes: Buffer, name = 'bundle.zip'): string {
  const file = path.join(tempDir(), name);
  writeFileSync(file, bytes);
  return file;
}

/** Writes a zip built from specs into a temporary file and returns its path. */
export function writeZip(entries: EntrySpec[], archive?: Parameters<typeof buildZip>[1], name = 'bundle.zip'): string {
  return writeBytes(buildZip(entries, archive), name);
}

/** Specs for the clean tool's files, to extend or tamper with. */
export function goodEntries(manifest: object = goodManifest): EntrySpec[] {
  return Object.entries(goodFiles(manifest)).map(([name, data]) => ({ name, data }));
}
