import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HEAVY_PARSING } from '../../src/core/code/script-syntax.js';
import { runCli } from '../helpers/cli.js';
import { goodFiles, writeFolder } from '../helpers/bundles.js';

/*
 * What a run of the binary sets up, watched from inside by a preload module. The CLI turns V8's
 * compilation cache off once a run has parsed more than HEAVY_PARSING bytes of script, and only then
 * loads node:v8 (src/cli/parse-memory.ts); the spy records each load of node:v8 and each flag set
 * through it. Node builds process.stdin on first use, at a cost, and only commands that read it
 * should (src/cli/io.ts); the spy records whether it was.
 */

const work = mkdtempSync(path.join(tmpdir(), 'pipeline-tool-parse-memory-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const spy = path.join(work, 'spy.cjs');
writeFileSync(
  spy,
  `const Module = require('node:module');
const fs = require('node:fs');
const { isMainThread } = require('node:worker_threads');
const calls = [];
const load = Module._load;
Module._load = function (request, ...rest) {
  const loaded = load.call(this, request, ...rest);
  if (request !== 'node:v8' && request !== 'v8') return loaded;
  calls.push('load');
  return { ...loaded, setFlagsFromString: (flags) => { calls.push(flags); return loaded.setFlagsFromString(flags); } };
};
let stdin = false;
const stdinGetter = Object.getOwnPropertyDescriptor(process, 'stdin').get;
Object.defineProperty(process, 'stdin', { configurable: true, enumerable: true, get() { stdin = true; return stdinGetter.call(process); } });
if (isMainThread) process.on('exit', () => fs.writeFileSync(process.env.SPY_OUT, JSON.stringify({ calls, v8: process.moduleLoadList.includes('NativeModule v8'), stdin })));
`,
);

interface Watched {
  code: number | null;
  calls: string[];
  v8: boolean;
  stdin: boolean;
}

function watched(args: string[]): Watched {
  const out = path.join(work, `spy-${Math.random().toString(36).slice(2)}.json`);
  const result = runCli(args, { env: { NODE_OPTIONS: `--require ${spy}`, SPY_OUT: out } });
  // pack names a step that takes over a second ("pipeline-tool: checking the zip…"), which only a
  // loaded machine shows; anything else on stderr is a fault.
  expect(result.stderr.replace(/^pipeline-tool: [^\n]*…\n/gm, '')).toBe('');
  return { code: result.code, ...(JSON.parse(readFileSync(out, 'utf8')) as Omit<Watched, 'code'>) };
}

/** Plain, unminified script lines: what js-syntax parses. */
const script = (bytes: number) => 'var total = 0;\nfunction add(x) { total += x; return total; }\n'.repeat(Math.ceil(bytes / 62));

describe('V8 compilation cache in the CLI', () => {
  it('stays on, and node:v8 is never loaded, for a tool with little script', () => {
    const tool = writeFolder(goodFiles());
    expect(watched(['validate', tool])).toEqual({ code: 0, calls: [], v8: false, stdin: false });
  });

  it('is turned off once, after more than HEAVY_PARSING bytes of script, by validate and by pack', () => {
    const files = { ...goodFiles(), 'lib/a.js': script(HEAVY_PARSING / 2), 'lib/b.js': script(HEAVY_PARSING / 2), 'lib/c.js': script(HEAVY_PARSING / 4) };
    const tool = writeFolder(files);
    expect(watched(['validate', tool])).toMatchObject({ code: 0, calls: ['load', '--no-compilation-cache'], v8: true });
    expect(watched(['pack', tool, '--out', path.join(work, 'tool.zip')])).toMatchObject({ code: 0, calls: ['load', '--no-compilation-cache'], v8: true });
  });

  it('stays on just below HEAVY_PARSING bytes', () => {
    const tool = writeFolder({ ...goodFiles(), 'lib/a.js': script(HEAVY_PARSING / 2 - 1024), 'lib/b.js': script(HEAVY_PARSING / 2 - 1024) });
    expect(watched(['validate', tool])).toMatchObject({ code: 0, calls: [] });
  });
});

describe('process.stdin in the CLI', () => {
  it('is left alone by the commands that never read it', () => {
    const tool = writeFolder(goodFiles());
    const zip = path.join(work, 'stdin.zip');
    expect(watched(['pack', tool, '--out', zip])).toMatchObject({ code: 0, stdin: false });
    expect(watched(['validate', zip])).toMatchObject({ code: 0, stdin: false });
    expect(watched(['rules'])).toMatchObject({ code: 0, stdin: false });
  });

  it('is used by init, which asks its questions there', () => {
    expect(watched(['init', path.join(work, 'new-tool'), '--type', 'standalone', '--name', 'New Tool', '--yes']).stdin).toBe(true);
  });
});
