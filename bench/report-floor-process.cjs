'use strict';
// The least work a bundle report of a built folder can do, as a process of its own: load the code
// --report runs (dist/cli/report.cjs through its loader, as bench/bundle-report.cjs loads it), read
// the built script and its map, parse the map, and deflate the script as pack's zip stores it
// (on the thread pool, meanwhile).
// Nothing is walked, shared out, weighed, drawn or written. bench/report-floor.mjs times it beside
// the report itself and the `vite build` it is measured against.
// Run: node bench/report-floor-process.cjs <dist/index.js> <built folder>
const { readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const [library, folder] = process.argv.slice(2);
const dist = path.dirname(path.resolve(library));
require(path.join(dist, 'cli-loader.cjs')).loadBundle(path.join(dist, 'cli', 'report.cjs'));

const assets = path.join(folder, 'assets');
const script = readdirSync(assets).find((name) => name.endsWith('.js'));
if (script === undefined) throw new Error(`no built script in ${assets}`);
const code = readFileSync(path.join(assets, script));
// Deflated on the thread pool (pack's level and memory level, src/core/shipment/zip-size.ts) while
// this thread reads and parses the map, as the report measures the zip beside its other work.
zlib.deflateRaw(code, { level: 6, memLevel: 9 }, (error, stored) => {
  if (error) throw error;
  if (stored.length === 0) throw new Error(`${script} deflated to nothing`);
});
// The cheapest parse that gives the map's own values: its bytes read as Latin-1 (no UTF-8 decoding).
const map = JSON.parse(readFileSync(path.join(assets, `${script}.map`)).toString('latin1'));
if (typeof map.mappings !== 'string' || !Array.isArray(map.sources) || map.sources.length === 0) {
  throw new Error(`${script}.map is not the map of a framework build`);
}
