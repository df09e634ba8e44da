#!/usr/bin/env node
'use strict';
// CommonJS (bin/package.json says so): an ES module entry point would cost Node's module loader,
// about a quarter of Node's own start-up again, on every run.
const path = require('node:path');

// A closed pipe (`pipeline-tool rules | head`) is the reader's choice, not an error worth a trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // Version checks run in every CI job; answer them without loading the CLI at all.
  const { version } = JSON.parse(require('node:fs').readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  const { loadBundle, writeCodeCaches } = require('../dist/cli-loader.cjs');
  const { run } = loadBundle(path.join(__dirname, '..', 'dist', 'cli', 'main.cjs'));
  run(process.argv).then((code) => {
    process.exitCode = code;
    // The build runs the commands once this way, to save what they compiled (src/cli-loader.cts).
    if (process.env.PIPELINE_TOOL_WRITE_CODE_CACHE === '1') writeCodeCaches();
  });
}
