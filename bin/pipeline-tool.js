#!/usr/bin/env node
import { fileURLToPath } from 'node:url';

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
  const { readFileSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  // V8 keeps every script it compiles in a cache keyed by its source, for the life of the process.
  // validate has V8 parse each script it checks for js-syntax, once, so the cache would only hold
  // them: about 50 MB for a bundle of 40 MB of JavaScript. The CLI compiles nothing twice.
  (await import('node:v8')).setFlagsFromString('--no-compilation-cache');
  const { loadBundle, writeCodeCaches } = await import('../dist/cli-loader.js');
  const { run } = loadBundle(fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url)));
  process.exitCode = await run(process.argv);
  // The build runs the commands once this way, to save what they compiled (src/cli-loader.ts).
  if (process.env.PIPELINE_TOOL_WRITE_CODE_CACHE === '1') writeCodeCaches();
}
