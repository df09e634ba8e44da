#!/usr/bin/env node
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
  const { run } = await import('../dist/cli/main.js');
  process.exitCode = await run(process.argv);
}
