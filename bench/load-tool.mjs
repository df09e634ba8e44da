#!/usr/bin/env node
// node bench/load-tool.mjs [runs] [tool folder]: what the first loadTool of a test process costs,
// and a later one, each in a fresh Node process (a test file under node --test runs in one). CPU
// time is given beside wall time: on a busy machine the wall time grows with the load, the CPU
// time much less, so the CPU figure is the one to compare between changes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 7);
let tool = process.argv[3];
let scratch;
if (tool === undefined) {
  scratch = mkdtempSync(path.join(tmpdir(), 'bench-load-tool-'));
  execFileSync(process.execPath, [path.join(root, 'bin', 'pipeline-tool.js'), 'init', 'tool', '--yes', '--type', 'quoting_extension'], { cwd: scratch });
  tool = path.join(scratch, 'tool', 'src');
}

const probe = `
const cpu = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const at = () => [performance.now(), cpu()];
const t0 = at();
const { loadTool } = await import(${JSON.stringify(new URL('../dist/testing/index.js', import.meta.url).href)});
const t1 = at();
const { createRequire } = await import('node:module');
createRequire(${JSON.stringify(path.join(root, 'noop.js'))})('jsdom');
const t2 = at();
const first = await loadTool(process.argv[1]);
const t3 = at();
first.close();
const second = await loadTool(process.argv[1]);
const t4 = at();
second.close();
const span = (a, b) => [Math.round(b[0] - a[0]), Math.round(b[1] - a[1])];
console.log(JSON.stringify({ kit: span(t0, t1), jsdom: span(t1, t2), firstPage: span(t2, t3), first: span(t0, t3), second: span(t3, t4) }));
`;

const results = [];
try {
  for (let run = 0; run < runs; run++) {
    results.push(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', probe, tool], { encoding: 'utf8' })));
  }
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [
  ['importing pipeline-tool/testing', 'kit'],
  ['importing jsdom', 'jsdom'],
  ['the first page, jsdom loaded', 'firstPage'],
  ['first loadTool of a process (all of the above)', 'first'],
  ['a later loadTool', 'second'],
];
console.log(`median of ${runs} fresh processes, ${path.basename(path.dirname(tool))}:`);
console.log('| step | wall (ms) | CPU (ms) |\n|---|---:|---:|');
for (const [label, key] of rows) console.log(`| ${label} | ${median(results.map((r) => r[key][0]))} | ${median(results.map((r) => r[key][1]))} |`);
