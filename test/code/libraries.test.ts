import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validateBundle } from '../../src/core/validate.js';
import { goodManifest, writeFolder, writeZip } from '../helpers/bundles.js';

/*
 * Real library builds, shipped as a tool would ship them: every finding in them is listed here,
 * so a change to the code checks can neither add a false alarm on real code nor lose a real use
 * without this test saying so. The findings are the HTML each library builds at run time (jQuery's
 * and Vue's innerHTML writes); the rest of these files (9 MB of TypeScript's compiler, jQuery's own
 * `.html()` and the module build of Vue) must stay silent, js-syntax included.
 */

const installed = (file: string) => fileURLToPath(new URL(`../../node_modules/${file}`, import.meta.url));
// typescript 5.9, jquery 4.0 and vue 3.5 (package.json): the findings move with their versions.
const LIBRARIES: Record<string, string> = {
  'vendor/typescript.js': installed('typescript/lib/typescript.js'),
  'vendor/jquery.js': installed('jquery/dist/jquery.js'),
  'vendor/jquery.min.js': installed('jquery/dist/jquery.min.js'),
  'vendor/vue.global.js': installed('vue/dist/vue.global.js'),
  'vendor/vue.global.prod.js': installed('vue/dist/vue.global.prod.js'),
  'vendor/vue.esm-browser.js': installed('vue/dist/vue.esm-browser.js'),
};
const PAGE = [
  '<!doctype html><html><head><link rel="stylesheet" href="styles.css"></head><body>',
  '<script src="vendor/jquery.js"></script>',
  '<script type="module">import { createApp } from "./vendor/vue.esm-browser.js"; createApp({}).mount("body");</script>',
  '</body></html>',
].join('\n');

const FINDINGS = [
  'unsafe-html vendor/jquery.js:4425:9',
  'unsafe-html vendor/jquery.js:5700:13',
  'unsafe-html vendor/jquery.min.js:2:33304',
  'unsafe-html vendor/jquery.min.js:2:44623',
  'unsafe-html vendor/vue.esm-browser.js:11511:25',
  'unsafe-html vendor/vue.esm-browser.js:18785:13',
  'unsafe-html vendor/vue.esm-browser.js:18788:13',
  'unsafe-html vendor/vue.global.js:11451:27',
  'unsafe-html vendor/vue.global.js:18491:15',
  'unsafe-html vendor/vue.global.js:18494:15',
  'unsafe-html vendor/vue.global.prod.js:7:38938',
  'unsafe-html vendor/vue.global.prod.js:9:22269',
  'unsafe-html vendor/vue.global.prod.js:9:22359',
];

function files(): Record<string, string | Buffer> {
  const all: Record<string, string | Buffer> = {
    'manifest.json': JSON.stringify(goodManifest),
    'index.html': PAGE,
    'styles.css': 'body { margin: 0; }\n',
  };
  for (const [to, from] of Object.entries(LIBRARIES)) all[to] = readFileSync(from);
  return all;
}

describe('real library builds', () => {
  it.each([
    ['a folder', () => writeFolder(files())],
    ['a zip', () => writeZip(Object.entries(files()).map(([name, data]) => ({ name, data })))],
  ])('give exactly their known findings, in %s', async (_kind, make) => {
    const report = await validateBundle(make());
    expect(report.problems.map((p) => `${p.ruleId} ${p.file}:${p.line}:${p.column}`)).toEqual(FINDINGS);
    // Vendored: each is marked as library code, for the text output to sum up.
    expect(report.problems.filter((p) => !p.library)).toEqual([]);
  }, 120_000);
});
