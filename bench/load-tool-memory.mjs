#!/usr/bin/env node
// node bench/load-tool-memory.mjs [pages] [tool folder]: the heap a test process keeps after it
// has loaded and closed `pages` pages (100 unless given) of a tool, measured after full garbage
// collections in a fresh Node process run with --expose-gc. A page nobody holds any more should
// leave nothing behind; a figure that grows with the number of pages is a leak.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pages = Number(process.argv[2] ?? 100);
let tool = process.argv[3];
let scratch;
if (tool === undefined) {
  scratch = mkdtempSync(path.join(tmpdir(), 'bench-load-tool-memory-'));
  execFileSync(process.execPath, [path.join(root, 'bin', 'pipeline-tool.js'), 'init', 'tool', '--yes', '--type', 'quoting_extension'], { cwd: scratch });
  tool = path.join(scratch, 'tool', 'src');
}

const probe = `
const { loadTool } = await import(${JSON.stringify(new URL('../dist/testing/index.js', import.meta.url).href)});
const [folder, pages] = [process.argv[1], Number(process.argv[2])];
// A weak reference keeps its target until the current job ends: collect between turns.
const collect = async () => { for (let i = 0; i < 5; i++) { await new Promise((resolve) => setImmediate(resolve)); gc(); } };
// The first pages load and warm jsdom's own module-level caches.
for (let i = 0; i < 5; i++) (await loadTool(folder)).close();
await collect();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < pages; i++) (await loadTool(folder)).close();
await collect();
console.log(JSON.stringify({ kept: process.memoryUsage().heapUsed - before }));
`;

try {
  const { kept } = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', probe, tool, String(pages)], { encoding: 'utf8' }));
  console.log(`${pages} pages of ${path.basename(path.dirname(tool))} loaded and closed: ${(kept / 1e6).toFixed(1)} MB of heap kept (${(kept / pages / 1e3).toFixed(0)} KB a page)`);
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
