import { isAscii } from 'node:buffer';
import type * as Inspector from 'node:inspector';
import { createRequire } from 'node:module';
import vm from 'node:vm';
import type * as WorkerThreads from 'node:worker_threads';
import type { MessagePort, Worker } from 'node:worker_threads';

/*
 * Syntax errors, as V8 (the engine of Chromium) reports them. Nothing is run: a classic script is
 * compiled with `new vm.Script`, which parses the top level and pre-parses function bodies lazily,
 * so even a 9 MB library costs a fraction of a second. Node 20 compiles an ES module only behind
 * --experimental-vm-modules, so modules (and classic scripts too large to block on) go to one
 * worker thread started with that flag, on demand. Positions come from Node's message for the
 * error (`file:line`, the line, and a caret under the column); columns are converted from UTF-16
 * units to characters (code points), as the rest of the checks count them.
 */

export interface SyntaxProblem {
  message: string;
  /** Absent when Node gave no position (a module error, if Node's internals changed). */
  line?: number;
  /** Absent when the caret could not be placed (a module error on a line over about 1,000 characters). */
  column?: number;
}

export type Mode = 'script' | 'module' | 'auto';

export interface SyntaxResult {
  /** The error as a classic script, or null when it parses; absent when not tried. */
  script?: SyntaxProblem | null;
  module?: SyntaxProblem | null;
}

/** A classic script error that only means "this is a module": the module parse decides instead. */
export function meansModule(problem: SyntaxProblem): boolean {
  return /\b(import|export)\b|await is only valid/.test(problem.message);
}

/**
 * Checks decoded source text. Self-contained on purpose: its text is also what the worker runs
 * (through toString), so it may use nothing but its parameters.
 */
function checkSource(
  source: string,
  mode: string,
  modules: boolean,
  vmModule: typeof vm,
  getInspector: () => typeof Inspector | undefined,
  arrowOf: (error: unknown) => string | undefined,
): SyntaxResult {
  const lineText = (n: number): string => source.split(/\r\n|[\n\r\u2028\u2029]/)[n - 1] ?? '';
  const characters = (text: string, units: number): number => Array.from(text.slice(0, units)).length + 1;
  const fromMessage = (error: unknown, text: string | undefined): SyntaxProblem => {
    const message = error instanceof Error ? error.message : String(error);
    const lines = (text ?? '').split('\n');
    const at = /:(\d+)$/.exec(lines[0] ?? '');
    if (!at) return { message };
    const line = Number(at[1]);
    const caret = (lines[2] ?? '').indexOf('^');
    return caret < 0 ? { message, line } : { message, line, column: characters(lineText(line), caret) };
  };
  /** Node draws no caret past about a thousand characters; the inspector still knows the column. */
  const exactColumn = (problem: SyntaxProblem): SyntaxProblem => {
    if (problem.column !== undefined || problem.line === undefined) return problem;
    const inspectorModule = getInspector();
    if (!inspectorModule) return problem;
    let session: InstanceType<typeof inspectorModule.Session> | undefined;
    try {
      session = new inspectorModule.Session();
      session.connect();
      let details: { lineNumber: number; columnNumber: number } | undefined;
      session.post('Runtime.enable');
      session.post('Runtime.compileScript', { expression: source, sourceURL: 'script.js', persistScript: false }, (error, result) => {
        if (!error) details = (result as { exceptionDetails?: { lineNumber: number; columnNumber: number } }).exceptionDetails;
      });
      session.post('Runtime.disable');
      if (details && details.lineNumber + 1 === problem.line) return { ...problem, column: characters(lineText(details.lineNumber + 1), details.columnNumber) };
    } catch {
      // No inspector in this build of Node: the line alone will do.
    } finally {
      session?.disconnect();
    }
    return problem;
  };
  const result: SyntaxResult = {};
  if (mode !== 'module') {
    try {
      new vmModule.Script(source, { filename: 'script.js' });
      result.script = null;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      result.script = exactColumn(fromMessage(error, error.stack));
    }
  }
  const wantModule = mode === 'module' || (mode === 'auto' && result.script && /\b(import|export)\b|await is only valid/.test(result.script.message));
  const SourceTextModule = (vmModule as unknown as { SourceTextModule?: new (code: string, options: object) => unknown }).SourceTextModule;
  if (wantModule && modules && SourceTextModule) {
    try {
      new SourceTextModule(source, { identifier: 'module.js' });
      result.module = null;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      result.module = fromMessage(error, arrowOf(error));
    }
  }
  return result;
}

const decoder = new TextDecoder('utf-8');

/** Decodes a script's bytes as a browser does (UTF-8, byte-order mark dropped, bad bytes replaced). */
export function decodeScript(bytes: Uint8Array): string {
  // ASCII reads the same as Latin-1, which costs no UTF-8 decoding.
  return isAscii(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1') : decoder.decode(bytes);
}

// The inspector is needed only for an error on a very long line, and worker_threads only for a
// large bundle: each is loaded then, not at start-up.
const requireHere = createRequire(import.meta.url);
let inspectorHere: typeof Inspector | undefined;
const getInspectorHere = () => (inspectorHere ??= requireHere('node:inspector') as typeof Inspector);

/** Checks a classic script here, at once. */
export function checkClassic(source: string): SyntaxProblem | null {
  return checkSource(source, 'script', false, vm, getInspectorHere, () => undefined).script ?? null;
}

// --- the worker ---------------------------------------------------------------------------------

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const vm = require('node:vm');
let inspector;
try { inspector = require('node:inspector'); } catch {}
let arrow;
try {
  const { internalBinding } = require('internal/test/binding');
  arrow = internalBinding('util').privateSymbols.arrow_message_private_symbol;
} catch {}
const arrowOf = (error) => (arrow && error && typeof error === 'object' ? error[arrow] : undefined);
const check = (${checkSource.toString()});
const { isAscii } = require('node:buffer');
const decoder = new TextDecoder('utf-8');
// ASCII is read as Latin-1, which skips UTF-8 decoding and gives the same text.
const decode = (bytes) => isAscii(bytes) ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1') : decoder.decode(bytes);

// What a parse leaves (the script, its bytecode, the source) is garbage at once, but V8 keeps it
// until its heap next grows large. Once told to (the CLI, past a few megabytes of parsing), the
// worker collects its heap every COLLECT_EVERY bytes of source.
let collect;
let parsedSince = 0;
const afterParse = (size) => {
  if (!collect) return;
  parsedSince += size;
  if (parsedSince < workerData.collectEvery) return;
  parsedSince = 0;
  collect();
};

workerData.port.on('message', ({ id, bytes, mode, startCollecting }) => {
  if (startCollecting) {
    require('node:v8').setFlagsFromString('--expose-gc');
    collect ??= vm.runInNewContext('gc');
    return;
  }
  let result;
  try {
    result = check(decode(bytes), mode, true, vm, () => inspector, arrowOf);
  } catch (error) {
    result = {};
  }
  // Counted before the answer is sent: the reading thread reads the count without waiting for
  // its event loop, which may not turn until the whole bundle is read.
  Atomics.add(workerData.answered, 0, 1);
  workerData.port.postMessage({ id, result });
  afterParse(bytes.length);
});
`;

/**
 * Bytes of source parsed between two collections, on either thread, once the CLI asks for them.
 * Each collection costs a few milliseconds: at 4 MiB `validate maxjs.zip` peaked at 110 MiB and
 * spent about 20 ms more than at 8 MiB, which peaks at 119 MiB (the goal is 128).
 */
export const COLLECT_EVERY = 8 * 1024 * 1024;

/**
 * The worker that parses modules and large scripts. Started on first use and kept (unreferenced,
 * so that it never holds the process open) while requests are outstanding.
 */
class SyntaxWorker {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, (result: SyntaxResult) => void>();
  /** Checks sent, and (shared with the worker, which counts them) checks it has finished. */
  private sent = 0;
  private readonly answered = new Int32Array(new SharedArrayBuffer(4));
  private failed = false;
  private collecting = false;

  /** Checks the worker has been given and not finished: known at once, even before its answers arrive. */
  get load(): number {
    return this.worker ? this.sent - Atomics.load(this.answered, 0) : 0;
  }

  get given(): number {
    return this.sent;
  }

  get usable(): boolean {
    return !this.failed;
  }

  /** `bytes` must be the caller's own copy: its memory moves to the worker. */
  check(bytes: Uint8Array, mode: Mode): Promise<SyntaxResult> {
    if (!this.start()) return Promise.resolve({});
    const id = this.nextId++;
    const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    const owned = whole ? bytes : new Uint8Array(bytes);
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker!.ref();
      this.sent++;
      this.port!.postMessage({ id, bytes: owned, mode }, [owned.buffer as ArrayBuffer]);
    });
  }

  /** From now on the worker collects its garbage as it parses (see the worker's source). */
  collectGarbage(): void {
    this.collecting = true;
    this.port?.postMessage({ startCollecting: true });
  }

  private start(): boolean {
    if (this.worker) return true;
    if (this.failed) return false;
    try {
      const threads = requireHere('node:worker_threads') as typeof WorkerThreads;
      const { port1, port2 } = new threads.MessageChannel();
      const worker = new threads.Worker(WORKER_SOURCE, {
        eval: true,
        execArgv: ['--experimental-vm-modules', '--expose-internals', '--no-warnings'],
        workerData: { port: port2, answered: this.answered, collectEvery: COLLECT_EVERY },
        transferList: [port2],
        stdout: true,
        stderr: true,
      });
      worker.unref();
      worker.on('error', () => this.stop());
      worker.on('exit', () => this.stop());
      port1.on('message', ({ id, result }: { id: number; result: SyntaxResult }) => {
        const resolve = this.waiting.get(id);
        this.waiting.delete(id);
        if (this.waiting.size === 0) worker.unref();
        resolve?.(result);
      });
      port1.unref();
      this.worker = worker;
      this.port = port1;
      if (this.collecting) port1.postMessage({ startCollecting: true });
      return true;
    } catch {
      this.failed = true;
      return false;
    }
  }

  /** The worker died: what it was asked gets no answer (no finding) rather than a hang. */
  private stop(): void {
    this.failed = true;
    this.worker = undefined;
    for (const resolve of this.waiting.values()) resolve({});
    this.waiting.clear();
  }
}

const worker = new SyntaxWorker();

/** Checks source bytes in the worker; `bytes` must not be used after (its memory moves). */
export function checkInWorker(bytes: Uint8Array, mode: Mode): Promise<SyntaxResult> {
  return worker.check(bytes, mode);
}

/** Has the worker collect its garbage every COLLECT_EVERY bytes it parses, now or once started. */
export function collectInWorker(): void {
  worker.collectGarbage();
}

/** How many checks the worker has been given and not yet answered. */
export function workerLoad(): number {
  return worker.load;
}

/** How many checks the worker has been given since the process started, answered or not. */
export function workerSent(): number {
  return worker.given;
}

/** False once the worker could not be started or has died: nothing more can be sent to it. */
export function workerUsable(): boolean {
  return worker.usable;
}
