#!/usr/bin/env node
import { run } from '../dist/cli/main.js';

// A closed pipe (`pipeline-tool rules | head`) is the reader's choice, not an error worth a trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

process.exitCode = await run(process.argv);
