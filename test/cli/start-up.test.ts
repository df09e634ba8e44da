import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HEAVY_PARSING } from '../../src/core/code/script-syntax.js';
import { COLLECT_EVERY } from '../../src/core/code/js-syntax.js';
import { COLLECT_EVERY as READ_BETWEEN_COLLECTIONS } from '../../src/core/validate.js';
import { runCli } from '../helpers/cli.js';
import { goodEntries, goodFiles, writeFolder, writeZip } from '../helpers/bundles.js';

/*
 * What a run of the binary sets up, watched from inside by a preload module. The CLI turns V8's
 * compilation cache off (and exposes V8's collector) once a run has parsed more than HEAVY_PARSING
 * bytes of script, and only then loads node:v8 (src/cli/parse-memory.ts); the spy records each load of node:v8 and each flag set
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
  if (request === 'node:vm' || request === 'vm') {
    // Each call of V8's collector, from either thread, is a line in SPY_OUT.gc.
    const runInNewContext = (code, ...more) => {
      const value = loaded.runInNewContext(code, ...more);
      return code === 'gc' && typeof value === 'function' ? () => { fs.appendFileSync(process.env.SPY_OUT + '.gc', (isMainThread ? 'reading' : 'worker') + '\\n'); value(); } : value;
    };
    return { ...loaded, runInNewContext };
  }
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
  /** The threads that called V8's collector, once per call. */
  collections: string[];
}

function watched(args: string[]): Watched {
  const out = path.join(work, `spy-${Math.random().toString(36).slice(2)}.json`);
  const result = runCli(args, { env: { NODE_OPTIONS: `--require ${spy}`, SPY_OUT: out } });
  // Progress is shown on a terminal only: here, anything on stderr is a fault.
  expect(result.stderr).toBe('');
  const collections = existsSync(`${out}.gc`) ? readFileSync(`${out}.gc`, 'utf8').split('\n').filter(Boolean) : [];
  return { code: result.code, collections, ...(JSON.parse(readFileSync(out, 'utf8')) as Omit<Watched, 'code' | 'collections'>) };
}

/** Plain, unminified script lines: what js-syntax parses. */
const script = (bytes: number) => 'var total = 0;\nfunction add(x) { total += x; return total; }\n'.repeat(Math.ceil(bytes / 62));

describe('V8 compilation cache in the CLI', () => {
  it('stays on, and node:v8 is never loaded, for a tool with little script', () => {
    const tool = writeFolder(goodFiles());
    expect(watched(['validate', tool])).toEqual({ code: 0, calls: [], v8: false, stdin: false, collections: [] });
  });

  it('is turned off once, after more than HEAVY_PARSING bytes of script, by validate and by pack', () => {
    const files = { ...goodFiles(), 'lib/a.js': script(HEAVY_PARSING / 2), 'lib/b.js': script(HEAVY_PARSING / 2), 'lib/c.js': script(HEAVY_PARSING / 4) };
    const tool = writeFolder(files);
    expect(watched(['validate', tool])).toMatchObject({ code: 0, calls: ['load', '--no-compilation-cache', '--expose-gc'], v8: true });
    // pack collects while it writes, before the check parses the scripts: the collector comes first there.
    const packed = watched(['pack', tool, '--out', path.join(work, 'tool.zip')]);
    expect(packed).toMatchObject({ code: 0, v8: true });
    expect(packed.calls).toEqual(['load', '--expose-gc', '--no-compilation-cache']);
  });

  it('is not loaded by pack for a tool with little script', () => {
    const tool = writeFolder(goodFiles());
    expect(watched(['pack', tool, '--out', path.join(work, 'small.zip')])).toMatchObject({ code: 0, calls: [], v8: false });
  });

  it("past that, V8's collector runs every few megabytes of script parsed, and not before", () => {
    // However the parses fall between the two threads, one of them parses at least half, three
    // times COLLECT_EVERY, and collects three times; the last may come as the process exits.
    const files: Record<string, string | Buffer> = { ...goodFiles() };
    for (let i = 0; i < (6 * COLLECT_EVERY) / HEAVY_PARSING; i++) files[`lib/part-${i}.js`] = script(HEAVY_PARSING);
    const run = watched(['validate', writeFolder(files)]);
    expect(run.code).toBe(0);
    expect(run.collections.length).toBeGreaterThanOrEqual(2);
    const small = watched(['validate', writeFolder({ ...goodFiles(), 'lib/a.js': script(HEAVY_PARSING / 2) })]);
    expect(small.collections).toEqual([]);
  });

  it('validate, as pack, has the young generation collected each time READ_BETWEEN_COLLECTIONS more bytes are read', () => {
    // What is inflated lives outside V8's heap: uncollected, each entry takes fresh memory, which
    // costs its page faults. No script here, so no collection comes from the parses.
    const data = Array.from({ length: 5 }, (_, i) => ({ name: `styles/part-${i}.css`, data: Buffer.alloc(READ_BETWEEN_COLLECTIONS / 2, 0x20) }));
    const zip = writeZip([...goodEntries(), ...data]);
    expect(watched(['validate', zip])).toEqual({ code: 0, calls: ['load', '--expose-gc'], v8: true, stdin: false, collections: ['reading', 'reading'] });
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
