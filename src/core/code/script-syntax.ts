import type { Finding } from '../problem.js';
import { checkClassic, checkInWorker, collectInWorker, COLLECT_EVERY, decodeScript, meansModule, workerLoad, workerUsable, type Mode, type SyntaxProblem, type SyntaxResult } from './js-syntax.js';
import type { BundleFacts } from './js-rule.js';
import { JS_SYNTAX } from './rule-ids.js';

/*
 * The js-syntax rule's work for one script. Whether a .js file is a module is known only once every
 * page has been read (`<script type="module" src>`, an import from another module), so the choice
 * between its two parses is made then.
 *
 * V8 parses about 60 to 90 MB of source a second, slower than the rest of validate reads, so the
 * parses are shared between two threads. They wait in one queue; the syntax worker is given the
 * oldest, two at a time so that it never waits for the next; the reading thread parses the newest
 * itself whenever more than WAITING_LIMIT bytes wait (which also bounds the memory they hold), and
 * what is left once reading ends. A bundle whose scripts come to less than WORKER_THRESHOLD bytes
 * never starts the worker. Modules are parsed in the worker only (see js-syntax.ts).
 */

/** Bytes of script past which the worker is started: in the bundle, or waiting to be parsed. */
export const WORKER_THRESHOLD = 1024 * 1024;
/** Waiting bytes past which the reading thread parses instead of reading on. */
export const WAITING_LIMIT = 4 * 1024 * 1024;
/** Parses handed to the worker and not yet answered, at most. */
const WORKER_DEPTH = 2;

/**
 * A minifier's output of this size or more is not parsed: the minifier has parsed it already, and
 * parsing the megabytes of minified libraries a large bundle ships would take V8 longer than
 * everything else validate does. Minified means lines of more than MINIFIED_LINE bytes on average.
 */
export const MINIFIED_SIZE = 128 * 1024;
const MINIFIED_LINE = 1000;

/** True for a large file of very long lines: a minified build (see MINIFIED_SIZE). */
export function isMinifiedBuild(chunks: readonly Uint8Array[]): boolean {
  let size = 0;
  let lines = 1;
  for (const chunk of chunks) {
    size += chunk.length;
    for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) lines++;
  }
  return size >= MINIFIED_SIZE && size / lines > MINIFIED_LINE;
}

export interface ScriptOrigin {
  line: number;
  column: number;
}

/** How a script is loaded: known for inline scripts, looked up in the bundle's facts for files. */
export type ScriptKind = 'classic' | 'module' | { file: string; facts: BundleFacts };

let started = 0;

/** How many scripts this process has started checking: lets tests see that work was skipped. */
export function checksStarted(): number {
  return started;
}

/** Starts checking a script's bytes (the caller's own copy); the returned function gives the findings. */
export function checkScript(bytes: Uint8Array, kind: ScriptKind, file: string, origin: ScriptOrigin = { line: 1, column: 1 }): () => Promise<Finding[]> {
  started++;
  // A bundle with that much script will need the worker: it starts with the first parse rather
  // than once that much waits, so both threads parse from the start.
  if (typeof kind !== 'string' && kind.facts.scriptBytes > WORKER_THRESHOLD) useWorker = true;
  // A page or module read earlier may already say how the file is loaded.
  const pending = parse(bytes, typeof kind === 'string' ? kind : (kind.facts.scriptModes.get(kind.file) ?? kind));
  return async () => {
    await drain();
    const result = await pending;
    const problem = pick(result, typeof kind === 'string' ? kind : kind.facts.scriptModes.get(kind.file));
    if (!problem) return [];
    const finding: Finding = { ruleId: JS_SYNTAX, file, data: { message: problem.message } };
    if (problem.line !== undefined) {
      finding.line = problem.line + origin.line - 1;
      if (problem.column !== undefined) finding.column = problem.line === 1 ? problem.column + origin.column - 1 : problem.column;
    }
    return [finding];
  };
}

function parse(bytes: Uint8Array, kind: ScriptKind): Promise<SyntaxResult> {
  return new Promise((resolve) => {
    push({ bytes, mode: kind === 'module' ? 'module' : kind === 'classic' ? 'script' : 'auto', resolve });
    // The worker's count of finished checks is read without the event loop, so it is fed between
    // the parses here too.
    while (waitingBytes > WAITING_LIMIT && parseOneHere()) feedWorker();
  });
}

/** A parse waiting for a thread. */
interface Job {
  /** The caller's own copy: its memory moves to the worker if the worker takes it. */
  bytes: Uint8Array;
  mode: Mode;
  resolve: (result: SyntaxResult) => void;
}

const waiting: Job[] = [];
let waitingBytes = 0;
let useWorker = false;

/** Bytes of script given to V8 in this process past which the heavy-parsing hook runs. */
export const HEAVY_PARSING = 4 * 1024 * 1024;
let parsingTotal = 0;
let heavyParsing: (() => (() => void) | void) | undefined;
/** Collects this thread's garbage, once the heavy-parsing hook has given a way to. */
let collect: (() => void) | undefined;
let parsedSince = 0;

/**
 * Runs `hook` once, before V8 is given more than HEAVY_PARSING bytes of script in this process.
 * The CLI turns V8's compilation cache off there and returns a function that collects garbage
 * (src/cli/parse-memory.ts); from then on both threads collect every COLLECT_EVERY bytes of
 * source they parse. A library caller's process is left as it is.
 */
export function onHeavyParsing(hook: () => (() => void) | void): void {
  heavyParsing = hook;
}

function push(job: Job): void {
  parsingTotal += job.bytes.length;
  if (heavyParsing && parsingTotal > HEAVY_PARSING) {
    const hook = heavyParsing;
    heavyParsing = undefined;
    collect = hook() ?? undefined;
    if (collect) collectInWorker();
  }
  waiting.push(job);
  waitingBytes += job.bytes.length;
  if (job.mode === 'module' || waitingBytes > WORKER_THRESHOLD) useWorker = true;
  feedWorker();
}

function take(index: number): Job {
  const [job] = waiting.splice(index, 1);
  waitingBytes -= job!.bytes.length;
  return job!;
}

/** Hands the worker the oldest parses while it has fewer than WORKER_DEPTH. */
function feedWorker(): void {
  if (!useWorker) return;
  if (!workerUsable()) {
    // No worker (or it died): modules go unchecked, as they would have with it gone; the reading
    // thread parses the rest.
    for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i]!.mode === 'module') take(i).resolve({});
    return;
  }
  while (waiting.length > 0 && workerLoad() < WORKER_DEPTH) {
    const job = take(0);
    void checkInWorker(job.bytes, job.mode).then((result) => {
      job.resolve(result);
      feedWorker();
    });
  }
}

/** Parses the newest waiting script here; false when none can be (only modules wait, or nothing). */
function parseOneHere(): boolean {
  let index = waiting.length - 1;
  while (index >= 0 && waiting[index]!.mode === 'module') index--;
  if (index < 0) return false;
  const job = take(index);
  const script = checkClassic(decodeScript(job.bytes));
  parsedSince += job.bytes.length;
  if (collect && parsedSince >= COLLECT_EVERY) {
    parsedSince = 0;
    collect();
  }
  if (job.mode === 'auto' && script && meansModule(script)) {
    // A file that may be a module is parsed as one too when its error says it is one.
    push({ bytes: job.bytes, mode: 'module', resolve: (result) => job.resolve({ script, module: result.module }) });
  } else {
    job.resolve({ script });
  }
  return true;
}

/** Parses what waits in this thread, letting the worker's answers in between, until nothing can be. */
async function drain(): Promise<void> {
  while (parseOneHere()) {
    feedWorker();
    if (useWorker) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The error the browser would report, given how the script is loaded (undefined: not known). */
function pick(result: SyntaxResult, mode: 'classic' | 'module' | undefined): SyntaxProblem | null | undefined {
  if (mode === 'classic') return result.script;
  if (mode === 'module') return result.module !== undefined ? result.module : result.script;
  // Loaded some other way (a worker, a dynamic script element): whichever way parses is taken.
  if (!result.script) return null;
  return result.module !== undefined ? result.module : result.script;
}
